/**
 * Full simulation state snapshot / restore (replay keyframes, seeking, ghost resync).
 *
 * A snapshot holds everything the next tick depends on: tick, time, PRNG state, the entity set and every
 * component's `state` fields (componentSpecs[*].state, walked exactly like src/ecs/hash.ts) for every entity
 * that has the component. Nothing else: a value one tick leaves for the next is declared state in its
 * component spec, so the state hash, snapshots and replay keyframes all hold it by construction
 * (tests/core/snapshot-property.test.ts checks that a restored world runs on bit for bit).
 *
 * Restore writes into a world that was built the same way (same content, same entity ids); derived fields
 * (v, ω, R, …) are refreshed by a gather → scatter round trip of every integrable state block. A world whose
 * entity set or component membership differs is refused with a clear error, never silently patched.
 *
 * The binary form (replay keyframes) is src/replay/snapshot-codec.ts.
 */
import { getAllEntities, hasComponent } from 'bitecs';
import { componentSpecs } from './components';
import type { SimWorld } from './world';
import { entitiesWith } from './queries';
import { updateDerived } from './rigid-body';

export interface ComponentSnapshot {
  name: string;
  eids: Int32Array;
  /** field name → values, one per eid in `eids` order. */
  fields: Map<string, Float64Array>;
}

export interface WorldSnapshot {
  tick: number;
  time: number;
  rng: Uint32Array;
  entities: Int32Array;
  components: ComponentSnapshot[];
}

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

type Stores = Record<string, Record<string, ArrayLike<number> & { [i: number]: number }>>;

function sortedEntities(world: SimWorld): Int32Array {
  return Int32Array.from([...getAllEntities(world)].sort((a, b) => a - b));
}

/** Captures the world (between ticks). */
export function saveSnapshot(world: SimWorld): WorldSnapshot {
  const tick = world.tick;
  const entities = sortedEntities(world);
  const stores = world.c as unknown as Stores;
  const components: ComponentSnapshot[] = [];
  for (const [name, spec] of Object.entries(componentSpecs)) {
    const store = stores[name]!;
    const eids: number[] = [];
    for (const eid of entities) if (hasComponent(world, eid, store)) eids.push(eid);
    const fields = new Map<string, Float64Array>();
    for (const f of spec.state) {
      const src = store[f]!;
      const vals = new Float64Array(eids.length);
      for (let i = 0; i < eids.length; i++) vals[i] = src[eids[i]!]!;
      fields.set(f, vals);
    }
    components.push({ name, eids: Int32Array.from(eids), fields });
  }
  return {
    tick,
    time: world.time,
    rng: Uint32Array.from(world.rng.s),
    entities,
    components,
  };
}

function listDiff(a: Int32Array, b: Int32Array): string {
  const sa = new Set(a);
  const sb = new Set(b);
  const onlyA = [...a].filter((x) => !sb.has(x));
  const onlyB = [...b].filter((x) => !sa.has(x));
  return `snapshot has [${onlyA.slice(0, 8).join(', ')}] the world lacks, world has [${onlyB.slice(0, 8).join(', ')}] the snapshot lacks`;
}

/**
 * Writes the snapshot's component state into `world` (which must have the same entities and components).
 * A run world also holds engines outside the stores (the Havok props world): restore a run world with
 * src/run/snapshot.ts `restoreSnapshot`, which calls this and then puts those back.
 */
