/**
 * Prefabs: functions that create entities with their components filled in.
 */
import type { SimWorld } from './world';
import { attach, spawnEntity } from './world';
import { updateDerived } from './rigid-body';

export interface BodyInit {
  mass: number;
  /** Principal moments of inertia in the body frame (kg·m²). */
  inertia: [number, number, number];
  position?: [number, number, number];
  /** Unit quaternion (w, x, y, z), body → world. */
  orientation?: [number, number, number, number];
  velocity?: [number, number, number];
  /** World-frame angular velocity (rad/s). */
  angularVelocity?: [number, number, number];
  gravity?: boolean;
}

/** A free 6DOF rigid body. Momenta are set from the given velocities: P = M v, L = I_world ω. */
export function spawnBody(world: SimWorld, init: BodyInit): number {
  if (!(init.mass > 0)) throw new Error(`spawnBody: mass must be > 0 kg, found ${init.mass}`);
  for (const i of init.inertia) if (!(i > 0)) throw new Error(`spawnBody: inertia must be > 0 kg·m², found ${i}`);
  const eid = spawnEntity(world);
  const b = world.c.RigidBody;
  attach(world, eid, b);
  const [x, y, z] = init.position ?? [0, 0, 0];
  const [qw, qx, qy, qz] = init.orientation ?? [1, 0, 0, 0];
  const n = Math.hypot(qw, qx, qy, qz);
  b.px[eid] = x;
  b.py[eid] = y;
  b.pz[eid] = z;
  b.qw[eid] = qw / n;
  b.qx[eid] = qx / n;
  b.qy[eid] = qy / n;
  b.qz[eid] = qz / n;
  b.mass[eid] = init.mass;
  b.Ixx[eid] = init.inertia[0];
  b.Iyy[eid] = init.inertia[1];
  b.Izz[eid] = init.inertia[2];
  b.gravity[eid] = init.gravity === false ? 0 : 1;
  b.halted[eid] = 0; // (ids are recycled)
  const [vx, vy, vz] = init.velocity ?? [0, 0, 0];
  b.Px[eid] = init.mass * vx;
  b.Py[eid] = init.mass * vy;
  b.Pz[eid] = init.mass * vz;
  b.Lx[eid] = 0;
  b.Ly[eid] = 0;
  b.Lz[eid] = 0;
  updateDerived(world, eid); // fills R
  const [wx, wy, wz] = init.angularVelocity ?? [0, 0, 0];
  setAngularVelocity(world, eid, wx, wy, wz);
  return eid;
}

/** L = R · I_body · Rᵀ · ω. */
export function setAngularVelocity(world: SimWorld, eid: number, wx: number, wy: number, wz: number): void {
  const b = world.c.RigidBody;
  const r = [b.R0[eid]!, b.R1[eid]!, b.R2[eid]!, b.R3[eid]!, b.R4[eid]!, b.R5[eid]!, b.R6[eid]!, b.R7[eid]!, b.R8[eid]!];
  const bx = (r[0]! * wx + r[3]! * wy + r[6]! * wz) * b.Ixx[eid]!;
  const by = (r[1]! * wx + r[4]! * wy + r[7]! * wz) * b.Iyy[eid]!;
  const bz = (r[2]! * wx + r[5]! * wy + r[8]! * wz) * b.Izz[eid]!;
  b.Lx[eid] = r[0]! * bx + r[1]! * by + r[2]! * bz;
  b.Ly[eid] = r[3]! * bx + r[4]! * by + r[5]! * bz;
  b.Lz[eid] = r[6]! * bx + r[7]! * by + r[8]! * bz;
  updateDerived(world, eid);
}

export function setAppliedForce(
  world: SimWorld,
  eid: number,
  force: [number, number, number],
  torque: [number, number, number] = [0, 0, 0],
  pointBody: [number, number, number] = [0, 0, 0],
): void {
  const a = world.c.AppliedForce;
  attach(world, eid, a);
  [a.fx[eid], a.fy[eid], a.fz[eid]] = force;
  [a.tx[eid], a.ty[eid], a.tz[eid]] = torque;
  [a.ax[eid], a.ay[eid], a.az[eid]] = pointBody;
}
