/**
 * Pass 9: dynamic props (cones, hay bales, barrels, fence posts) as Havok dynamic bodies stepped at the
 * simulation dt, knocked about by cars through impulses both ways.
 *
 * Car ↔ prop: the prop's footprint is a circle (radius of its PROP_SPECS entry) around its centre of mass; the
 * car's rectangle is swept over the tick against it (same sub-pose rule as the scene, detect.ts) and the
 * contact gets Wu's two-body impulse (impulse.ts, eq 5-38 with e(α), the friction ramp): +J on the car at CG
 * height, −J on the Havok body at the contact point (so a cone tips over). Props meet the ground, the static
 * obstacles and each other inside Havok. After the Havok step each prop's state is copied into its `Prop`
 * component (hashed: same run → same hash with props).
 */
import { sqrt2 } from './impulse';
import { addComponent } from 'bitecs';
import { emitEvent, spawnEntity, type SimWorld } from '../../../ecs/world';
import { entitiesWith } from '../../../ecs/queries';
import { applyImpulseAtPoint } from '../../../ecs/rigid-body';
import { angleToNormal, wuE, wuMu } from './coefficients';
import { newContactGeom, newPointList, pushPoint, reducePoints } from './contact-points';
import { absorbCrush, type CrushEnd } from './crush';
import { advancePose, boundingRadius, corners, insideRect, newPose } from './detect';
import { newImpulseResult, solveRestitution, type YawBody } from './impulse';
import { HavokScene, PROP_KINDS, PROP_SPECS, type HavokPropState, type PropKind } from './havok-scene';
import { collisionRuntime, type PropsHook } from './runtime';
import { contactCode, TickContacts } from './contact-memory';
import { useHavokSceneQueries } from './havok-queries';
import { releaseFreshHavok, takeFreshHavok } from './havok-instance';
import type { SceneColliders } from './scene';
import { crushEndOf, addCrushTo, endAt, poseOf, yawBodyOf } from './system';
import type { HavokPhysicsWithBindings } from '@babylonjs/havok';

export class HavokProps implements PropsHook {
  readonly scene: HavokScene;
  /** Prop entity ids in creation order, and their Havok prop indices. */
  readonly eids: number[] = [];
  /** Car–prop contact bookkeeping (an event is emitted when a contact starts; the memory is CarCollider state). */
  readonly contacts = new TickContacts('propContact');
  /**
   * Every prop was asleep after the last Havok step, and `kicked`: a car gave a prop an impulse this tick.
   * While all props sleep and nothing touches them a Havok step moves nothing (the rest of the props world is
   * static), so it is skipped: props cost ~nothing per tick until a car reaches them. The decision is made from
   * sim-driven state only, so the same run makes the same Havok calls (replays verify); Havok steps counted
   * in `steps`.
   */
  resting = false;
  kicked = false;
  steps = 0;

  constructor(hp: HavokPhysicsWithBindings, world: SimWorld) {
    this.scene = new HavokScene(hp, -world.gravity.y, world.dt);
  }

  /** Put every Havok prop body back to its `Prop` component state (snapshot restore). */
  restoreFromComponents(world: SimWorld): void {
    const P = world.c.Prop;
    // mirrored asleep props have exactly zero velocities (mirrorOne): all zero → the recording was resting
    // (no Havok step until a car kicks a prop), and the restored run must rest too
    let moving = false;
    for (const e of this.eids) if (P.vx[e] !== 0 || P.vy[e] !== 0 || P.vz[e] !== 0 || P.wx[e] !== 0 || P.wy[e] !== 0 || P.wz[e] !== 0) moving = true;
    for (let i = 0; i < this.eids.length; i++) {
      const e = this.eids[i]!;
      this.scene.setProp(
        i, [P.px[e]!, P.py[e]!, P.pz[e]!], [P.qw[e]!, P.qx[e]!, P.qy[e]!, P.qz[e]!], [P.vx[e]!, P.vy[e]!, P.vz[e]!], [P.wx[e]!, P.wy[e]!, P.wz[e]!],
      );
    }
    this.resting = !moving && this.eids.length > 0;
    this.kicked = false;
  }

