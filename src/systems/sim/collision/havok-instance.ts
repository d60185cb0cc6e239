/**
 * The process-wide Havok instance (wasm, raw API, no Babylon scene). Initialisation is asynchronous, so it is
 * loaded once up front — `loadHavokNode()` (havok-node.ts) in Node, `loadHavokBrowser()` (havok-browser.ts)
 * in the browser — and then used synchronously by the simulation.
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
