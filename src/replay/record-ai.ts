/**
 * Records the AI driving a stage the way the game's autopilot drives it (holding through the countdown until
 * the stage run lets it go) into a replay, to the finish (or for a given time). Used by the server tests and the server benchmark
 * (a real run recorded by the project's recorder, like the game's).
 */
import { AiDriver, type DriverParams } from '../systems/sim/ai/driver';
import { DEFAULT_DRIVER, stagePath } from '../systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../systems/sim/ai/car-params';
import { carConfigFromReplay, vehicleCarAdapter } from '../run/cars';
import type { Stage } from '../../terrain/stage';
import type { ReplayCar, ReplayHeader, StageFilesData } from './format';
import { recordRun, type RecordedRun } from './record-run';
import { DEFAULT_RUN } from '../run/stage-run';

export interface AiStageRunOptions {
  setup: Pick<ReplayHeader, 'dt' | 'integrator' | 'seed' | 'gravity_m_s2'>;
  stage: Stage;
  files: StageFilesData;
  /** The player car, placed at the stage start by the caller. */
  car: ReplayCar;
  driver?: DriverParams;
  maxSeconds: number;
  /** Carry the stage files in the replay (a user's stage). */
  embedStage?: boolean;
  /** Stop at the finish line (default true); false keeps the AI driving for maxSeconds (laps of a circuit). */
  stopAtFinish?: boolean;
}

export function recordAiStageRun(o: AiStageRunOptions): RecordedRun {
  const cfg = carConfigFromReplay(o.car);
  const ai = new AiDriver({ path: stagePath(o.stage, cfg), vehicle: driverVehicleFromConfig(cfg), params: o.driver ?? DEFAULT_DRIVER });
  const countdownTicks = Math.round(DEFAULT_RUN.countdownS / o.setup.dt);
  return recordRun({
    setup: o.setup,
    cars: [o.car],
    sources: [ai],
    stage: { stage: o.stage, files: o.files, embed: o.embedStage },
    maxSeconds: o.maxSeconds,
    stopAtFinish: o.stopAtFinish,
    adapter: vehicleCarAdapter,
    // the game holds the autopilot while the stage run does not let the car go (the countdown)
    beforeTick: (run) => (ai.hold = run.world.tick < countdownTicks),
  });
}
