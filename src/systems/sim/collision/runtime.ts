/**
 * Per-world collision resources that are not component data: the static scene colliders, the contact pass's
 * scratch and optional Havok props (their simulation state is mirrored in `Prop` components). Kept in
 * `world.runtime.collision`, a field this module declares on the world's runtime (src/ecs/world-types.ts).
 */
import type { SimWorld } from '../../../ecs/world';
import { SceneColliders } from './scene';
import { TickContacts } from './contact-memory';

/** The props world of a run (props.ts `HavokProps`), as the collision passes and `restoreSnapshot` (src/ecs/snapshot.ts) see it. */
export interface PropsHook {
  /** Called in pass 9 after the integration. */
  step(world: SimWorld): void;
  /** Frees the props' Havok world. */
  dispose?(): void;
  /** Put every prop body back to its `Prop` component state (snapshot restore). */
  restoreFromComponents(world: SimWorld): void;
}

/**
 * A broad phase for car–scene detection that replaces the TS grid (`SceneColliders.query`): the Havok query
 * world of havok-queries.ts (`HavokSceneQueries`). Declared here, where the runtime holds it, so that this
 * module does not import the Havok one back.
 */
export interface SceneQueries {
  /** Follow `scene` (obstacles added since the last call, or a replaced scene). */
  sync(scene: SceneColliders): void;
  /**
   * Obstacles whose AABB meets [x0,x1]×[z0,z1] and whose prism reaches [y0,y1], ascending ids, into `out`
   * (returns the count); `key` names the cache slot (the car entity).
   */
  candidates(key: number, x0: number, z0: number, x1: number, z1: number, y0: number, y1: number, out: number[]): number;
  /** Frees the query world. */
  dispose(): void;
  /** Counters for benches and tests: queries issued, hits read, cache reuses, TS-grid fallbacks. */
  readonly queries: number;
  readonly hitsRead: number;
  readonly reused: number;
  readonly fallbacks: number;
}

export interface CollisionRuntime {
  scene: SceneColliders;
  /** The collision pass's contact bookkeeping (the last tick's pairs are CarCollider state: contact-memory.ts). */
  contacts: TickContacts;
  props: PropsHook | null;
  /** Max distance any corner may travel between two tested poses of the swept test (m). */
  sweepStep: number;
  /**
   * Havok broad phase (havok-queries.ts) when set — `useHavokSceneQueries(world, hp)`, automatic with Havok
   * props, for scenarios and stage worlds when Havok is loaded; null → the TS grid. Same contacts either way.
   */
  queries: SceneQueries | null;
  /** Optional names for entity ids in events (the scenario runner fills it). */
  names: Map<number, string>;
}

declare module '../../../ecs/world-types' {
  interface WorldRuntime {
    collision?: CollisionRuntime;
  }
}

export function collisionRuntime(world: SimWorld): CollisionRuntime {
  return (world.runtime.collision ??= {
    scene: new SceneColliders(), contacts: new TickContacts('contact'), props: null, queries: null, sweepStep: 0.05, names: new Map(),
  });
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
  const rt = world.runtime.collision;
  if (!rt) return;
  rt.props?.dispose?.();
  rt.props = null;
  rt.queries?.dispose();
  rt.queries = null;
}
