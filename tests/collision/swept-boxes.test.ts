/**
 * The car–car pair solver's swept-box reject (src/systems/sim/collision/pair-solve.ts, sweptBoxesApart): a pair
 * it calls apart must have no outline crossing at any instant of the step, so skipping the sub-pose test keeps
 * every bit. Checked with fast-check over poses, sizes, velocities and yaw rates near contact: wherever the
 * reject says apart, a dense sweep (200 sub-poses, finer than the solver's) finds no crossing point.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { advancePose, carCarPoints, newPose, type CarPose } from '../../src/systems/sim/collision/detect';
import { newPointList } from '../../src/systems/sim/collision/contact-points';
import { sweptBoxesApart, type PairCar } from '../../src/systems/sim/collision/pair-solve';

const SUB = 200;

function car(cx: number, cz: number, heading: number, front: number, rear: number, hw: number, vx: number, vz: number, r: number): PairCar {
  const pose: CarPose = { ...newPose(), cx, cz, fx: Math.sin(heading), fz: Math.cos(heading), front, rear, hw };
  return { pose, body: { invMass: 1 / 1200, invI: 1 / 1800, vx, vz, r }, cgY: 0.5 };
}

/** Crossing points of the two outlines at any of SUB + 1 sub-poses over dt (both orders, as the solver sees). */
function anyCrossing(a: PairCar, b: PairCar, dt: number): boolean {
  const pa = newPose(), pb = newPose(), l = newPointList(64);
  for (let k = 0; k <= SUB; k++) {
    const t = (k / SUB) * dt;
    advancePose(a.pose, a.body.vx, a.body.vz, a.body.r, t, pa);
    advancePose(b.pose, b.body.vx, b.body.vz, b.body.r, t, pb);
    l.n = 0;
    if (carCarPoints(pa, pb, l) > 0 || carCarPoints(pb, pa, l) > 0) return true;
  }
  return false;
}

describe('sweptBoxesApart', () => {
  it('never calls a pair apart when their outlines cross within the step (fast-check, near-contact pairs)', () => {
    let apart = 0, runs = 0;
    fc.assert(fc.property(
      fc.double({ min: -6, max: 6, noNaN: true }), fc.double({ min: -6, max: 6, noNaN: true }),
      fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
      fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true }),
      fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: 0.001, max: 0.05, noNaN: true }),
      (dx, dz, ha, hb, vx, vz, r, dt) => {
        const a = car(100, -50, ha, 1.9, 2.3, 0.9, 0.3 * vx, vz, r);
        const b = car(100 + dx, -50 + dz, hb, 2.1, 2.0, 0.85, vx, 0.2 * vz, -0.5 * r);
        runs++;
        if (!sweptBoxesApart(a, b, dt)) return;
        apart++;
        expect(anyCrossing(a, b, dt)).toBe(false);
      },
    ), { numRuns: 3000, seed: 19 });
    // both answers are exercised (fast-check leans to the ranges' ends: fast, long steps, wide sweeps)
    expect(apart).toBeGreaterThan(0.05 * runs);
    expect(apart).toBeLessThan(0.95 * runs);
  });

  it('two cars side by side 0.3 m apart at 20 m/s are apart; 0.01 m apart closing at 2 m/s over 10 ms are not', () => {
    const dt = 1 / 500;
    expect(sweptBoxesApart(car(0, 0, 0, 2, 2, 0.9, 0, 20, 0), car(2.1, 0, 0, 2, 2, 0.9, 0, 20, 0), dt)).toBe(true);
    const a = car(0, 0, 0, 2, 2, 0.9, 1, 20, 0), b = car(1.81, 0, 0, 2, 2, 0.9, -1, 20, 0);
    expect(sweptBoxesApart(a, b, 0.01)).toBe(false);
    expect(anyCrossing(a, b, 0.01)).toBe(true);
  });
});
