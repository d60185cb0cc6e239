/**
 * Per-world collision state that is not component data: the static scene colliders, the set of contacting
 * pairs (to report a collision once when it starts), and optional Havok props. Kept in a WeakMap beside the
 * world (the world context type belongs to the foundation).
 */
import type { SimWorld } from '../../../ecs/world';
import { SceneColliders } from './scene';
import type { HavokSceneQueries } from './havok-queries';

export interface PropsHook {
  /** Called in pass 9 after the integration. */
  step(world: SimWorld): void;
  /** Frees the props' Havok world. */
  dispose?(): void;
}

export interface CollisionRuntime {
  scene: SceneColliders;
  /** Pair keys in contact during the previous tick, and this tick. */
  contactsPrev: Set<string>;
  contactsNow: Set<string>;
  props: PropsHook | null;
  /** Max distance any corner may travel between two tested poses of the swept test (m). */
  sweepStep: number;
  /**
   * Havok broad phase (havok-queries.ts) when set — `useHavokSceneQueries(world, hp)`, automatic with Havok
   * props, for scenarios and stage worlds when Havok is loaded; null → the TS grid. Same contacts either way.
   */
  queries: HavokSceneQueries | null;
  /** Optional names for entity ids in events (the scenario runner fills it). */
  names: Map<number, string>;
}

const runtimes = new WeakMap<SimWorld, CollisionRuntime>();

export function collisionRuntime(world: SimWorld): CollisionRuntime {
  let rt = runtimes.get(world);
  if (!rt) {
    rt = { scene: new SceneColliders(), contactsPrev: new Set(), contactsNow: new Set(), props: null, queries: null, sweepStep: 0.05, names: new Map() };
    runtimes.set(world, rt);
  }
  return rt;
}

export function setSceneColliders(world: SimWorld, scene: SceneColliders): void {
  collisionRuntime(world).scene = scene;
}

/**
 * Frees the Havok worlds of a run world that is done (props world, then the query world) and drops them. The
 * props world's Havok instance goes back to the pool, reset to its state right after start-up
 * (havok-instance.ts, havok-pristine.ts), so the next props world reuses it: memory stays flat (~16.9 MB of
 * wasm heap per instance) and the next world still steps as in a fresh process. Every owner of a props world
 * calls it when done with the world: the game session (Retry, Restart, Quit), replay verification and seeks.
 */
export function releaseCollisionWorld(world: SimWorld): void {
  const rt = runtimes.get(world);
  if (!rt) return;
  rt.props?.dispose?.();
  rt.props = null;
  rt.queries?.dispose();
  rt.queries = null;
}
