/**
 * Rival times in a Web Worker (comlink): one worker per stage's computation, ended when it is done. The page
 * stays responsive while the AI drivers run the stage (RALLY_RIVALS runs of the stage, a few seconds).
 */
import { wrap } from 'comlink';
import type { StageFiles } from '../../../terrain/stage';
import type { CarConfig } from '../../content/car-schema';
import type { RallyRival } from '../../run/rally/rally';
import type { RivalTimesApi } from './rivals-api';

export async function computeRivalTimes(files: StageFiles, car: CarConfig, rivals: RallyRival[]): Promise<(number | null)[]> {
  const worker = new Worker(new URL('./rivals-worker.ts', import.meta.url), { type: 'module' });
  try {
    const api = wrap<RivalTimesApi>(worker);
    return await api.stageTimes(files, car, rivals);
  } finally {
    worker.terminate();
  }
}
