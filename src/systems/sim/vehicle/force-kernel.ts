/**
 * The force passes 2 and 4–5b in WebAssembly (wasm/assembly/forces.ts): the wheels' contact and suspension
 * (suspension-contact.ts `suspensionCar`), the tyres (tires.ts `tiresCar`), brakes and aero (brakes-aero.ts
 * `brakesAeroCar`) and the wheels' travel dynamics (unsprung.ts `unsprungCar`), and the driveline solve
 * (vehicle-block.ts `drivelineAccelerations`, `runDrivelineKernel`), ported operation for operation, so the same
 * bits, reading and writing the world's components in place. A world's components are views into one WebAssembly
 * memory (src/ecs/components/index.ts); the kernel imports that memory, so a call moves no data: the JavaScript side
 * keeps the per-entity constants (each wheel's tyre, suspension, brake and unsprung constants and its position, each
 * car's aero and driveline constants) and the surface table in the kernels' area after the stores current, and
 * samples the ground where the kernel asks for it. Measured on the peers car: docs/vehicle.md "Cost", docs/ai.md.
 *
 * One instance per world (its memory). Where the module does not compile (or its lazy chunk has not arrived yet), the
 * world's components are in a plain ArrayBuffer (no WebAssembly memory could be had) or its surface table does not
 * fit the kernels' area, the passes stay in TypeScript (`forceKernelError` says why).
 */
import type { SimWorld } from '../../../ecs/world';
import { componentMemory, KERNEL_ENTITY_F64, KERNEL_TABLE_BYTES } from '../../../ecs/components/index';
import { dcos, dsin } from '../../../../terrain/dmath';
import { vehicles, type CarRuntime } from './registry';
import type { SurfaceTable } from '../../../content/surface-table';
import { LazyKernel } from '../../../../terrain/wasm/compile';
import { forceStage, groundPatch } from '../../../ecs/ground';
import { keepPatch } from './suspension-contact';

/**
 * The fields the kernel reads and writes, in the order of its `setFields` table (wasm/assembly/forces.ts); its three
 * table offsets (surface table, its rows, the constants) follow these, then EXTRA.
 */
const TABLE = [
  ...['R0', 'R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'px', 'py', 'pz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz', 'fx', 'fy', 'fz', 'tx', 'ty', 'tz'].map(
    (f) => ['RigidBody', f] as const,
  ),
  ...['nx', 'ny', 'nz', 'cx', 'cy', 'cz', 'load', 'omega', 'surface', 'grounded', 'ux', 'uy', 'fx', 'fy', 'vx', 'vy', 'slipRatio', 'tireAxis', 'dux', 'duy', 'peakSlip', 'torque'].map(
    (f) => ['Wheel', f] as const,
  ),
];
/** Fields the kernel's table lists after its three table offsets. */
const EXTRA = [
  ['Controls', 'brake'], ['Controls', 'handbrake'], ['Car', 'abs'], ['RigidBody', 'mass'], ['RigidBody', 'gravity'],
  ['Wheel', 'suspForce'], ['Wheel', 'dTravelRate'], ['Wheel', 'travel'], ['Wheel', 'travelRate'],
  ['Wheel', 'driveTorque'], ['Car', 'engineAcc'], ['Car', 'omegaE'], ['Car', 'diffInFront'], ['Car', 'diffInRear'],
  ['Car', 'diffInCentre'], ['Car', 'clutchTorque'], ['Car', 'clutchSticking'], ['Car', 'diffSticking'],
  ['Car', 'lockTorqueFront'], ['Car', 'lockTorqueRear'], ['Car', 'lockTorqueCentre'],
] as const;
/** Bytes of the field table (int32 byte offsets: TABLE, three table offsets, EXTRA, the driveline scratch's). */
const FIELDS_BYTES = 512;
/** The driveline solve's scratch (bytes into the kernels' area; the kernel's S_*), after the field table. */
const DRIVELINE_AT = FIELDS_BYTES;
/** Where the surface table starts (bytes into the kernels' area; the field table and the scratch come first). */
const SURFACES_AT = DRIVELINE_AT + 1024;
/** Bytes per surface row: muSliding, muStatic, slidingSpeedRef, stiffnessScale, rollingResistance (8 slots). */
const SURFACE_ROW = 64;
const MAX_SURFACES = (KERNEL_TABLE_BYTES - SURFACES_AT) / SURFACE_ROW;
/** Per-wheel constant slots (doubles; the kernel's C_* byte offsets / 8). */
const C_RADIUS = 0, C_GRIP = 1, C_LOAD_SENS = 2, C_LONG = 3, C_CORNER = 4, C_UNIFORM = 5, C_INV_N0 = 6;
const C_STIFF_K = 7, C_INV_RELAX_X = 8, C_INV_RELAX_Y = 9, C_DAMP_X = 10, C_DAMP_Y = 11, C_SIN = 12, C_COS = 13;
const C_INERTIA = 14, C_ROLLING = 15, C_BRAKE_MAX = 16, C_HAND_MAX = 17, C_INV_UNSPRUNG = 18;
/** The steer angle the slot's sin/cos belong to (read by this loader only). */
const C_STEER = 22;
/** Pass 2's constants: tyre radial stiffness, spring, bump stop, anti-roll bar, damping, droop stop, position. */
const C_RADIAL_K = 23, C_SPRING = 24, C_PROGRESSION = 25, C_BS_AT = 26, C_BS_RATE = 27, C_BS_GAP = 28, C_ANTI_ROLL = 29;
const C_BUMP = 30, C_REBOUND = 31, C_DROP_K = 32, C_DROP_C = 33, C_POS = 34, C_STATIC = 37;
/**
 * Pass 2's scratch: the wheel centre (x, y, z; the kernel writes it); the ground under it (h, nx, ny, nz, surface
 * code in the slot's first i32); the midpoint patch (as suspension-contact.ts contactPatch: sample x, z, h, ∂h/∂x,
 * ∂h/∂z, h_xx, h_xz, h_zz, surface code in the slot's first i32, valid).
 */
