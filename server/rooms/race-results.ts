/**
 * A room's race results from 'go' on (docs/multiplayer.md "Results"): one row per car that was seated at 'go' (or
 * joined after), finished when the room's finish tracking saw it reach the finish, DNF when it retired first, and
 * the end of the race when no car is still racing. The room sends `message()` as the `results` message.
 */
import type { RaceFinish } from '../../src/net/race-finish';
import { rankResults, type ResultRow, type RetireReason, type RoomResults } from '../../src/net/results';

export class RaceResults {
  private readonly rows = new Map<number, Omit<ResultRow, 'rank'>>();


  /** A car in the race (racing until it finishes or retires). */
  add(slot: number, name: string, car: string): void {
    if (!this.rows.has(slot)) this.rows.set(slot, { slot, name, car, status: 'racing', finishTick: null, timeS: null, penaltyS: null, retired: null });
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
