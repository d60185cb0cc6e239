/**
 * Passes 6–7: collision detection and response for every entity with RigidBody + CarCollider.
 *
 * Swept (predictive) detection: from the start-of-step state each car's yaw-plane motion over this tick
 * (v·dt, r·dt) is cut into N sub-poses so that no corner moves more than `sweepStep` (5 cm) between two tested
 * poses; the first sub-pose that meets something gives the contact, and the impulse is applied now, before the
 * integration, so the car never passes through (400 km/h at dt = 2 ms is 0.22 m a tick → 5 sub-poses).
 *
 * Car–scene: Knight & Bernard: restitution (eqs 15–17) or kinetic energy (eqs 18–35) per car, with
 * e(θ), μ(θ), P(θ) of docs/physics.md; contact point and normal from Wu Fig 4-4 (contact-points.ts), normal on the
 * CG side (= "opposite the approaching velocity" while approaching). Car–car: Wu ch. 4–5: sweep and
 * prune on x, bounding circles, Cohen–Sutherland outline crossings, wait while there is one point, eq 5-38
 * with e(α) (eq 5-39), friction ramp, minor collisions e < 0; one impulse, +J on one car and −J on the other.
 * The energy removed becomes crush (crush.ts) and Damage. Everything is in the yaw plane at CG height:
 * impulses are horizontal and applied at the CG's height, so they change P and L_y only (P += J, L += ρ × J).
 */
import { sqrt2 } from './impulse';
import { entitiesWith } from '../../../ecs/queries';
import { emitEvent, type SimWorld } from '../../../ecs/world';
import { applyImpulseAtPoint } from '../../../ecs/rigid-body';
import {
  angleToSurface, knightE, knightMu, knightP,
} from './coefficients';
import { newContactGeom, newPointList, reducePoints } from './contact-points';
import { absorbCrush, damageFromCrush, type CrushEnd } from './crush';
import {
  advancePose, boundingRadius, newPose, obstacleNormal, obstaclePoints, toLocal, type CarPose,
} from './detect';
import { newImpulseResult, solveEnergy, solveRestitution, STATIC_BODY, type ImpulseResult, type YawBody } from './impulse';
import { collisionRuntime, type CollisionRuntime } from './runtime';
import { newPairContact, solveCarPair, subSteps, type PairCar } from './pair-solve';
import { contactCode } from './contact-memory';

const END_NAMES = ['front', 'rear', 'left', 'right'] as const;

/** Yaw-plane view of a rigid body: v, ω_y and 1/I_yy of the world inverse inertia. */
export function yawBodyOf(world: SimWorld, eid: number, out: YawBody): YawBody {
  const b = world.c.RigidBody;
  out.invMass = 1 / b.mass[eid]!;
  // (I_world⁻¹)_yy = Σ_k R_{1k}² / I_k (row 1 of R = R3, R4, R5)
  out.invI = b.R3[eid]! ** 2 / b.Ixx[eid]! + b.R4[eid]! ** 2 / b.Iyy[eid]! + b.R5[eid]! ** 2 / b.Izz[eid]!;
  out.vx = b.vx[eid]!;
  out.vz = b.vz[eid]!;
  out.r = b.wy[eid]!;
  return out;
}

/** The car's yaw-plane rectangle now; false when the car's forward axis is (nearly) vertical. */
export function poseOf(world: SimWorld, eid: number, out: CarPose): boolean {
  const b = world.c.RigidBody, c = world.c.CarCollider;
  const fx = b.R2[eid]!, fz = b.R8[eid]!;
  const n = sqrt2(fx, fz);
  if (n < 0.2) return false;
  out.cx = b.px[eid]!;
  out.cz = b.pz[eid]!;
  out.fx = fx / n;
  out.fz = fz / n;
  out.front = c.front[eid]!;
  out.rear = c.rear[eid]!;
  out.hw = c.halfWidth[eid]!;
  return true;
}

