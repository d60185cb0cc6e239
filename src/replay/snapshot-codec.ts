/**
 * The binary form of world snapshots (replay keyframes, src/ecs/snapshot.ts for what a snapshot holds).
 *
 * Little-endian: "SNAP" u32 version | f64 tick | f64 time | u32×4 rng | u32 nEntities, i32 eids… |
 * u32 nComponents, per component: str name, u32 nEids, i32 eids…, u32 nFields, per field: str name, f64 values….
 */
import { SnapshotError, type ComponentSnapshot, type WorldSnapshot } from '../ecs/snapshot';
import { ByteReader, ByteWriter } from './bytes';

const MAGIC = 0x50414e53; // "SNAP" little-endian
/** 2: no extension section (every value a tick leaves for the next is component state). */
const VERSION = 2;

/**
 * Caps of one untrusted decode (replay keyframes). Value bytes are bounded by the input's length, but the JS
 * objects a decode creates (a component record and Map, a column per field, for every snapshot) are not:
 * `maxObjects` caps their sum over every snapshot before they are made.
 */
export interface SnapshotDecodeLimits {
  maxSnapshots?: number;
  maxObjects?: number;
}
/** Default object cap: ~100 MB of small JS objects; a keyframe of this build makes ~170 (components + fields). */
export const MAX_SNAPSHOT_OBJECTS = 1_000_000;

class DecodeBudget {
  private objects = 0;
  constructor(private readonly limits: SnapshotDecodeLimits = {}) {}
  snapshots(n: number): void {
    const max = this.limits.maxSnapshots ?? Infinity;
    if (n > max) throw new SnapshotError(`snapshot set: expected at most ${max} snapshots, found ${n}`);
  }
  take(k: number, what: string): void {
    const max = this.limits.maxObjects ?? MAX_SNAPSHOT_OBJECTS;
    this.objects += k;
    if (this.objects > max) throw new SnapshotError(`snapshot: ${what}: expected at most ${max} decoded objects in all, found more`);
  }
}

/** The project's one byte reader (src/replay/bytes.ts), failing with SnapshotError. */
class Reader extends ByteReader {
  constructor(b: Uint8Array) {
    super(b, 'snapshot', 'snapshot', (field, expected, found) => new SnapshotError(`${field}: expected ${expected}, found ${found}`));
  }
}

export function encodeSnapshot(s: WorldSnapshot): Uint8Array {
  const w = new ByteWriter();
  w.u32(MAGIC);
  w.u32(VERSION);
  w.f64(s.tick);
  w.f64(s.time);
  for (let i = 0; i < 4; i++) w.u32(s.rng[i]!);
  w.u32(s.entities.length);
  for (const e of s.entities) w.i32(e);
  w.u32(s.components.length);
  for (const c of s.components) {
    w.str(c.name);
    w.u32(c.eids.length);
    for (const e of c.eids) w.i32(e);
    w.u32(c.fields.size);
    for (const [f, vals] of c.fields) {
      w.str(f);
      for (const v of vals) w.f64(v);
    }
  }
  return w.done();
}

export function decodeSnapshot(bytes: Uint8Array, limits: SnapshotDecodeLimits = {}): WorldSnapshot {
  return decodeOne(bytes, new DecodeBudget(limits));
}

function decodeOne(bytes: Uint8Array, budget: DecodeBudget): WorldSnapshot {
  const r = new Reader(bytes);
  const magic = r.u32('magic');
  if (magic !== MAGIC) throw new SnapshotError(`snapshot: bad magic 0x${magic.toString(16)}, expected 0x${MAGIC.toString(16)} ("SNAP")`);
  const version = r.u32('version');
  if (version !== VERSION) throw new SnapshotError(`snapshot: version ${version}, this build reads version ${VERSION}`);
  const tick = r.f64('tick');
  const time = r.f64('time');
  const rng = new Uint32Array(4);
  for (let i = 0; i < 4; i++) rng[i] = r.u32('rng');
  const ne = r.count('entities', 4);
  const entities = new Int32Array(ne);
  for (let i = 0; i < ne; i++) entities[i] = r.i32('entity id');
  const nc = r.count('components', 12);
  budget.take(nc, 'components');
  const components: ComponentSnapshot[] = [];
  for (let k = 0; k < nc; k++) {
    const name = r.str('component name');
    const n = r.count(`${name} entities`, 4);
    const eids = new Int32Array(n);
    for (let i = 0; i < n; i++) eids[i] = r.i32(`${name} entity id`);
    const nf = r.count(`${name} fields`, 4);
    budget.take(nf, `${name} fields`);
    const fields = new Map<string, Float64Array>();
    for (let j = 0; j < nf; j++) {
      const f = r.str(`${name} field name`);
      const vals = new Float64Array(n);
      for (let i = 0; i < n; i++) vals[i] = r.f64(`${name}.${f}`);
      fields.set(f, vals);
    }
    components.push({ name, eids, fields });
  }
  if (r.p !== bytes.length) throw new SnapshotError(`snapshot: ${bytes.length - r.p} unexpected trailing bytes`);
  return { tick, time, rng, entities, components };
}

