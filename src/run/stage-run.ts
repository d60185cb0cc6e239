/**
 * The rules of one stage run, independent of rendering: countdown, start, checkpoints (split times and
 * deltas to the personal best), finish, off-road recovery with a time penalty, stuck detection.
 * Driven once per simulation tick with the car's distance along the road and lateral offset, so timing is
 * tied to simulation time (ticks × dt), not to the frame rate. Pure; tested in tests/app/stage-run.test.ts. Fed
 * by src/run/stage-timing.ts.
 */
import { RECOVER_PENALTY_S } from '../systems/sim/vehicle/recovery';

export type RunPhase = 'countdown' | 'running' | 'finished';

export interface RunConfig {
  /** Distances along the road of the checkpoints (ascending), m. */
  checkpointsM: number[];
  /** Distance of the finish line, m. */
  finishM: number;
  /** Distance of the start line, m. */
  startM: number;
  /** Countdown length, s (lights go out at the end). */
  countdownS: number;
  /** Penalty added per recovery, s. */
  recoverPenaltyS: number;
  /** Car counts as stuck after this long below `stuckSpeed` while throttle is applied, or off the road. */
  stuckAfterS: number;
  stuckSpeedMS: number;
  /** |lateral| beyond half width + this margin counts as off the road. */
  offRoadMarginM: number;
  /** Personal-best splits (same length as checkpointsM), for the deltas. */
  bestSplitsS?: number[];
  bestTimeS?: number;
}

export const DEFAULT_RUN: Omit<RunConfig, 'checkpointsM' | 'finishM' | 'startM'> = {
  countdownS: 3,
  recoverPenaltyS: RECOVER_PENALTY_S,
  stuckAfterS: 4,
  stuckSpeedMS: 1,
  offRoadMarginM: 6,
};

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

export interface Split {
  index: number;
  timeS: number;
  /** Against the personal best split, s (negative = faster), or null without a best. */
  deltaS: number | null;
}

export class StageRun {
  phase: RunPhase = 'countdown';
  /** Time since the lights went out, s (includes penalties). */
  timeS = 0;
  countdownLeftS: number;
  penaltyS = 0;
  recoveries = 0;
  splits: Split[] = [];
  nextCheckpoint = 0;
  stuckS = 0;
  /** Furthest distance reached, m: checkpoints are passed in order and only going forward. */
  progressM: number;
  finishTimeS: number | null = null;

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
    if (this.phase === 'countdown') {
      this.countdownLeftS -= t.dt;
      if (this.countdownLeftS <= 1e-9) {
        this.countdownLeftS = 0;
        this.phase = 'running';
        ev.push('start');
      }
      return ev;
    }
    if (this.phase === 'finished') return ev;
    this.timeS += t.dt;
    // progress only counts near the road (a shortcut across a hairpin does not pass checkpoints)
    const onRoad = Math.abs(t.lateralM) <= t.roadHalfWidthM + this.cfg.offRoadMarginM;
    if (onRoad && t.distanceM > this.progressM && t.distanceM - this.progressM < 30) this.progressM = t.distanceM;
    while (this.nextCheckpoint < this.cfg.checkpointsM.length && this.progressM >= this.cfg.checkpointsM[this.nextCheckpoint]!) {
      const i = this.nextCheckpoint++;
      const best = this.cfg.bestSplitsS?.[i];
      this.splits.push({ index: i, timeS: this.timeS, deltaS: best !== undefined ? this.timeS - best : null });
      ev.push('checkpoint');
    }
    if (this.progressM >= this.cfg.finishM) {
      this.phase = 'finished';
      this.finishTimeS = this.timeS;
      ev.push('finish');
      return ev;
    }
    const slow = t.speedMS < this.cfg.stuckSpeedMS && t.throttle > 0.3;
    if (slow || !onRoad) {
      this.stuckS += t.dt;
      if (this.stuckS >= this.cfg.stuckAfterS) ev.push('stuck');
    } else this.stuckS = 0;
    return ev;
  }

  /** The car was put back on the road: penalty added, stuck timer cleared. */
  recovered(): void {
    this.penaltyS += this.cfg.recoverPenaltyS;
    this.timeS += this.cfg.recoverPenaltyS;
    this.recoveries++;
    this.stuckS = 0;
  }

  get lastSplit(): Split | null {
    return this.splits[this.splits.length - 1] ?? null;
  }

  /** Finish delta to the personal best, s. */
  get finishDeltaS(): number | null {
    return this.finishTimeS !== null && this.cfg.bestTimeS !== undefined ? this.finishTimeS - this.cfg.bestTimeS : null;
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
