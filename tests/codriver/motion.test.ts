/** The planner's motion extrapolation: kinematics with constant acceleration, and the slow-corner speed caps. */
import { describe, expect, it } from 'vitest';
import { BRAKE_MS2, EXIT_ACCEL_MS2, MIN_PLAN_SPEED_MS, SpeedTrend, leadAtEnd, speedCapAt } from '../../src/systems/view/codriver/motion';

describe('leadAtEnd', () => {
  it('at constant speed is the time to the point less the call: d/v − τ', () => {
    expect(leadAtEnd(300, 20, 0, 2)).toBeCloseTo(300 / 20 - 2, 12);
  });

  it('accelerating: remaining distance d − vτ − ½aτ² over the speed v + aτ', () => {
    const d = 200, v = 10, a = 3, t = 4;
    expect(leadAtEnd(d, v, a, t)).toBeCloseTo((d - v * t - 0.5 * a * t * t) / (v + a * t), 12);
  });

  it('braking: the speed stops falling at the floor, and the car rolls on at it', () => {
    // 8 m/s at −2 m/s² reaches 1.5 m/s after 3.25 s, covering 8·3.25 − 3.25² = 15.4375 m; then 0.75 s at 1.5 m/s
    const tStop = (8 - MIN_PLAN_SPEED_MS) / 2;
    const covered = 8 * tStop - tStop * tStop + MIN_PLAN_SPEED_MS * (4 - tStop);
    expect(leadAtEnd(100, 8, -2, 4)).toBeCloseTo((100 - covered) / MIN_PLAN_SPEED_MS, 12);
  });

  it('the speed then is capped (a slow corner on the way)', () => {
    expect(leadAtEnd(300, 20, 0, 2, () => 10)).toBeCloseTo((300 - 40) / 10, 12);
  });
});

describe('speedCapAt', () => {
  const zones = [{ fromM: 100, apexM: 120, speedMS: 10 }];
  it('is the corner speed from the entry to the apex, the braking envelope before, the exit ramp after', () => {
    expect(speedCapAt(zones, 110, 500)).toBeCloseTo(10, 12);
    expect(speedCapAt(zones, 50, 500)).toBeCloseTo(Math.sqrt(100 + 2 * BRAKE_MS2 * 50), 12);
    expect(speedCapAt(zones, 170, 500)).toBeCloseTo(Math.sqrt(100 + 2 * EXIT_ACCEL_MS2 * 50), 12);
  });
  it("leaves out corners from the call's own entry on", () => {
    expect(speedCapAt(zones, 110, 100)).toBe(Infinity);
  });
});

describe('SpeedTrend', () => {
  it('converges on a steady acceleration and resets when time goes back', () => {
    const tr = new SpeedTrend();
    for (let t = 0; t <= 5; t += 1 / 60) tr.update(t, 5 + 2 * t);
    // first-order smoothing of a constant from 0: the error is 2·(1 − dt/τ)^n = 2·(1 − 1/24)^300 ≈ 6e-6
    expect(tr.accelMS2).toBeCloseTo(2, 4);
    tr.update(1, 3);
    expect(tr.accelMS2).toBe(0);
  });
});
