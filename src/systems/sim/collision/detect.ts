/**
 * Yaw-plane detection: the car's Knight rectangle (CG→front, CG→rear, half width) at CG height against static
 * obstacles (Wu §4.3, Fig 4-4) and against other cars (Wu §4.4: bounding circle, then Cohen–Sutherland).
 * Poses are (centre, unit forward f, unit left l) in world (x, z); l = up × f = (f_z, −f_x).
 */
import { sqrt2 } from './impulse';
import { clipSegment, newClip } from './cohen-sutherland';
import { pushPoint, type PointList } from './contact-points';
import { BOX, CYLINDER, WALL, type SceneColliders } from './scene';
import { dcos, dsin } from '../../../../terrain/dmath';

export interface CarPose {
  cx: number;
  cz: number;
  fx: number;
  fz: number;
  front: number;
  rear: number;
  hw: number;
}

export const newPose = (): CarPose => ({ cx: 0, cz: 0, fx: 0, fz: 1, front: 0, rear: 0, hw: 0 });

/** Corners FL, FR, RR, RL (outline order) into xs/zs. */
export function corners(p: CarPose, xs: Float64Array, zs: Float64Array): void {
  const lx = p.fz, lz = -p.fx;
  const ax = p.cx + p.front * p.fx, az = p.cz + p.front * p.fz;
  const bx = p.cx - p.rear * p.fx, bz = p.cz - p.rear * p.fz;
  xs[0] = ax + p.hw * lx; zs[0] = az + p.hw * lz;
  xs[1] = ax - p.hw * lx; zs[1] = az - p.hw * lz;
  xs[2] = bx - p.hw * lx; zs[2] = bz - p.hw * lz;
  xs[3] = bx + p.hw * lx; zs[3] = bz + p.hw * lz;
}

/** Pose advanced by s·(v dt) and s·(r dt) of yaw (R_y convention: +r turns +Z toward +X). */
export function advancePose(p: CarPose, vx: number, vz: number, r: number, t: number, out: CarPose): void {
  const a = r * t, c = dcos(a), s = dsin(a);
  out.cx = p.cx + vx * t;
  out.cz = p.cz + vz * t;
  out.fx = p.fx * c + p.fz * s;
  out.fz = -p.fx * s + p.fz * c;
  out.front = p.front;
  out.rear = p.rear;
  out.hw = p.hw;
}

/** Car-local coordinates (u forward, w left) of a world point. */
export function toLocal(p: CarPose, x: number, z: number, out: { u: number; w: number }): void {
  const dx = x - p.cx, dz = z - p.cz;
  out.u = dx * p.fx + dz * p.fz;
  out.w = dx * p.fz - dz * p.fx;
}

export function insideRect(p: CarPose, x: number, z: number): boolean {
  const dx = x - p.cx, dz = z - p.cz;
  const u = dx * p.fx + dz * p.fz, w = dx * p.fz - dz * p.fx;
  return u <= p.front && u >= -p.rear && w <= p.hw && w >= -p.hw;
}

/** Segment–segment crossing point (pushes it); returns true when they cross. */
function segSeg(
  ax: number, az: number, bx: number, bz: number, cx: number, cz: number, dx: number, dz: number, l: PointList,
): boolean {
  const rx = bx - ax, rz = bz - az, sx = dx - cx, sz = dz - cz;
  const den = rx * sz - rz * sx;
  if (den === 0) return false;
  const qx = cx - ax, qz = cz - az;
  const t = (qx * sz - qz * sx) / den;
  const u = (qx * rz - qz * rx) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return false;
  pushPoint(l, ax + t * rx, az + t * rz);
  return true;
}

/** Segment–circle crossings. */
function segCircle(ax: number, az: number, bx: number, bz: number, cx: number, cz: number, rad: number, l: PointList): void {
  const dx = bx - ax, dz = bz - az;
  const fx = ax - cx, fz = az - cz;
  const A = dx * dx + dz * dz;
  const B = 2 * (fx * dx + fz * dz);
  const C = fx * fx + fz * fz - rad * rad;
  const disc = B * B - 4 * A * C;
  if (disc < 0 || A === 0) return;
  const sq = Math.sqrt(disc);
  const t0 = (-B - sq) / (2 * A), t1 = (-B + sq) / (2 * A);
  if (t0 >= 0 && t0 <= 1) pushPoint(l, ax + t0 * dx, az + t0 * dz);
  if (t1 >= 0 && t1 <= 1 && t1 !== t0) pushPoint(l, ax + t1 * dx, az + t1 * dz);
}

const cxs = new Float64Array(4), czs = new Float64Array(4);
const bc = { x: 0, z: 0 }, bd = { x: 0, z: 0 };

/**
 * Points where the car outline meets obstacle `i`'s outline (plus a wall's ends inside the car: the ends of
 * Knight's "line of interference"). Appends to `l`; returns the number appended.
 */
