/**
 * Daily-rally boards: a player's rally total is the sum of their best verified time on each stage of that day's
 * rally, in the day's car class, counted only once every stage has one (a rally is classified on all its stages).
 *
 * Why the best run per stage and not the first (a real rally's single attempt): uploads are the player's choice
 * (opt-in, queued offline) and the server cannot tell a rally attempt from practice on the same generated stage,
 * so a first-run rule would be decided by what a client chooses to send, and would punish an honest player whose
 * practice run arrived first. Every time that counts is one the server re-simulated itself.
 */
import { BUILTIN_CARS } from '../src/content/cars/index';
import { dailyRallyDefinition, type DailyRallyDefinition } from '../src/run/rally/daily';
import type { RallyTotalRow } from './board-types';
export type { RallyTotalRow };

/** One player's best verified run on one stage of the rally (Store.rallyStageRuns). */
export interface RallyStageRun {
  playerId: string;
  name: string;
  stageId: string;
  stageTimeS: number;
  submissionId: number;
}

/** The daily rally of a UTC date as the game plays it (stages and car from the date alone). */
export function serverDailyRally(utcDate: string): DailyRallyDefinition {
  return dailyRallyDefinition(utcDate, BUILTIN_CARS.map((c) => c.id));
}

/**
 * The rally's classification: players with a run on every stage of `stageIds`, by total time; equal totals by
 * who completed the rally first (the later of their stage submissions, ids grow with time), then player id.
 */
export function rankRallyTotals(runs: readonly RallyStageRun[], stageIds: readonly string[]): RallyTotalRow[] {
  const index = new Map(stageIds.map((id, k) => [id, k]));
  const byPlayer = new Map<string, { name: string; runs: (RallyStageRun | undefined)[] }>();
  for (const r of runs) {
    const k = index.get(r.stageId);
    if (k === undefined) continue;
    const p = byPlayer.get(r.playerId) ?? { name: r.name, runs: stageIds.map(() => undefined) };
    const had = p.runs[k];
    // one best per stage (a stage id could have runs on two generator versions' stages)
    if (!had || r.stageTimeS < had.stageTimeS) p.runs[k] = r;
    byPlayer.set(r.playerId, p);
  }
  const complete: (Omit<RallyTotalRow, 'rank'> & { completedBy: number })[] = [];
  for (const [playerId, p] of byPlayer) {
    if (p.runs.some((r) => !r)) continue;
    const stageRuns = p.runs as RallyStageRun[];
    const stageTimesS = stageRuns.map((r) => r.stageTimeS);
    const submissionIds = stageRuns.map((r) => r.submissionId);
    complete.push({ playerId, name: p.name, totalS: stageTimesS.reduce((a, t) => a + t, 0), stageTimesS, submissionIds, completedBy: Math.max(...submissionIds) });
  }
  complete.sort((a, b) => a.totalS - b.totalS || a.completedBy - b.completedBy || (a.playerId < b.playerId ? -1 : 1));
  return complete.map(({ completedBy: _c, ...row }, i) => ({ rank: i + 1, ...row }));
}
