/**
 * 6DOF rigid bodies, Deák §4.2–4.3.
 *
 * State (r, P, q, L); auxiliary variables (eq. in §4.2):
 *   v = P / M,   R = R(q),   I⁻¹ = R · I_body⁻¹ · Rᵀ,   ω = I⁻¹ · L
 * Derivatives (§4.3):
 *   ṙ = v,   Ṗ = F,   q̇ = ½ [0, ω] ⊗ q,   L̇ = τ
 */
import { entitiesWith } from './queries';
import type { SimWorld, StateBlock } from './world-types';
import { dcos, dsin } from '../../terrain/dmath';

const STRIDE = 13;

/** Recompute v, R and ω from the state of one body. */
export function updateDerived(world: SimWorld, eid: number): void {
  const b = world.c.RigidBody;
  const w = b.qw[eid]!,
    x = b.qx[eid]!,
    y = b.qy[eid]!,
    z = b.qz[eid]!;
  const xx = x * x,
    yy = y * y,
    zz = z * z,
    xy = x * y,
    xz = x * z,
    yz = y * z,
    wx = w * x,
    wy = w * y,
    wz = w * z;
  const r0 = 1 - 2 * (yy + zz),
    r1 = 2 * (xy - wz),
    r2 = 2 * (xz + wy),
    r3 = 2 * (xy + wz),
    r4 = 1 - 2 * (xx + zz),
    r5 = 2 * (yz - wx),
    r6 = 2 * (xz - wy),
    r7 = 2 * (yz + wx),
    r8 = 1 - 2 * (xx + yy);
  b.R0[eid] = r0;
  b.R1[eid] = r1;
  b.R2[eid] = r2;
  b.R3[eid] = r3;
  b.R4[eid] = r4;
  b.R5[eid] = r5;
  b.R6[eid] = r6;
  b.R7[eid] = r7;
  b.R8[eid] = r8;
  const im = 1 / b.mass[eid]!;
  b.vx[eid] = b.Px[eid]! * im;
  b.vy[eid] = b.Py[eid]! * im;
  b.vz[eid] = b.Pz[eid]! * im;
  // ω = R · I_body⁻¹ · Rᵀ · L
  const Lx = b.Lx[eid]!,
    Ly = b.Ly[eid]!,
    Lz = b.Lz[eid]!;
  const lbx = (r0 * Lx + r3 * Ly + r6 * Lz) / b.Ixx[eid]!;
  const lby = (r1 * Lx + r4 * Ly + r7 * Lz) / b.Iyy[eid]!;
  const lbz = (r2 * Lx + r5 * Ly + r8 * Lz) / b.Izz[eid]!;
  b.wx[eid] = r0 * lbx + r1 * lby + r2 * lbz;
  b.wy[eid] = r3 * lbx + r4 * lby + r5 * lbz;
  b.wz[eid] = r6 * lbx + r7 * lby + r8 * lbz;
}

function normalizeQuat(world: SimWorld, eid: number): void {
  const b = world.c.RigidBody;
  const n = Math.sqrt(b.qw[eid]! ** 2 + b.qx[eid]! ** 2 + b.qy[eid]! ** 2 + b.qz[eid]! ** 2);
  b.qw[eid] = b.qw[eid]! / n;
  b.qx[eid] = b.qx[eid]! / n;
  b.qy[eid] = b.qy[eid]! / n;
  b.qz[eid] = b.qz[eid]! / n;
}

/** Add a world-frame force F at world point p (torque (p − r) × F). */
export function applyForceAtPoint(
  world: SimWorld,
  eid: number,
  fx: number,
  fy: number,
  fz: number,
  px: number,
  py: number,
  pz: number,
): void {
  const b = world.c.RigidBody;
  const rx = px - b.px[eid]!,
    ry = py - b.py[eid]!,
    rz = pz - b.pz[eid]!;
  b.fx[eid] = b.fx[eid]! + fx;
  b.fy[eid] = b.fy[eid]! + fy;
  b.fz[eid] = b.fz[eid]! + fz;
  b.tx[eid] = b.tx[eid]! + ry * fz - rz * fy;
  b.ty[eid] = b.ty[eid]! + rz * fx - rx * fz;
  b.tz[eid] = b.tz[eid]! + rx * fy - ry * fx;
}

