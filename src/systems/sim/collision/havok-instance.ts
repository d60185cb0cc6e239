/**
 * Havok instances (wasm, raw API, no Babylon scene). Initialisation is asynchronous, so Havok is loaded up
 * front — `loadHavokNode()` (havok-node.ts) in Node, `loadHavokBrowser()` (havok-browser.ts) in the browser —
 * and then used synchronously by the simulation.
 *
 * Two kinds of instance (docs/collisions.md "Havok heap history", "Havok memory"):
 * - the SHARED instance (`havokOrNull`, `requireHavok`): the static-scenery query worlds (havok-queries.ts).
 *   Their answers are bit-identical to the TS grid's whatever the heap holds, so one instance serves them all.
 * - a PRISTINE instance per props world (`takeFreshHavok`): a props world's stepping depends on the wasm heap's
 *   history (freed body handles are recycled, allocation order differs), so each props world gets an instance
 *   whose wasm state is exactly that of a fresh process (`replay verify`): one a released props world gave back
 *   (`releaseFreshHavok`: reset to the module's state right after start-up, havok-pristine.ts, and pooled, at
 *   most MAX_POOLED_HAVOK), else a spare never used, else a new one instantiated synchronously. Memory then
 *   stays flat however many props worlds are built and released (~16.9 MB per instance in use or pooled).
 *   Instantiation is asynchronous in the browser and building a world is synchronous, so one spare is kept
 *   ready when the pool is empty: the loaders `await ensureFreshHavok()`. With neither ready (several worlds
 *   built in one go, e.g. replay seeks) the instance is made synchronously (`new WebAssembly.Instance`; the
 *   module is ~2 MB, under the browsers' main-thread limit).
 */
import type { HavokPhysicsWithBindings } from '@babylonjs/havok';
import { registerHavokInstance, resetHavok } from './havok-pristine';

let instance: HavokPhysicsWithBindings | null = null;

export function setHavok(hp: HavokPhysicsWithBindings): void {
  instance = hp;
}

export function havokOrNull(): HavokPhysicsWithBindings | null {
  return instance;
}

export function requireHavok(what: string): HavokPhysicsWithBindings {
  if (!instance)
    throw new Error(`${what}: Havok is not loaded; await loadHavokNode() (Node) or loadHavokBrowser() (browser) before building the world`);
  return instance;
}

/** Makes new Havok instances of one compiled module: asynchronously, or synchronously (null: not possible). */
export interface HavokFactory {
  create(): Promise<HavokPhysicsWithBindings>;
  createSync(): HavokPhysicsWithBindings | null;
}

let factory: HavokFactory | null = null;
let spare: HavokPhysicsWithBindings | null = null;
let preparing: Promise<HavokPhysicsWithBindings> | null = null;

/** Released instances kept (reset to pristine) for the next props worlds; beyond it they go to the GC. */
export const MAX_POOLED_HAVOK = 4;
const pool: HavokPhysicsWithBindings[] = [];
/** Instances handed to a props world and not given back yet. */
const lent = new WeakSet<object>();

/**
 * How props worlds got their instance (a reset one from the pool, the spare, a synchronous instantiation, or —
 * no factory — the shared one) and what became of the released ones (pooled again, or dropped).
 */
export const freshHavokStats = { reused: 0, spare: 0, sync: 0, shared: 0, returned: 0, dropped: 0 };

export function setHavokFactory(f: HavokFactory): void {
  factory = f;
}

/** Instances waiting in the pool (tests). */
export const pooledHavokCount = (): number => pool.length;

/** Resolves once a pristine instance is ready — pooled or a spare (null without a factory: Havok not loaded). */
export function ensureFreshHavok(): Promise<HavokPhysicsWithBindings | null> {
  const ready = pool[pool.length - 1] ?? spare;
  if (ready) return Promise.resolve(ready);
  if (!factory) return Promise.resolve(null);
  preparing ??= factory.create().then(
    (hp) => {
      preparing = null;
      spare ??= hp;
      return spare;
    },
    (e: unknown) => {
      preparing = null;
      throw e;
    },
  );
  return preparing;
}

function takeNew(): HavokPhysicsWithBindings | null {
  const hp = spare;
  spare = null;
  if (hp) {
    freshHavokStats.spare++;
    return hp;
  }
  const made = factory?.createSync() ?? null;
  if (made) freshHavokStats.sync++;
  return made;
}

/**
 * A Havok instance whose wasm state is that of a fresh process, for one props world: a pooled one, the spare,
 * or a synchronous instantiation; starts preparing a spare when the pool is empty. Falls back (no factory:
 * instance set by hand) to the shared instance — counted in `freshHavokStats.shared`, heap history then
 * matters again. Give it back with `releaseFreshHavok` when the world is released.
 */
export function takeFreshHavok(shared: HavokPhysicsWithBindings): HavokPhysicsWithBindings {
  let hp = pool.pop() ?? null;
  if (hp) freshHavokStats.reused++;
  else hp = takeNew();
  if (factory && pool.length === 0) ensureFreshHavok().catch(() => undefined);
  if (hp) {
    lent.add(hp);
    return hp;
  }
  freshHavokStats.shared++;
  return shared;
}

/**
 * Gives back the instance of a released props world (nothing may use it afterwards): reset to pristine and
 * pooled for the next props world, or dropped for the garbage collector when the pool is full or the instance
 * cannot be reset (its memory grew). Ignores instances it did not lend (the shared one) and second releases.
 */
export function releaseFreshHavok(hp: HavokPhysicsWithBindings): void {
  if (!lent.delete(hp)) return;
  if (pool.length < MAX_POOLED_HAVOK && resetHavok(hp)) {
    pool.push(hp);
    freshHavokStats.returned++;
  } else freshHavokStats.dropped++;
}

type Factory = (opts: object) => Promise<HavokPhysicsWithBindings>;

/**
 * A HavokFactory over emscripten's factory and one compiled module: each call gets a new options object (the
 * factory makes it the instance's `Module`) whose `instantiateWasm` hook instantiates `mod` — synchronously
 * (`new WebAssembly.Instance`: the factory then finishes initialising before it returns) or asynchronously.
 * Every instance is registered for resets (havok-pristine.ts) once started, before anyone uses it.
 */
export function moduleFactory(havokPhysics: Factory, mod: WebAssembly.Module): HavokFactory {
  const start = (sync: boolean) => {
    let made: WebAssembly.Instance | null = null;
    const opts = {
      instantiateWasm(imports: WebAssembly.Imports, receive: (inst: WebAssembly.Instance, m: WebAssembly.Module) => WebAssembly.Exports): WebAssembly.Exports {
        if (sync) return receive((made = new WebAssembly.Instance(mod, imports)), mod);
        void WebAssembly.instantiate(mod, imports).then((inst) => receive((made = inst), mod));
        return {};
      },
    };
    const started = (hp: HavokPhysicsWithBindings): HavokPhysicsWithBindings => {
      if (made) registerHavokInstance(hp, made, mod);
      return hp;
    };
    return { opts, started };
  };
  return {
    create: () => {
      const s = start(false);
      return havokPhysics(s.opts).then(s.started);
    },
    createSync: () => {
      try {
        const s = start(true);
        const m = s.opts as object as HavokPhysicsWithBindings & { calledRun?: number };
        havokPhysics(m).catch(() => undefined);
        return m.calledRun ? s.started(m) : null;
      } catch {
        return null; // e.g. a browser refusing synchronous instantiation on the main thread
      }
    },
  };
}
