/**
 * A room's results (issue #22: results with the server's times): the JSON `results` message the room sends to every
 * client whenever a car finishes or retires after 'go', and when the room ends. Times are the room's own, from the
 * finish it found in the car's state packets (src/net/stage-finish.ts on a stage, src/net/race-finish.ts on a
 * circuit, penalties included); a client never sends a time.
 */

/** racing: not finished yet; finished: the room timed its finish; dnf: retired before the finish. */
export type ResultStatus = 'racing' | 'finished' | 'dnf';

/**
 * Why a car did not finish: its player retired it (the `retire` message; still in the room, seeing the results), its
 * connection dropped past the reconnect window, its player left the room, the room's time cap.
 */
export type RetireReason = 'retired' | 'disconnect' | 'left' | 'time-limit';

export interface ResultRow {
  /** 1, 2, 3… for finished cars in order of their time (penalties included); null for the others. */
  rank: number | null;
  slot: number;
  name: string;
  car: string;
  status: ResultStatus;
  /** The sim tick (since 'go' = tick 0) the room saw the car reach the finish; null unless finished. */
  finishTick: number | null;
  /**
   * The room's time, s, null unless finished: on a stage finishTick × the sim step; in a race the race rules' clock
   * at the flag plus penaltyS.
   */
  timeS: number | null;
  /** Penalties in timeS, s (a race's recoveries, jump start, joker; 0 on a stage); null unless finished. */
  penaltyS: number | null;
  /** Set when status is 'dnf'. */
  retired: RetireReason | null;
  /**
   * A race room's laps the car completed, as the room counted them on its packets (every status: a retired car's
   * laps up to its last state); null in a stage room.
   */
  laps: number | null;
}

export interface RoomResults {
  /** True in the room's last message: every car finished or retired, or the time cap ended the race. */
  final: boolean;
  /** Finished first (by time, then finish tick, then slot), then the cars still racing, then the retired (by slot). */
  rows: ResultRow[];
}

const STATUS_ORDER: Record<ResultStatus, number> = { finished: 0, racing: 1, dnf: 2 };

/** The rows in results order with their ranks. */
export function rankResults(rows: readonly Omit<ResultRow, 'rank'>[]): ResultRow[] {
  const sorted = [...rows].sort(
    (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (a.timeS ?? 0) - (b.timeS ?? 0) || (a.finishTick ?? 0) - (b.finishTick ?? 0) || a.slot - b.slot,
  );
  return sorted.map((r, i) => ({ ...r, rank: r.status === 'finished' ? i + 1 : null }));
}
