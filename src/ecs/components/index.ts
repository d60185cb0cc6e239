/**
 * All component specs of the simulation, merged in one table. Each area keeps its specs in its own file
 * beside this one (core, vehicle, collision, …) and adds them here; the world allocates one store per spec.
 */
import { allocate, storeBytes, type ComponentBlock, type ComponentSpec, type Store } from './spec';
import { AppliedForceSpec, ControlsSpec, RigidBodySpec } from './core';
import { CarSpec, WheelSpec } from './vehicle';
import { CarColliderSpec, DamageSpec, PropSpec } from './collision';
import { StageProgressSpec } from './progress';
import { RaceProgressSpec } from './race-progress';

export * from './spec';
export * from './core';
export * from './vehicle';
export * from './collision';
export * from './progress';
export * from './race-progress';

export const componentSpecs = {
  RigidBody: RigidBodySpec,
  AppliedForce: AppliedForceSpec,
  Controls: ControlsSpec,
  Car: CarSpec,
  Wheel: WheelSpec,
  CarCollider: CarColliderSpec,
  Damage: DamageSpec,
  Prop: PropSpec,
  StageProgress: StageProgressSpec,
  RaceProgress: RaceProgressSpec,
} satisfies Record<string, ComponentSpec>;

export type ComponentName = keyof typeof componentSpecs;

export type Components = { [K in ComponentName]: Store<(typeof componentSpecs)[K]['fields']> };

/** Bytes after the component stores for the WebAssembly kernels' tables (field offsets, scratch, surface table). */
export const KERNEL_TABLE_BYTES = 8192;
/** Doubles per entity after the tables, for the kernels' per-entity constants and scratch (vehicle/force-kernel.ts). */
export const KERNEL_ENTITY_F64 = 64;
const PAGE = 65536;

/**
 * Where a world's components live when they live in a WebAssembly memory: the memory (never grown, so the stores'
 * views stay valid), the byte offset of the kernels' area after the stores, and the capacity.
 */
export interface ComponentMemory {
  memory: WebAssembly.Memory;
  kernelAt: number;
  capacity: number;
}

const memories = new WeakMap<Components, ComponentMemory>();

/** The memory holding these components, or undefined where they are in a plain ArrayBuffer (no WebAssembly memory could be had). */
export function componentMemory(c: Components): ComponentMemory | undefined {
  return memories.get(c);
}

/**
 * The world's block: a WebAssembly memory with the kernels' area after the stores, so that a kernel reads and writes
 * the components in place; a plain ArrayBuffer where no such memory can be had (the kernels' callers then keep
 * their TypeScript paths).
 */
function componentBlock(storeBytes: number, capacity: number): { buffer: ArrayBuffer; memory?: WebAssembly.Memory } {
  const bytes = storeBytes + KERNEL_TABLE_BYTES + 8 * KERNEL_ENTITY_F64 * capacity;
  try {
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE), maximum: Math.ceil(bytes / PAGE) });
    return { buffer: memory.buffer, memory };
  } catch {
    return { buffer: new ArrayBuffer(storeBytes) };
  }
}

/** Every component's store for `capacity` entities, all in one block (spec.ts `allocate`: the cache-line layout). */
export function createComponents(capacity: number): Components {
  const out: Record<string, unknown> = {};
  let bytes = 0;
  for (const spec of Object.values(componentSpecs)) bytes += storeBytes(spec.fields, capacity);
  const { buffer, memory } = componentBlock(bytes, capacity);
  const block: ComponentBlock = { buffer, at: 0 };
  for (const [name, spec] of Object.entries(componentSpecs)) out[name] = allocate(spec.fields, capacity, block);
  const c = out as Components;
  if (memory) memories.set(c, { memory, kernelAt: bytes, capacity });
  return c;
}