/** Which end a world point on the outline belongs to: 0 front, 1 rear, 2 left, 3 right (nearest face). */
export function endAt(p: CarPose, x: number, z: number): number {
  const loc = endLoc, d = endGaps;
  toLocal(p, x, z, loc);
  d[0] = p.front - loc.u;
  d[1] = loc.u + p.rear;
  d[2] = p.hw - loc.w;
  d[3] = loc.w + p.hw;
  let best = 0;
  for (let k = 1; k < 4; k++) if (d[k]! < d[best]!) best = k;
  return best;
}
/** endAt's scratch (no allocation per contact). */
const endLoc = { u: 0, w: 0 }, endGaps = new Float64Array(4);

export function crushEndOf(world: SimWorld, eid: number, end: number, out: CrushEnd): CrushEnd {
  const c = world.c.CarCollider;
  out.cap = c.bumperCap[eid]!;
  out.F0 = c.F0[eid]!;
  out.kc = end === 0 ? c.kcF[eid]! : end === 1 ? c.kcR[eid]! : c.kcS[eid]!;
  out.crush = end === 0 ? c.crushF[eid]! : end === 1 ? c.crushR[eid]! : end === 2 ? c.crushL[eid]! : c.crushRt[eid]!;
  return out;
}

/** Residual crush of one end is capped at 60 % of the CG→face distance: the cabin does not fold away. */
export const MAX_CRUSH_FRACTION = 0.6;

export function addCrushTo(world: SimWorld, eid: number, end: number, dxIn: number): number {
  const c = world.c.CarCollider;
  const room =
    MAX_CRUSH_FRACTION * (end === 0 ? c.front[eid]! : end === 1 ? c.rear[eid]! : c.halfWidth[eid]!) -
    (end === 0 ? c.crushF[eid]! : end === 1 ? c.crushR[eid]! : end === 2 ? c.crushL[eid]! : c.crushRt[eid]!);
  const dx = Math.max(0, Math.min(dxIn, room));
  if (dx > 0) {
    if (end === 0) c.crushF[eid] = c.crushF[eid]! + dx;
    else if (end === 1) c.crushR[eid] = c.crushR[eid]! + dx;
    else if (end === 2) c.crushL[eid] = c.crushL[eid]! + dx;
    else c.crushRt[eid] = c.crushRt[eid]! + dx;
  }
  const d = damageFromCrush(c.crushF[eid]!, c.crushR[eid]!, c.crushL[eid]!, c.crushRt[eid]!);
  world.c.Damage.steerPullRad[eid] = d.steerPullRad;
  world.c.Damage.powerFactor[eid] = d.powerFactor;
  return dx;
}

// scratch
const pose0 = newPose(), poseK = newPose();
const pts = newPointList(64);
const geom = newContactGeom();
const nrm = { x: 0, z: 0 };
const yb1: YawBody = { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 };
const yb2: YawBody = { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 };
const res: ImpulseResult = newImpulseResult();
const endA: CrushEnd = { cap: 0, F0: 0, kc: 1, crush: 0 };
const endB: CrushEnd = { cap: 0, F0: 0, kc: 1, crush: 0 };
const added: [number, number] = [0, 0];
const cand: number[] = [];
const hitList: number[] = [];
const carList: number[] = [];



const nameOf = (rt: CollisionRuntime, eid: number): string | number => rt.names.get(eid) ?? eid;

