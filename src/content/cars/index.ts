/**
 * The built-in cars: `BUILTIN_CARS` ({ id, file, text }) works in the browser (Vite `import.meta.glob` with
 * `?raw`), in vitest (same) and in plain Node / tsx (falls back to reading the files with node:fs through
 * `process.getBuiltinModule`, no static fs import so the browser bundle stays clean).
 */
import { type CarConfig } from '../car-schema';
import { loadCarConfig } from '../car-load';

export interface BuiltinCar {
  id: string;
  file: string;
  text: string;
}

function fromGlob(): Record<string, string> | null {
  try {
    return import.meta.glob('./*.toml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
  } catch {
    return null;
  }
}

function fromFs(): Record<string, string> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
  const url = proc?.getBuiltinModule?.('node:url') as typeof import('node:url') | undefined;
  if (!fs || !url) return {};
  const dir = url.fileURLToPath(new URL('.', import.meta.url));
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.toml')) out['./' + f] = fs.readFileSync(dir + f, 'utf8');
  return out;
}

const raw = fromGlob() ?? fromFs();

export const BUILTIN_CARS: BuiltinCar[] = Object.keys(raw)
  .sort()
  .map((k) => {
    const file = k.replace(/^\.\//, '');
    return { id: file.replace(/\.toml$/, ''), file, text: raw[k]! };
  });

/** Read another built-in car file by name (for `extends`). */
export function readBuiltin(name: string): string {
  const c = BUILTIN_CARS.find((b) => b.file === name || b.id === name);
  if (!c) throw new Error(`no built-in car file "${name}" (have ${BUILTIN_CARS.map((b) => b.file).join(', ')})`);
  return c.text;
}

/** Load a built-in car by id ("hatch-gti", "classic-rwd", "rally-awd"). */
export function loadBuiltinCar(id: string): CarConfig {
  const c = BUILTIN_CARS.find((b) => b.id === id);
  if (!c) throw new Error(`no built-in car "${id}" (have ${BUILTIN_CARS.map((b) => b.id).join(', ')})`);
  return loadCarConfig(c.text, c.file, readBuiltin);
}
