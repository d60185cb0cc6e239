/**
 * The rules of one stage run, independent of rendering: countdown, start, checkpoints (split times and
 * deltas to the personal best), finish, off-road recovery with a time penalty, stuck detection.
 * Driven once per simulation tick with the car's distance along the road and lateral offset, so timing is
 * tied to simulation time (ticks × dt), not to the frame rate. Pure functions over a `StageRunState` (the
 * StageProgress component's fields, src/run/stage-progress.ts); tested in tests/app/stage-run.test.ts.
 */
import { RECOVER_PENALTY_S } from '../systems/sim/vehicle/recovery';
import type { StageCourse } from '../ecs/components/progress';

export type RunPhase = 'countdown' | 'running' | 'finished';

/** The rules' parameters of a stage (the course a world's cars are timed on; src/ecs/components/progress.ts). */
export type StageRules = Omit<StageCourse, 'road'>;

export interface RunConfig extends StageRules {
  /** Personal-best splits (same length as checkpointsM), for the deltas. */
  bestSplitsS?: number[];
  bestTimeS?: number;
}

export const DEFAULT_RUN: Omit<StageRules, 'checkpointsM' | 'finishM' | 'startM'> = {
  countdownS: 3,
  recoverPenaltyS: RECOVER_PENALTY_S,
  stuckAfterS: 4,
  stuckSpeedMS: 1,
  offRoadMarginM: 6,
};

/** Furthest forward jump of the progress in one tick, m: a bigger one is a projection onto another leg. */
export const MAX_PROGRESS_STEP_M = 30;

/** Countdown remainder below which the lights go out, s (absorbs the rounding of repeated dt subtractions). */
export const COUNTDOWN_EPS_S = 1e-9;

export interface TickInfo {
  dt: number;
  distanceM: number;
  lateralM: number;
  roadHalfWidthM: number;
  speedMS: number;
  throttle: number;
}

/** What a tick of the stage run can report. */
export type RunEvent = 'start' | 'checkpoint' | 'finish' | 'stuck';

/** Everything a stage run carries from one tick to the next (the StageProgress component's state). */
export interface StageRunState {
  phase: RunPhase;
  countdownLeftS: number;
  /** Time since the lights went out, s (includes penalties). */
  timeS: number;
  penaltyS: number;
  recoveries: number;
  nextCheckpoint: number;
  stuckS: number;
  /** Furthest distance reached, m: checkpoints are passed in order and only going forward. */
  progressM: number;
  finishTimeS: number | null;
  /** Stage time at the last checkpoint passed, s. */
  lastSplitS: number;
}

export function initialStageRunState(cfg: StageRules): StageRunState {
  return {
    phase: 'countdown', countdownLeftS: cfg.countdownS, timeS: 0, penaltyS: 0, recoveries: 0, nextCheckpoint: 0,
    stuckS: 0, progressM: cfg.startM, finishTimeS: null, lastSplitS: 0,
  };
}

/** Advance a stage run by one simulation tick; the events of this tick are appended to `ev`, in order. */
export function advanceStageRun(s: StageRunState, cfg: StageRules, t: TickInfo, ev: RunEvent[]): void {
  if (s.phase === 'countdown') {
    s.countdownLeftS -= t.dt;
    if (s.countdownLeftS <= COUNTDOWN_EPS_S) {
      s.countdownLeftS = 0;
      s.phase = 'running';
      ev.push('start');
    }
    return;
  }
  if (s.phase === 'finished') return;
  s.timeS += t.dt;
  // progress only counts near the road (a shortcut across a hairpin does not pass checkpoints)
  const onRoad = Math.abs(t.lateralM) <= t.roadHalfWidthM + cfg.offRoadMarginM;
  if (onRoad && t.distanceM > s.progressM && t.distanceM - s.progressM < MAX_PROGRESS_STEP_M) s.progressM = t.distanceM;
  while (s.nextCheckpoint < cfg.checkpointsM.length && s.progressM >= cfg.checkpointsM[s.nextCheckpoint]!) {
    s.nextCheckpoint++;
    s.lastSplitS = s.timeS;
    ev.push('checkpoint');
  }
  if (s.progressM >= cfg.finishM) {
    s.phase = 'finished';
    s.finishTimeS = s.timeS;
    ev.push('finish');
    return;
  }
  const slow = t.speedMS < cfg.stuckSpeedMS && t.throttle > 0.3;
  if (slow || !onRoad) {
    s.stuckS += t.dt;
    if (s.stuckS >= cfg.stuckAfterS) ev.push('stuck');
  } else s.stuckS = 0;
}

/** The car was put back on the road: penalty added, stuck timer cleared. */
export function addRecoveryPenalty(s: StageRunState, cfg: StageRules): void {
  s.penaltyS += cfg.recoverPenaltyS;
  s.timeS += cfg.recoverPenaltyS;
  s.recoveries++;
  s.stuckS = 0;
}

export interface Split {
  index: number;
  timeS: number;
  /** Against the personal best split, s (negative = faster), or null without a best. */
  deltaS: number | null;
}

/** The split of checkpoint `index` passed at `timeS`, with its delta to the personal best. */
export function splitAt(cfg: RunConfig, index: number, timeS: number): Split {
  const best = cfg.bestSplitsS?.[index];
  return { index, timeS, deltaS: best !== undefined ? timeS - best : null };
}

/** Finish delta to the personal best, s. */
export function finishDelta(cfg: RunConfig, finishTimeS: number | null): number | null {
  return finishTimeS !== null && cfg.bestTimeS !== undefined ? finishTimeS - cfg.bestTimeS : null;
}

/** One stage run held in plain fields (tests, tools); a world's cars keep theirs in StageProgress. */
export class StageRun implements StageRunState {
  phase: RunPhase = 'countdown';
  timeS = 0;
  countdownLeftS: number;
  penaltyS = 0;
  recoveries = 0;
  splits: Split[] = [];
  nextCheckpoint = 0;
  stuckS = 0;
  progressM: number;
  finishTimeS: number | null = null;
  lastSplitS = 0;

  constructor(readonly cfg: RunConfig) {
    this.countdownLeftS = cfg.countdownS;
    this.progressM = cfg.startM;
  }

  /** The car may only move once the lights are out. */
  get canDrive(): boolean {
    return this.phase !== 'countdown';
  }

  /** Advance by one simulation tick; returns the events that happened this tick. */
  tick(t: TickInfo): RunEvent[] {
    const ev: RunEvent[] = [];
    const passed = this.nextCheckpoint;
    advanceStageRun(this, this.cfg, t, ev);
    for (let i = passed; i < this.nextCheckpoint; i++) this.splits.push(splitAt(this.cfg, i, this.lastSplitS));
    return ev;
  }

  recovered(): void {
    addRecoveryPenalty(this, this.cfg);
  }

  get lastSplit(): Split | null {
    return this.splits[this.splits.length - 1] ?? null;
  }

  get finishDeltaS(): number | null {
    return finishDelta(this.cfg, this.finishTimeS);
  }
}

/** "1:02.345" */
export function formatTime(s: number): string {
  if (!Number.isFinite(s)) return '--:--.---';
  const neg = s < 0;
  const a = Math.abs(s);
  const m = Math.floor(a / 60);
  const rest = a - m * 60;
  const str = `${m}:${rest.toFixed(3).padStart(6, '0')}`;
  return neg ? `-${str}` : str;
}

/** "+1.234" / "−0.500" */
export function formatDelta(s: number): string {
  return `${s < 0 ? '−' : '+'}${Math.abs(s).toFixed(3)}`;
}
