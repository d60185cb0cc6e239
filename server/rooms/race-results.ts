/**
 * A room's race results from 'go' on (docs/multiplayer.md "Results"): one row per car that was seated at 'go' (or
 * joined after), finished when the room's finish tracking saw it reach the finish, DNF when it retired first, and
 * the end of the race when no car is still racing. The room sends `message()` as the `results` message and
 * `standings()` as the live `standings` message.
 */
import type { RaceFinish } from '../../src/net/race-finish';
import { rankResults, type ResultRow, type RetireReason, type RoomResults } from '../../src/net/results';
import { MAX_STANDINGS_ROWS, rankStandings, STANDINGS_PROGRESS_STEP_M, type Standings } from '../../src/net/standings';

/** A car's race so far as the room's lap timing sees it. */
export interface CarProgress {
  laps: number;
  /** Distance along the circuit since the start line, m (laps included). */
  progressM: number;
}

export class RaceResults {
  private readonly rows = new Map<number, Omit<ResultRow, 'rank'>>();

  /** Each car's completed laps and distance along the circuit, m, from the room's lap timing (race rooms only). */
  private readonly progress = new Map<number, CarProgress>();

  /** A car in the race (racing until it finishes or retires); `laps`: 0 in a race room, null in a stage room. */
  add(slot: number, name: string, car: string, laps: number | null): void {
    if (!this.rows.has(slot)) this.rows.set(slot, { slot, name, car, status: 'racing', finishTick: null, timeS: null, penaltyS: null, retired: null, laps });
  }

  /** The room's lap timing after a fresh state of the car: its laps and distance, kept after it retires. */
  noteProgress(slot: number, p: CarProgress): void {
    const r = this.rows.get(slot);
    if (!r || r.status !== 'racing') return;
    r.laps = p.laps;
    this.progress.set(slot, { laps: p.laps, progressM: p.progressM });
  }

  /** The live standings (src/net/standings.ts): every car of the race in race order. */
  standings(): Standings {
    const rows = [...this.rows.values()].map((r) => ({
      slot: r.slot,
      name: r.name,
      status: r.status,
      laps: r.laps ?? 0,
      progressM: Math.round((this.progress.get(r.slot)?.progressM ?? 0) / STANDINGS_PROGRESS_STEP_M) * STANDINGS_PROGRESS_STEP_M,
      timeS: r.timeS,
    }));
    return { rows: rankStandings(rows).slice(0, MAX_STANDINGS_ROWS) };
  }

  /** The car reached the finish (its tick since 'go', its time with penalties); false when it was not racing. */
  finish(slot: number, f: RaceFinish): boolean {
    const r = this.rows.get(slot);
    if (!r || r.status !== 'racing') return false;
    r.status = 'finished';
    r.finishTick = f.tick;
    r.timeS = f.timeS;
    r.penaltyS = f.penaltyS;
    return true;
  }

  /** The car retired before the finish; false when it had finished or retired already. */
  retire(slot: number, why: RetireReason): boolean {
    const r = this.rows.get(slot);
    if (!r || r.status !== 'racing') return false;
    r.status = 'dnf';
    r.retired = why;
    return true;
  }

  /** Every car still racing retires (the room's time cap). */
  retireAll(why: RetireReason): void {
    for (const slot of this.rows.keys()) this.retire(slot, why);
  }

  /** No car is racing any more (and there was one). */
  get done(): boolean {
    return this.rows.size > 0 && [...this.rows.values()].every((r) => r.status !== 'racing');
  }

  message(final: boolean): RoomResults {
    return { final, rows: rankResults([...this.rows.values()]) };
  }
}
