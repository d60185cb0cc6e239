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

export function allocate<F extends Record<string, FieldKind>>(fields: F, capacity: number): Store<F> {
  const out: Record<string, Float64Array | Int32Array | Uint8Array> = {};
  for (const [name, kind] of Object.entries(fields)) {
    out[name] = kind === 'f64' ? new Float64Array(capacity) : kind === 'i32' ? new Int32Array(capacity) : new Uint8Array(capacity);
  }
  return toFastProperties(out) as Store<F>;
}


export const f64 = 'f64' as const;
export const i32 = 'i32' as const;
export const u8 = 'u8' as const;
