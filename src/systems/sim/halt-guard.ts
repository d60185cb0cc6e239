/**
 * The simulation's last line of defence: a car whose state went non-finite or ran away is stopped, alone, with
 * an error event, instead of spreading NaN into the hash, the other cars (collisions) and the views.
 *
 * Checked once per tick after every pass that moves the cars (integration, props), per running car:
 *  • non-finite: any NaN/±Infinity in its state (chassis r, P, q, L; engine speed; each wheel's spin, angle,
 *    travel, travel rate, tread deflections) — Σ 0·x over those fields is NaN exactly when one of them is;
 *  • runaway speed: |P|/m > HALT_MAX_SPEED (200 m/s = 720 km/h, well past any car's top speed);
 *  • under the ground: CG more than HALT_BELOW_TERRAIN (2 m) below the terrain under it: one ground sample, or
 *    none when the ground's height ceiling (`Ground.heightCeilingAt`, a per-tile upper bound of the height;
 *    terrain/height-ceiling.ts on stages) is at most 2 m above the CG, which proves the sample would pass.
 * A halted car: RigidBody.halted = reason (state: hashed, keyframed, so a replay or a restored keyframe
 * reproduces it), zero momenta and no forces (applyBodyForces), dropped from the running-car list that every
 * vehicle pass walks, skipped by collisions and props; other cars run on. Non-finite pose coordinates are
 * put back to the car's pose at the start of the tick (kept by `haltCheckpointPass`), or 0 (identity
 * orientation) when that was not finite either; non-finite wheel/engine state is zeroed and the car's
 * wheels, engine and driveline stop (its last driveline solve and ABS target slip are zeroed). A recovery (placeCarAtRest / the replay adapter's place) copies a fresh car's state,
 * halted = 0 included, so the car drives again.
 */
import type { SimWorld } from '../../ecs/world';
import { emitEvent } from '../../ecs/world';
import { groundHeight, groundSample } from '../../ecs/ground';
import { updateDerived } from '../../ecs/rigid-body';
import { syncRunningCars, vehicles, type CarRuntime } from './vehicle/registry';
import { collisionRuntime } from './collision/runtime';

/** Fastest credible car speed (m/s); beyond it the state is a runaway. */
export const HALT_MAX_SPEED = 200;
/** How far the CG may sink below the terrain under it before the car counts as fallen through (m). */
export const HALT_BELOW_TERRAIN = 2;

export const HALT_REASONS = ['', 'non-finite', 'overspeed', 'below-terrain'] as const;
export type HaltReason = Exclude<(typeof HALT_REASONS)[number], ''>;

const POSE = 7; // px, py, pz, qw, qx, qy, qz
const WHEEL_STATE = ['omega', 'angle', 'travel', 'travelRate', 'ux', 'uy'] as const;
const BODY_STATE = ['px', 'py', 'pz', 'Px', 'Py', 'Pz', 'qw', 'qx', 'qy', 'qz', 'Lx', 'Ly', 'Lz'] as const;

interface GuardScratch {
  /** Start-of-tick pose of each car, indexed by eid·7. */
  pose: Float64Array;
}

declare module '../../ecs/world-types' {
  interface WorldRuntime {
    haltGuard?: GuardScratch;
  }
}

const gs = groundSample();

/** First pass of the tick: running-car list in step with RigidBody.halted, and each car's pose remembered. */
export function haltCheckpointPass(world: SimWorld): void {
  syncRunningCars(world);
  const s = (world.runtime.haltGuard ??= { pose: new Float64Array(world.capacity * POSE) });
  const b = world.c.RigidBody, p = s.pose;
  for (const rt of vehicles(world).list) {
    const e = rt.eid, o = e * POSE;
    p[o] = b.px[e]!;
    p[o + 1] = b.py[e]!;
    p[o + 2] = b.pz[e]!;
    p[o + 3] = b.qw[e]!;
    p[o + 4] = b.qx[e]!;
    p[o + 5] = b.qy[e]!;
    p[o + 6] = b.qz[e]!;
  }
}

/**
 * NaN when any state value of the car is NaN or ±Infinity, else 0: each 0·x is 0 or NaN (a plain sum of the
 * values could overflow for finite ones). Written out: this runs for every car every tick.
 */
function nonFinite(world: SimWorld, rt: CarRuntime): number {
  const b = world.c.RigidBody, W = world.c.Wheel, e = rt.eid;
  let z =
    0 * b.px[e]! + 0 * b.py[e]! + 0 * b.pz[e]! + 0 * b.Px[e]! + 0 * b.Py[e]! + 0 * b.Pz[e]! +
    0 * b.qw[e]! + 0 * b.qx[e]! + 0 * b.qy[e]! + 0 * b.qz[e]! + 0 * b.Lx[e]! + 0 * b.Ly[e]! + 0 * b.Lz[e]! +
    0 * world.c.Car.omegaE[e]!;
  const wh = rt.wheels;
  for (let i = 0; i < 4; i++) {
    const w = wh[i]!;
    z += 0 * W.omega[w]! + 0 * W.angle[w]! + 0 * W.travel[w]! + 0 * W.travelRate[w]! + 0 * W.ux[w]! + 0 * W.uy[w]!;
  }
  return z;
}

