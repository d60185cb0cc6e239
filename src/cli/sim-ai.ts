/**
 * `npm run sim -- --stage <id|dir> --car <id|file.toml> --ai [--laps N] [--aggressiveness 0..1] [--skill 0..1]
 *                 [--integrator euler|midpoint|rk4] [--dt 0.002] [--json]`
 * Drives the stage headless with the AI driver (issue 8) and prints the stage time, the good-human target and
 * whether it finished without help. Exit code 0 when it finished, 1 when not, 2 on bad arguments or files.
 * The options are declared here and parsed by src/cli/sim.ts (one command line for both modes).
 */
import { performance } from 'node:perf_hooks';
import { loadStageFromDir } from '../../terrain/node';
import { INTEGRATORS, type IntegratorKind } from '../ecs/world';
import { driveStage } from '../run/autopilot';
import { DEFAULT_DRIVER } from '../systems/sim/ai/stage-path';
import type { OptionSpec } from './args';
import { EXIT_FAILED, EXIT_OK } from './errors';
import { loadCarArg, stageDirArg } from './inputs';
import { DEFAULT_DT } from '../content/world-constants';

/** The AI mode's options (none has a declared default: giving one selects the mode's checks in sim.ts). */
export const AI_OPTIONS = {
  ai: { type: 'boolean', help: 'AI mode: the AI driver drives --car on --stage' },
  stage: { type: 'string', value: 'id|dir', help: 'AI mode: a shipped stage id or a stage directory' },
  car: { type: 'string', value: 'id|file.toml', help: 'AI mode: a built-in car id or a car file' },
  laps: { type: 'integer', value: 'N', min: 1, max: 100, help: 'AI mode: laps of a circuit (default 1)' },
  aggressiveness: { type: 'number', value: '0..1', min: 0, max: 1, help: `AI mode: driver aggressiveness (default ${DEFAULT_DRIVER.aggressiveness})` },
  skill: { type: 'number', value: '0..1', min: 0, max: 1, help: `AI mode: driver skill (default ${DEFAULT_DRIVER.skill})` },
  integrator: { type: 'string', value: 'integrator', kind: 'integrator', choices: INTEGRATORS, help: 'AI mode: time integrator, default midpoint' },
  dt: { type: 'number', value: 's', min: 1e-4, max: 0.02, help: 'AI mode: time step (default 0.002)' },
} as const satisfies Record<string, OptionSpec>;

export interface AiArgs {
  stage: string;
  car: string;
  laps?: number;
  aggressiveness?: number;
  skill?: number;
  integrator?: IntegratorKind;
  dt?: number;
  json: boolean;
}

const fmt = (s: number): string => `${Math.floor(s / 60)}:${(s % 60).toFixed(3).padStart(6, '0')}`;

/** Returns the exit code: 0 finished, 1 did not finish. Bad files throw (src/cli/errors.ts: exit 2). */
export function runAi(a: AiArgs): number {
  const stage = loadStageFromDir(stageDirArg(a.stage));
  const car = loadCarArg(a.car);
  const run: Parameters<typeof driveStage>[0] = {
    stage,
    car,
    integrator: a.integrator ?? 'midpoint',
    dt: a.dt,
    laps: a.laps,
    driver: { aggressiveness: a.aggressiveness ?? DEFAULT_DRIVER.aggressiveness, skill: a.skill ?? DEFAULT_DRIVER.skill },
  };
  const t0 = performance.now();
  const r = driveStage(run);
  const wall = (performance.now() - t0) / 1000;
  const out = { ...r, wall_seconds: wall, realtime_factor: (r.ticks * (run.dt ?? DEFAULT_DT)) / wall };
  if (a.json) console.log(JSON.stringify(out));
  else {
    console.log(
      `${r.stageId} / ${r.carId}: ${r.finished ? 'finished' : 'DID NOT FINISH'} in ${fmt(r.timeS)} ` +
        `(${(r.lengthM / 1000).toFixed(2)} km, ${r.avgSpeedKmh.toFixed(1)} km/h avg, ${r.recoveries} recoveries); ` +
        `good-human target ${fmt(r.humanTargetS)} (limit ${fmt(r.limitS)}), AI/target = ${(r.timeS / r.humanTargetS).toFixed(3)}; ` +
        `${wall.toFixed(1)} s wall, ${out.realtime_factor.toFixed(1)}× real time`,
    );
  }
  return r.finished ? EXIT_OK : EXIT_FAILED;
}
