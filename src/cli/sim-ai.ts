/**
 * `npm run sim -- --stage <id|dir> --car <id|file.toml> --ai [--laps N] [--aggressiveness 0..1] [--skill 0..1]
 *                 [--integrator euler|midpoint|rk4] [--dt 0.002] [--json]`
 * Drives the stage headless with the AI driver (issue 8) and prints the stage time, the good-human target and
 * whether it finished without help. Exit code 0 when it finished, 1 when not, 2 on bad arguments or files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadStageFromDir } from '../../terrain/node';
import { loadCarConfig, type CarConfig } from '../content/car-schema';
import { BUILTIN_CARS, loadBuiltinCar, readBuiltin } from '../content/cars/index';
import { ContentError } from '../content/errors';
import { INTEGRATORS, type IntegratorKind } from '../ecs/world';
import { DEFAULT_DRIVER, driveStage } from '../systems/sim/ai/autopilot';

const STAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../content/stages');

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

export function loadCarArg(name: string): CarConfig {
  const id = name.replace(/\.toml$/, '');
  if (BUILTIN_CARS.some((c) => c.id === id) && !existsSync(name)) return loadBuiltinCar(id);
  const file = resolve(name);
  return loadCarConfig(readFileSync(file, 'utf8'), file, (ext) => {
    const p = join(dirname(file), ext);
    return existsSync(p) ? readFileSync(p, 'utf8') : readBuiltin(ext);
  });
}

function num(argv: string[], name: string, lo: number, hi: number): number | undefined {
  const v = arg(argv, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < lo || n > hi) throw new Error(`${name}: expected a number in [${lo}, ${hi}], found "${v}"`);
  return n;
}

/** Returns the exit code. */
export function mainAi(argv: string[]): number {
  const stageArg = arg(argv, '--stage');
  const carArg = arg(argv, '--car');
  if (!stageArg || !carArg || !argv.includes('--ai')) {
    console.error('usage: npm run sim -- --stage <id|dir> --car <id|file.toml> --ai [--laps N] [--aggressiveness 0..1] [--skill 0..1] [--integrator euler|midpoint|rk4] [--dt s] [--json]');
    return 2;
  }
  let run: Parameters<typeof driveStage>[0];
  try {
    const dir = existsSync(join(STAGES_DIR, stageArg, 'stage.toml')) ? join(STAGES_DIR, stageArg) : stageArg;
    const stage = loadStageFromDir(dir);
    const car = loadCarArg(carArg);
    const integrator = (arg(argv, '--integrator') ?? 'midpoint') as IntegratorKind;
    if (!INTEGRATORS.includes(integrator)) throw new Error(`--integrator: expected one of ${INTEGRATORS.join(', ')}, found "${integrator}"`);
    run = {
      stage,
      car,
      integrator,
      dt: num(argv, '--dt', 1e-4, 0.02),
      laps: num(argv, '--laps', 1, 100),
      driver: { aggressiveness: num(argv, '--aggressiveness', 0, 1) ?? DEFAULT_DRIVER.aggressiveness, skill: num(argv, '--skill', 0, 1) ?? DEFAULT_DRIVER.skill },
    };
  } catch (e) {
    console.error(e instanceof ContentError ? e.message : (e as Error).message);
    return 2;
  }
  const t0 = performance.now();
  const r = driveStage(run);
  const wall = (performance.now() - t0) / 1000;
  const out = { ...r, wall_seconds: wall, realtime_factor: r.ticks * (run.dt ?? 1 / 500) / wall };
  if (argv.includes('--json')) console.log(JSON.stringify(out));
  else {
    const fmt = (s: number): string => `${Math.floor(s / 60)}:${(s % 60).toFixed(3).padStart(6, '0')}`;
    console.log(
      `${r.stageId} / ${r.carId}: ${r.finished ? 'finished' : 'DID NOT FINISH'} in ${fmt(r.timeS)} ` +
        `(${(r.lengthM / 1000).toFixed(2)} km, ${r.avgSpeedKmh.toFixed(1)} km/h avg, ${r.recoveries} recoveries); ` +
        `good-human target ${fmt(r.humanTargetS)} (limit ${fmt(r.limitS)}), AI/target = ${(r.timeS / r.humanTargetS).toFixed(3)}; ` +
        `${wall.toFixed(1)} s wall, ${out.realtime_factor.toFixed(1)}× real time`,
    );
  }
  return r.finished ? 0 : 1;
}
