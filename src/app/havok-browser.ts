/** Browser Havok loader: Vite serves the wasm file; it is fetched and compiled once, then instantiated per use. */
import HavokPhysics, { type HavokPhysicsWithBindings } from '@babylonjs/havok';
import wasmUrl from '@babylonjs/havok/lib/esm/HavokPhysics.wasm?url';
import { ensureFreshHavok, havokOrNull, moduleFactory, setHavok, setHavokFactory } from '../systems/sim/collision/havok-instance';

let compiling: Promise<WebAssembly.Module> | null = null;

async function compile(): Promise<WebAssembly.Module> {
  const res = await fetch(wasmUrl, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${wasmUrl}: HTTP ${res.status}`);
  return WebAssembly.compile(await res.arrayBuffer());
}

/**
 * Loads the shared Havok instance (once) and makes sure a pristine instance (pooled or a spare) is ready for the
 * next props world (havok-instance.ts): awaited before building each world that may have props (run start, replay open,
 * ghost, in-page verify). Rejects when the wasm cannot be fetched or compiled (callers then build no props).
 */
export async function loadHavokBrowser(): Promise<HavokPhysicsWithBindings> {
  compiling ??= compile().catch((e: unknown) => {
    compiling = null;
    throw e;
  });
  const mod = await compiling;
  const factory = moduleFactory(HavokPhysics as (o: object) => Promise<HavokPhysicsWithBindings>, mod);
  setHavokFactory(factory);
  let hp = havokOrNull();
  if (!hp) {
    hp = await factory.create();
    setHavok(hp);
  }
  await ensureFreshHavok();
  return hp;
}