  /** Frees the props world and gives its Havok instance back (reset to pristine, pooled: havok-instance.ts). */
  dispose(): void {
    if (this.scene.disposed) return;
    const hp = this.scene.hp;
    this.scene.dispose();
    releaseFreshHavok(hp);
  }

  step(world: SimWorld): void {
    this.contacts.begin(world);
    carPropContacts(world, this);
    this.contacts.commit(world);
    if (this.resting && !this.kicked) return;
    this.kicked = false;
    this.scene.step(world.dt);
    this.steps++;
    this.resting = mirror(world, this) === 0;
  }
}

/** Where the props world's ground comes from: a flat plane, or a heightfield patch sampling the sim's ground. */
export type PropsGround = number | { cx: number; cz: number; half: number; spacing: number };

/**
 * Create the Havok props world for `world`: `ground` is the height of a flat ground plane, or a square patch
 * (centre, half size, spacing in m) sampled from `world.ground` (slopes, stages). The scene's obstacles are added
 * (`obstacles: 'none'`: none — a stage adds only those near its props with `addObstacleToProps`).
 */
export function enableHavokProps(world: SimWorld, hp: HavokPhysicsWithBindings, ground: PropsGround = 0, opts: { obstacles?: 'all' | 'none' } = {}): HavokProps {
  const rt = collisionRuntime(world);
  if (rt.props instanceof HavokProps) return rt.props;
  // its own pristine Havok instance (wasm state as in a fresh process: same steps as `replay verify`; given back
  // by dispose); `hp`, the shared instance, serves the static query world (same answers whatever its heap holds)
  const props = new HavokProps(takeFreshHavok(hp), world);
  if (typeof ground === 'number') props.scene.addGroundPlane(ground);
  else {
    const gs = { h: 0, nx: 0, ny: 1, nz: 0, surface: 0 };
    props.scene.addGroundPatch((x, z) => (world.ground.sample(x, z, gs), gs.h), ground.cx, ground.cz, ground.half, ground.spacing);
  }
  if (opts.obstacles !== 'none') {
    const sc = rt.scene;
    for (let i = 0; i < sc.n; i++) addObstacleToProps(props, sc, i);
  }
  rt.props = props;
  useHavokSceneQueries(world, hp); // Havok is loaded: it finds the cars' candidate obstacles (havok-queries.ts)
  return props;
}

/** Scene obstacle i as a static body of the props world (props bounce off it). */
export function addObstacleToProps(props: HavokProps, sc: SceneColliders, i: number): void {
  const base = sc.yMin[i]!, height = sc.yMax[i]! - sc.yMin[i]!;
  if (sc.kind[i] === 0) props.scene.addObstacle({ kind: 'wall', a: [sc.p0[i]!, sc.p1[i]!], b: [sc.p2[i]!, sc.p3[i]!], base_m: base, height_m: height });
  else if (sc.kind[i] === 1) props.scene.addObstacle({ kind: 'box', center: [sc.p0[i]!, sc.p1[i]!], half_extents: [sc.p2[i]!, sc.p3[i]!], rot_y_rad: sc.p4[i]!, base_m: base, height_m: height });
  else props.scene.addObstacle({ kind: 'cylinder', center: [sc.p0[i]!, sc.p1[i]!], radius: sc.p2[i]!, base_m: base, height_m: height });
}

const st: HavokPropState = { p: [0, 0, 0], q: [1, 0, 0, 0], v: [0, 0, 0], w: [0, 0, 0] };