function sceneContacts(world: SimWorld, rt: CollisionRuntime, eid: number): void {
  if (!poseOf(world, eid, pose0)) return;
  const scene = rt.scene;
  if (scene.n === 0) return;
  const b = world.c.RigidBody, c = world.c.CarCollider;
  const dt = world.dt;
  const vx = b.vx[eid]!, vz = b.vz[eid]!, r = b.wy[eid]!;
  const R = boundingRadius(pose0);
  const N = subSteps(sqrt2(vx, vz) * dt + Math.abs(r) * dt * R, rt.sweepStep);
  const x0 = Math.min(pose0.cx, pose0.cx + vx * dt) - R, x1 = Math.max(pose0.cx, pose0.cx + vx * dt) + R;
  const z0 = Math.min(pose0.cz, pose0.cz + vz * dt) - R, z1 = Math.max(pose0.cz, pose0.cz + vz * dt) + R;
  const ground = b.py[eid]! - c.cgHeight[eid]!;
  const yLo = ground + c.clearance[eid]!, yHi = ground + c.height[eid]!;
  // broad phase: Havok finds the candidates when a query world is attached (havok-queries.ts), else the TS grid;
  // the narrow phase below is the same float64 code either way (bit-identical contacts)
  const q = rt.queries;
  if (q) q.sync(scene);
  if ((q ? q.candidates(eid, x0, z0, x1, z1, yLo, yHi, cand) : scene.query(x0, z0, x1, z1, cand)) === 0) return;
  let nc = 0;
  for (const i of cand) if (scene.yMax[i]! > yLo && scene.yMin[i]! < yHi) cand[nc++] = i;
  cand.length = nc;
  if (nc === 0) return;
  // First sub-pose that meets anything.
  let kHit = -1;
  for (let k = 0; k <= N && kHit < 0; k++) {
    advancePose(pose0, vx, vz, r, (k / N) * dt, poseK);
    hitList.length = 0;
    for (const i of cand) {
      pts.n = 0;
      if (obstaclePoints(scene, i, poseK, pts) > 0) hitList.push(i);
    }
    if (hitList.length) kHit = k;
  }
  if (kHit < 0) return;
  for (let h = 0; h < hitList.length; h++) {
    const i = hitList[h]!;
    pts.n = 0;
    obstaclePoints(scene, i, poseK, pts);
    reducePoints(pts, geom);
    let nx = geom.nx, nz = geom.nz;
    if (geom.points < 2 || (nx === 0 && nz === 0)) {
      obstacleNormal(scene, i, geom.x, geom.z, nrm);
      nx = nrm.x;
      nz = nrm.z;
    }
    if (nx * (poseK.cx - geom.x) + nz * (poseK.cz - geom.z) < 0) {
      nx = -nx;
      nz = -nz;
    }
    const rx = geom.x - poseK.cx, rz = geom.z - poseK.cz;
    const key = contactCode('scene', i);
    rt.contacts.add(eid, key);
    yawBodyOf(world, eid, yb1);
    const theta = angleToSurface(yb1.vx, yb1.vz, nx, nz);
    const e = knightE(theta), mu = knightMu(theta);
    if (c.method[eid] === 1) solveEnergy(yb1, rx, rz, nx, nz, knightP(theta), mu, e, res);
    else solveRestitution(yb1, rx, rz, STATIC_BODY, 0, 0, nx, nz, e, mu, res);
    if (!(res.jn > 0)) continue;
    const py = b.py[eid]!;
    applyImpulseAtPoint(world, eid, res.jx, 0, res.jz, b.px[eid]! + rx, py, b.pz[eid]! + rz);
    const end = endAt(poseK, geom.x, geom.z);
    const dE = res.energyBefore - res.energyAfter;
    absorbCrush(dE, crushEndOf(world, eid, end, endA), null, added);
    added[0] = addCrushTo(world, eid, end, added[0]);
    if (!rt.contacts.had(eid, key)) {
      c.hits[eid] = c.hits[eid]! + 1;
      emitEvent(world, 'collision', {
        type: 'scene', ids: [nameOf(rt, eid), scene.names[i]!], point: [geom.x, py, geom.z], normal: [nx, 0, nz],
        points: geom.points, angle_deg: (theta * 180) / Math.PI, method: res.method, e: res.e, mu: res.mu,
        impulse_ns: sqrt2(res.jx, res.jz), ke_before: res.energyBefore, ke_after: res.energyAfter,
        friction_dropped: res.frictionDropped, end: [END_NAMES[end]], crush_added_m: [added[0]],
      });
    }
  }
}

