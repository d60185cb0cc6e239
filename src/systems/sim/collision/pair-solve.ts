/**
 * One car–car contact and its response from two yaw-plane states, without a world (Wu ch. 4–5): bounding circles
 * widened by the relative travel, the swept sub-poses with Cohen–Sutherland outline crossings, Wu Fig 4-4 point
 * reduction, the shared contact point, e(α) (eq 5-39), the friction ramp, minor collisions and eq 5-38's impulse.
 * The collision pass (system.ts) calls it on the ECS cars; the multiplayer collider (server/rooms/collider.ts)
 * calls it on the states the clients sent, so both run the same code path.
 */
import { angleToNormal, wuE, wuMu, WU_MINOR_E } from './coefficients';
import { newContactGeom, newPointList, reducePoints, type ContactGeom } from './contact-points';
import { advancePose, boundingRadius, carCarPoints, corners, missesCentralBox, newPose, type CarPose } from './detect';
import { newImpulseResult, solveRestitution, sqrt2, type ImpulseResult, type YawBody } from './impulse';

const MAX_SUB = 64;
/**
 * Slack on the swept-box separation test, m: its projections and the clipper's car-local corners round
 * differently (≈ 1e-13 m at these coordinates); a gap under this goes on to the sub-pose test.
 */
const SWEPT_BOX_SLACK_M = 1e-6;

/** Sub-poses of a sweep: no corner moves more than `step` between two (at most 64). */
export function subSteps(travel: number, step: number): number {
  return Math.min(MAX_SUB, Math.max(1, Math.ceil(travel / step)));
}

/** A car as the pair solver sees it: its rectangle now, its yaw-plane motion and its CG height (world y). */
export interface PairCar {
  pose: CarPose;
  body: YawBody;
  cgY: number;
}

/** The result of `solveCarPair`: contact geometry at the first touching sub-pose and the impulse on car A. */
export interface PairContact {
  /** Poses of A and B at the first sub-pose with two crossing points. */
  poseA: CarPose;
  poseB: CarPose;
  geom: ContactGeom;
  /** Unit normal toward car A (world x, z). */
  nx: number;
  nz: number;
  /** The one world point both impulses act at: the midpoint of the contact seen from each start-of-step CG. */
  x: number;
  y: number;
  z: number;
  /** Angle between the contact's relative velocity and the normal (rad). */
  alpha: number;
  minor: boolean;
  /** Impulse on A (B receives −J); jn = 0 when the pair is not approaching. */
  res: ImpulseResult;
}

export const newPairContact = (): PairContact => ({
  poseA: newPose(), poseB: newPose(), geom: newContactGeom(), nx: 0, nz: 0, x: 0, y: 0, z: 0, alpha: 0,
  minor: false, res: newImpulseResult(),
});

const pts = newPointList(64);

/** Bounding circles (Wu §4.4.1) widened by the relative travel and spin over dt; returns that travel, or −1 (apart). */
function sweptReach(a: PairCar, b: PairCar, dt: number): number {
  const Ra = sqrt2(Math.max(a.pose.front, a.pose.rear), a.pose.hw);
  const Rb = sqrt2(Math.max(b.pose.front, b.pose.rear), b.pose.hw);
  const rel = sqrt2(a.body.vx - b.body.vx, a.body.vz - b.body.vz) * dt;
  const spin = (Math.abs(a.body.r) * Ra + Math.abs(b.body.r) * Rb) * dt;
  const dx = a.pose.cx - b.pose.cx, dz = a.pose.cz - b.pose.cz;
  const reach = Ra + Rb + rel + spin;
  return dx * dx + dz * dz > reach * reach ? -1 : rel + spin;
}

const bxs = new Float64Array(4), bzs = new Float64Array(4);

/**
 * B's rectangle, grown by gb, misses A's rectangle grown by ga along one of A's two axes (a separating axis).
 * A rectangle grown by g holds every point within g of it (a Minkowski sum bounded by its box).
 */
function apartOnAxesOf(a: CarPose, ga: number, b: CarPose, gb: number): boolean {
  corners(b, bxs, bzs);
  let u0 = Infinity, u1 = -Infinity, w0 = Infinity, w1 = -Infinity;
  for (let j = 0; j < 4; j++) {
    const dx = bxs[j]! - a.cx, dz = bzs[j]! - a.cz;
    const u = dx * a.fx + dz * a.fz, w = dx * a.fz - dz * a.fx;
    u0 = u < u0 ? u : u0;
    u1 = u > u1 ? u : u1;
    w0 = w < w0 ? w : w0;
    w1 = w > w1 ? w : w1;
  }
  const g = ga + gb;
  return u0 > a.front + g || u1 < -a.rear - g || w0 > a.hw + g || w1 < -a.hw - g;
}

