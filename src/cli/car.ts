/**
 * Car CLI: `npm run car -- test <car.toml | built-in id> [--surface tarmac] [--integrator midpoint] [--json]`
 * runs the standard car tests headless (0–100 km/h, top speed, 100–0 km/h braking, skidpad max lateral g,
 * understeer gradient) and prints each result with its method.
 * `npm run car -- schema [out.json]` writes the JSON Schema of car files (default src/content/car.schema.json).
 * `npm run car -- crush-params …`, `crash-test …`: src/cli/car-crush.ts. `--help` on any command lists its options.
 * Exit code 2 on bad arguments or a bad car file (one clear line per problem).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { carJsonSchema } from '../content/car-schema';
import { surfaceIndex } from '../content/surfaces';
import { SURFACE_IDS } from '../../terrain/surface';
import { runCarTests } from '../run/car-test';
import { INTEGRATORS } from '../ecs/world';
import { parseCommand, selectCommand, type CommandSpec, type ProgramSpec } from './args';
import { exitWith, runCommand } from './errors';
import { builtinCarIds, loadCarArg } from './inputs';
import { crushCommand, CRUSH_COMMANDS } from './car-crush';

const SCHEMA_OUT = join(dirname(fileURLToPath(import.meta.url)), '../content/car.schema.json');

const TEST = {
  usage: 'npm run car -- test',
  summary: 'Runs the standard car tests headless and prints each result with its method.',
  details: ['0–100 km/h, top speed, 100–0 km/h braking, skidpad max lateral g, understeer gradient.'],
  positionals: [{ name: 'car', help: `a car file (.toml) or a built-in id: ${builtinCarIds().join(', ')}` }],
  options: {
    surface: { type: 'string', value: 'surface', kind: 'surface', choices: SURFACE_IDS, default: 'tarmac', help: 'the ground the tests run on' },
    integrator: { type: 'string', value: 'integrator', kind: 'integrator', choices: INTEGRATORS, default: 'midpoint', help: 'the time integrator' },
    json: { type: 'boolean', help: 'print one JSON line instead of the table' },
  },
  examples: ['npm run car -- test rally-awd --surface gravel', 'npm run -s car -- test my-car.toml --json | jq .results'],
} as const satisfies CommandSpec;

const SCHEMA = {
  usage: 'npm run car -- schema',
  summary: 'Writes the JSON Schema of car files (editor completion).',
  positionals: [{ name: 'out.json', help: 'where to write it (default src/content/car.schema.json)', optional: true }],
} as const satisfies CommandSpec;

export const CAR_PROGRAM = {
  usage: 'npm run car --',
  summary: 'Car files: standard tests, the JSON Schema, crush identification and crash tests.',
  commands: { test: TEST, schema: SCHEMA, ...CRUSH_COMMANDS },
} as const satisfies ProgramSpec;

function carTest(argv: string[]): number {
  const { options, args } = parseCommand(TEST, argv);
  const cfg = loadCarArg(args.car);
  const { surface: surfaceName, integrator } = options;
  const t0 = performance.now();
  const results = runCarTests(cfg, { surface: surfaceIndex(surfaceName), integrator });
  const wall = (performance.now() - t0) / 1000;
  if (options.json) {
    console.log(JSON.stringify({ car: cfg.id, name: cfg.name, surface: surfaceName, integrator, wall_seconds: wall, results }));
  } else {
    console.log(`${cfg.name} (${cfg.id}) on ${surfaceName}, ${integrator}, ${wall.toFixed(1)} s wall`);
    for (const r of results) console.log(`  ${r.name.padEnd(34)} ${Number.isFinite(r.value) ? r.value.toFixed(2).padStart(8) : '     n/a'} ${r.unit.padEnd(6)} ${r.method}`);
  }
  return 0;
}

function schema(argv: string[]): number {
  const out = parseCommand(SCHEMA, argv).args['out.json'] ?? SCHEMA_OUT;
  writeFileSync(out, JSON.stringify(carJsonSchema(), null, 2) + '\n');
  console.log(`wrote ${out}`);
  return 0;
}

/** Returns the exit code: 0 done, 2 bad arguments or a bad car file (one clear line per problem), 1 a bug. */
export function main(argv: string[]): number {
  return runCommand(() => {
    const { name, rest } = selectCommand(CAR_PROGRAM, argv);
    if (name === 'test') return carTest(rest);
    if (name === 'schema') return schema(rest);
    return crushCommand(name, rest); // collision issue (src/cli/car-crush.ts)
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('car.ts')) exitWith(main(process.argv.slice(2)));
