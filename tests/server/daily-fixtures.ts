/**
 * Daily-rally runs stored as the verification queue stores a verdict (Store.insertSubmission + recordVerdict),
 * without driving a 2–6 km stage: what the daily-rally boards read. Used by the API suite and the e2e seed.
 */
import type { Store } from '../../server/store';
import type { DailyRallyDefinition } from '../../src/run/rally/daily';
import { SIM_VERSION } from '../../src/replay/version';

let stored = 0;

/**
 * An accepted run of `playerId` on stage `k` of `day`; each stage gets a made-up content hash of its own
 * (`canonical: false` stores it under another hash, a stage generated otherwise under that id).
 */
export async function storeDailyRun(store: Store, day: DailyRallyDefinition, playerId: string, k: number, timeS: number, o: { canonical?: boolean; carClass?: string } = {}): Promise<number> {
  const n = stored++;
  const { row } = await store.insertSubmission(`daily-${day.date}-${String(n).padStart(48, '0')}`, playerId, new Uint8Array([n & 255, n >> 8, 7]));
  const stageHash = `${o.canonical === false ? 'eeee' : 'dddd'}${String(k).padStart(12, '0')}`;
  const verdict = { status: 'accepted' as const, stageId: day.stageIds[k]!, stageHash, carClass: o.carClass ?? day.carId, simVersion: SIM_VERSION, stageTimeS: timeS, finalHash: `daily-${day.date}-${n}`, ticks: 1, canonicalStage: o.canonical ?? true };
  await store.recordVerdict(row.id, verdict, 0);
  return row.id;
}