/** A prop entity standing at (x, y, z) (y = ground height), yaw rotY. Needs enableHavokProps first. */
export function spawnProp(world: SimWorld, kind: PropKind, x: number, y: number, z: number, rotY = 0): number {
  const props = collisionRuntime(world).props;
  if (!(props instanceof HavokProps)) throw new Error('spawnProp: call enableHavokProps(world, hp) first');
  const spec = PROP_SPECS[kind];
  if (!spec) throw new Error(`spawnProp: kind must be one of ${PROP_KINDS.join(', ')}, found "${kind}"`);
  const idx = props.scene.addProp(kind, x, y, z, rotY);
  const eid = spawnEntity(world);
  addComponent(world, eid, world.c.Prop);
  const P = world.c.Prop;
  P.kind[eid] = PROP_KINDS.indexOf(kind);
  P.mass[eid] = spec.mass;
  P.radius[eid] = spec.radius;
  P.height[eid] = spec.height;
  props.eids.push(eid);
  props.resting = false;
  if (idx !== props.eids.length - 1) throw new Error('spawnProp: prop index mismatch');
  mirrorOne(world, props, idx);
  return eid;
}

/** Copies prop i's Havok state into `Prop`; returns 1 when the body is awake, 0 when asleep. */
function mirrorOne(world: SimWorld, props: HavokProps, i: number, skipSleeping = false): number {
  const eid = props.eids[i]!;
  const P = world.c.Prop;
  // A sleeping Havok body does not move: its mirrored state is already current (one cheap call instead of three).
  if (skipSleeping && !props.scene.isActive(i)) {
    if (P.vx[eid] !== 0 || P.vy[eid] !== 0 || P.vz[eid] !== 0 || P.wx[eid] !== 0 || P.wy[eid] !== 0 || P.wz[eid] !== 0) {
      props.scene.readProp(i, st);
      [P.px[eid], P.py[eid], P.pz[eid]] = st.p;
      [P.qw[eid], P.qx[eid], P.qy[eid], P.qz[eid]] = st.q;
      P.vx[eid] = P.vy[eid] = P.vz[eid] = P.wx[eid] = P.wy[eid] = P.wz[eid] = 0;
    }
    return 0;
  }
  props.scene.readProp(i, st);
  [P.px[eid], P.py[eid], P.pz[eid]] = st.p;
  [P.qw[eid], P.qx[eid], P.qy[eid], P.qz[eid]] = st.q;
  [P.vx[eid], P.vy[eid], P.vz[eid]] = st.v;
  [P.wx[eid], P.wy[eid], P.wz[eid]] = st.w;
  return 1;
}

/** Mirrors every prop; returns how many are awake. */
function mirror(world: SimWorld, props: HavokProps): number {
  let awake = 0;
  for (let i = 0; i < props.eids.length; i++) awake += mirrorOne(world, props, i, true);
  return awake;
}

/** Centre of mass of a prop: origin + R(q)·(0, h/2, 0). */
function propCom(world: SimWorld, eid: number, out: { x: number; y: number; z: number }): void {
  const P = world.c.Prop;
  const w = P.qw[eid]!, x = P.qx[eid]!, y = P.qy[eid]!, z = P.qz[eid]!;
  const h = 0.5 * P.height[eid]!;
  // second column of R(q)
  out.x = P.px[eid]! + h * 2 * (x * y - w * z);
  out.y = P.py[eid]! + h * (1 - 2 * (x * x + z * z));
  out.z = P.pz[eid]! + h * 2 * (y * z + w * x);
}

const pose0 = newPose(), poseK = newPose();
const pts = newPointList(16);
const geom = newContactGeom();
const com = { x: 0, y: 0, z: 0 };
const yc: YawBody = { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 };
const yp: YawBody = { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 };
const res = newImpulseResult();
const endA: CrushEnd = { cap: 0, F0: 0, kc: 1, crush: 0 };
const added: [number, number] = [0, 0];
const cx = new Float64Array(4), cz = new Float64Array(4);

