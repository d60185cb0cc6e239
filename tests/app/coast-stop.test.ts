/**
 * After the finish the autopilot rolls the car to a stop (src/app/coast-stop.ts). The AI drives test-short until
 * it is going fast, then the coast takes over: from then on the throttle is closed on every tick, the car keeps
 * to the road (the AI's steering), and it stops with a mean deceleration between 0.15 g (a stop, not a roll on:
 * the light brake plus rolling resistance and drag) and 0.6 g (gentle, not a full stop at the ~1 g the tyres
 * allow), then stays stopped on the brakes.
 * (The brake share is COAST_BRAKE; about 0.45 g with hatch-gti.)
 */
import { expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { driveStage } from '../../src/run/autopilot';
import { setInputSource } from '../../src/ecs/controls';
import { COAST_STOPPED_MS, CoastToStop, groundSpeed } from '../../src/app/coast-stop';
import { STANDARD_GRAVITY_M_S2 } from '../../src/content/world-constants';

/** The coast starts at this ground speed, m/s (about 65 km/h: the autopilot reaches it on test-short). */
const COAST_FROM_MS = 18;
/** After the stop the brakes hold: from this long after it the car creeps at under HELD_MS, s. */
const HOLD_SETTLE_S = 1;
/** A held car's largest speed (suspension settling, not rolling away), m/s. */
const HELD_MS = 0.05;

it('coast to a stop: throttle closed, on the road, 0.15 g < mean deceleration < 0.6 g, then held', { timeout: 120_000 }, () => {
  const stage = loadStageFromDir('src/content/stages/test-short');
  let from: { t: number; v: number } | null = null;
  let stoppedAt: number | null = null;
  let maxThrottle = 0;
  let rolledAfterStop = 0;
  const r = driveStage({
    stage,
    car: loadBuiltinCar('hatch-gti'),
    integrator: 'euler',
    maxTimeS: 60,
    onTick: (w, e, driver) => {
      const v = groundSpeed(w, e);
      if (!from && v >= COAST_FROM_MS) {
        from = { t: w.time, v };
        setInputSource(w, e, new CoastToStop(driver));
        return;
      }
      if (!from) return;
      maxThrottle = Math.max(maxThrottle, w.c.Controls.throttle[e]!);
      if (stoppedAt === null && v < COAST_STOPPED_MS) stoppedAt = w.time;
      else if (stoppedAt !== null && w.time > stoppedAt + HOLD_SETTLE_S) rolledAfterStop = Math.max(rolledAfterStop, v);
    },
  });
  const msg = JSON.stringify({ from, stoppedAt, maxThrottle, rolledAfterStop, maxOffRoadM: r.maxOffRoadM, finished: r.finished });
  expect(from, msg).not.toBeNull();
  expect(stoppedAt, msg).not.toBeNull();
  expect(r.finished, msg).toBe(false);
  expect(maxThrottle, msg).toBe(0);
  const decel = from!.v / (stoppedAt! - from!.t);
  expect(decel, msg).toBeGreaterThan(0.15 * STANDARD_GRAVITY_M_S2);
  expect(decel, msg).toBeLessThan(0.6 * STANDARD_GRAVITY_M_S2);
  // held on the brakes: it does not roll away again
  expect(rolledAfterStop, msg).toBeLessThan(HELD_MS);
  expect(r.maxOffRoadM, msg).toBeLessThanOrEqual(0);
});
