/**
 * Steady car following on a straight keeps the documented gap law g*(u) = G0 + T u (bumper to bumper,
 * docs/traffic.md) within 5 %: a follower with the traffic driver's references (objective speed and the
 * leader reference, eq 9) and pedals (eqs 10–13) on the bicycle model (eqs 1–5) behind a leader held at a
 * constant speed, started 30 m too far back and 2 m/s slower.
 */
import { describe, expect, it } from 'vitest';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { desiredGap, leaderRef, pedalsFor, stepBicycle, targetRef, trafficTypeFromCar, TrafficState, VAN } from '../../src/systems/sim/traffic/index';

const DT = 0.02;
const types = [trafficTypeFromCar(loadBuiltinCar('hatch-gti')), VAN];

function follow(uL: number, headwayS: number, typeIndex: number): { gap: number; uF: number } {
  const t = types[typeIndex]!;
  const st = new TrafficState(2, 1);
  // leader in slot 0, follower in slot 1, both heading +Z (ψ = 0)
  const g0 = desiredGap(uL, headwayS) + 30;
  st.z[0] = g0 + t.lengthM;
  st.u[0] = uL;
  st.u[1] = uL - 2;
  let prevAr = 0;
  for (let i = 0; i < 120 / DT; i++) {
    st.z[0] = st.z[0]! + uL * DT;
    const gap = st.z[0]! - st.z[1]! - t.lengthM;
    const u = st.u[1]!;
    const aR = Math.min(targetRef(u, 15, 0), leaderRef(u, uL, gap, headwayS));
    const [thr, brk] = pedalsFor(t, 0.5, u, aR, (aR - prevAr) / DT);
    prevAr = aR;
    stepBicycle(st, 1, t, thr, brk, DT);
  }
  return { gap: st.z[0]! - st.z[1]! - t.lengthM, uF: st.u[1]! };
}

describe('gap law on a straight', () => {
  for (const uL of [6, 10, 13])
    for (const T of [1.1, 1.8])
      for (const ti of [0, 1])
        it(`${types[ti]!.id} behind a leader at ${uL} m/s, T ${T} s: gap within 5 % of G0 + T u`, () => {
          const { gap, uF } = follow(uL, T, ti);
          expect(Math.abs(gap / desiredGap(uL, T) - 1)).toBeLessThan(0.05);
          expect(Math.abs(uF - uL)).toBeLessThan(0.05);
        });
});