export function restoreComponentState(world: SimWorld, snap: WorldSnapshot): void {
  const entities = sortedEntities(world);
  if (entities.length !== snap.entities.length || entities.some((e, i) => e !== snap.entities[i])) {
    throw new SnapshotError(`snapshot: entity set differs (${listDiff(snap.entities, entities)})`);
  }
  const stores = world.c as unknown as Stores;
  const specs = componentSpecs as Record<string, { state: readonly string[] }>;
  for (const comp of snap.components) {
    const spec = specs[comp.name];
    const store = stores[comp.name];
    if (!spec || !store) throw new SnapshotError(`snapshot: component "${comp.name}" does not exist in this build`);
    const have: number[] = [];
    for (const eid of entities) if (hasComponent(world, eid, store)) have.push(eid);
    if (have.length !== comp.eids.length || have.some((e, i) => e !== comp.eids[i])) {
      throw new SnapshotError(`snapshot: component "${comp.name}" is on different entities (${listDiff(comp.eids, Int32Array.from(have))})`);
    }
    for (const f of spec.state) {
      if (!comp.fields.has(f)) throw new SnapshotError(`snapshot: component "${comp.name}" lacks state field "${f}" (saved by another build?)`);
    }
  }
  for (const name of Object.keys(specs)) {
    if (!snap.components.some((c) => c.name === name)) {
      const store = stores[name]!;
      if (entities.some((e) => hasComponent(world, e, store))) throw new SnapshotError(`snapshot: lacks component "${name}" that this world uses`);
    }
  }
  world.tick = snap.tick;
  world.time = snap.time;
  world.rng.s.set(snap.rng);
  world.events.length = 0;
  const writeState = (): void => {
    for (const comp of snap.components) {
      const store = stores[comp.name]!;
      for (const [f, vals] of comp.fields) {
        const dst = store[f];
        if (!dst) continue;
        for (let i = 0; i < comp.eids.length; i++) dst[comp.eids[i]!] = vals[i]!;
      }
    }
  };
  writeState();
  // Refresh derived quantities (wheel/engine auxiliaries…): gather then scatter each state block. The rigid
  // body scatter re-normalises q (1-ulp changes), so the exact state is written again afterwards and the
  // body auxiliaries (R, v, ω) are recomputed from it, as the integrator's last scatter did.
  const scratch = world.scratch;
  for (const block of world.stateBlocks) {
    const n = block.size(world);
    if (scratch.y.length < n) scratch.y = new Float64Array(n);
    block.gather(world, scratch.y, 0);
    block.scatter(world, scratch.y, 0);
  }
  writeState();
  for (const eid of entitiesWith(world, world.c.RigidBody)) updateDerived(world, eid);
}

export interface SnapshotDifference {
  /** "Component.field" or "tick", "rng", "entities". */
  what: string;
  eid: number;
  expected: number | string;
  found: number | string;
}

/** Field-by-field differences (bit-exact comparison), at most `limit`. */
export function diffSnapshots(expected: WorldSnapshot, found: WorldSnapshot, limit = 20): SnapshotDifference[] {
  const out: SnapshotDifference[] = [];
  const push = (d: SnapshotDifference): boolean => {
    out.push(d);
    return out.length >= limit;
  };
  if (expected.tick !== found.tick && push({ what: 'tick', eid: -1, expected: expected.tick, found: found.tick })) return out;
  for (let i = 0; i < 4; i++) {
    if (expected.rng[i] !== found.rng[i]) {
      if (push({ what: 'rng', eid: -1, expected: Array.from(expected.rng).join(','), found: Array.from(found.rng).join(',') })) return out;
      break;
    }
  }
  if (expected.entities.join() !== found.entities.join()) {
    push({ what: 'entities', eid: -1, expected: expected.entities.join(','), found: found.entities.join(',') });
    return out;
  }
  for (const ce of expected.components) {
    const cf = found.components.find((c) => c.name === ce.name);
    if (!cf || cf.eids.join() !== ce.eids.join()) {
      if (push({ what: `${ce.name}(membership)`, eid: -1, expected: ce.eids.join(','), found: cf ? cf.eids.join(',') : '(absent)' })) return out;
      continue;
    }
    for (const [field, ve] of ce.fields) {
      const vf = cf.fields.get(field);
      if (!vf) continue;
      for (let i = 0; i < ve.length; i++) {
        if (!Object.is(ve[i], vf[i]) && push({ what: `${ce.name}.${field}`, eid: ce.eids[i]!, expected: ve[i]!, found: vf[i]! })) return out;
      }
    }
  }
  return out;
}

// ---------- binary encoding ----------