/** The check of one car (see file comment); null when the car is fine. */
function faultOf(world: SimWorld, rt: CarRuntime): { reason: HaltReason; detail: string } | null {
  const b = world.c.RigidBody, e = rt.eid;
  if (nonFinite(world, rt) !== 0) return { reason: 'non-finite', detail: firstNonFinite(world, rt) };
  const m = b.mass[e]!;
  const v2 = (b.Px[e]! ** 2 + b.Py[e]! ** 2 + b.Pz[e]! ** 2) / (m * m);
  if (v2 > HALT_MAX_SPEED * HALT_MAX_SPEED)
    return { reason: 'overspeed', detail: `|v| = ${Math.sqrt(v2).toPrecision(4)} m/s, expected ≤ ${HALT_MAX_SPEED} m/s` };
  const g = world.ground, x = b.px[e]!, z = b.pz[e]!, y = b.py[e]!;
  // Skip the ground sample when the ground's ceiling already clears the car: ceiling ≥ height (Ground
  // .heightCeilingAt) and rounded subtraction is monotone, so ceiling − y ≤ limit ⇒ height − y ≤ limit, the verdict
  // the sample would give (x, z, y are finite here: the non-finite check came first).
  if (g.heightCeilingAt !== undefined && g.heightCeilingAt(x, z) - y <= HALT_BELOW_TERRAIN) return null;
  const depth = groundHeight(g, x, z, gs) - y;
  if (depth > HALT_BELOW_TERRAIN)
    return { reason: 'below-terrain', detail: `CG ${depth.toPrecision(4)} m below the terrain, expected < ${HALT_BELOW_TERRAIN} m` };
  return null;
}

/** Names the first non-finite state value (fault path only). */
function firstNonFinite(world: SimWorld, rt: CarRuntime): string {
  const b = world.c.RigidBody, W = world.c.Wheel, e = rt.eid;
  for (const f of BODY_STATE) if (!Number.isFinite(b[f][e]!)) return `RigidBody.${f} = ${b[f][e]}`;
  if (!Number.isFinite(world.c.Car.omegaE[e]!)) return `Car.omegaE = ${world.c.Car.omegaE[e]}`;
  for (let i = 0; i < 4; i++)
    for (const f of WHEEL_STATE) if (!Number.isFinite(W[f][rt.wheels[i]!]!)) return `Wheel[${i}].${f} = ${W[f][rt.wheels[i]!]}`;
  return 'state';
}

/** Freeze the car where it is (see file comment). */
function freeze(world: SimWorld, rt: CarRuntime, code: number): void {
  const b = world.c.RigidBody, W = world.c.Wheel, e = rt.eid;
  const start = world.runtime.haltGuard?.pose;
  const pose = [b.px, b.py, b.pz, b.qw, b.qx, b.qy, b.qz];
  const poseOk = pose.every((f) => Number.isFinite(f[e]!));
  for (let k = 0; k < POSE && !poseOk; k++) {
    const kept = start ? start[e * POSE + k]! : NaN;
    pose[k]![e] = Number.isFinite(kept) ? kept : k === 3 ? 1 : 0;
  }
  for (const f of [b.Px, b.Py, b.Pz, b.Lx, b.Ly, b.Lz, b.fx, b.fy, b.fz, b.tx, b.ty, b.tz]) f[e] = 0;
  const qn = Math.hypot(b.qw[e]!, b.qx[e]!, b.qy[e]!, b.qz[e]!);
  if (!(qn > 0)) [b.qw[e], b.qx[e], b.qy[e], b.qz[e]] = [1, 0, 0, 0];
  b.halted[e] = code;
  updateDerived(world, e);
  const C = world.c.Car;
  C.omegaE[e] = 0;
  // the driveline's last solve (state the next tick would read) is cleared with it: a stopped driveline
  C.clutchTorque[e] = C.lockTorqueFront[e] = C.lockTorqueRear[e] = C.lockTorqueCentre[e] = 0;
  C.clutchSticking[e] = C.diffSticking[e] = 0;
  for (const w of rt.wheels) {
    W.omega[w] = W.travelRate[w] = W.ux[w] = W.uy[w] = W.peakSlip[w] = 0;
    if (!Number.isFinite(W.angle[w]!)) W.angle[w] = 0;
    if (!Number.isFinite(W.travel[w]!)) W.travel[w] = 0;
  }
}

/**
 * After the integration and props: stop every running car whose state is non-finite or runaway, with a
 * `car-halted` event { car (entity), id (scenario/collision name, if any), car_id (car file id), reason,
 * detail, message }. Deterministic: cars in ascending entity order, decisions from sim state only.
 */
export function haltGuardPass(world: SimWorld): void {
  const list = vehicles(world).list;
  let halted = false;
  for (let i = 0; i < list.length; i++) {
    const rt = list[i]!;
    const fault = faultOf(world, rt);
    if (!fault) continue;
    freeze(world, rt, HALT_REASONS.indexOf(fault.reason));
    halted = true;
    const name = collisionRuntime(world).names.get(rt.eid);
    const who = `car ${rt.eid}${name !== undefined ? ` "${name}"` : ''} (${rt.cfg.id})`;
    emitEvent(world, 'car-halted', {
      car: rt.eid, id: name ?? null, car_id: rt.cfg.id, reason: fault.reason, detail: fault.detail,
      message: `${who} stopped at tick ${world.tick}: ${fault.reason} (${fault.detail})`,
    });
  }
  if (halted) syncRunningCars(world);
}
