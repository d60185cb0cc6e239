/**
 * Runs keep their telemetry: finished runs' logs in IndexedDB ("bitrally-garage" / "runs"), newest first,
 * at most MAX_RUNS_PER_STAGE per stage (the oldest are dropped). Memory fallback without IndexedDB.
 */
import { openGarageDb } from '../garage/db';
import type { StoredRun } from './run-log';

export const MAX_RUNS_PER_STAGE = 20;

const mem = new Map<string, StoredRun>();

export async function saveRun(r: StoredRun): Promise<void> {
  const db = await openGarageDb();
  if (db) await db.put('runs', r);
  else mem.set(r.id, r);
  const same = (await listRuns()).filter((x) => x.stageId === r.stageId);
  for (const old of same.slice(MAX_RUNS_PER_STAGE)) await deleteRun(old.id);
}

export async function listRuns(): Promise<StoredRun[]> {
  const db = await openGarageDb();
  const all = db ? ((await db.getAll('runs')) as StoredRun[]) : [...mem.values()];
  return all.sort((a, b) => b.seq - a.seq);
}

export async function deleteRun(id: string): Promise<void> {
  const db = await openGarageDb();
  if (db) await db.delete('runs', id);
  else mem.delete(id);
}