const C_CENTRE = 38, C_GROUND = 41, C_PATCH = 46;
/** Per-car constant slots (in the car entity's slot; the kernel's K_*). */
const K_DRAG = 0, K_DOWNFORCE = 1, K_DOWN_FRONT = 2, K_CG_FRONT = 3, K_CG_REAR = 4, K_INV_SPRUNG = 5;
/**
 * The driveline's per-car slots: 1/I of the DOFs (wheels FL..RR, engine), the open-diff split, which diff rows exist
 * (front, rear, centre), each diff's capacity law (locked, preload, power and coast ramps), then the kernel's rows as
 * last built (K_ROWS_VALID: its flag, cleared when the constants are written).
 */
const K_INV_M = 6, K_SPLIT = 11, K_ROWS = 15, K_DIFF = 18, K_ROWS_VALID = 30;
/** Where the kernel leaves the solve's q̈ (doubles into its driveline scratch; the kernel's S_QDD). */
const S_QDD = 100;

interface ForceKernel {
  run: (
    eid: number, w0: number, w1: number, w2: number, w3: number, invDt: number, gx: number, gy: number, gz: number,
    given: number, taylor: number,
  ) => number;
  driveline: (eid: number, w0: number, w1: number, w2: number, w3: number, G: number, e: number, ccap: number, hasClutch: number, dt: number) => void;
  /** The whole memory as doubles (the constants and the surface table are written through it), and as i32. */
  f64: Float64Array;
  i32: Int32Array;
  /** Index in `f64` of entity 0's constants. */
  constAt: number;
  surfaceAt: number;
  /** Index in `f64` of the driveline solve's scratch. */
  drivelineAt: number;
  /** The surface table last written (identity), and per car the config whose constants were written. */
  surfaces: SurfaceTable | null;
  written: WeakMap<CarRuntime, unknown>;
  /** The kernel's table (i32 slots at the kernels' area) and its `setFields`, which reads the table again. */
  table: Int32Array;
  setFields: () => void;
}

declare module '../../../ecs/world-types' {
  interface WorldRuntime {
    forceKernel?: ForceKernel | null;
  }
}

/** The module text is a lazy chunk (4–7 KB gzip off the startup bundle), loaded on the first evaluation. */
const forcesModule = new LazyKernel(() => import('./wasm/forces-wasm').then((m) => m.FORCES_WASM_BASE64));

let worldError: string | null = null;
let enabled = true;

/** Why the passes run in TypeScript (the module did not compile, or the last world could not host it), or null. */
export function forceKernelError(): string | null {
  return forcesModule.error() ?? worldError;
}

/** Tests: run the passes in TypeScript (false) or through the kernel where it can (true, the default). */
export function setForceKernelEnabled(on: boolean): void {
  enabled = on;
}

/** Tests, benchmarks: resolves once the kernel's module has loaded (or failed to), so a world gets it from its first tick. */
export function loadForceKernel(): Promise<void> {
  return forcesModule.load();
}

