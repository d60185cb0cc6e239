/**
 * Félez et al. §5 bicycle model (src/systems/sim/traffic/bicycle.ts). Stepped with backward Euler, eqs 2–5 at
 * constant u have the continuous system's steady state exactly, so the steady yaw rate must equal the closed
 * form r = u δ / (L + K u²), K = m (b C_r − a C_f) / (L C_f C_r) (steady state of eqs 2–3 with F_y = C α and
 * eqs 4–5), to solver rounding. The full step (eq 1 too) at low lateral acceleration must stay within 3 %.
 */
import { describe, expect, it } from 'vitest';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { steadyYawRate, stepBicycle, stepLateral, trafficTypeFromCar, TrafficState, VAN, pedalsFor } from '../../src/systems/sim/traffic/index';

const types = [...['rally-awd', 'hatch-gti', 'classic-rwd'].map((id) => trafficTypeFromCar(loadBuiltinCar(id))), VAN];

describe('bicycle model (Félez eqs 1–5)', () => {
  for (const t of types)
    for (const [u, delta] of [
      [8, 0.05],
      [14, 0.02],
    ] as const)
      it(`${t.id} at ${u} m/s, δ ${delta}: steady yaw rate = u δ / (L + K u²)`, () => {
        const out = { v: 0, r: 0 };
        let v = 0, r = 0;
        for (let i = 0; i < 2000; i++) {
          stepLateral(t, u, v, r, delta, 0, 0.02, out);
          v = out.v;
          r = out.r;
        }
        // 40 s ≫ the lateral time constants (< 0.3 s): converged; only rounding is left
        expect(Math.abs(r / steadyYawRate(t, u, delta) - 1)).toBeLessThan(1e-9);
      });

  it('full step (eq 1 with the speed held by the pedals, eqs 10–13) at ≤ 0.15 g: yaw rate within 3 % of the closed form', () => {
    for (const t of types) {
      const st = new TrafficState(1, 1);
      const u0 = 10, delta = 0.03;
      st.u[0] = u0;
      st.delta[0] = delta;
      let prevAr = 0;
      for (let i = 0; i < 1500; i++) {
        const aR = (u0 - st.u[0]!) / 1; // hold 10 m/s (τ = 1 s)
        const [thr, brk] = pedalsFor(t, 0.5, st.u[0]!, aR, (aR - prevAr) / 0.02);
        prevAr = aR;
        stepBicycle(st, 0, t, thr, brk, 0.02);
      }
      const ay = st.u[0]! * st.r[0]!;
      expect(Math.abs(ay)).toBeLessThan(0.15 * 9.81);
      expect(Math.abs(st.r[0]! / steadyYawRate(t, st.u[0]!, delta) - 1)).toBeLessThan(0.03);
    }
  });

  it('below 0.3 m/s the vehicle rolls kinematically: r = u δ / L, v = b r, and the brakes never reverse it', () => {
    const t = types[0]!;
    const st = new TrafficState(1, 1);
    st.u[0] = 0.2;
    st.delta[0] = 0.3;
    stepBicycle(st, 0, t, 0, 0, 0.02);
    const u = st.u[0]!;
    expect(st.r[0]).toBeCloseTo((u * 0.3) / (t.aM + t.bM), 12);
    expect(st.v[0]).toBeCloseTo(t.bM * st.r[0]!, 12);
    for (let i = 0; i < 50; i++) stepBicycle(st, 0, t, 0, 1, 0.02);
    expect(st.u[0]).toBe(0);
  });
});
