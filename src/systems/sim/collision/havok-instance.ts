/**
 * Havok instances (wasm, raw API, no Babylon scene). Initialisation is asynchronous, so Havok is loaded up
 * front — `loadHavokNode()` (havok-node.ts) in Node, `loadHavokBrowser()` (havok-browser.ts) in the browser —
 * and then used synchronously by the simulation.
 *
 * Two kinds of instance (docs/collisions.md "Havok heap history"):
 * - the SHARED instance (`havokOrNull`, `requireHavok`): the static-scenery query worlds (havok-queries.ts).
 *   Their answers are bit-identical to the TS grid's whatever the heap holds, so one instance serves them all.
 * - a FRESH instance per props world (`takeFreshHavok`): a props world's stepping depends on the wasm heap's
 *   history (freed body handles are recycled, allocation order differs), so each props world gets a new wasm
 *   instance of the same compiled module — its heap is then exactly that of a fresh process (`replay verify`).
 *   Instantiation is asynchronous in the browser and building a world is synchronous, so one spare instance is
 *   kept ready: the loaders `await ensureFreshHavok()`, and taking the spare starts preparing the next. With no
 *   spare ready (several worlds built in one go, e.g. replay seeks) it is instantiated synchronously
 *   (`new WebAssembly.Instance`; the module is ~2 MB, under the browsers' main-thread limit).
 * The old instance goes with its world: nothing here keeps a taken instance, so releasing the world
 * (releaseCollisionWorld) lets the garbage collector take its memory (~17 MB of heap each).
 */
import type { HavokPhysicsWithBindings } from '@babylonjs/havok';

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

/** How props worlds got their instance: the spare, a synchronous instantiation, or (no factory) the shared one. */
export const freshHavokStats = { spare: 0, sync: 0, shared: 0 };

export function setHavokFactory(f: HavokFactory): void {
  factory = f;
}

/** Resolves once a spare fresh instance is ready (null without a factory: Havok not loaded). */
export function ensureFreshHavok(): Promise<HavokPhysicsWithBindings | null> {
  if (spare) return Promise.resolve(spare);
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

/**
 * A Havok instance no world has used (heap as in a fresh process), for one props world; starts preparing the
 * next spare. Falls back to a synchronous instantiation, then (no factory: instance set by hand) to the shared
 * instance — counted in `freshHavokStats.shared`, heap history then matters again.
 */
export function takeFreshHavok(shared: HavokPhysicsWithBindings): HavokPhysicsWithBindings {
  let hp = spare;
  spare = null;
  if (hp) freshHavokStats.spare++;
  else if (factory) {
    hp = factory.createSync();
    if (hp) freshHavokStats.sync++;
  }
  if (factory) ensureFreshHavok().catch(() => undefined);
  if (hp) return hp;
  freshHavokStats.shared++;
  return shared;
}

type Factory = (opts: object) => Promise<HavokPhysicsWithBindings>;

/**
 * A HavokFactory over emscripten's factory and one compiled module: each call gets a new options object (the
 * factory makes it the instance's `Module`) whose `instantiateWasm` hook instantiates `mod` — synchronously
 * (`new WebAssembly.Instance`: the factory then finishes initialising before it returns) or asynchronously.
 */
export function moduleFactory(havokPhysics: Factory, mod: WebAssembly.Module): HavokFactory {
  const opts = (sync: boolean) => ({
    instantiateWasm(imports: WebAssembly.Imports, receive: (inst: WebAssembly.Instance, m: WebAssembly.Module) => WebAssembly.Exports): WebAssembly.Exports {
      if (sync) return receive(new WebAssembly.Instance(mod, imports), mod);
      void WebAssembly.instantiate(mod, imports).then((inst) => receive(inst, mod));
      return {};
    },
  });
  return {
    create: () => havokPhysics(opts(false)),
    createSync: () => {
      try {
        const m = opts(true) as object as HavokPhysicsWithBindings & { calledRun?: number };
        havokPhysics(m).catch(() => undefined);
        return m.calledRun ? m : null;
      } catch {
        return null; // e.g. a browser refusing synchronous instantiation on the main thread
      }
    },
  };
}
