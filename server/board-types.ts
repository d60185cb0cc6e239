/** A board and its rows as the API answers them (shared with the game's client, src/app/online/api.ts). */
export interface Board {
  stageHash: string;
  carClass: string;
  simVersion: string;
}

export interface BoardRow {
  rank: number;
  submissionId: number;
  playerId: string;
  name: string;
  stageTimeS: number;
  submittedAt: string;
}

/** A row of a daily-rally board (server/daily-rally.ts). */
export interface RallyTotalRow {
  rank: number;
  playerId: string;
  name: string;
  /** Sum of the stage times, in running order, s. */
  totalS: number;
  /** Each stage's time, in running order, s. */
  stageTimesS: number[];
  /** The submission of each stage's time, in running order (their ghosts: GET /api/ghosts/:id). */
  submissionIds: number[];
}
