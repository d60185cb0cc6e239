/**
 * RemoteCarView (src/net/remote-car.ts): between two relayed states the pose is their linear interpolation
 * (exact for a car at constant velocity; the heading takes the short way round ±π); past the newest state it is
 * dead-reckoned with the velocity and yaw rate (exact for constant motion), for at most MAX_DEAD_RECKONING_S.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DEAD_RECKONING_S, RemoteCarView, type RemotePose } from '../../src/net/remote-car';
import type { CarState } from '../../src/net/packets';

const DT = 0.002;
const pose = (): RemotePose => ({ x: 0, y: 0, z: 0, heading: 0, mode: 'none' });

function moving(tick: number, heading = Math.PI / 2, wy = 0): CarState {
  const vx = 20, vz = -5;
  const t = tick * DT;
  const h = heading + wy * t;
  return { tick, ackImpulse: 0, recoveries: 0, px: 3 + vx * t, py: 0.5, pz: -2 + vz * t, fx: Math.sin(h), fz: Math.cos(h), vx, vz, wy, invIyy: 1e-3 };
}

describe('RemoteCarView', () => {
  it('interpolates between the bracketing states (exact at constant velocity)', () => {
    const v = new RemoteCarView(DT);
    expect(v.sample(10, pose()).mode).toBe('none');
    for (let k = 1; k <= 10; k++) v.push(moving(8 * k));
    const p = v.sample(37.5, pose());
    const e = moving(37.5);
    expect(p.mode).toBe('interpolated');
    expect(p.x).toBeCloseTo(e.px, 12);
    expect(p.z).toBeCloseTo(e.pz, 12);
    expect(p.heading).toBeCloseTo(Math.PI / 2, 12);
    expect(v.sample(2, pose()).mode).toBe('held');
  });

  it('takes the short way round across ±π', () => {
    const v = new RemoteCarView(DT);
    v.push({ ...moving(8), fx: Math.sin(Math.PI - 0.1), fz: Math.cos(Math.PI - 0.1) });
    v.push({ ...moving(16), fx: Math.sin(-Math.PI + 0.1), fz: Math.cos(-Math.PI + 0.1) });
    // halfway: heading ±π, not 0
    expect(Math.abs(Math.abs(v.sample(12, pose()).heading) - Math.PI)).toBeLessThan(1e-12);
  });

  it('dead-reckons past the newest state with velocity and yaw rate, capped in time', () => {
    const wy = 0.8;
    const v = new RemoteCarView(DT);
    v.push(moving(8, 0.3, wy));
    v.push(moving(16, 0.3, wy));
    const ahead = 40; // 80 ms
    const p = v.sample(16 + ahead, pose());
    const e = moving(16 + ahead, 0.3, wy);
    expect(p.mode).toBe('extrapolated');
    expect(p.x).toBeCloseTo(e.px, 12);
    expect(p.z).toBeCloseTo(e.pz, 12);
    expect(p.heading).toBeCloseTo(0.3 + wy * (16 + ahead) * DT, 12);
    const far = v.sample(16 + 10_000, pose());
    const capped = moving(16, 0.3, wy);
    expect(far.x).toBeCloseTo(capped.px + capped.vx * MAX_DEAD_RECKONING_S, 12);
  });

  it('ignores repeated and out-of-order ticks', () => {
    const v = new RemoteCarView(DT);
    v.push(moving(16));
    v.push({ ...moving(8), px: 999 });
    v.push({ ...moving(16), px: 999 });
    expect(v.sample(16, pose()).x).toBeCloseTo(moving(16).px, 12);
  });
});
