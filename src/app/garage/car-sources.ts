/**
 * The car files the garage can open: the built-in `src/content/cars/*.toml` (read-only in the browser; saved
 * edits become custom cars) and the custom cars from IndexedDB, with one `readExtends` over both.
 */
import { readBuiltin } from '../../content/cars';
import { CustomCars, IdbBackend, type CustomCarRecord } from './custom-cars';

let store: CustomCars | null = null;
let customCache: CustomCarRecord[] = [];

/** Newer texts of built-in files seen by the dev live reload (file name → text). */
const diskTexts = new Map<string, string>();

export function setDiskText(file: string, text: string): void {
  diskTexts.set(file, text);
}

/** Text of a car file by name (for `extends`): built-in (as last seen on disk) first, then custom (`custom-x.toml`). */
export function readAnyCar(name: string): string {
  const disk = diskTexts.get(name) ?? diskTexts.get(`${name}.toml`);
  if (disk !== undefined) return disk;
  try {
    return readBuiltin(name);
  } catch (e) {
    const id = name.replace(/\.toml$/i, '');
    const c = customCache.find((r) => r.id === id);
    if (c && c.text !== null) return c.text;
    throw e;
  }
}

export async function customCars(): Promise<CustomCars> {
  if (!store) {
    store = new CustomCars(await IdbBackend.open(), readAnyCar);
    customCache = await store.list();
  }
  return store;
}

export async function refreshCustom(): Promise<CustomCarRecord[]> {
  const s = await customCars();
  customCache = await s.list();
  return customCache;
}

const drivableMemo = new Map<string, { text: string; config: import('../../content/car-schema').CarConfig | null }>();

/** Drivable config of a custom car from the cache (validated once per text), or undefined. */
export function customCarConfig(id: string): import('../../content/car-schema').CarConfig | undefined {
  const r = customCache.find((x) => x.id === id);
  if (!r || r.text === null) return undefined;
  const m = drivableMemo.get(id);
  if (m && m.text === r.text) return m.config ?? undefined;
  const config = store?.drivableConfig(r) ?? null;
  drivableMemo.set(id, { text: r.text, config });
  return config ?? undefined;
}

/** Ids of the custom cars that can be driven (valid text), for the game's car list. */
export function drivableCustomIds(): string[] {
  return customCache.filter((r) => r.text !== null && customCarConfig(r.id)).map((r) => r.id);
}
