/** Node-only Havok loader: reads the wasm from node_modules (keeps node:fs out of the browser bundle). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import HavokPhysics, { type HavokPhysicsWithBindings } from '@babylonjs/havok';
import { ensureFreshHavok, havokOrNull, moduleFactory, setHavok, setHavokFactory } from './havok-instance';

let compiled: WebAssembly.Module | null = null;

/**
 * Loads the shared Havok instance (once) and makes sure a pristine instance (pooled or a spare) is ready for the
 * next props world (havok-instance.ts): call it before building each world that may have props.
 */
export async function loadHavokNode(): Promise<HavokPhysicsWithBindings> {
  if (!compiled) {
    const require = createRequire(import.meta.url);
    compiled = new WebAssembly.Module(readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm')));
    setHavokFactory(moduleFactory(HavokPhysics as (o: object) => Promise<HavokPhysicsWithBindings>, compiled));
  }
  let hp = havokOrNull();
  if (!hp) {
    hp = await moduleFactory(HavokPhysics as (o: object) => Promise<HavokPhysicsWithBindings>, compiled).create();
    setHavok(hp);
  }
  await ensureFreshHavok();
  return hp;
}
