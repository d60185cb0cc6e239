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
 * The last call's world, terms and query: the integrator asks for the same list (every rigid body) several times
 * in a row, and this skips the two weak-map look-ups that the general path costs.
 */
let lastWorld: object | null = null;
let lastA: object | null = null;
let lastB: object | undefined;
let lastC: object | undefined;
let lastQuery: Query | null = null;

/** Live list of the entities that have all of the given components (at most 3). */
export function entitiesWith(world: object, a: object, b?: object, c?: object): readonly number[] {
  if (world === lastWorld && a === lastA && b === lastB && c === lastC) return lastQuery!.dense as readonly number[];
  const q = queryOf(world, a, b, c);
  lastWorld = world;
  lastA = a;
  lastB = b;
  lastC = c;
  lastQuery = q;
  return q.dense as readonly number[];
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
