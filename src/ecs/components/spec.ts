/**
 * Components are plain objects of typed arrays (bitecs 0.4 style, SoA), one set per world so that several
 * worlds (live game, replay verification, ghost) can run side by side in one process.
 *
 * Each component is described once here: its fields, which of them are *state* (hashed, saved in replay
 * keyframes) and which are derived or scratch. Physics state is Float64Array.
 */

export type FieldKind = 'f64' | 'i32' | 'u8';

export interface ComponentSpec {
  /** Field name → storage kind. */
  fields: Record<string, FieldKind>;
  /** Fields that are simulation state: hashed (state hash) and saved in keyframes. */
  state: readonly string[];
}

export type Store<F extends Record<string, FieldKind>> = {
  [K in keyof F]: F[K] extends 'f64' ? Float64Array : F[K] extends 'i32' ? Int32Array : Uint8Array;
};

/**
 * Stores with dozens of fields built by computed-key assignment end up in V8's slow dictionary mode (≈10×
 * slower field access in the hot loops: every `store.field` read becomes a hash lookup). The old trick of
 * using the object as a prototype no longer converts it in Node 20 (checked with %HasFastProperties); an
 * object-spread copy is created with a fast-properties map (CloneObjectIC), so every store is fast.
 */
function toFastProperties<T extends object>(o: T): T {
  return { ...o };
}

/** Bytes per element of each field kind. */
const KIND_BYTES: Record<FieldKind, number> = { f64: 8, i32: 4, u8: 1 };
/** One cache line, bytes: every field starts on one, and each field is one line further round the L1 sets than the last. */
const CACHE_LINE = 64;

/** A field's share of its world's component block: its values rounded up to whole lines, then one line of stagger. */
function fieldBytes(kind: FieldKind, capacity: number): number {
  return Math.ceil((KIND_BYTES[kind] * capacity) / CACHE_LINE) * CACHE_LINE + CACHE_LINE;
}

/** Bytes that `allocate` takes from a component block for these fields. */
export function storeBytes(fields: Record<string, FieldKind>, capacity: number): number {
  let n = 0;
  for (const kind of Object.values(fields)) n += fieldBytes(kind, capacity);
  return n;
}

/** A world's component block (one ArrayBuffer for every field of every component) and the next free byte in it. */
export interface ComponentBlock {
  buffer: ArrayBuffer;
  at: number;
}

/**
 * One typed array per field, each a view into `block` (from `block.at` on, which it advances). Every field starts on
 * a cache line, one line further on modulo the page than the previous field: one entity's values of many fields
 * then fall in different sets of the L1 data cache. Fields allocated one by one, or packed at whole multiples of a
 * page (capacity × 8 bytes), share the same few sets, and the car passes, which read some hundred fields of a
 * handful of entities per evaluation, evict their own lines (measured: the peers step ≈ 4 % slower).
 */
export function allocate<F extends Record<string, FieldKind>>(fields: F, capacity: number, block: ComponentBlock): Store<F> {
  const out: Record<string, Float64Array | Int32Array | Uint8Array> = {};
  for (const [name, kind] of Object.entries(fields)) {
    const b = block.buffer,
      at = block.at;
    out[name] = kind === 'f64' ? new Float64Array(b, at, capacity) : kind === 'i32' ? new Int32Array(b, at, capacity) : new Uint8Array(b, at, capacity);
    block.at = at + fieldBytes(kind, capacity);
  }
  return toFastProperties(out) as Store<F>;
}


export const f64 = 'f64' as const;
export const i32 = 'i32' as const;
export const u8 = 'u8' as const;