/** The world's kernel; null where it cannot have one; undefined while the module is still loading. */
function createKernel(world: SimWorld): ForceKernel | null | undefined {
  const mod = forcesModule.module();
  if (mod === undefined) return undefined;
  const cm = componentMemory(world.c);
  if (mod === null) return null;
  if (cm === undefined) {
    worldError = 'the components are not in a WebAssembly memory';
    return null;
  }
  const ex = new WebAssembly.Instance(mod, { env: { memory: cm.memory } }).exports as {
    setFields: (t: number) => void;
    carForces: ForceKernel['run'];
    driveline: ForceKernel['driveline'];
  };
  const stores = world.c as unknown as Record<string, Record<string, ArrayBufferView>>;
  const table = new Int32Array(cm.memory.buffer, cm.kernelAt, FIELDS_BYTES / 4);
  TABLE.forEach(([c, f], k) => (table[k] = stores[c]![f]!.byteOffset));
  const constBytes = cm.kernelAt + KERNEL_TABLE_BYTES;
  table[TABLE.length] = cm.kernelAt + SURFACES_AT;
  table[TABLE.length + 1] = 0; // surface rows: written with the table (writeSurfaces)
  table[TABLE.length + 2] = constBytes;
  EXTRA.forEach(([c, f], k) => (table[TABLE.length + 3 + k] = stores[c]![f]!.byteOffset));
  table[TABLE.length + 3 + EXTRA.length] = cm.kernelAt + DRIVELINE_AT;
  worldError = null;
  return {
    table,
    setFields: () => ex.setFields(cm.kernelAt),
    run: ex.carForces,
    driveline: ex.driveline,
    f64: new Float64Array(cm.memory.buffer),
    i32: new Int32Array(cm.memory.buffer),
    constAt: constBytes / 8,
    surfaceAt: (cm.kernelAt + SURFACES_AT) / 8,
    drivelineAt: (cm.kernelAt + DRIVELINE_AT) / 8,
    surfaces: null,
    written: new WeakMap(),
  };
}

/**
 * The world's kernel (made on first use), or null where the passes stay in TypeScript: for good, or (not kept) until
 * the module's chunk has arrived — the TypeScript passes give the kernel's bits, so a run may start on them.
 */
export function forceKernelOf(world: SimWorld): ForceKernel | null {
  if (!enabled) return null;
  const k = world.runtime.forceKernel;
  if (k !== undefined) return k;
  const made = createKernel(world);
  if (made === undefined) return null;
  return (world.runtime.forceKernel = made);
}

/** The world's surface table into the kernel's (false when it has more rows than the kernels' area holds). */
function writeSurfaces(k: ForceKernel, table: SurfaceTable): boolean {
  if (table.length > MAX_SURFACES) {
    worldError = `the surface table has ${table.length} rows, the kernel holds ${MAX_SURFACES}`;
    return false;
  }
  const f = k.f64;
  table.forEach((s, i) => {
    const o = k.surfaceAt + (SURFACE_ROW / 8) * i;
    f[o] = s.muSliding;
    f[o + 1] = s.muStatic;
    f[o + 2] = s.slidingSpeedRef;
    f[o + 3] = s.stiffnessScale;
    f[o + 4] = s.rollingResistance;
  });
  k.table[TABLE.length + 1] = table.length;
  k.setFields();
  k.surfaces = table;
  return true;
}

/** Car `rt`'s constants (its runtime cache, registry.ts) into its wheels' and its own slots. */
function writeConstants(k: ForceKernel, rt: CarRuntime): void {
  const kc = rt.cache;
  const f = k.f64;
  for (let i = 0; i < 4; i++) {
    const tc = kc.tire[i]!, td = kc.tireD[i]!;
    const o = k.constAt + rt.wheels[i]! * KERNEL_ENTITY_F64;
    f[o + C_RADIUS] = tc.radius;
    f[o + C_GRIP] = tc.grip;
    f[o + C_LOAD_SENS] = tc.loadSensitivity;
    f[o + C_LONG] = tc.longStiffness;
    f[o + C_CORNER] = tc.corneringStiffness;
    f[o + C_UNIFORM] = tc.pressureUniformity;
    f[o + C_INV_N0] = td.invNominalLoad;
    f[o + C_STIFF_K] = td.stiffK;
    f[o + C_INV_RELAX_X] = td.invRelaxLong;
    f[o + C_INV_RELAX_Y] = td.invRelaxLat;
    f[o + C_DAMP_X] = td.dampX;
    f[o + C_DAMP_Y] = td.dampY;
    f[o + C_STEER] = kc.steerIn[i]!;
    f[o + C_SIN] = kc.steerSin[i]!;
    f[o + C_COS] = kc.steerCos[i]!;
    f[o + C_INERTIA] = tc.inertia;
    f[o + C_ROLLING] = tc.rollingResistance;
    f[o + C_BRAKE_MAX] = kc.brakeMax[i]!;
    f[o + C_HAND_MAX] = kc.handMax[i]!;
    f[o + C_INV_UNSPRUNG] = kc.invUnsprung[i]!;
    writeSuspension(f, o, rt, i);
  }
  const o = k.constAt + rt.eid * KERNEL_ENTITY_F64;
  f[o + K_DRAG] = kc.dragK;
  f[o + K_DOWNFORCE] = kc.downforceClA;
  f[o + K_DOWN_FRONT] = kc.downforceFront;
  f[o + K_CG_FRONT] = kc.cgToFront;
  f[o + K_CG_REAR] = kc.cgToRear;
  f[o + K_INV_SPRUNG] = kc.invSprung;
  writeDriveline(f, o, rt);
  k.written.set(rt, kc.cfg);
}

