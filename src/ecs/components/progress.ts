import { f64, i32, u8, type ComponentSpec } from './spec';
import type { StageRoad } from '../../../terrain/stage';

/** `StageProgress.phase` values. */
export const STAGE_PHASE_COUNTDOWN = 0;
export const STAGE_PHASE_RUNNING = 1;
export const STAGE_PHASE_FINISHED = 2;

/** `finishTick` / `lastSplitTick` before there is one. */
export const NO_TICK = -1;

/**
 * A car's progress through the stage it runs (src/run/stage-progress.ts, pass 10 of the pipeline; the rules
 * are src/run/stage-run.ts). Everything a tick leaves for the next one is state, so the state hash, snapshots
 * and replay keyframes carry the timing with the car: a run restored from a keyframe times on bit for bit.
 * The road projection of the last tick (`distanceM`, `lateralM`) is derived from the pose.
 */
export const StageProgressSpec = {
  fields: {
    phase: u8,
    /** Countdown left before the lights go out, s. */
    countdownLeftS: f64,
    /** Time since the lights went out, penalties included, s. */
    timeS: f64,
    penaltyS: f64,
    recoveries: i32,
    /** Index of the next checkpoint to pass (= checkpoints passed). */
    nextCheckpoint: i32,
    /** Time spent stuck or off the road, s. */
    stuckS: f64,
    /** Furthest distance along the road reached, m (from the road's origin, not the start line). */
    progressM: f64,
    /** Stage time at the finish, s (meaningful once `finishTick` ≠ NO_TICK). */
    finishTimeS: f64,
    finishTick: i32,
    /** Time and tick of the last checkpoint passed. */
    lastSplitS: f64,
    lastSplitTick: i32,
    /** Road projection of the car after the last tick, m. */
    distanceM: f64,
    lateralM: f64,
  },
  state: [
    'phase', 'countdownLeftS', 'timeS', 'penaltyS', 'recoveries', 'nextCheckpoint', 'stuckS', 'progressM',
    'finishTimeS', 'finishTick', 'lastSplitS', 'lastSplitTick',
  ],
} satisfies ComponentSpec;

/** The stage a world's cars are timed on (`world.course`; null in a world without a stage). */
export interface StageCourse {
  road: StageRoad;
  /** Distances along the road of the checkpoints (ascending), m. */
  checkpointsM: readonly number[];
  /** Distance of the finish line, m. */
  finishM: number;
  /** Distance of the start line, m. */
  startM: number;
  /** Countdown length, s (lights go out at the end). */
  countdownS: number;
  /** Penalty added per recovery, s. */
  recoverPenaltyS: number;
  /** Car counts as stuck after this long below `stuckSpeedMS` while throttle is applied, or off the road. */
  stuckAfterS: number;
  stuckSpeedMS: number;
  /** |lateral| beyond half width + this margin counts as off the road. */
  offRoadMarginM: number;
}