function circlePoints(x: number, z: number, rad: number): void {
  pts.n = 0;
  corners(poseK, cx, cz);
  for (let e = 0; e < 4; e++) {
    const ax = cx[e]!, az = cz[e]!, bx = cx[(e + 1) & 3]!, bz = cz[(e + 1) & 3]!;
    const dx = bx - ax, dz = bz - az, fx = ax - x, fz = az - z;
    const A = dx * dx + dz * dz, B = 2 * (fx * dx + fz * dz), C = fx * fx + fz * fz - rad * rad;
    const disc = B * B - 4 * A * C;
    if (disc < 0) continue;
    const sq = Math.sqrt(disc);
    const t0 = (-B - sq) / (2 * A), t1 = (-B + sq) / (2 * A);
    if (t0 >= 0 && t0 <= 1) pushPoint(pts, ax + t0 * dx, az + t0 * dz);
    if (t1 >= 0 && t1 <= 1) pushPoint(pts, ax + t1 * dx, az + t1 * dz);
  }
  if (pts.n === 0 && insideRect(poseK, x, z)) pushPoint(pts, x, z); // prop swallowed whole: push it out radially
}

/** Where the prop's centre is at the first touch found by sweepHit (m), and the contact normal (unit, xz). */
const propAt = { x: 0, z: 0 };
const normal = { x: 0, z: 0 };

/**
 * Continuous test over the tick in N sub-steps: the car's pose advanced (into poseK) and the prop's centre
 * moved with their velocities until the car's outline touches the prop's circle (contact points in pts).
 */
function sweepHit(world: SimWorld, car: number, pe: number, rad: number, N: number): boolean {
  const b = world.c.RigidBody, P = world.c.Prop;
  const dt = world.dt;
  let hit = false;
  let px = com.x, pz = com.z;
  for (let k = 0; k <= N && !hit; k++) {
    const t = (k / N) * dt;
    advancePose(pose0, b.vx[car]!, b.vz[car]!, b.wy[car]!, t, poseK);
    px = com.x + P.vx[pe]! * t;
    pz = com.z + P.vz[pe]! * t;
    circlePoints(px, pz, rad);
    hit = pts.n > 0;
  }
  propAt.x = px;
  propAt.z = pz;
  return hit;
}

/** The contact normal (into `normal`), pointing toward the car: the reduced points' edge normal, else radial. */
function contactNormal(px: number, pz: number): void {
  let nx = geom.nx, nz = geom.nz;
  if (geom.points < 2 || (nx === 0 && nz === 0)) {
    // radial normal of the prop's circle (from the prop centre to the contact, or car CG → prop when swallowed)
    nx = geom.x - px;
    nz = geom.z - pz;
    if (sqrt2(nx, nz) < 1e-9) {
      nx = poseK.cx - px;
      nz = poseK.cz - pz;
    }
    const L = sqrt2(nx, nz) || 1;
    nx /= L;
    nz /= L;
  }
  if (nx * (poseK.cx - geom.x) + nz * (poseK.cz - geom.z) < 0) {
    nx = -nx;
    nz = -nz;
  }
  normal.x = nx;
  normal.z = nz;
}

