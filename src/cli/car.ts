/**
 * Car CLI: `npm run car -- test <car.toml | built-in id> [--surface tarmac] [--integrator midpoint] [--json]`
 * runs the standard car tests headless (0–100 km/h, top speed, 100–0 km/h braking, skidpad max lateral g,
 * understeer gradient) and prints each result with its method.
 * `npm run car -- schema [out.json]` writes the JSON Schema of car files (default src/content/car.schema.json).
 * Exit code 2 on a bad car file (one clear line per problem).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { carJsonSchema, loadCarConfig, type CarConfig } from '../content/car-schema';
import { ContentError } from '../content/errors';
import { BUILTIN_CARS, readBuiltin } from '../content/cars/index';
import { surfaceIndex } from '../content/surfaces';
import { runCarTests } from '../systems/sim/vehicle/car-test';
import { INTEGRATORS, type IntegratorKind } from '../ecs/world';
import { crushMain } from './car-crush';

const here = dirname(fileURLToPath(import.meta.url));

function usage(): number {
  console.error('usage: npm run car -- test <car.toml | built-in id> [--surface tarmac|gravel|snow|ice|grass] [--integrator euler|midpoint|rk4] [--json]');
  console.error('       npm run car -- schema [out.json]');
  console.error(`built-in cars: ${BUILTIN_CARS.map((c) => c.id).join(', ')}`);
  return 2;
}

function loadCar(arg: string): CarConfig {
  const builtin = BUILTIN_CARS.find((c) => c.id === arg || c.file === arg);
  if (builtin && !existsSync(arg)) return loadCarConfig(builtin.text, builtin.file, readBuiltin);
  const file = resolve(arg);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ContentError(arg, [`cannot read file: ${(e as Error).message}`]);
  }
  const dir = dirname(file);
  return loadCarConfig(text, arg, (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : readBuiltin(name)));
}

function opt(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

export function main(argv: string[]): number {
  const cmd = argv[0];
  if (cmd === 'schema') {
    const out = argv[1] ?? join(here, '../content/car.schema.json');
    writeFileSync(out, JSON.stringify(carJsonSchema(), null, 2) + '\n');
    console.log(`wrote ${out}`);
    return 0;
  }
  if (cmd === 'crush-params' || cmd === 'crash-test') return crushMain(argv); // collision issue (src/cli/car-crush.ts)
  if (cmd !== 'test') return usage();
  const flagsWithValue = new Set(['--surface', '--integrator']);
  const carArg = argv.slice(1).find((a, i, arr) => !a.startsWith('--') && !flagsWithValue.has(arr[i - 1] ?? ''));
  if (!carArg) return usage();
  const surfaceName = opt(argv, '--surface') ?? 'tarmac';
  const surface = surfaceIndex(surfaceName);
  if (surface < 0) {
    console.error(`--surface: expected one of tarmac, gravel, snow, ice, grass, found "${surfaceName}"`);
    return 2;
  }
  const integrator = (opt(argv, '--integrator') ?? 'midpoint') as IntegratorKind;
  if (!INTEGRATORS.includes(integrator)) {
    console.error(`--integrator: expected one of ${INTEGRATORS.join(', ')}, found "${integrator}"`);
    return 2;
  }
  let cfg: CarConfig;
  try {
    cfg = loadCar(carArg);
  } catch (e) {
    console.error(e instanceof ContentError ? e.message : `${carArg}: ${(e as Error).message}`);
    return 2;
  }
  const t0 = performance.now();
  const results = runCarTests(cfg, { surface, integrator });
  const wall = (performance.now() - t0) / 1000;
  if (argv.includes('--json')) {
    console.log(JSON.stringify({ car: cfg.id, name: cfg.name, surface: surfaceName, integrator, wall_seconds: wall, results }));
  } else {
    console.log(`${cfg.name} (${cfg.id}) on ${surfaceName}, ${integrator}, ${wall.toFixed(1)} s wall`);
    for (const r of results) console.log(`  ${r.name.padEnd(34)} ${Number.isFinite(r.value) ? r.value.toFixed(2).padStart(8) : '     n/a'} ${r.unit.padEnd(6)} ${r.method}`);
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('car.ts')) {
  process.exitCode = main(process.argv.slice(2));
}
