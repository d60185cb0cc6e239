/**
 * The tyre pass in WebAssembly (wasm/assembly/tires.ts): `tiresJs` (tires.ts) ported operation for operation, so the
 * same bits, reading and writing the world's components in place. A world's components are views into one
 * WebAssembly memory (src/ecs/components/index.ts); the kernel imports that memory, so a call moves no data: the
 * JavaScript side only keeps the per-wheel constants and the surface table in the kernels' area after the stores
 * current. Measured on the peers car: the tyre pass ≈ 45 % shorter, the whole step ≈ 10 % (docs/ai.md).
 *
 * One instance per world (its memory). Where the module does not compile, the world's components are in a plain
 * ArrayBuffer (no WebAssembly memory could be had) or its surface table does not fit the kernels' area, the tyre pass
 * stays in TypeScript (`tireKernelError` says why).
 */
import type { SimWorld } from '../../../ecs/world';
import { componentMemory, KERNEL_ENTITY_F64, KERNEL_TABLE_BYTES } from '../../../ecs/components/index';
import { dcos, dsin } from '../../../../terrain/dmath';
import { vehicles, type CarRuntime } from './registry';
import type { SurfaceTable } from '../../../content/surface-table';
import { TIRES_WASM_BASE64 } from './wasm/tires-wasm';
import { CompiledKernel } from '../../../../terrain/wasm/compile';

/** The fields the kernel reads and writes, in the order of its `setFields` table (tires.ts in wasm/assembly). */
const TABLE = [
  ...['R0', 'R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'px', 'py', 'pz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz', 'fx', 'fy', 'fz', 'tx', 'ty', 'tz'].map(
    (f) => ['RigidBody', f] as const,
  ),
  ...['nx', 'ny', 'nz', 'cx', 'cy', 'cz', 'load', 'omega', 'surface', 'grounded', 'ux', 'uy', 'fx', 'fy', 'vx', 'vy', 'slipRatio', 'tireAxis', 'dux', 'duy', 'peakSlip', 'torque'].map(
    (f) => ['Wheel', f] as const,
  ),
];
/** Bytes of the field table (then the surface table's offset and rows, the constants' offset), and where the surface table starts. */
const SURFACES_AT = 256;
/** Bytes per surface row: muSliding, muStatic, slidingSpeedRef, stiffnessScale. */
const SURFACE_ROW = 32;
const MAX_SURFACES = (KERNEL_TABLE_BYTES - SURFACES_AT) / SURFACE_ROW;
/** Per-wheel constant slots (doubles; the kernel's C_* byte offsets / 8). */
const C_RADIUS = 0, C_GRIP = 1, C_LOAD_SENS = 2, C_LONG = 3, C_CORNER = 4, C_UNIFORM = 5, C_INV_N0 = 6;
const C_STIFF_K = 7, C_INV_RELAX_X = 8, C_INV_RELAX_Y = 9, C_DAMP_X = 10, C_DAMP_Y = 11, C_SIN = 12, C_COS = 13;

interface TireKernel {
  run: (eid: number, w0: number, w1: number, w2: number, w3: number) => void;
  /** The whole memory as doubles (the constants and the surface table are written through it). */
  f64: Float64Array;
  /** Index in `f64` of entity 0's constants. */
  constAt: number;
  surfaceAt: number;
  /** The surface table last written (identity), and per car the tyre configs whose constants were written. */
  surfaces: SurfaceTable | null;
  written: WeakMap<CarRuntime, unknown>;
  /** The kernel's table (i32 slots at the kernels' area) and its `setFields`, which reads the table again. */
  table: Int32Array;
  setFields: () => void;
}

declare module '../../../ecs/world-types' {
  interface WorldRuntime {
    tireKernel?: TireKernel | null;
  }
}

const tiresModule = new CompiledKernel(TIRES_WASM_BASE64);
let worldError: string | null = null;
let enabled = true;

/** Why the tyre pass runs in TypeScript (the module did not compile, or the last world could not host it), or null. */
export function tireKernelError(): string | null {
  return tiresModule.error() ?? worldError;
}

/** Tests: run the tyre pass in TypeScript (false) or through the kernel where it can (true, the default). */
export function setTireKernelEnabled(on: boolean): void {
  enabled = on;
}

