/**
 * Seeds a server data directory with a daily rally's verified runs for tests/e2e/online-daily.spec.mjs:
 * `node --import tsx tests/e2e/seed-daily-rally.ts <data dir> <YYYY-MM-DD>`. Three players have every stage
 * (their totals differ), a fourth misses the last stage. Prints the expected classification as JSON.
 */
import { createBitRallyServer } from '../../server/server';
import { serverDailyRally, rankRallyTotals } from '../../server/daily-rally';
import { storeDailyRun } from '../server/daily-fixtures';
import { newPlayer } from '../server/client';

const [dataDir, date] = process.argv.slice(2);
if (!dataDir || !date) throw new Error('usage: seed-daily-rally.ts <data dir> <YYYY-MM-DD>');
const day = serverDailyRally(date);
const server = await createBitRallyServer({ dataDir, logger: false, verifier: { threads: 1 } });
const times: [string, number[]][] = [
  ['Åsa <Fast>', [121.5, 98.25, 143, 110.75]],
  ['Bo Slow', [130, 101, 150, 120]],
  ['Cy Mid', [125, 99, 145, 112]],
  ['Di Unfinished', [90, 90, 90]],
];
const runs = [];
for (const [name, ts] of times) {
  const p = newPlayer(name);
  await server.store.upsertPlayer(p.id, name);
  for (const [k, t] of ts.entries()) {
    const submissionId = await storeDailyRun(server.store, day, p.id, k, t);
    runs.push({ playerId: p.id, name, stageId: day.stageIds[k]!, stageTimeS: t, submissionId });
  }
}
await server.close();
process.stdout.write(`${JSON.stringify(rankRallyTotals(runs, day.stageIds).map((r) => ({ name: r.name, totalS: r.totalS })))}\n`);
