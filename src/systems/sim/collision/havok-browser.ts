/** Browser Havok loader: Vite serves the wasm file and `locateFile` points the emscripten loader at it. */
import HavokPhysics, { type HavokPhysicsWithBindings } from '@babylonjs/havok';
import wasmUrl from '@babylonjs/havok/lib/esm/HavokPhysics.wasm?url';
import { havokOrNull, setHavok } from './havok-instance';

export async function loadHavokBrowser(): Promise<HavokPhysicsWithBindings> {
  const have = havokOrNull();
  if (have) return have;
  const hp = await HavokPhysics({ locateFile: () => wasmUrl });
  setHavok(hp);
  return hp;
}
