/**
 * The browser's stage storage (IndexedDB via idb, database `bitrally-stages`): the generation cache (keyed by
 * generator version + parameters, the oldest dropped past GENERATION_CACHE_ENTRIES) and the player's stage
 * list (generated stages saved and imported packages, by stage id). Where IndexedDB is unavailable (private
 * mode) both live in memory for the session.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { GeneratedStageData } from './generate-api';
import type { StageGenCache } from './client';

const DB_NAME = 'bitrally-stages';
const DB_VERSION = 1;
const CACHE_STORE = 'generated';
const USER_STORE = 'user';
/** Generations kept: a 5 km stage is ~1.5 MB of PNGs, so the cache stays near 25 MB. */
const GENERATION_CACHE_ENTRIES = 16;

/** A stored stage: generated (with its parameters) or imported (`params` null; `generatorVersion` null without a `[generator]` table). */
export interface StoredStageData extends Omit<GeneratedStageData, 'params' | 'generatorVersion'> {
  params: GeneratedStageData['params'] | null;
  generatorVersion: number | null;
}

/** A stage in the player's list: the files (generated or imported) and where it came from. */
export interface UserStage extends StoredStageData {
  origin: 'generated' | 'imported';
  /** ms since the epoch when it was saved (list order). */
  savedAt: number;
}

interface CacheRecord {
  key: string;
  storedAt: number;
  stage: GeneratedStageData;
}

let dbPromise: Promise<IDBPDatabase | null> | null = null;
const memCache = new Map<string, CacheRecord>();
const memUser = new Map<string, UserStage>();

function db(): Promise<IDBPDatabase | null> {
  dbPromise ??= (async () => {
    if (typeof indexedDB === 'undefined') return null;
    try {
      return await openDB(DB_NAME, DB_VERSION, {
        upgrade(d) {
          if (!d.objectStoreNames.contains(CACHE_STORE)) d.createObjectStore(CACHE_STORE, { keyPath: 'key' });
          if (!d.objectStoreNames.contains(USER_STORE)) d.createObjectStore(USER_STORE, { keyPath: 'id' });
        },
      });
    } catch (e) {
      console.warn(`stage storage: IndexedDB unavailable (${(e as Error).message}); stages kept for this session only`);
      return null;
    }
  })();
  return dbPromise;
}

/** The generation cache in IndexedDB. */
export const idbStageGenCache: StageGenCache = {
  async get(key) {
    const d = await db();
    const r = (d ? await d.get(CACHE_STORE, key) : memCache.get(key)) as CacheRecord | undefined;
    return r?.stage;
  },
  async put(key, stage) {
    const rec: CacheRecord = { key, storedAt: Date.now(), stage };
    const d = await db();
    if (!d) {
      memCache.set(key, rec);
      return;
    }
    await d.put(CACHE_STORE, rec);
    const all = (await d.getAll(CACHE_STORE)) as CacheRecord[];
    all.sort((a, b) => a.storedAt - b.storedAt);
    for (const old of all.slice(0, Math.max(0, all.length - GENERATION_CACHE_ENTRIES))) await d.delete(CACHE_STORE, old.key);
  },
};

/** The player's stages, newest first. */
export async function listUserStages(): Promise<UserStage[]> {
  const d = await db();
  const all = d ? ((await d.getAll(USER_STORE)) as UserStage[]) : [...memUser.values()];
  return all.sort((a, b) => b.savedAt - a.savedAt);
}

export async function getUserStage(id: string): Promise<UserStage | undefined> {
  const d = await db();
  return (d ? await d.get(USER_STORE, id) : memUser.get(id)) as UserStage | undefined;
}

/** Saves (or replaces) a stage in the player's list. */
export async function saveUserStage(stage: StoredStageData, origin: UserStage['origin']): Promise<UserStage> {
  const rec: UserStage = { ...stage, origin, savedAt: Date.now() };
  const d = await db();
  if (d) await d.put(USER_STORE, rec);
  else memUser.set(rec.id, rec);
  return rec;
}

export async function deleteUserStage(id: string): Promise<void> {
  const d = await db();
  if (d) await d.delete(USER_STORE, id);
  else memUser.delete(id);
}