// car–car broad phase scratch: each car's swept x and z extents, and the x order kept from tick to tick
let order = new Int32Array(0);
let orderN = 0;
let minX = new Float64Array(0), maxX = new Float64Array(0);
let minZ = new Float64Array(0), maxZ = new Float64Array(0);
/** Cars that took a car–car impulse this pass (their velocity no longer matches their swept z extents). */
let kicked = new Uint8Array(0);
/**
 * Slack on the z test, m: the outlines stay within the bounding circle to rounding error (the sub-poses' headings
 * come from dsin/dcos), so pairs apart by less than this in z still go to the narrow phase.
 */
const Z_SLACK_M = 0.01;

/** Each car's swept bounding-circle extents over the tick in x and z (the broad phase's boxes). */
function sweptExtents(world: SimWorld, cars: readonly number[], n: number): void {
  if (minX.length < n) {
    order = new Int32Array(n * 2);
    orderN = 0;
    minX = new Float64Array(n * 2);
    maxX = new Float64Array(n * 2);
    minZ = new Float64Array(n * 2);
    maxZ = new Float64Array(n * 2);
    kicked = new Uint8Array(n * 2);
  }
  const b = world.c.RigidBody, c = world.c.CarCollider;
  const dt = world.dt;
  for (let i = 0; i < n; i++) {
    const eid = cars[i]!;
    const R = sqrt2(Math.max(c.front[eid]!, c.rear[eid]!), c.halfWidth[eid]!);
    const x = b.px[eid]!, x2 = x + b.vx[eid]! * dt;
    minX[i] = Math.min(x, x2) - R;
    maxX[i] = Math.max(x, x2) + R;
    const z = b.pz[eid]!, z2 = z + b.vz[eid]! * dt;
    minZ[i] = Math.min(z, z2) - R - Z_SLACK_M;
    maxZ[i] = Math.max(z, z2) + R + Z_SLACK_M;
    kicked[i] = 0;
  }
}

/**
 * Sorts order[0..n) by (minX, index), a strict total order, so the result does not depend on where it starts:
 * insertion sort from last tick's order (nearly sorted, a few swaps) instead of a fresh sort each tick.
 */
function sortByMinX(n: number): void {
  if (orderN !== n) {
    for (let i = 0; i < n; i++) order[i] = i;
    orderN = n;
  }
  for (let a = 1; a < n; a++) {
    const v = order[a]!, key = minX[v]!;
    let k = a - 1;
    for (; k >= 0; k--) {
      const o = order[k]!;
      if (minX[o]! < key || (minX[o]! === key && o < v)) break;
      order[k + 1] = o;
    }
    order[k + 1] = v;
  }
}

/**
 * Sweep and prune on x, then the swept z extents: a pair whose boxes miss in z cannot meet within the tick (every
 * sub-pose's outline lies inside its car's swept circle), so it skips the pair solver, which would find no contact.
 * A car that already took an impulse this pass moves differently from its z box, so its pairs skip the z test.
 */
function carCarContacts(world: SimWorld, rt: CollisionRuntime, cars: readonly number[]): void {
  const n = cars.length;
  if (n < 2) return;
  sweptExtents(world, cars, n);
  sortByMinX(n);
  for (let ii = 0; ii < n; ii++) {
    const i = order[ii]!;
    for (let jj = ii + 1; jj < n && minX[order[jj]!]! <= maxX[i]!; jj++) {
      const j = order[jj]!;
      if ((minZ[j]! > maxZ[i]! || minZ[i]! > maxZ[j]!) && kicked[i]! + kicked[j]! === 0) continue;
      const a = Math.min(cars[i]!, cars[j]!), bb = Math.max(cars[i]!, cars[j]!);
      if (pairContact(world, rt, a, bb)) kicked[i] = kicked[j] = 1;
    }
  }
}

const pairA: PairCar = { pose: newPose(), body: yb1, cgY: 0 };
const pairB: PairCar = { pose: newPose(), body: yb2, cgY: 0 };
const pc = newPairContact();

/** Loads one ECS car into the pair solver's view (false when its forward axis is nearly vertical). */
function pairCarOf(world: SimWorld, eid: number, out: PairCar): boolean {
  if (!poseOf(world, eid, out.pose)) return false;
  yawBodyOf(world, eid, out.body);
  out.cgY = world.c.RigidBody.py[eid]!;
  return true;
}

