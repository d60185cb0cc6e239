/** Node-only Havok loader: reads the wasm from node_modules (keeps node:fs out of the browser bundle). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import HavokPhysics, { type HavokPhysicsWithBindings } from '@babylonjs/havok';
import { havokOrNull, setHavok } from './havok-instance';

export async function loadHavokNode(): Promise<HavokPhysicsWithBindings> {
  const have = havokOrNull();
  if (have) return have;
  const require = createRequire(import.meta.url);
  const buf = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
  const wasmBinary = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  const hp = await HavokPhysics({ wasmBinary });
  setHavok(hp);
  return hp;
}
