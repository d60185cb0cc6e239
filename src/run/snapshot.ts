/**
 * Restores a run world from a snapshot: the component state (src/ecs/snapshot.ts), then the engines a run
 * world holds outside the stores, rebuilt from that state.
 */
import { restoreComponentState, type WorldSnapshot } from '../ecs/snapshot';
import type { SimWorld } from '../ecs/world';
import { collisionRuntime } from '../systems/sim/collision/runtime';

/** Writes the snapshot into `world` (which must have the same entities and components). */
export function restoreSnapshot(world: SimWorld, snap: WorldSnapshot): void {
  restoreComponentState(world, snap);
  // The Havok props world is not simulation state of its own: it mirrors the `Prop` components (hashed,
  // restored above), so its bodies are put back to them. Havok's internal caches (contact manifolds, sleep
  // timers) cannot be saved: a restore while a prop is moving may differ from the recording in float32 detail.
  collisionRuntime(world).props?.restoreFromComponents(world);
}
