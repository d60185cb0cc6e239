/** What a replay verification is given (stages, cars, budget) and what it reports (src/replay/verify.ts, town-replay.ts). */
import type { Desync, KeyframeMismatch } from './player';
import type { StageSource } from './stage-check';
import type { CarAdapter } from '../run/cars';
import type { BudgetExceeded } from './budget';
import type { ReplayBudget } from './limits';

export interface VerifyReport {
  ok: boolean;
  ticks: number;
  simSeconds: number;
  checksumsChecked: number;
  checksumsMatched: number;
  firstDesync: Desync | null;
  finalHash: string;
  /** Recorded final hash (the last checksum), for the report. */
  recordedFinalHash: string | null;
  simVersion: { recorded: string; current: string };
  /** Stage time recomputed by re-simulation (s), null without a stage or when the car did not finish. */
  stageTimeS: number | null;
  /** What the recording game reported. */
  recordedStageTimeS: number | null;
  splitsS: number[];
  /** Recorded keyframes that differ from the re-simulated state (a corrupted keyframe): not ok. */
  keyframeMismatches: KeyframeMismatch[];
  /** Set when the verification stopped at its wall-time budget before the end: not ok. */
  budgetExceeded: BudgetExceeded | null;
}

export interface VerifyEnv {
  stages: StageSource | null;
  cars?: CarAdapter;
  file?: string;
  /** Tick and wall-time budget (defaults: MAX_REPLAY_CAR_TICKS, defaultWallSeconds of the replay's car-ticks). */
  budget?: ReplayBudget;
}