// ---------- a set of snapshots (replay keyframes) ----------

const SET_MAGIC = 0x53504e53; // "SNPS" little-endian
/** 2: no extension section (see VERSION). */
const SET_VERSION = 2;

function sameLayout(a: WorldSnapshot, b: WorldSnapshot): boolean {
  if (a.entities.length !== b.entities.length || a.entities.some((e, i) => e !== b.entities[i])) return false;
  if (a.components.length !== b.components.length) return false;
  return a.components.every((ca, k) => {
    const cb = b.components[k]!;
    if (ca.name !== cb.name || ca.eids.length !== cb.eids.length || ca.eids.some((e, i) => e !== cb.eids[i])) return false;
    const fa = [...ca.fields.keys()];
    const fb = [...cb.fields.keys()];
    return fa.length === fb.length && fa.every((f, i) => f === fb[i]);
  });
}

/**
 * Several snapshots of one run (replay keyframes) in one block that deflates well. When they all share one
 * layout (entities, component membership, field names: a run never spawns or removes entities) the layout
 * is written once and the state values are stored column by column: for each value slot, its 8 bytes from
 * the most significant down, each byte across all snapshots. Sign, exponent and leading mantissa bytes of one
 * quantity barely change between keyframes, so those planes compress to almost nothing while every bit is
 * kept (nothing is quantised). Otherwise each snapshot is stored whole (`encodeSnapshot`).
 *
 * Bytes: "SNPS" u32 version | u32 count | u8 layout (0 whole, 1 columnar) |
 *   whole: per snapshot u32 length, encodeSnapshot bytes
 *   columnar: u32 nEntities, i32 eids… | u32 nComponents, per component: str name, u32 nEids, i32 eids…,
 *     u32 nFields, str names… | per snapshot: f64 tick, f64 time, u32×4 rng | value planes (slots × 8 × count
 *     bytes).
 */
export function encodeSnapshotSet(snaps: readonly WorldSnapshot[]): Uint8Array {
  const w = new ByteWriter();
  w.u32(SET_MAGIC);
  w.u32(SET_VERSION);
  w.u32(snaps.length);
  if (snaps.length === 0) return w.done();
  const first = snaps[0]!;
  const columnar = snaps.every((s) => sameLayout(first, s));
  w.u8(columnar ? 1 : 0);
  if (!columnar) {
    for (const s of snaps) w.bytes(encodeSnapshot(s));
    return w.done();
  }
  w.u32(first.entities.length);
  for (const e of first.entities) w.i32(e);
  w.u32(first.components.length);
  let slots = 0;
  for (const c of first.components) {
    w.str(c.name);
    w.u32(c.eids.length);
    for (const e of c.eids) w.i32(e);
    w.u32(c.fields.size);
    for (const f of c.fields.keys()) w.str(f);
    slots += c.fields.size * c.eids.length;
  }
  for (const s of snaps) {
    w.f64(s.tick);
    w.f64(s.time);
    for (let i = 0; i < 4; i++) w.u32(s.rng[i]!);
  }
  // rows: every snapshot's values in layout order, as bytes
  const n = snaps.length;
  const rows = snaps.map((s) => {
    const row = new Float64Array(slots);
    let j = 0;
    for (const c of s.components) for (const vals of c.fields.values()) for (let i = 0; i < vals.length; i++) row[j++] = vals[i]!;
    return new Uint8Array(row.buffer);
  });
  const planes = new Uint8Array(slots * 8 * n);
  const le = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f; // byte 7 holds the sign/exponent
  let q = 0;
  for (let j = 0; j < slots; j++) {
    for (let b = 7; b >= 0; b--) {
      const at = j * 8 + (le ? b : 7 - b);
      for (let i = 0; i < n; i++) planes[q++] = rows[i]![at]!;
    }
  }
  for (let i = 0; i < planes.length; i++) w.u8(planes[i]!);
  return w.done();
}