/** Add an impulse J at world point p straight to the momenta (P += J, L += ρ × J). */
export function applyImpulseAtPoint(
  world: SimWorld,
  eid: number,
  jx: number,
  jy: number,
  jz: number,
  px: number,
  py: number,
  pz: number,
): void {
  const b = world.c.RigidBody;
  const rx = px - b.px[eid]!,
    ry = py - b.py[eid]!,
    rz = pz - b.pz[eid]!;
  b.Px[eid] = b.Px[eid]! + jx;
  b.Py[eid] = b.Py[eid]! + jy;
  b.Pz[eid] = b.Pz[eid]! + jz;
  b.Lx[eid] = b.Lx[eid]! + ry * jz - rz * jy;
  b.Ly[eid] = b.Ly[eid]! + rz * jx - rx * jz;
  b.Lz[eid] = b.Lz[eid]! + rx * jy - ry * jx;
  updateDerived(world, eid);
}

/** Kinetic energy ½Mv² + ½ωᵀL of one body (J). */
export function kineticEnergy(world: SimWorld, eid: number): number {
  const b = world.c.RigidBody;
  const m = b.mass[eid]!;
  const lin = 0.5 * m * (b.vx[eid]! ** 2 + b.vy[eid]! ** 2 + b.vz[eid]! ** 2);
  const rot = 0.5 * (b.wx[eid]! * b.Lx[eid]! + b.wy[eid]! * b.Ly[eid]! + b.wz[eid]! * b.Lz[eid]!);
  return lin + rot;
}

/**
 * Write one body's state from y (or y0 + h·k when k is given: the same expression the integrator would
 * evaluate into y), the quaternion normalised once (by the reciprocal of its norm; the step's final write needs
 * no second normalisation, which would move a unit quaternion by rounding only); derived quantities refreshed.
 */
function writeBody(
  world: SimWorld,
  eid: number,
  y: Float64Array,
  k: Float64Array | null,
  h: number,
  o: number,
): void {
  const b = world.c.RigidBody;
  if (k === null) {
    b.px[eid] = y[o]!;
    b.py[eid] = y[o + 1]!;
    b.pz[eid] = y[o + 2]!;
    b.Px[eid] = y[o + 3]!;
    b.Py[eid] = y[o + 4]!;
    b.Pz[eid] = y[o + 5]!;
    const qw = y[o + 6]!,
      qx = y[o + 7]!,
      qy = y[o + 8]!,
      qz = y[o + 9]!;
    const inv = 1 / Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
    b.qw[eid] = qw * inv;
    b.qx[eid] = qx * inv;
    b.qy[eid] = qy * inv;
    b.qz[eid] = qz * inv;
    b.Lx[eid] = y[o + 10]!;
    b.Ly[eid] = y[o + 11]!;
    b.Lz[eid] = y[o + 12]!;
  } else {
    b.px[eid] = y[o]! + h * k[o]!;
    b.py[eid] = y[o + 1]! + h * k[o + 1]!;
    b.pz[eid] = y[o + 2]! + h * k[o + 2]!;
    b.Px[eid] = y[o + 3]! + h * k[o + 3]!;
    b.Py[eid] = y[o + 4]! + h * k[o + 4]!;
    b.Pz[eid] = y[o + 5]! + h * k[o + 5]!;
    const qw = y[o + 6]! + h * k[o + 6]!,
      qx = y[o + 7]! + h * k[o + 7]!,
      qy = y[o + 8]! + h * k[o + 8]!,
      qz = y[o + 9]! + h * k[o + 9]!;
    const inv = 1 / Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
    b.qw[eid] = qw * inv;
    b.qx[eid] = qx * inv;
    b.qy[eid] = qy * inv;
    b.qz[eid] = qz * inv;
    b.Lx[eid] = y[o + 10]! + h * k[o + 10]!;
    b.Ly[eid] = y[o + 11]! + h * k[o + 11]!;
    b.Lz[eid] = y[o + 12]! + h * k[o + 12]!;
  }
  updateDerived(world, eid);
}

/** The last `quatRateInto`: q̇ (w, x, y, z). */
const QDOT = new Float64Array(4);