function carPropContacts(world: SimWorld, props: HavokProps): void {
  const rt = collisionRuntime(world);
  const cars = entitiesWith(world, world.c.RigidBody, world.c.CarCollider);
  if (cars.length === 0 || props.eids.length === 0) return;
  const b = world.c.RigidBody, c = world.c.CarCollider, P = world.c.Prop;
  const dt = world.dt;
  const sorted = Array.from(cars).sort((p, q) => p - q);
  for (const car of sorted) {
    if (b.halted[car] !== 0 || !poseOf(world, car, pose0)) continue; // a halted car (halt-guard.ts) takes no part
    const R = boundingRadius(pose0);
    const ground = b.py[car]! - c.cgHeight[car]!;
    const yLo = ground + c.clearance[car]!, yHi = ground + c.height[car]!;
    for (let i = 0; i < props.eids.length; i++) {
      const pe = props.eids[i]!;
      // cheap reject on the prop's base position (its centre of mass is within its height of it)
      const reach = R + P.height[pe]! + 2 * P.radius[pe]! + (Math.abs(b.vx[car]!) + Math.abs(b.vz[car]!) + Math.abs(P.vx[pe]!) + Math.abs(P.vz[pe]!)) * dt;
      if (Math.abs(P.px[pe]! - pose0.cx) > reach || Math.abs(P.pz[pe]! - pose0.cz) > reach) continue;
      propCom(world, pe, com);
      const rad = P.radius[pe]! * (PROP_SPECS[PROP_KINDS[P.kind[pe]!]!].shape === 'box' ? Math.SQRT2 : 1);
      const half = Math.max(0.5 * P.height[pe]!, rad);
      if (com.y + half <= yLo || com.y - half >= yHi) continue;
      const rvx = b.vx[car]! - P.vx[pe]!, rvz = b.vz[car]! - P.vz[pe]!;
      const travel = (sqrt2(rvx, rvz) + Math.abs(b.wy[car]!) * R) * dt;
      if (sqrt2(com.x - pose0.cx, com.z - pose0.cz) > R + rad + travel) continue;
      if (!sweepHit(world, car, pe, rad, Math.min(64, Math.max(1, Math.ceil(travel / rt.sweepStep))))) continue;
      const px = propAt.x, pz = propAt.z;
      reducePoints(pts, geom);
      contactNormal(px, pz);
      const nx = normal.x, nz = normal.z;
      const key = contactCode('prop', pe);
      props.contacts.add(car, key);
      yawBodyOf(world, car, yc);
      const m = P.mass[pe]!;
      yp.invMass = 1 / m;
      yp.invI = 1 / props.scene.propYawInertia(PROP_KINDS[P.kind[pe]!]!);
      yp.vx = P.vx[pe]!;
      yp.vz = P.vz[pe]!;
      yp.r = P.wy[pe]!;
      const r1x = geom.x - poseK.cx, r1z = geom.z - poseK.cz;
      const r2x = geom.x - px, r2z = geom.z - pz;
      const vrx = yc.vx + yc.r * r1z - (yp.vx + yp.r * r2z), vrz = yc.vz - yc.r * r1x - (yp.vz - yp.r * r2x);
      const alpha = angleToNormal(vrx, vrz, nx, nz);
      solveRestitution(yc, r1x, r1z, yp, r2x, r2z, nx, nz, wuE(alpha), wuMu(alpha), res);
      if (!(res.jn > 0)) continue;
      const cy = b.py[car]!;
      applyImpulseAtPoint(world, car, res.jx, 0, res.jz, b.px[car]! + r1x, cy, b.pz[car]! + r1z);
      const hitY = Math.min(Math.max(cy, com.y - half), com.y + half);
      props.scene.applyPropImpulse(i, [geom.x, hitY, geom.z], [-res.jx, 0, -res.jz]);
      props.kicked = true;
      const end = endAt(poseK, geom.x, geom.z);
      absorbCrush(res.energyBefore - res.energyAfter, crushEndOf(world, car, end, endA), null, added);
      added[0] = addCrushTo(world, car, end, added[0]);
      if (!props.contacts.had(car, key)) {
        emitEvent(world, 'collision', {
          type: 'prop', ids: [rt.names.get(car) ?? car, rt.names.get(pe) ?? pe], point: [geom.x, hitY, geom.z], normal: [nx, 0, nz],
          points: geom.points, angle_deg: (alpha * 180) / Math.PI, method: res.method, e: res.e, mu: res.mu,
          impulse_ns: sqrt2(res.jx, res.jz), ke_before: res.energyBefore, ke_after: res.energyAfter,
          friction_dropped: res.frictionDropped, crush_added_m: [added[0]],
        });
      }
    }
  }
}
