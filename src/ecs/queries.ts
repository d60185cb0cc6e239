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

/**
 * The queries of the last world asked, by terms: a tick asks for a handful of term sets (rigid bodies, bodies with
 * applied forces, colliders, controls, progress…) in turn, and a linear scan of a few identity comparisons is
 * cheaper than the weak-map look-ups of the general path. Cleared when another world is asked (so it keeps at
 * most one world alive, and two worlds stepped in turn each use the general path).
 */
interface RecentQuery {
  a: object;
  b: object | undefined;
  c: object | undefined;
  query: Query;
}
let recentWorld: object | null = null;
const recent: RecentQuery[] = [];
/** Term sets kept for the last world: more than a tick asks for. */
const RECENT_MAX = 16;

/** Live list of the entities that have all of the given components (at most 3). */
export function entitiesWith(world: object, a: object, b?: object, c?: object): readonly number[] {
  if (world === recentWorld) {
    for (let i = 0; i < recent.length; i++) {
      const r = recent[i]!;
      if (r.a === a && r.b === b && r.c === c) return r.query.dense as readonly number[];
    }
  } else {
    recentWorld = world;
    recent.length = 0;
  }
  const query = queryOf(world, a, b, c);
  if (recent.length < RECENT_MAX) recent.push({ a, b, c, query });
  return query.dense as readonly number[];
}

/** The world's registered query for the terms (registered on first use). */
function queryOf(world: object, a: object, b?: object, c?: object): Query {
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
  return q;
}