/** q̇ = ½ (0, ω) ⊗ q of body `eid` into QDOT. */
function quatRateInto(b: SimWorld['c']['RigidBody'], eid: number): void {
  const qw = b.qw[eid]!,
    qx = b.qx[eid]!,
    qy = b.qy[eid]!,
    qz = b.qz[eid]!;
  const wx = b.wx[eid]!,
    wy = b.wy[eid]!,
    wz = b.wz[eid]!;
  QDOT[0] = 0.5 * (-wx * qx - wy * qy - wz * qz);
  QDOT[1] = 0.5 * (wx * qw + wy * qz - wz * qy);
  QDOT[2] = 0.5 * (-wx * qz + wy * qw + wz * qx);
  QDOT[3] = 0.5 * (wx * qy - wy * qx + wz * qw);
}

/**
 * One body's `derivative` (the same expressions) and then its `stage` at y0 + h·derivative: the quaternion
 * normalised, the derived quantities refreshed (`writeBody`'s stage branch on the same numbers).
 */
function stageBodyFromDerivative(world: SimWorld, eid: number, y0: Float64Array, h: number, o: number): void {
  const b = world.c.RigidBody;
  quatRateInto(b, eid);
  const vx = b.vx[eid]!,
    vy = b.vy[eid]!,
    vz = b.vz[eid]!;
  b.px[eid] = y0[o]! + h * vx;
  b.py[eid] = y0[o + 1]! + h * vy;
  b.pz[eid] = y0[o + 2]! + h * vz;
  b.Px[eid] = y0[o + 3]! + h * b.fx[eid]!;
  b.Py[eid] = y0[o + 4]! + h * b.fy[eid]!;
  b.Pz[eid] = y0[o + 5]! + h * b.fz[eid]!;
  const sw = y0[o + 6]! + h * QDOT[0]!,
    sx = y0[o + 7]! + h * QDOT[1]!,
    sy = y0[o + 8]! + h * QDOT[2]!,
    sz = y0[o + 9]! + h * QDOT[3]!;
  const inv = 1 / Math.sqrt(sw * sw + sx * sx + sy * sy + sz * sz);
  b.qw[eid] = sw * inv;
  b.qx[eid] = sx * inv;
  b.qy[eid] = sy * inv;
  b.qz[eid] = sz * inv;
  b.Lx[eid] = y0[o + 10]! + h * b.tx[eid]!;
  b.Ly[eid] = y0[o + 11]! + h * b.ty[eid]!;
  b.Lz[eid] = y0[o + 12]! + h * b.tz[eid]!;
  updateDerived(world, eid);
}

