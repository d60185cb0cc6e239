/**
 * Recovery, the one rule: the car is put at rest RECOVER_BACK_M behind where it was along the road (a stage) or
 * the circuit (rallycross), facing along it, and RECOVER_PENALTY_S is added to its time. `placeCarAtRest` is the
 * one implementation of the placing, used by the game and replays (the replay car adapter's `place`,
 * src/run/cars.ts) and the rallycross race (src/run/race.ts): the car is spawned fresh in a scratch
 * world on the same ground and its state copied into the entity, so a placed car is exactly a spawned car.
 */
import { hasComponent } from 'bitecs';
import { componentSpecs } from '../../../ecs/components';
import { spawnCar } from './prefab-car';
import { createSimWorld, type SimWorld } from '../../../ecs/world';
import type { CarConfig } from '../../../content/car-schema';
import { updateDerived } from '../../../ecs/rigid-body';

/** How far back along the road or circuit a recovered car is put, m. */
export const RECOVER_BACK_M = 5;

/** Time added per recovery, on a stage and in rallycross, s. */
export const RECOVER_PENALTY_S = 5;

/** Entities a scratch world needs for one car (chassis + four wheels), with room to spare. */
const SCRATCH_CAPACITY = 16;

type Stores = Record<string, Record<string, { [i: number]: number }>>;

/**
 * Copies a freshly spawned car's state (config `cfg`, at rest at `pose`) into car entity `eid` and its wheels.
 * Stays: the eid, the driver's inputs (Controls), the collider's crush and damage (a recovery does not repair the
 * car), the wheel → car links, the stage timing (StageProgress: the run adds the recovery penalty itself). A halted car (halt-guard.ts) drives on afterwards.
 */
export function placeCarAtRest(world: SimWorld, eid: number, cfg: CarConfig, pose: { x: number; z: number; heading: number }): void {
  const scratch = createSimWorld({ dt: world.dt, integrator: world.integrator, seed: world.seed, gravity: -world.gravity.y, ground: world.ground, capacity: SCRATCH_CAPACITY });
  const s = spawnCar(scratch, cfg, { x: pose.x, z: pose.z, heading: pose.heading });
  const C = world.c.Car;
  const SC = scratch.c.Car;
  const map: [number, number][] = [
    [s, eid],
    [SC.w0[s]!, C.w0[eid]!],
    [SC.w1[s]!, C.w1[eid]!],
    [SC.w2[s]!, C.w2[eid]!],
    [SC.w3[s]!, C.w3[eid]!],
  ];
  const src = scratch.c as unknown as Stores;
  const dst = world.c as unknown as Stores;
  for (const [name, spec] of Object.entries(componentSpecs)) {
    if (name === 'Controls' || name === 'CarCollider' || name === 'Damage') continue;
    for (const [from, to] of map) {
      if (!hasComponent(scratch, from, src[name]!) || !hasComponent(world, to, dst[name]!)) continue;
      for (const f of spec.state) {
        if (name === 'Wheel' && f === 'car') continue;
        if (name === 'Car' && /^w[0-3]$/.test(f)) continue;
        dst[name]![f]![to] = src[name]![f]![from]!;
      }
    }
  }
  updateDerived(world, eid);
}
