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