/**
 * Neither outline can meet the other at any sub-pose over dt: a sub-pose moves each outline point by at most
 * |v| t + |r| t R (translation, plus the yaw arc at the bounding radius R), so every sub-pose outline lies in
 * the start rectangle grown by that much, and two grown rectangles apart on one of their four axes (separating
 * axis theorem) have no crossing points. The sub-pose test would find none either: skipping it keeps every bit.
 */
export function sweptBoxesApart(a: PairCar, b: PairCar, dt: number): boolean {
  const ga = (sqrt2(a.body.vx, a.body.vz) + Math.abs(a.body.r) * boundingRadius(a.pose)) * dt + SWEPT_BOX_SLACK_M;
  const gb = (sqrt2(b.body.vx, b.body.vz) + Math.abs(b.body.r) * boundingRadius(b.pose)) * dt + SWEPT_BOX_SLACK_M;
  return apartOnAxesOf(a.pose, ga, b.pose, gb) || apartOnAxesOf(b.pose, gb, a.pose, ga);
}

/** First sub-pose over dt where the outlines cross at two or more points (Wu §4.4.3: one point waits). */
function firstCrossing(a: PairCar, b: PairCar, dt: number, N: number, out: PairContact): boolean {
  for (let k = 0; k <= N; k++) {
    const t = (k / N) * dt;
    advancePose(a.pose, a.body.vx, a.body.vz, a.body.r, t, out.poseA);
    advancePose(b.pose, b.body.vx, b.body.vz, b.body.r, t, out.poseB);
    pts.n = 0;
    if (carCarPoints(out.poseA, out.poseB, pts) >= 2) return true;
  }
  return false;
}

/**
 * Detects the pair's contact over the next `dt` and solves its impulse into `out`. Returns false when the cars do
 * not touch; true with `out.res.jn = 0` when they touch but are not approaching.
 */
export function solveCarPair(a: PairCar, b: PairCar, dt: number, sweepStep: number, out: PairContact): boolean {
  const travel = sweptReach(a, b, dt);
  if (travel < 0 || sweptBoxesApart(a, b, dt)) return false;
  if (!firstCrossing(a, b, dt, subSteps(travel, sweepStep), out)) return false;
  const g = out.geom, pA = out.poseA, pB = out.poseB;
  reducePoints(pts, g);
  if (g.points < 2 || (g.nx === 0 && g.nz === 0)) return false;
  const flip = g.nx * (pA.cx - pB.cx) + g.nz * (pA.cz - pB.cz) < 0;
  out.nx = flip ? -g.nx : g.nx;
  out.nz = flip ? -g.nz : g.nz;
  // one world point for the pair: the midpoint of the sub-pose contact taken relative to each start-of-step CG
  out.x = 0.5 * (a.pose.cx + (g.x - pA.cx) + (b.pose.cx + (g.x - pB.cx)));
  out.y = 0.5 * (a.cgY + b.cgY);
  out.z = 0.5 * (a.pose.cz + (g.z - pA.cz) + (b.pose.cz + (g.z - pB.cz)));
  const r1x = out.x - a.pose.cx, r1z = out.z - a.pose.cz;
  const r2x = out.x - b.pose.cx, r2z = out.z - b.pose.cz;
  const ya = a.body, yb = b.body;
  // relative velocity of A's contact point w.r.t. B's
  const vrx = ya.vx + ya.r * r1z - (yb.vx + yb.r * r2z);
  const vrz = ya.vz - ya.r * r1x - (yb.vz - yb.r * r2x);
  out.alpha = angleToNormal(vrx, vrz, out.nx, out.nz);
  out.minor = missesCentralBox(pA, g.x, g.z, -vrx, -vrz) && missesCentralBox(pB, g.x, g.z, vrx, vrz);
  const e = out.minor ? WU_MINOR_E : wuE(out.alpha);
  solveRestitution(ya, r1x, r1z, yb, r2x, r2z, out.nx, out.nz, e, wuMu(out.alpha), out.res);
  return true;
}
