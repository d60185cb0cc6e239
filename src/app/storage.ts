/**
 * Personal bests in IndexedDB (idb). One record per (stage, car): total time and the split times.
 * If IndexedDB is unavailable (private mode), bests live in memory for the session.
 */
import { openDB, type IDBPDatabase } from 'idb';

export interface BestRecord {
  key: string;
  stageId: string;
  carId: string;
  timeS: number;
  splitsS: number[];
  /** ISO date of the run (display only). */
  date: string;
}

const DB_NAME = 'bitrally';
const STORE = 'bests';

export const bestKey = (stageId: string, carId: string): string => `${stageId}::${carId}`;

export class BestTimes {
  private db: IDBPDatabase | null = null;
  private readonly mem = new Map<string, BestRecord>();

  async open(): Promise<void> {
    if (typeof indexedDB === 'undefined') return;
    try {
      this.db = await openDB(DB_NAME, 1, {
        upgrade(db) {
          if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'key' });
        },
      });
    } catch (e) {
      console.warn(`storage: IndexedDB unavailable (${(e as Error).message}); personal bests kept for this session only`);
    }
  }

  async get(stageId: string, carId: string): Promise<BestRecord | undefined> {
    const key = bestKey(stageId, carId);
    if (!this.db) return this.mem.get(key);
    return (await this.db.get(STORE, key)) as BestRecord | undefined;
  }

  /** Best over all cars on a stage. */
  async bestOnStage(stageId: string): Promise<BestRecord | undefined> {
    const all = this.db ? ((await this.db.getAll(STORE)) as BestRecord[]) : [...this.mem.values()];
    return all.filter((r) => r.stageId === stageId).sort((a, b) => a.timeS - b.timeS)[0];
  }

  /** Stores the run if it beats the previous best; returns true if it is a new best. */
  async submit(rec: Omit<BestRecord, 'key'>): Promise<boolean> {
    const prev = await this.get(rec.stageId, rec.carId);
    if (prev && prev.timeS <= rec.timeS) return false;
    const full: BestRecord = { ...rec, key: bestKey(rec.stageId, rec.carId) };
    if (this.db) await this.db.put(STORE, full);
    else this.mem.set(full.key, full);
    return true;
  }
}
