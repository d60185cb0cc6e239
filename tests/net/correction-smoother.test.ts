/**
 * The own car's correction smoothing (src/net/correction-smoother.ts): at a correction the drawn pose does not move
 * (continuity), then the error decays by error(t) = error(0)·e^(−t/τ), position and rotation angle alike, however
 * the time is split into frames; the drawn pose converges to the simulated one; an error over the snap limits snaps.
 * A real rewound impulse on a NetCar: the smoother reads the car but never changes it (the world's stateHash is the
 * same with and without it).
 */
import { describe, expect, it } from 'vitest';
import { CORRECTION_SNAP_M, CORRECTION_TAU_S, CorrectionSmoother, quatAngle, readPose, type Pose } from '../../src/net/correction-smoother';
import { stateHash } from '../../src/ecs/hash';
import { TICKS_PER_PACKET } from '../../server/rooms/race-room';
import { headOnCars, plan } from './bots';

/** A yaw of `a` rad about +y as a pose at (x, 0.5, z). */
const yawPose = (x: number, z: number, a: number): Pose => ({ x, y: 0.5, z, qw: Math.cos(a / 2), qx: 0, qy: Math.sin(a / 2), qz: 0 });
/** Frame steps, s: 60 Hz frames. */
const FRAME_S = 1 / 60;

describe('CorrectionSmoother', () => {
  it('keeps the drawn pose at the correction, then decays the error by e^(-t/tau)', () => {
    const s = new CorrectionSmoother();
    const before = yawPose(10, 4, 0.3), after = yawPose(11.2, 3.5, 0.1);
    expect(s.correct(before, after)).toBe('smoothed');
    const d0 = s.drawn(after);
    for (const k of ['x', 'y', 'z', 'qw', 'qx', 'qy', 'qz'] as const) expect(d0[k]).toBeCloseTo(before[k], 12);
    const e0 = s.error();
    expect(e0.distM).toBeCloseTo(Math.hypot(1.2, 0.5), 12);
    expect(e0.angleRad).toBeCloseTo(0.2, 12);
    for (let f = 1; f <= 30; f++) {
      s.decay(FRAME_S);
      const law = Math.exp((-f * FRAME_S) / CORRECTION_TAU_S);
      expect(s.error().distM).toBeCloseTo(e0.distM * law, 12);
      expect(s.error().angleRad).toBeCloseTo(e0.angleRad * law, 12);
    }
  });

  it('decays the same whether the time comes in one frame or many', () => {
    const one = new CorrectionSmoother(), many = new CorrectionSmoother();
    for (const s of [one, many]) s.correct(yawPose(0, 0, 0.5), yawPose(2, -1, -0.2));
    one.decay(0.1);
    for (let k = 0; k < 7; k++) many.decay(0.1 / 7);
    expect(many.error().distM).toBeCloseTo(one.error().distM, 12);
    expect(many.error().angleRad).toBeCloseTo(one.error().angleRad, 12);
  });

  it('converges the drawn pose to the simulated one: under 1 mm and 1 mrad after 10 tau', () => {
    const s = new CorrectionSmoother();
    s.correct(yawPose(0, 0, 1.2), yawPose(3, 2, 0));
    const sim = yawPose(3, 2, 0);
    for (let t = 0; t < 10 * CORRECTION_TAU_S; t += FRAME_S) s.decay(FRAME_S);
    const d = s.drawn(sim);
    // e^-10 of the initial 3.6 m and 1.2 rad: 0.16 mm and 0.05 mrad
    expect(Math.hypot(d.x - sim.x, d.y - sim.y, d.z - sim.z)).toBeLessThan(1e-3);
    expect(quatAngle([d.qw * sim.qw + d.qy * sim.qy, 0, d.qy * sim.qw - d.qw * sim.qy, 0])).toBeLessThan(1e-3);
  });

  it('snaps a huge jump (over 5 m or over 90 degrees) and a recovery reset', () => {
    const s = new CorrectionSmoother();
    s.correct(yawPose(0, 0, 0), yawPose(1, 0, 0));
    expect(s.correct(yawPose(0, 0, 0), yawPose(CORRECTION_SNAP_M + 0.1, 0, 0))).toBe('snapped');
    expect(s.error()).toEqual({ distM: 0, angleRad: 0 });
    expect(s.correct(yawPose(0, 0, 0), yawPose(0, 0, 2))).toBe('snapped');
    expect(s.correct(yawPose(0, 0, 0), yawPose(0, 0, 0))).toBe('none');
    expect([s.smoothed, s.snapped]).toEqual([1, 2]);
    const sim = yawPose(7, 7, 1);
    expect(s.drawn(sim)).toEqual(sim);
  });

  it('never changes the simulation: the same state hash with and without smoothing a rewound impulse', () => {
    const [plain] = headOnCars(), [watched] = headOnCars();
    const s = new CorrectionSmoother();
    const contact = 40, late = 9; // 9 packets late: 150 ms RTT at 62.5 packets/s
    for (let k = 0; k < contact + late; k++) {
      plain.step(plan(k));
      watched.step(plan(k));
      s.decay(FRAME_S);
      s.drawn(readPose(watched.run.world, watched.eid));
    }
    const at = contact * TICKS_PER_PACKET;
    const p = { seq: 1, tick: at, other: 1, jx: -6000, jz: 800, x: 0, y: 0.5, z: 0 };
    const drawnBefore = s.drawn(readPose(watched.run.world, watched.eid));
    expect(plain.applyImpulse(p)).toBe('rewound');
    expect(watched.applyImpulse(p)).toBe('rewound');
    expect(s.correct(drawnBefore, readPose(watched.run.world, watched.eid))).toBe('smoothed');
    // the correction was a real jump of the simulated car, and a smoothable one
    expect(s.error().distM).toBeGreaterThan(0.01);
    expect(s.error().distM).toBeLessThan(CORRECTION_SNAP_M);
    for (let k = contact + late; k < contact + late + 20; k++) {
      plain.step(plan(k));
      watched.step(plan(k));
      s.decay(FRAME_S);
      s.drawn(readPose(watched.run.world, watched.eid));
    }
    expect(stateHash(watched.run.world)).toBe(stateHash(plain.run.world));
  });
});
