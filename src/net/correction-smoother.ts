/**
 * Smoothing of the own car's corrections (issue #22 item 3, what the player sees): when a rewound impulse
 * (NetCar.applyImpulse) moves the car's present pose, the simulation jumps (it must: that is the consistent
 * collision), but the DRAWN car keeps where it was and slides onto the simulated one. The drawn pose is the
 * simulated pose plus a visual error, a position offset and a rotation (world frame), set at each correction to
 * "drawn before minus simulated after" (so the drawn car does not move at that instant) and decaying
 * exponentially with time constant CORRECTION_TAU_S: error(t) = error(0)·e^(−t/τ), the rotation's angle alike about
 * its fixed axis. An error over CORRECTION_SNAP_M or CORRECTION_SNAP_RAD is not smoothed (the car snaps): sliding a
 * car metres through the scene looks worse than a cut. Only ever reads the simulation (determinism).
 */
import type { SimWorld } from '../ecs/world';
import { datan2, dcos, dexp, dsin } from '../../terrain/dmath';

/** The visual error's time constant, s: 95 % of a correction is gone after 3τ = 0.36 s. */
export const CORRECTION_TAU_S = 0.12;
/** A position error over this, m, snaps instead (a recovery, a teleport, a desynchronised car). */
export const CORRECTION_SNAP_M = 5;
/** A rotation error over this, rad (90°), snaps instead. */
export const CORRECTION_SNAP_RAD = Math.PI / 2;
/** An error under this, m and rad, is no correction (an impulse applied at the present tick moves no pose). */
const CORRECTION_EPS = 1e-9;

/** A car's pose: position (m) and orientation quaternion (body to world). */
export interface Pose {
  x: number;
  y: number;
  z: number;
  qw: number;
  qx: number;
  qy: number;
  qz: number;
}

export type CorrectionKind = 'smoothed' | 'snapped' | 'none';

/** The pose of entity `eid` in `world`'s rigid bodies. */
export function readPose(world: SimWorld, eid: number): Pose {
  const b = world.c.RigidBody;
  return { x: b.px[eid]!, y: b.py[eid]!, z: b.pz[eid]!, qw: b.qw[eid]!, qx: b.qx[eid]!, qy: b.qy[eid]!, qz: b.qz[eid]! };
}

type Quat = [w: number, x: number, y: number, z: number];

function multiplyQuat(a: Quat, b: Quat): Quat {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

/** The rotation's angle, rad, in [0, π]. */
export function quatAngle(q: Quat): number {
  return 2 * datan2(Math.hypot(q[1], q[2], q[3]), Math.abs(q[0]));
}

/** The same rotation about the same axis by `k` times the angle (the shortest way round). */
function scaleQuat(q: Quat, k: number): Quat {
  const s = q[0] < 0 ? -1 : 1;
  const sinHalf = Math.hypot(q[1], q[2], q[3]);
  if (sinHalf < CORRECTION_EPS) return [1, 0, 0, 0];
  const half = datan2(sinHalf, s * q[0]) * k;
  const f = (s * dsin(half)) / sinHalf;
  return [dcos(half), q[1] * f, q[2] * f, q[3] * f];
}

/** Vector `v` rotated by unit quaternion `q`. */
export function rotateByQuat(q: Quat, v: [number, number, number]): [number, number, number] {
  const p = multiplyQuat(multiplyQuat(q, [0, v[0], v[1], v[2]]), [q[0], -q[1], -q[2], -q[3]]);
  return [p[1], p[2], p[3]];
}

const quatOf = (p: Pose): Quat => [p.qw, p.qx, p.qy, p.qz];

export class CorrectionSmoother {
  /** Drawn minus simulated position, m. */
  readonly offset = { x: 0, y: 0, z: 0 };
  /** Drawn orientation = rotation ⊗ simulated orientation. */
  rotation: Quat = [1, 0, 0, 0];
  smoothed = 0;
  snapped = 0;

  constructor(readonly tauS = CORRECTION_TAU_S) {}

  /** A correction: the car was drawn at `drawnBefore` and is simulated at `simAfter` now. */
  correct(drawnBefore: Pose, simAfter: Pose): CorrectionKind {
    const o = { x: drawnBefore.x - simAfter.x, y: drawnBefore.y - simAfter.y, z: drawnBefore.z - simAfter.z };
    const s = quatOf(simAfter);
    const r = multiplyQuat(quatOf(drawnBefore), [s[0], -s[1], -s[2], -s[3]]);
    const dist = Math.hypot(o.x, o.y, o.z), angle = quatAngle(r);
    if (dist < CORRECTION_EPS && angle < CORRECTION_EPS) return 'none';
    if (dist > CORRECTION_SNAP_M || angle > CORRECTION_SNAP_RAD) {
      this.reset();
      this.snapped++;
      return 'snapped';
    }
    Object.assign(this.offset, o);
    this.rotation = scaleQuat(r, 1);
    this.smoothed++;
    return 'smoothed';
  }

  /** The error after `dtS` more seconds: multiplied by e^(−dt/τ) (any split of the time gives the same error). */
  decay(dtS: number): void {
    const k = dexp(-dtS / this.tauS);
    this.offset.x *= k;
    this.offset.y *= k;
    this.offset.z *= k;
    this.rotation = scaleQuat(this.rotation, k);
  }

  /** No error left (a recovery or a new session: the drawn car is where the simulated one is). */
  reset(): void {
    this.offset.x = this.offset.y = this.offset.z = 0;
    this.rotation = [1, 0, 0, 0];
  }

  /** The pose to draw for the simulated pose `sim`. */
  drawn(sim: Pose): Pose {
    const [qw, qx, qy, qz] = multiplyQuat(this.rotation, quatOf(sim));
    return { x: sim.x + this.offset.x, y: sim.y + this.offset.y, z: sim.z + this.offset.z, qw, qx, qy, qz };
  }

  /** The remaining error: position (m) and rotation angle (rad). */
  error(): { distM: number; angleRad: number } {
    return { distM: Math.hypot(this.offset.x, this.offset.y, this.offset.z), angleRad: quatAngle(this.rotation) };
  }
}
