/**
 * The rally's AI rivals (docs/game.md, "Rally"): a field of drivers with a spread of skill and aggressiveness
 * drawn from the rally seed, each driving every stage headless with the autopilot (src/run/autopilot.ts) in the
 * player's car, so the same rally gives the same rival times on every machine. The game runs this in a worker
 * (src/app/rally/rivals-worker.ts).
 */
import { createRng, randRange } from '../../../terrain/prng';
import type { Stage } from '../../../terrain/stage';
import type { CarConfig } from '../../content/car-schema';
import { driveStage } from '../autopilot';
import type { RallyRival } from './rally';

/** Rivals in a rally: enough for a classification, few enough that a stage's rival runs take seconds. */
export const RALLY_RIVALS = 5;
/** Skill range of the field (0 novice … 1 expert, src/systems/sim/ai/driver.ts): from club driver to the pace setter. */
const SKILL = { min: 0.55, max: 0.95 } as const;
const AGGRESSION = { min: 0.35, max: 0.8 } as const;
/** Random part of each rival's skill on top of the even spread (keeps the order from being always the same). */
const SKILL_JITTER = 0.04;
/** Seed offset so the field does not reuse the stage-plan draws of the same rally seed. */
const RIVAL_SEED_SALT = 0x5eed_a1;
const NAMES = ['K. Harjula', 'S. Delorme', 'E. Lindvall', 'M. Ferreiro', 'T. Koskinen', 'C. Whitlock', 'A. Rautio', 'P. Haugland'];

/** `count` rivals (at most 8) with skills spread evenly from SKILL.min to SKILL.max, deterministic in `seed`. */
export function rallyRivals(seed: number, count = RALLY_RIVALS): RallyRival[] {
  const rng = createRng((seed ^ RIVAL_SEED_SALT) >>> 0);
  const n = Math.max(1, Math.min(NAMES.length, count));
  const out: RallyRival[] = [];
  for (let i = 0; i < n; i++) {
    const even = n === 1 ? SKILL.max : SKILL.min + ((SKILL.max - SKILL.min) * i) / (n - 1);
    const skill = Math.min(1, Math.max(0, even + randRange(rng, -SKILL_JITTER, SKILL_JITTER)));
    const aggressiveness = randRange(rng, AGGRESSION.min, AGGRESSION.max);
    const name = NAMES[i]!;
    out.push({ name, driver: { skill, aggressiveness, name } });
  }
  return out;
}

/**
 * Each rival's time on `stage` in `car`, s (null: did not finish). Semi-implicit Euler at the game's 500 Hz on the
 * bare road (no scenery colliders): the AI stays on the road (tests/ai), and this halves the cost per run.
 */
export function rivalStageTimes(stage: Stage, car: CarConfig, rivals: readonly RallyRival[]): (number | null)[] {
  return rivals.map((r) => {
    const res = driveStage({ stage, car, driver: r.driver, integrator: 'euler' });
    return res.finished ? res.timeS : null;
  });
}
