/**
 * Stage and overall classification of a rally (docs/game.md, "Rally"): the player and the AI rivals. A stage time
 * a car did not set (retired, or an AI car that did not finish) counts as the slowest classified time on that
 * stage plus RETIREMENT_PENALTY_S. Overall time = Σ stage times + service (time-control) penalties + retirement
 * penalties; ties keep entry order (player first).
 */
import { RETIREMENT_PENALTY_S, type RallyState } from './rally';

export const PLAYER_ENTRY = 'You';

export interface ClassifiedTime {
  name: string;
  isPlayer: boolean;
  /** Time counted for the stage, s (a retirement: slowest classified + penalty). */
  timeS: number;
  retired: boolean;
}

export interface OverallRow {
  name: string;
  isPlayer: boolean;
  /** Σ stage times counted, s. */
  stagesS: number;
  /** Service (time-control) penalties, s (the player's; AI crews are never late). */
  penaltyS: number;
  totalS: number;
  retirements: number;
  stagesDone: number;
}

/** The stage times of stage `k` with retirements replaced by the rule; null until the stage and its rival times exist. */
export function stageClassification(s: RallyState, k: number): ClassifiedTime[] | null {
  const res = s.results[k];
  const rivals = s.rivalTimes[k];
  if (!res || !rivals) return null;
  const raw: { name: string; isPlayer: boolean; t: number | null }[] = [
    { name: PLAYER_ENTRY, isPlayer: true, t: res.retired ? null : res.timeS },
    ...s.rivals.map((r, i) => ({ name: r.name, isPlayer: false, t: rivals[i] ?? null })),
  ];
  const set = raw.flatMap((e) => (e.t === null ? [] : [e.t]));
  const slowest = set.length > 0 ? Math.max(...set) : 0;
  const rows = raw.map((e) => ({ name: e.name, isPlayer: e.isPlayer, timeS: e.t ?? slowest + RETIREMENT_PENALTY_S, retired: e.t === null }));
  return rows.sort((a, b) => a.timeS - b.timeS);
}

/** The overall classification over the stages driven so far (sorted, fastest first). */
export function overallClassification(s: RallyState): OverallRow[] {
  const rows: OverallRow[] = [
    { name: PLAYER_ENTRY, isPlayer: true, stagesS: 0, penaltyS: 0, totalS: 0, retirements: 0, stagesDone: 0 },
    ...s.rivals.map((r) => ({ name: r.name, isPlayer: false, stagesS: 0, penaltyS: 0, totalS: 0, retirements: 0, stagesDone: 0 })),
  ];
  for (let k = 0; k < s.results.length; k++) {
    const cls = stageClassification(s, k);
    if (!cls) continue;
    for (const c of cls) {
      const row = rows.find((r) => r.name === c.name && r.isPlayer === c.isPlayer)!;
      row.stagesS += c.timeS;
      row.retirements += c.retired ? 1 : 0;
      row.stagesDone++;
    }
  }
  rows[0]!.penaltyS = s.services.reduce((sum, v) => sum + v.penaltyS, 0);
  for (const r of rows) r.totalS = r.stagesS + r.penaltyS;
  return rows.sort((a, b) => a.totalS - b.totalS);
}