/** The vertical extents of the two body boxes overlap (a car above another passes). */
function bodiesOverlapVertically(world: SimWorld, ea: number, eb: number): boolean {
  const b = world.c.RigidBody, c = world.c.CarCollider;
  const ga = b.py[ea]! - c.cgHeight[ea]!, gb = b.py[eb]! - c.cgHeight[eb]!;
  return !(ga + c.clearance[ea]! >= gb + c.height[eb]! || gb + c.clearance[eb]! >= ga + c.height[ea]!);
}

/**
 * One car pair: detection and Wu's one impulse (pair-solve.ts), +J on A and −J on B at the same world point
 * (Wu eq 5-11; the shared point keeps the pair's angular momentum), crush and the event. True when it applied an impulse.
 */
function pairContact(world: SimWorld, rt: CollisionRuntime, ea: number, eb: number): boolean {
  const c = world.c.CarCollider;
  if (!bodiesOverlapVertically(world, ea, eb)) return false;
  if (!pairCarOf(world, ea, pairA) || !pairCarOf(world, eb, pairB)) return false;
  if (!solveCarPair(pairA, pairB, world.dt, rt.sweepStep, pc)) return false;
  const key = contactCode('car', eb);
  rt.contacts.add(ea, key);
  const res = pc.res, geom = pc.geom;
  if (!(res.jn > 0)) return false;
  applyImpulseAtPoint(world, ea, res.jx, 0, res.jz, pc.x, pc.y, pc.z);
  applyImpulseAtPoint(world, eb, -res.jx, 0, -res.jz, pc.x, pc.y, pc.z);
  const enA = endAt(pc.poseA, geom.x, geom.z), enB = endAt(pc.poseB, geom.x, geom.z);
  absorbCrush(res.energyBefore - res.energyAfter, crushEndOf(world, ea, enA, endA), crushEndOf(world, eb, enB, endB), added);
  added[0] = addCrushTo(world, ea, enA, added[0]);
  added[1] = addCrushTo(world, eb, enB, added[1]);
  if (!rt.contacts.had(ea, key)) {
    c.hits[ea] = c.hits[ea]! + 1;
    c.hits[eb] = c.hits[eb]! + 1;
    emitEvent(world, 'collision', {
      type: 'car', ids: [nameOf(rt, ea), nameOf(rt, eb)], point: [pc.x, pc.y, pc.z], normal: [pc.nx, 0, pc.nz],
      points: geom.points, angle_deg: (pc.alpha * 180) / Math.PI, minor: pc.minor, method: res.method, e: res.e,
      mu: res.mu, impulse_ns: sqrt2(res.jx, res.jz), ke_before: res.energyBefore, ke_after: res.energyAfter,
      friction_dropped: res.frictionDropped, end: [END_NAMES[enA], END_NAMES[enB]], crush_added_m: [added[0], added[1]],
    });
  }
  return true;
}

/** Passes 6–7 (pipeline.ts). */
export function collisionPass(world: SimWorld): void {
  const rt = collisionRuntime(world);
  const live = entitiesWith(world, world.c.RigidBody, world.c.CarCollider);
  if (live.length === 0) return;
  carList.length = 0;
  const halted = world.c.RigidBody.halted;
  let ascending = true;
  for (const e of live) {
    if (halted[e] !== 0) continue; // a halted car (halt-guard.ts) takes no part
    if (carList.length > 0 && e < carList[carList.length - 1]!) ascending = false;
    carList.push(e);
  }
  // the query list is usually ascending already (a removal or a reused id can reorder it): sort only then
  const cars = ascending ? carList : carList.sort((a, b) => a - b);
  rt.contacts.begin(world);
  for (const eid of cars) sceneContacts(world, rt, eid);
  carCarContacts(world, rt, cars);
  rt.contacts.commit(world);
}

/** Pass 9: dynamic props (Havok), when a props world is attached. */
export function propsPass(world: SimWorld): void {
  collisionRuntime(world).props?.step(world);
}