/** The driveline's constants of car `rt` into its slot at `o` (as vehicle-block.ts reads them). */
function writeDriveline(f: Float64Array, o: number, rt: CarRuntime): void {
  const kc = rt.cache;
  for (let i = 0; i < 5; i++) f[o + K_INV_M + i] = kc.invM[i]!;
  for (let i = 0; i < 4; i++) f[o + K_SPLIT + i] = rt.split[i]!;
  f[o + K_ROWS] = kc.frontRow ? 1 : 0;
  f[o + K_ROWS + 1] = kc.rearRow ? 1 : 0;
  f[o + K_ROWS + 2] = kc.centreRow ? 1 : 0;
  [kc.frontDiff, kc.rearDiff, kc.centreDiff].forEach((d, j) => {
    const p = o + K_DIFF + 4 * j;
    f[p] = d.kind === 'locked' ? 1 : 0;
    f[p + 1] = d.preloadNm;
    f[p + 2] = d.powerRamp;
    f[p + 3] = d.coastRamp;
  });
  f[o + K_ROWS_VALID] = 0;
}

/**
 * Car `rt`'s driveline solve (vehicle-block.ts drivelineAccelerations, from its inputs G, e, the clutch capacity and
 * row) through the kernel, q̈ into `out`; false (nothing done) where the world has no kernel or the car's constants
 * are not in it (the solve then runs in TypeScript: the same bits).
 */
export function runDrivelineKernel(world: SimWorld, rt: CarRuntime, G: number, e: number, ccap: number, hasClutch: boolean, out: Float64Array): boolean {
  const k = world.runtime.forceKernel;
  if (!enabled || !k || k.written.get(rt) !== rt.cache.cfg) return false;
  const ws = rt.wheels;
  k.driveline(rt.eid, ws[0]!, ws[1]!, ws[2]!, ws[3]!, G, e, ccap, hasClutch ? 1 : 0, world.dt);
  const f = k.f64;
  const o = k.drivelineAt + S_QDD;
  out[0] = f[o]!;
  out[1] = f[o + 1]!;
  out[2] = f[o + 2]!;
  out[3] = f[o + 3]!;
  out[4] = f[o + 4]!;
  return true;
}

/** Pass 2's constants of car `rt`'s wheel i into its slot at `o` (as suspension-contact.ts reads them). */
function writeSuspension(f: Float64Array, o: number, rt: CarRuntime, i: number): void {
  const kc = rt.cache;
  const sc = kc.susp[i]!;
  f[o + C_RADIAL_K] = kc.tire[i]!.radialStiffness;
  f[o + C_SPRING] = sc.springRate;
  f[o + C_PROGRESSION] = sc.progression;
  f[o + C_BS_AT] = sc.travel - sc.bumpStopGap; // spring-force.ts springForce
  f[o + C_BS_RATE] = sc.bumpStopRate;
  f[o + C_BS_GAP] = Math.max(sc.bumpStopGap, 1e-3);
  f[o + C_ANTI_ROLL] = sc.antiRoll;
  f[o + C_BUMP] = sc.bumpDamping;
  f[o + C_REBOUND] = sc.reboundDamping;
  f[o + C_DROP_K] = kc.dropK[i]!;
  f[o + C_DROP_C] = kc.dropC[i]!;
  for (let j = 0; j < 3; j++) f[o + C_POS + j] = kc.wheelPos[i * 4 + j]!;
  f[o + C_STATIC] = kc.wheelPos[i * 4 + 3]!;
}

/**
 * Car `rt` made ready for the kernel: the surface table and the car's constants brought up to date, sin/cos of each
 * changed steer angle (as tires.ts wheelFrame). False (nothing done) when the surface table does not fit: the car's
 * passes then run in TypeScript.
 */
