/**
 * Putting a Havok wasm instance back to the state it had right after instantiation, so that one instance can
 * serve many props worlds one after another and each still steps exactly as in a fresh process
 * (docs/collisions.md "Havok heap history", "Havok memory").
 *
 * The whole state of a Havok instance that its results can depend on is wasm state: its linear memory (the
 * heap, static data, stack, the allocator's own bookkeeping) and its one mutable global, the stack pointer
 * (`__stack_pointer`; the function table is fixed-size, min = max, and never written). The emscripten glue's JS
 * state after initialisation is the embind type registry (fixed once the module has started), emval handles
 * (none are held between calls: `count_emval_handles() === 0`), the stdout line buffer and the clock.
 * So: the memory bytes and the stack pointer are recorded once per compiled module, from an instance no world
 * has touched (`registerHavokInstance`, called by the factory as soon as the instance has started); `resetHavok`
 * copies them back. A WebAssembly.Memory cannot shrink: an instance whose memory grew is refused (the caller
 * drops it), so a reset instance has exactly a fresh instance's memory size too.
 *
 * Two fresh instances differ only where the clock at start-up is written (a 64-bit time reading in static data,
 * at 0xd1a8 in Havok 1.3.14, and its trace in the dead stack below the stack pointer): they already step
 * identically, and a reset instance carries the recorded instance's reading.
 */
import type { HavokPhysicsWithBindings } from '@babylonjs/havok';

/** The exports of a Havok instance that a reset needs (emscripten's names). */
interface InstanceAccess {
  memory: WebAssembly.Memory;
  stackGet: () => number;
  stackRestore: (sp: number) => void;
}

/** A compiled module's state right after start-up: memory bytes up to the last non-zero one (the rest is zero). */
interface PristineImage {
  bytes: Uint8Array;
  memoryBytes: number;
  stackPointer: number;
}

type HavokWithGlue = HavokPhysicsWithBindings & { count_emval_handles?: () => number };

const access = new WeakMap<object, InstanceAccess>();
const images = new WeakMap<WebAssembly.Module, PristineImage>();
const moduleOf = new WeakMap<object, WebAssembly.Module>();

function accessOf(exports: WebAssembly.Exports): InstanceAccess | null {
  const memory = exports.memory, get = exports.emscripten_stack_get_current, restore = exports._emscripten_stack_restore;
  if (!(memory instanceof WebAssembly.Memory) || typeof get !== 'function' || typeof restore !== 'function') return null;
  return { memory, stackGet: get as () => number, stackRestore: restore as (sp: number) => void };
}

function capture(a: InstanceAccess): PristineImage {
  const heap = new Uint8Array(a.memory.buffer);
  let end = heap.length;
  while (end > 0 && heap[end - 1] === 0) end--;
  return { bytes: heap.slice(0, end), memoryBytes: heap.length, stackPointer: a.stackGet() };
}

/**
 * Records how to reset `hp` (an instance of `mod` whose start-up has just finished, before any world used it);
 * the first instance of a module also gives the module's pristine image. Without the expected exports (another
 * Havok build) nothing is recorded and `resetHavok` refuses the instance: it then serves one world only.
 */
export function registerHavokInstance(hp: HavokPhysicsWithBindings, instance: WebAssembly.Instance, mod: WebAssembly.Module): void {
  const a = accessOf(instance.exports);
  if (!a) return;
  access.set(hp, a);
  moduleOf.set(hp, mod);
  if (!images.has(mod)) images.set(mod, capture(a));
}

/**
 * Puts `hp` back to its module's pristine image: true when done, false when the instance cannot be reused
 * (not registered, its memory grew, or the glue still holds emval handles) — the caller then drops it.
 */
export function resetHavok(hp: HavokPhysicsWithBindings): boolean {
  const a = access.get(hp), mod = moduleOf.get(hp);
  const img = mod ? images.get(mod) : undefined;
  if (!a || !img) return false;
  if (a.memory.buffer.byteLength !== img.memoryBytes) return false;
  if (((hp as HavokWithGlue).count_emval_handles?.() ?? 0) !== 0) return false;
  const heap = new Uint8Array(a.memory.buffer);
  heap.set(img.bytes);
  heap.fill(0, img.bytes.length);
  a.stackRestore(img.stackPointer);
  return a.stackGet() === img.stackPointer;
}

/** The instance's current linear memory and stack pointer (tests), or null when not registered. */
export function havokMemoryOf(hp: HavokPhysicsWithBindings): { heap: Uint8Array; stackPointer: number } | null {
  const a = access.get(hp);
  return a ? { heap: new Uint8Array(a.memory.buffer), stackPointer: a.stackGet() } : null;
}
