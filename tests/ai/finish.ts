/**
 * Shared body of the "AI finishes every shipped stage on every shipped car" tests (one file per car so that
 * vitest's fork pool runs the cars in parallel). Headless, semi-implicit Euler at the game's 500 Hz (the
 * integrator the game can pick; ~2× cheaper than midpoint), so the 15 drives stay within a few minutes on 2 cores.
 */
import { expect, it } from 'vitest';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { driveStage, type DriveResult } from '../../src/run/autopilot';

/** The AI's stage time must be within this factor of the good-human target (docs/ai.md). */
export const AI_TARGET_FACTOR = 1.4;

export const SHIPPED_STAGE_DIRS = readdirSync('src/content/stages')
  .filter((d) => existsSync(join('src/content/stages', d, 'stage.toml')))
  .sort();

/** A drive finished without help, on the road and within the target's bounds (`label` heads the failure message). */
export function expectFinishWithinBounds(r: DriveResult, label = ''): void {
  const msg = label + JSON.stringify(r);
  expect(r.finished, msg).toBe(true);
  expect(r.recoveries, msg).toBe(0);
  // stays on the road: never more than 2 m beyond its edge
  expect(r.maxOffRoadM, msg).toBeLessThan(2);
  expect(r.timeS, msg).toBeLessThanOrEqual(AI_TARGET_FACTOR * r.humanTargetS);
  // and, as a sanity check on the target itself, not faster than the physical limit time
  expect(r.timeS, msg).toBeGreaterThan(r.limitS);
}

export function finishAllStages(carId: string): void {
  const car = loadBuiltinCar(carId);
  for (const dir of SHIPPED_STAGE_DIRS) {
    it(`${carId} finishes ${dir} without help, within ${AI_TARGET_FACTOR}× the good-human target`, () => {
      const stage = loadStageFromDir(join('src/content/stages', dir));
      expectFinishWithinBounds(driveStage({ stage, car, integrator: 'euler' }));
    }, 300_000);
  }
}
