/**
 * Pass 10 (bookkeeping): replay recording and verification hooks. A recorder (checksum every N ticks,
 * keyframe every K seconds) or a player (compare the checksums) registers a per-world hook here; the pass
 * calls them in registration order at the end of every tick, before runTick advances world.tick, so a hook
 * describes the state after tick `world.tick + 1` completes. Costs one WeakMap lookup when nothing is attached.
 */
import type { SimWorld } from '../../ecs/world';

export type BookkeepingHook = (world: SimWorld) => void;

const hooks = new WeakMap<SimWorld, BookkeepingHook[]>();

export function addBookkeepingHook(world: SimWorld, hook: BookkeepingHook): void {
  const list = hooks.get(world);
  if (list) list.push(hook);
  else hooks.set(world, [hook]);
}

export function removeBookkeepingHook(world: SimWorld, hook: BookkeepingHook): void {
  const list = hooks.get(world);
  if (!list) return;
  const i = list.indexOf(hook);
  if (i >= 0) list.splice(i, 1);
}

/** The pass itself (listed in src/ecs/pipeline.ts). */
export function replayRecordPass(world: SimWorld): void {
  const list = hooks.get(world);
  if (!list) return;
  for (let i = 0; i < list.length; i++) list[i]!(world);
}
