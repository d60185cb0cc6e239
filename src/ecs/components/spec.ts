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
 * slower field access in the hot loops). Using the object as a prototype once makes V8 turn it back into a
 * fast-properties object.
 */
function toFastProperties<T extends object>(o: T): T {
  function Holder(): void {}
  Holder.prototype = o;
  // eslint-disable-next-line @typescript-eslint/no-unused-expressions
  (Holder as unknown as { prototype: T }).prototype;
  return o;
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