export function decodeSnapshotSet(bytes: Uint8Array, limits: SnapshotDecodeLimits = {}): WorldSnapshot[] {
  const budget = new DecodeBudget(limits);
  const r = new Reader(bytes);
  const magic = r.u32('set magic');
  if (magic !== SET_MAGIC) throw new SnapshotError(`snapshot set: bad magic 0x${magic.toString(16)}, expected 0x${SET_MAGIC.toString(16)} ("SNPS")`);
  const version = r.u32('set version');
  if (version !== SET_VERSION) throw new SnapshotError(`snapshot set: version ${version}, this build reads version ${SET_VERSION}`);
  const n = r.count('snapshots', 1);
  budget.snapshots(n);
  const out: WorldSnapshot[] = [];
  if (n === 0) {
    if (r.p !== bytes.length) throw new SnapshotError(`snapshot set: ${bytes.length - r.p} unexpected trailing bytes`);
    return out;
  }
  const layout = r.u8('layout');
  if (layout === 0) {
    for (let i = 0; i < n; i++) out.push(decodeOne(r.bytes(`snapshot ${i}`), budget));
  } else if (layout === 1) {
    const ne = r.count('entities', 4);
    const entities = new Int32Array(ne);
    for (let i = 0; i < ne; i++) entities[i] = r.i32('entity id');
    const nc = r.count('components', 12);
    budget.take(nc, 'components');
    const comps: { name: string; eids: Int32Array; fields: string[] }[] = [];
    let slots = 0;
    let columns = nc;
    for (let k = 0; k < nc; k++) {
      const name = r.str('component name');
      const m = r.count(`${name} entities`, 4);
      const eids = new Int32Array(m);
      for (let i = 0; i < m; i++) eids[i] = r.i32(`${name} entity id`);
      const nf = r.count(`${name} fields`, 4);
      budget.take(nf, `${name} fields`);
      columns += nf;
      const fields: string[] = [];
      for (let j = 0; j < nf; j++) fields.push(r.str(`${name} field name`));
      comps.push({ name, eids, fields });
      slots += nf * m;
    }
    // every snapshot gets its own component records and columns
    budget.take(n * columns, `${n} snapshots × ${columns} components and fields`);
    const heads: { tick: number; time: number; rng: Uint32Array }[] = [];
    if (n * 32 > bytes.length - r.p) throw new SnapshotError(`snapshot set: ${n} snapshots claimed, more than the bytes left`);
    for (let i = 0; i < n; i++) {
      const tick = r.f64('tick');
      const time = r.f64('time');
      const rng = new Uint32Array(4);
      for (let k = 0; k < 4; k++) rng[k] = r.u32('rng');
      heads.push({ tick, time, rng });
    }
    if (slots * 8 * n > bytes.length - r.p) throw new SnapshotError(`snapshot set: ${slots} values × ${n} snapshots claimed, more than the ${bytes.length - r.p} bytes left`);
    const rows = Array.from({ length: n }, () => new Float64Array(slots));
    const rowBytes = rows.map((x) => new Uint8Array(x.buffer));
    const le = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;
    for (let j = 0; j < slots; j++) {
      for (let b = 7; b >= 0; b--) {
        const at = j * 8 + (le ? b : 7 - b);
        for (let i = 0; i < n; i++) rowBytes[i]![at] = r.u8('value');
      }
    }
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      let j = 0;
      const components: ComponentSnapshot[] = comps.map((c) => {
        const fields = new Map<string, Float64Array>();
        for (const f of c.fields) {
          fields.set(f, row.slice(j, j + c.eids.length));
          j += c.eids.length;
        }
        return { name: c.name, eids: c.eids.slice(), fields };
      });
      out.push({ ...heads[i]!, entities: entities.slice(), components });
    }
  } else throw new SnapshotError(`snapshot set: layout ${layout}, expected 0 (whole) or 1 (columnar)`);
  if (r.p !== bytes.length) throw new SnapshotError(`snapshot set: ${bytes.length - r.p} unexpected trailing bytes`);
  return out;
}
