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

/** Every component's store for `capacity` entities, all in one block (spec.ts `allocate`: the cache-line layout). */
export function createComponents(capacity: number): Components {
  const out: Record<string, unknown> = {};
  let bytes = 0;
  for (const spec of Object.values(componentSpecs)) bytes += storeBytes(spec.fields, capacity);
  const block: ComponentBlock = { buffer: new ArrayBuffer(bytes), at: 0 };
  for (const [name, spec] of Object.entries(componentSpecs)) out[name] = allocate(spec.fields, capacity, block);
  return out as Components;
}