export function obstaclePoints(scene: SceneColliders, i: number, p: CarPose, l: PointList): number {
  const n0 = l.n;
  corners(p, cxs, czs);
  const k = scene.kind[i];
  for (let e = 0; e < 4; e++) {
    const ax = cxs[e]!, az = czs[e]!, bx = cxs[(e + 1) & 3]!, bz = czs[(e + 1) & 3]!;
    if (k === WALL) segSeg(ax, az, bx, bz, scene.p0[i]!, scene.p1[i]!, scene.p2[i]!, scene.p3[i]!, l);
    else if (k === CYLINDER) segCircle(ax, az, bx, bz, scene.p0[i]!, scene.p1[i]!, scene.p2[i]!, l);
    else if (k === BOX) {
      for (let j = 0; j < 4; j++) {
        scene.boxCorner(i, j, bc);
        scene.boxCorner(i, (j + 1) & 3, bd);
        segSeg(ax, az, bx, bz, bc.x, bc.z, bd.x, bd.z, l);
      }
    }
  }
  if (k === WALL) {
    if (insideRect(p, scene.p0[i]!, scene.p1[i]!)) pushPoint(l, scene.p0[i]!, scene.p1[i]!);
    if (insideRect(p, scene.p2[i]!, scene.p3[i]!)) pushPoint(l, scene.p2[i]!, scene.p3[i]!);
  }
  return l.n - n0;
}

/** The obstacle's own surface normal at a point on it (one-point case of Fig 4-4); sign not fixed. */
export function obstacleNormal(scene: SceneColliders, i: number, x: number, z: number, out: { x: number; z: number }): void {
  const k = scene.kind[i];
  if (k === WALL) {
    const dx = scene.p2[i]! - scene.p0[i]!, dz = scene.p3[i]! - scene.p1[i]!;
    const L = sqrt2(dx, dz);
    out.x = -dz / L;
    out.z = dx / L;
  } else if (k === CYLINDER) {
    const dx = x - scene.p0[i]!, dz = z - scene.p1[i]!;
    const L = sqrt2(dx, dz) || 1;
    out.x = dx / L;
    out.z = dz / L;
  } else {
    const c = scene.c[i]!, s = scene.s[i]!;
    const dx = x - scene.p0[i]!, dz = z - scene.p1[i]!;
    // world → box local: inverse of (x c + z s, −x s + z c)
    const u = dx * c - dz * s, w = dx * s + dz * c;
    if (Math.abs(u) / scene.p2[i]! >= Math.abs(w) / scene.p3[i]!) {
      const sg = u >= 0 ? 1 : -1;
      out.x = sg * c;
      out.z = -sg * s;
    } else {
      const sg = w >= 0 ? 1 : -1;
      out.x = sg * s;
      out.z = sg * c;
    }
  }
}

const clip = newClip();
/** B's corners in A's frame (carCarPoints' scratch: a tick allocates nothing here). */
const bus = new Float64Array(4), bws = new Float64Array(4);

/**
 * Outline crossings of car B with car A (Wu §4.4.2): B's corners go into A's frame, each of B's four edges is
 * clipped against A's rectangle, and every end that clipping moved onto A's boundary is a crossing point
 * (world coordinates, appended to `l`).
 */
export function carCarPoints(a: CarPose, b: CarPose, l: PointList): number {
  const n0 = l.n;
  corners(b, cxs, czs);
  const us = bus, ws = bws;
  for (let j = 0; j < 4; j++) {
    const dx = cxs[j]! - a.cx, dz = czs[j]! - a.cz;
    us[j] = dx * a.fx + dz * a.fz;
    ws[j] = dx * a.fz - dz * a.fx;
  }
  for (let e = 0; e < 4; e++) {
    const j = (e + 1) & 3;
    if (!clipSegment(us[e]!, ws[e]!, us[j]!, ws[j]!, -a.rear, -a.hw, a.front, a.hw, clip)) continue;
    // local (u, w) → world: x = cx + u f_x + w l_x, l = (f_z, −f_x)
    if (clip.clipped0) pushPoint(l, a.cx + clip.x0 * a.fx + clip.y0 * a.fz, a.cz + clip.x0 * a.fz - clip.y0 * a.fx);
    if (clip.clipped1) pushPoint(l, a.cx + clip.x1 * a.fx + clip.y1 * a.fz, a.cz + clip.x1 * a.fz - clip.y1 * a.fx);
  }
  return l.n - n0;
}

const missLoc = { u: 0, w: 0 };

/** Bounding-circle radius of a pose (Wu §4.4.1): the farthest corner from the CG. */
export const boundingRadius = (p: CarPose): number => sqrt2(Math.max(p.front, p.rear), p.hw);

/**
 * Wu §5.2.2, Fig 5-7: a collision is minor when the line through the contact point along the relative velocity
 * misses the car's central box (here half the car's extents): the contact is outside the box and the cross
 * products of the relative velocity with the vectors to the box's four corners all have the same sign.
 */
export function missesCentralBox(p: CarPose, x: number, z: number, vx: number, vz: number): boolean {
  const f = 0.5;
  const loc = missLoc;
  toLocal(p, x, z, loc);
  if (loc.u <= f * p.front && loc.u >= -f * p.rear && Math.abs(loc.w) <= f * p.hw) return false;
  const lx = p.fz, lz = -p.fx;
  let pos = 0, neg = 0;
  for (let j = 0; j < 4; j++) {
    const u = j < 2 ? f * p.front : -f * p.rear;
    const w = j === 0 || j === 3 ? f * p.hw : -f * p.hw;
    const qx = p.cx + u * p.fx + w * lx - x, qz = p.cz + u * p.fz + w * lz - z;
    const c = vx * qz - vz * qx;
    if (c > 0) pos++;
    else if (c < 0) neg++;
  }
  return pos === 0 || neg === 0;
}
