/**
 * The offline queue's IndexedDB store (database `bitrally-online`, store `queue`, keyed by the local id).
 * Without IndexedDB (private mode) the queue lives in memory for the session.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { MemoryQueueStore, type QueueStore, type QueuedRun } from './queue';

const DB = 'bitrally-online';
const STORE = 'queue';

export async function openQueueStore(): Promise<QueueStore> {
  if (typeof indexedDB === 'undefined') return new MemoryQueueStore();
  try {
    const db = await openDB(DB, 1, {
      upgrade(d) {
        if (!d.objectStoreNames.contains(STORE)) d.createObjectStore(STORE, { keyPath: 'localId' });
      },
    });
    return idbStore(db);
  } catch (e) {
    console.warn(`online: IndexedDB unavailable (${(e as Error).message}); queued submissions kept for this session only`);
    return new MemoryQueueStore();
  }
}

function idbStore(db: IDBPDatabase): QueueStore {
  return {
    all: async () => ((await db.getAll(STORE)) as QueuedRun[]).sort((a, b) => a.localId - b.localId),
    put: async (run) => void (await db.put(STORE, run)),
    remove: (localId) => db.delete(STORE, localId),
  };
}