function createKernel(world: SimWorld): TireKernel | null {
  const mod = tiresModule.module();
  const cm = componentMemory(world.c);
  if (mod === null) return null;
  if (cm === undefined) {
    worldError = 'the components are not in a WebAssembly memory';
    return null;
  }
  const ex = new WebAssembly.Instance(mod, { env: { memory: cm.memory } }).exports as { setFields: (t: number) => void; tiresCar: TireKernel['run'] };
  const stores = world.c as unknown as Record<string, Record<string, ArrayBufferView>>;
  const table = new Int32Array(cm.memory.buffer, cm.kernelAt, SURFACES_AT / 4);
  TABLE.forEach(([c, f], k) => (table[k] = stores[c]![f]!.byteOffset));
  const constBytes = cm.kernelAt + KERNEL_TABLE_BYTES;
  table[TABLE.length] = cm.kernelAt + SURFACES_AT;
  table[TABLE.length + 1] = 0; // surface rows: written with the table (writeSurfaces)
  table[TABLE.length + 2] = constBytes;
  worldError = null;
  return {
    table,
    setFields: () => ex.setFields(cm.kernelAt),
    run: ex.tiresCar,
    f64: new Float64Array(cm.memory.buffer),
    constAt: constBytes / 8,
    surfaceAt: (cm.kernelAt + SURFACES_AT) / 8,
    surfaces: null,
    written: new WeakMap(),
  };
}

/** The world's kernel (made on first use), or null where the tyre pass stays in TypeScript. */
export function tireKernelOf(world: SimWorld): TireKernel | null {
  if (!enabled) return null;
  const k = world.runtime.tireKernel;
  return k !== undefined ? k : (world.runtime.tireKernel = createKernel(world));
}

/** The world's surface table into the kernel's (false when it has more rows than the kernels' area holds). */
function writeSurfaces(k: TireKernel, table: SurfaceTable): boolean {
  if (table.length > MAX_SURFACES) {
    worldError = `the surface table has ${table.length} rows, the kernel holds ${MAX_SURFACES}`;
    return false;
  }
  const f = k.f64;
  table.forEach((s, i) => {
    const o = k.surfaceAt + 4 * i;
    f[o] = s.muSliding;
    f[o + 1] = s.muStatic;
    f[o + 2] = s.slidingSpeedRef;
    f[o + 3] = s.stiffnessScale;
  });
  k.table[TABLE.length + 1] = table.length;
  k.setFields();
  k.surfaces = table;
  return true;
}

/** Car `rt`'s tyre constants (its runtime cache, registry.ts) into its wheels' slots. */
function writeConstants(k: TireKernel, rt: CarRuntime): void {
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
    f[o + C_SIN] = kc.steerSin[i]!;
    f[o + C_COS] = kc.steerCos[i]!;
  }
  k.written.set(rt, kc.tire);
}

/**
 * Car `rt`'s tyre pass through the kernel: the surface table and the car's constants brought up to date, sin/cos of
 * each changed steer angle (as tires.ts wheelFrame), one call. False (nothing done) when the surface table does not fit.
 */
export function runTireKernel(k: TireKernel, world: SimWorld, rt: CarRuntime): boolean {
  const table = vehicles(world).surfaces;
  if (k.surfaces !== table && !writeSurfaces(k, table)) return false;
  const kc = rt.cache;
  if (k.written.get(rt) !== kc.tire) writeConstants(k, rt);
  const W = world.c.Wheel;
  const ws = rt.wheels;
  const f = k.f64;
  for (let i = 0; i < 4; i++) {
    const w = ws[i]!;
    const d = W.steer[w]!;
    if (d === kc.steerIn[i]) continue;
    kc.steerIn[i] = d;
    const s = d === 0 ? 0 : dsin(d),
      c = d === 0 ? 1 : dcos(d);
    kc.steerSin[i] = s;
    kc.steerCos[i] = c;
    const o = k.constAt + w * KERNEL_ENTITY_F64;
    f[o + C_SIN] = s;
    f[o + C_COS] = c;
  }
  k.run(rt.eid, ws[0]!, ws[1]!, ws[2]!, ws[3]!);
  return true;
}
