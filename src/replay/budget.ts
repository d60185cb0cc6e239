/**
 * The verification / playback budget (src/replay/limits.ts has the caps): a replay that declares more car-ticks
 * than the budget is refused before a world is built (deterministic: it depends on the header only); a
 * verification that runs longer than its wall-time budget stops with a "verification budget exceeded" result
 * (a backstop for a simulation far slower per tick than a sane car makes it).
 */
import { ReplayFormatError } from './bytes';
import { defaultWallSeconds, MAX_REPLAY_CAR_TICKS, replayCarTicks, type ReplayBudget } from './limits';

/** Throws a ReplayFormatError (field header.ticks) when the replay costs more car-ticks than `maxCarTicks`. */
export function checkTickBudget(h: { ticks: number; cars: readonly unknown[] }, maxCarTicks = MAX_REPLAY_CAR_TICKS, file = 'replay'): void {
  const cost = replayCarTicks(h);
  if (cost > maxCarTicks) {
    throw new ReplayFormatError(file, 'header.ticks', `at most ${maxCarTicks} car-ticks (ticks × cars: the verification budget)`, `${h.ticks} ticks × ${h.cars.length} cars = ${cost}`);
  }
}

/** Why a verification stopped before the end. */
export interface BudgetExceeded {
  kind: 'wall-time';
  /** Ticks completed when it stopped. */
  atTick: number;
  limitS: number;
  message: string;
}

/** Wall-time budget of one verification: `over(tick)` is looked at every WALL_CHECK_EVERY_TICKS ticks. */
export class WallBudget {
  /** The caller's clock: the replay layer reads no wall clock itself (lint layers); without one, no wall budget. */
  private readonly now: (() => number) | null;
  private readonly start: number;
  readonly limitS: number;
  constructor(h: { ticks: number; cars: readonly unknown[] }, b: ReplayBudget = {}) {
    this.now = b.nowSeconds ?? null;
    this.limitS = b.maxWallSeconds ?? defaultWallSeconds(replayCarTicks(h));
    this.start = this.now ? this.now() : 0;
  }
  /** The budget-exceeded result if the limit has passed, else null. */
  over(tick: number, totalTicks: number): BudgetExceeded | null {
    if (!this.now) return null;
    const used = this.now() - this.start;
    if (used <= this.limitS) return null;
    return {
      kind: 'wall-time',
      atTick: tick,
      limitS: this.limitS,
      message: `verification budget exceeded: ${used.toFixed(1)} s of wall time (limit ${this.limitS} s) at tick ${tick} of ${totalTicks}`,
    };
  }
}
