/**
 * The garage's IndexedDB database "bitrally-garage" (separate from the game's "bitrally" so that schema
 * versions do not clash): store "cars" (custom cars, keyPath id) and "runs" (telemetry of finished runs).
 * Null when IndexedDB is unavailable (private mode, Node); callers fall back to memory.
 */
import { openDB, type IDBPDatabase } from 'idb';

let dbp: Promise<IDBPDatabase | null> | null = null;

export function openGarageDb(): Promise<IDBPDatabase | null> {
  if (dbp) return dbp;
  if (typeof indexedDB === 'undefined') return (dbp = Promise.resolve(null));
  dbp = openDB('bitrally-garage', 1, {
    upgrade(d) {
      if (!d.objectStoreNames.contains('cars')) d.createObjectStore('cars', { keyPath: 'id' });
      if (!d.objectStoreNames.contains('runs')) d.createObjectStore('runs', { keyPath: 'id' });
    },
  }).catch((e: Error) => {
    console.warn(`garage: IndexedDB unavailable (${e.message}); custom cars and run telemetry kept for this session only`);
    return null;
  });
  return dbp;
}