export function prepareForceKernel(k: ForceKernel, world: SimWorld, rt: CarRuntime): boolean {
  const table = vehicles(world).surfaces;
  if (k.surfaces !== table && !writeSurfaces(k, table)) return false;
  const kc = rt.cache;
  if (k.written.get(rt) !== kc.cfg) writeConstants(k, rt);
  const W = world.c.Wheel;
  const ws = rt.wheels;
  const f = k.f64;
  for (let i = 0; i < 4; i++) {
    const w = ws[i]!;
    const d = W.steer[w]!;
    const o = k.constAt + w * KERNEL_ENTITY_F64;
    // The slot's sin/cos follow the angle they were computed for (C_STEER), not the car's cache alone: the
    // TypeScript passes (run where the kernel could not, for a while) move the cache without the slot.
    if (d === f[o + C_STEER]) continue;
    if (d !== kc.steerIn[i]) {
      kc.steerIn[i] = d;
      kc.steerSin[i] = d === 0 ? 0 : dsin(d);
      kc.steerCos[i] = d === 0 ? 1 : dcos(d);
    }
    f[o + C_STEER] = d;
    f[o + C_SIN] = kc.steerSin[i]!;
    f[o + C_COS] = kc.steerCos[i]!;
  }
  return true;
}

/**
 * Car `rt`'s passes 2 and 4–5b through the kernel (after `prepareForceKernel`, and after the drivetrain pass, which
 * reads nothing pass 2 writes but the drive sums `clearDriveSums` zeroes). The midpoint stage reads the ground from
 * the wheels' patches in the kernel; where the kernel asks for the ground (every wheel at the other evaluations, a
 * wheel beyond its patch's reach at the midpoint), it is sampled here and the kernel called again.
 */
export function runForceKernel(k: ForceKernel, world: SimWorld, rt: CarRuntime): void {
  const ws = rt.wheels;
  const g = world.gravity;
  const invDt = 1 / world.dt;
  const taylor = forceStage.midpointStage ? 1 : 0;
  const need = k.run(rt.eid, ws[0]!, ws[1]!, ws[2]!, ws[3]!, invDt, g.x, g.y, g.z, 0, taylor);
  if (need === 0) return;
  sampleGround(k, world, rt, need, taylor === 1);
  k.run(rt.eid, ws[0]!, ws[1]!, ws[2]!, ws[3]!, invDt, g.x, g.y, g.z, need, taylor);
}

const gs = groundPatch();
/** A wheel centre handed to the ground in an array, not as boxed double arguments. */
const at = new Float64Array(3);

/**
 * The ground under the centres of the wheels in `need` into their C_GROUND slots, as suspension-contact.ts
 * groundAtWheel samples it: afresh at the midpoint stage (the patch did not reach), else sampled with its patch
 * (kept for the midpoint stage) where the integrator is the midpoint method, else afresh (no patch).
 */
function sampleGround(k: ForceKernel, world: SimWorld, rt: CarRuntime, need: number, midpointStage: boolean): void {
  const g = world.ground;
  const f = k.f64;
  const keep = !midpointStage && world.integrator === 'midpoint' && g.samplePatchAt !== undefined;
  for (let i = 0; i < 4; i++) {
    if ((need & (1 << i)) === 0) continue;
    const o = k.constAt + rt.wheels[i]! * KERNEL_ENTITY_F64;
    at[0] = f[o + C_CENTRE]!;
    at[1] = f[o + C_CENTRE + 1]!;
    at[2] = f[o + C_CENTRE + 2]!;
    if (keep) {
      g.samplePatchAt!(at, gs);
      keepKernelPatch(k, o);
    } else {
      if (!midpointStage) f[o + C_PATCH + 9] = 0;
      if (g.sampleAt) g.sampleAt(at, gs);
      else g.sample(at[0]!, at[2]!, gs);
    }
    f[o + C_GROUND] = gs.h;
    f[o + C_GROUND + 1] = gs.nx;
    f[o + C_GROUND + 2] = gs.ny;
    f[o + C_GROUND + 3] = gs.nz;
    k.i32[2 * (o + C_GROUND + 4)] = gs.surface;
  }
}

/**
 * The patch just sampled at `at` into the wheel's C_PATCH slots (suspension-contact.ts keepPatch), its surface code
 * then in the slot's first i32 (as the kernel reads it; the Int32Array store converts as Wheel.surface's does).
 */
function keepKernelPatch(k: ForceKernel, o: number): void {
  const p = o + C_PATCH;
  keepPatch(k.f64, p, at[0]!, at[2]!, gs);
  k.i32[2 * (p + 8)] = gs.surface;
  k.i32[2 * (p + 8) + 1] = 0;
}
