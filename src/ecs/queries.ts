/**
 * Cached live queries. bitecs' `query()` hashes its terms on every call (~0.7 µs here), which adds up when the
 * integrator visits every block several times per tick. `entitiesWith` registers the query once per world
 * and returns its live dense list of entity ids (insertion order, deterministic).
 * Removals are committed at the start of each tick (runTick), so the list is current inside systems.
 */
import { registerQuery, type Query } from 'bitecs';

const componentIds = new WeakMap<object, number>();
let nextId = 1;
const perWorld = new WeakMap<object, Map<number, Query>>();

function idOf(c: object): number {
  let id = componentIds.get(c);
  if (id === undefined) {
    id = nextId++;
    componentIds.set(c, id);
  }
  return id;
}

/** Live list of the entities that have all of the given components (at most 3). */
export function entitiesWith(world: object, a: object, b?: object, c?: object): readonly number[] {
  const key = (idOf(a) * 2048 + (b ? idOf(b) : 0)) * 2048 + (c ? idOf(c) : 0);
  let m = perWorld.get(world);
  if (!m) {
    m = new Map();
    perWorld.set(world, m);
  }
  let q = m.get(key);
  if (!q) {
    const terms = [a, b, c].filter((x): x is object => x !== undefined);
    q = registerQuery(world, terms);
    m.set(key, q);
  }
  return q.dense as readonly number[];
}
