/**
 * State hash: a 64-bit hash (two independent 32-bit multiply-xorshift lanes) over the bytes of every state
 * field of every component, entities in ascending id order, plus the tick and the PRNG state.
 * Same inputs → same bits → same hash, in Node and in the browser.
 */
import { getAllEntities, hasComponent } from 'bitecs';
import { componentSpecs } from './components';
import type { SimWorld } from './world';
import type { WorldSnapshot } from './snapshot';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

export class Hasher {
  private h1 = 0x9e3779b9;
  private h2 = 0x85ebca6b;

  word(w: number): void {
    this.h1 = Math.imul(this.h1 ^ w, 0x01000193) >>> 0;
    this.h1 = (this.h1 ^ (this.h1 >>> 15)) >>> 0;
    this.h2 = Math.imul(this.h2 ^ w, 0x5bd1e995) >>> 0;
    this.h2 = (this.h2 ^ (this.h2 >>> 13)) >>> 0;
  }

  number(v: number): void {
    f64[0] = v;
    this.word(u32[0]!);
    this.word(u32[1]!);
  }

  hex(): string {
    let a = Math.imul(this.h1 ^ (this.h2 >>> 16), 0x85ebca6b) >>> 0;
    let b = Math.imul(this.h2 ^ (a >>> 13), 0xc2b2ae35) >>> 0;
    a = (a ^ (b >>> 16)) >>> 0;
    b = (b ^ (a >>> 15)) >>> 0;
    return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
  }
}

export function stateHash(world: SimWorld): string {
  const h = new Hasher();
  h.number(world.tick);
  for (let i = 0; i < 4; i++) h.word(world.rng.s[i]!);
  const eids = [...getAllEntities(world)].sort((a, b) => a - b);
  const stores = world.c as unknown as Record<string, Record<string, ArrayLike<number>>>;
  for (const [name, spec] of Object.entries(componentSpecs)) {
    const store = stores[name]!;
    for (const eid of eids) {
      if (!hasComponent(world, eid, store)) continue;
      h.word(eid);
      for (const field of spec.state) h.number(store[field]![eid]!);
    }
  }
  return h.hex();
}

/**
 * The `stateHash` of the world a snapshot describes, computed from the snapshot alone (same walk: tick, PRNG,
 * then per component in spec order each entity that has it, ascending, and its state fields): a keyframe must
 * hash to the checksum recorded at its tick (src/replay/keyframe-check.ts). Null when the snapshot lacks a
 * component or a state field this build hashes (it cannot describe a world of this build).
 */
export function snapshotHash(snap: WorldSnapshot): string | null {
  const h = new Hasher();
  h.number(snap.tick);
  for (let i = 0; i < 4; i++) h.word(snap.rng[i]!);
  for (const [name, spec] of Object.entries(componentSpecs)) {
    const comp = snap.components.find((c) => c.name === name);
    if (!comp) return null;
    const cols: Float64Array[] = [];
    for (const f of spec.state) {
      const col = comp.fields.get(f);
      if (!col || col.length !== comp.eids.length) return null;
      cols.push(col);
    }
    for (let i = 0; i < comp.eids.length; i++) {
      h.word(comp.eids[i]!);
      for (const col of cols) h.number(col[i]!);
    }
  }
  return h.hex();
}
