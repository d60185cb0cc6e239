/**
 * The rival-times worker's side (exposed with comlink by rivals-worker.ts): decodes the stage from its files and
 * runs every rival on it with the autopilot (src/run/rally/rivals.ts). Pure module (no DOM): Vitest calls it
 * directly, so the numbers the browser's worker returns are the numbers Node computes.
 */
import { loadStage, type StageFiles } from '../../../terrain/stage';
import type { CarConfig } from '../../content/car-schema';
import type { RallyRival } from '../../run/rally/rally';
import { rivalStageTimes } from '../../run/rally/rivals';

export interface RivalTimesApi {
  /** Each rival's time on the stage, s (null: did not finish). */
  stageTimes(files: StageFiles, car: CarConfig, rivals: RallyRival[]): (number | null)[];
}

export const rivalTimesApi: RivalTimesApi = {
  stageTimes(files, car, rivals) {
    return rivalStageTimes(loadStage(files, 'rally stage/stage.toml'), car, rivals);
  },
};