export const rigidBodyBlock: StateBlock = {
  name: 'rigid-body',
  size(world) {
    return entitiesWith(world, world.c.RigidBody).length * STRIDE;
  },
  gather(world, y, o) {
    const b = world.c.RigidBody;
    for (const eid of entitiesWith(world, b)) {
      y[o++] = b.px[eid]!;
      y[o++] = b.py[eid]!;
      y[o++] = b.pz[eid]!;
      y[o++] = b.Px[eid]!;
      y[o++] = b.Py[eid]!;
      y[o++] = b.Pz[eid]!;
      y[o++] = b.qw[eid]!;
      y[o++] = b.qx[eid]!;
      y[o++] = b.qy[eid]!;
      y[o++] = b.qz[eid]!;
      y[o++] = b.Lx[eid]!;
      y[o++] = b.Ly[eid]!;
      y[o++] = b.Lz[eid]!;
    }
  },
  scatter(world, y, o) {
    const b = world.c.RigidBody;
    for (const eid of entitiesWith(world, b)) {
      b.px[eid] = y[o++]!;
      b.py[eid] = y[o++]!;
      b.pz[eid] = y[o++]!;
      b.Px[eid] = y[o++]!;
      b.Py[eid] = y[o++]!;
      b.Pz[eid] = y[o++]!;
      // Intermediate RK stages evaluate forces at a normalised orientation.
      const qw = y[o++]!,
        qx = y[o++]!,
        qy = y[o++]!,
        qz = y[o++]!;
      const n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
      b.qw[eid] = qw / n;
      b.qx[eid] = qx / n;
      b.qy[eid] = qy / n;
      b.qz[eid] = qz / n;
      b.Lx[eid] = y[o++]!;
      b.Ly[eid] = y[o++]!;
      b.Lz[eid] = y[o++]!;
      updateDerived(world, eid);
    }
  },
  stage(world, y0, k, h, o) {
    const list = entitiesWith(world, world.c.RigidBody);
    for (let i = 0; i < list.length; i++) writeBody(world, list[i]!, y0, k, h, o + i * STRIDE);
  },
  scatterNormalized(world, y, o) {
    const list = entitiesWith(world, world.c.RigidBody);
    for (let i = 0; i < list.length; i++) writeBody(world, list[i]!, y, null, 0, o + i * STRIDE);
  },
  derivativeStage(world, y0, h, o) {
    const list = entitiesWith(world, world.c.RigidBody);
    for (let i = 0; i < list.length; i++) stageBodyFromDerivative(world, list[i]!, y0, h, o + i * STRIDE);
  },
  derivative(world, dy, o) {
    const b = world.c.RigidBody;
    for (const eid of entitiesWith(world, b)) {
      quatRateInto(b, eid);
      dy[o++] = b.vx[eid]!;
      dy[o++] = b.vy[eid]!;
      dy[o++] = b.vz[eid]!;
      dy[o++] = b.fx[eid]!;
      dy[o++] = b.fy[eid]!;
      dy[o++] = b.fz[eid]!;
      dy[o++] = QDOT[0]!;
      dy[o++] = QDOT[1]!;
      dy[o++] = QDOT[2]!;
      dy[o++] = QDOT[3]!;
      dy[o++] = b.tx[eid]!;
      dy[o++] = b.ty[eid]!;
      dy[o++] = b.tz[eid]!;
    }
  },
  stepEuler(world, dt) {
    // Semi-implicit Euler: momenta first, then positions with the new velocities; the orientation is advanced
    // by the exact rotation exp(½ω dt) so that it stays on the unit sphere.
    const b = world.c.RigidBody;
    for (const eid of entitiesWith(world, b)) {
      b.Px[eid] = b.Px[eid]! + b.fx[eid]! * dt;
      b.Py[eid] = b.Py[eid]! + b.fy[eid]! * dt;
      b.Pz[eid] = b.Pz[eid]! + b.fz[eid]! * dt;
      b.Lx[eid] = b.Lx[eid]! + b.tx[eid]! * dt;
      b.Ly[eid] = b.Ly[eid]! + b.ty[eid]! * dt;
      b.Lz[eid] = b.Lz[eid]! + b.tz[eid]! * dt;
      updateDerived(world, eid);
      b.px[eid] = b.px[eid]! + b.vx[eid]! * dt;
      b.py[eid] = b.py[eid]! + b.vy[eid]! * dt;
      b.pz[eid] = b.pz[eid]! + b.vz[eid]! * dt;
      const wx = b.wx[eid]!,
        wy = b.wy[eid]!,
        wz = b.wz[eid]!;
      const wn = Math.sqrt(wx * wx + wy * wy + wz * wz); // (Math.hypot is slow in V8)
      if (wn > 0) {
        const h = 0.5 * wn * dt;
        const s = dsin(h) / wn;
        const dw = dcos(h),
          dx = wx * s,
          dy = wy * s,
          dz = wz * s;
        const qw = b.qw[eid]!,
          qx = b.qx[eid]!,
          qy = b.qy[eid]!,
          qz = b.qz[eid]!;
        b.qw[eid] = dw * qw - dx * qx - dy * qy - dz * qz;
        b.qx[eid] = dw * qx + dx * qw + dy * qz - dz * qy;
        b.qy[eid] = dw * qy - dx * qz + dy * qw + dz * qx;
        b.qz[eid] = dw * qz + dx * qy - dy * qx + dz * qw;
      }
      normalizeQuat(world, eid);
      updateDerived(world, eid);
    }
  },
  normalize(world) {
    const b = world.c.RigidBody;
    for (const eid of entitiesWith(world, b)) {
      normalizeQuat(world, eid);
      updateDerived(world, eid);
    }
  },
};
