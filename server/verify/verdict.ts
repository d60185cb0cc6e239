/** What a verification decides about one submitted replay (the worker's answer, stored in `submissions`). */

/** Why a run is refused; stable codes for the game (docs/server.md lists them). */
export const REJECT_CODES = [
  'format', // not a readable .bitrally file (container, sections, schema, caps)
  'too-long', // more ticks than the server re-simulates
  'sim-version', // recorded by another simulation version than the server's
  'not-single-player', // a leaderboard run has exactly one car, the player's
  'car-not-allowed', // the embedded car files are not one of the allowed car classes byte for byte
  'car-swapped', // a mid-run configuration change
  'no-stage', // flat ground: nothing to rank
  'stage-unknown', // a stage the server does not know (by content hash)
  'checksum-mismatch', // re-simulation differs from a recorded state hash (or a keyframe)
  'not-finished', // the re-simulated car never crossed the finish
  'stage-time-mismatch', // the recorded stage time is not the re-simulated one
  'budget-exceeded', // the verification ran past its wall-time limit
  'verifier-crashed', // the worker died on this file (memory limit) or timed out
  'duplicate-run', // the same drive (same final state hash on the board) was accepted before, from another file
] as const;
export type RejectCode = (typeof REJECT_CODES)[number];

export interface AcceptedRun {
  status: 'accepted';
  stageId: string;
  stageHash: string;
  carClass: string;
  simVersion: string;
  stageTimeS: number;
  finalHash: string;
  ticks: number;
  /** A generated stage that is the in-game generator's stage for its id's parameters (canonical-stage.ts). */
  canonicalStage: boolean;
}

export interface RejectedRun {
  status: 'rejected';
  code: RejectCode;
  reason: string;
}

export type Verdict = AcceptedRun | RejectedRun;

export function reject(code: RejectCode, reason: string): RejectedRun {
  return { status: 'rejected', code, reason };
}
