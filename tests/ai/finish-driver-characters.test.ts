/**
 * The AI holds the road for driver characters around the default one, not only for the default: the hatch-gti
 * (front drive, the least grip to spare on gravel) on forest-gravel for aggressiveness 0.4 / 0.6 / 0.8 × skill
 * 0.7 / 0.8 / 0.9 finishes under the finish tests' bounds (tests/ai/finish.ts). Braking in a bend with more than
 * the friction circle leaves (a hard stop asked for at 20 m/s in a gravel bend) spun it off the road for four of
 * these nine characters; the driver now brakes within √((μg)² − (u·ω_y)²) (docs/ai.md).
 */
import { describe, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { driveStage } from '../../src/run/autopilot';
import { AI_TARGET_FACTOR, expectFinishWithinBounds } from './finish';

describe('AI autopilot: the hatch-gti on forest-gravel for nine driver characters', () => {
  const stage = loadStageFromDir('src/content/stages/forest-gravel');
  const car = loadBuiltinCar('hatch-gti');
  for (const aggressiveness of [0.4, 0.6, 0.8]) {
    it(`aggressiveness ${aggressiveness}, skill 0.7 / 0.8 / 0.9: finishes without help, on the road, within ${AI_TARGET_FACTOR}× the target`, () => {
      for (const skill of [0.7, 0.8, 0.9]) {
        expectFinishWithinBounds(driveStage({ stage, car, integrator: 'euler', driver: { aggressiveness, skill } }), `skill ${skill}: `);
      }
    }, 300_000);
  }
});
