import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  arcSteerAngle,
  brakePedal,
  cornerSpeed,
  fullThrottleAcceleration,
  G,
  lookAheadDistance,
  lowPass,
  pdSteer,
  requiredAcceleration,
  throttleGain,
  throttlePedal,
  wrapPi,
} from '../../src/systems/sim/ai/driver-model';

describe('Félez eq 6: look-ahead distance', () => {
  it('d_s = t_s·u + d_0, and a smaller t_s (aggressive) looks less far', () => {
    expect(lookAheadDistance(20, 0.8, 5)).toBeCloseTo(21, 12);
    expect(lookAheadDistance(0, 0.8, 5)).toBe(5);
    expect(lookAheadDistance(-3, 0.8, 5)).toBe(5); // reversing: floor at d_0
    expect(lookAheadDistance(20, 0.5, 5)).toBeLessThan(lookAheadDistance(20, 0.8, 5));
  });
});

describe('Félez eq 7: steering angle of the arc through the look-ahead point', () => {
  it('any point on the circle of radius R tangent to the car axis gives δ_P = atan(h/R)', () => {
    fc.assert(
      fc.property(fc.double({ min: 3, max: 500, noNaN: true }), fc.double({ min: 0.05, max: 3, noNaN: true }), fc.boolean(), fc.double({ min: 2, max: 4, noNaN: true }), (R, phi, left, h) => {
        // circle centred at (0, ±R) through the origin, tangent to the x (forward) axis
        const sgn = left ? 1 : -1;
        const x = R * Math.sin(phi);
        const y = sgn * R * (1 - Math.cos(phi));
        const d = arcSteerAngle(x, y, h);
        // relative tolerance: 1e-9 of the angle (pure floating-point round-off of the closed form)
        expect(Math.abs(d - sgn * Math.atan(h / R))).toBeLessThan(1e-9 * Math.atan(h / R) + 1e-15);
      }),
    );
  });
  it('straight ahead gives 0, the sign follows the side (+ = left)', () => {
    expect(arcSteerAngle(20, 0, 2.5)).toBe(0);
    expect(arcSteerAngle(20, 1, 2.5)).toBeGreaterThan(0);
    expect(arcSteerAngle(20, -1, 2.5)).toBeLessThan(0);
    expect(arcSteerAngle(0, 0, 2.5)).toBe(0);
  });
});

describe('Félez eq 8: PD steering', () => {
  it('for a ramp δ_P(t) = ω t the output leads by c_dδ: δ = ω (t + c_dδ)', () => {
    const w = 0.3, cD = 0.07;
    for (const t of [0, 0.5, 2]) expect(pdSteer(w * t, w, cD)).toBeCloseTo(w * (t + cD), 14);
  });
});

describe('Félez eq 9: required acceleration', () => {
  it('uniform acceleration a_r from u over d_r ends exactly at u_r (u_r² = u² + 2 a d)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 60, noNaN: true }), fc.double({ min: 0, max: 60, noNaN: true }), fc.double({ min: 1, max: 500, noNaN: true }), (u, ur, d) => {
        const a = requiredAcceleration(u, ur, d);
        // integrate the motion exactly: after distance d, v² = u² + 2 a d
        const v2 = u * u + 2 * a * d;
        // compare squares: relative round-off of the products and the difference, a few ulps of u² + u_r²
        expect(Math.abs(v2 - ur * ur)).toBeLessThanOrEqual(1e-14 * (u * u + ur * ur) + 1e-300);
      }),
    );
  });
  it('floors the reference distance (no infinite demand at the nose)', () => {
    expect(requiredAcceleration(10, 0, 0)).toBeCloseTo(-100, 12); // d floored at 0.5 m
  });
});

describe('Félez eqs 10–13: throttle and brake', () => {
  it('eq 11/12: the request c_p·a_r equals a_r/(μg) below a_m and saturates at a_m/(μg) above (continuous at a_m)', () => {
    const muG = 0.7 * G, aM = 3;
    expect(throttleGain(1, aM, muG) * 1).toBeCloseTo(1 / muG, 14);
    for (const ar of [3, 4, 10, 50]) expect(throttleGain(ar, aM, muG) * ar).toBeCloseTo(aM / muG, 12);
    const below = throttleGain(aM - 1e-9, aM, muG) * (aM - 1e-9);
    const above = throttleGain(aM, aM, muG) * aM;
    expect(Math.abs(below - above)).toBeLessThan(1e-9);
  });
  it('eq 10: the derivative term adds c_d·da_r/dt and the pedal is clamped to [0, 1]', () => {
    const muG = 7;
    expect(throttlePedal(1, 10, 3, muG, 0.02)).toBeCloseTo(1 / muG + 0.2, 12);
    expect(throttlePedal(1, -100, 3, muG, 0.02)).toBe(0);
    expect(throttlePedal(100, 1000, 200, muG, 0.02)).toBe(1);
  });
  it('eq 13: brake = −a_r/(μg) for a deceleration request, 0 for an acceleration request', () => {
    expect(brakePedal(-3.5, 7)).toBeCloseTo(0.5, 14);
    expect(brakePedal(2, 7)).toBe(0);
    expect(brakePedal(-20, 7)).toBe(1);
  });
});

describe('speed limits', () => {
  it('corner speed satisfies v² κ = μ g (lateral force = friction limit)', () => {
    for (const [k, mu] of [[1 / 15, 0.7], [1 / 80, 1.1], [-1 / 40, 0.3]] as const) {
      const v = cornerSpeed(k, mu, 1e9);
      expect(v * v * Math.abs(k)).toBeCloseTo(mu * G, 10);
    }
    expect(cornerSpeed(0, 1, 55)).toBe(55);
    expect(cornerSpeed(1 / 1000, 1, 55)).toBe(55);
  });
  it('full-throttle acceleration: traction-limited at low speed, P/(m u) above the crossover', () => {
    const P = 150e3, m = 1200, mu = 1, f = 1;
    const cross = P / (m * mu * G * f); // speed where both limits meet
    expect(fullThrottleAcceleration(cross / 2, mu, f, P, m)).toBeCloseTo(mu * G * f, 12);
    expect(fullThrottleAcceleration(2 * cross, mu, f, P, m)).toBeCloseTo(P / (m * 2 * cross), 12);
  });
  it('low-pass converges to a constant input, wrapPi maps into (−π, π]', () => {
    let y = 0;
    for (let i = 0; i < 5000; i++) y = lowPass(y, 1, 0.002, 0.04);
    expect(y).toBeCloseTo(1, 10);
    expect(wrapPi(3 * Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapPi(-Math.PI / 2 - 2 * Math.PI)).toBeCloseTo(-Math.PI / 2, 12);
  });
});
