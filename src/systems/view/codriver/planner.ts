/**
 * When the co-driver speaks. Fed the car's progress along the road and its speed every tick or frame, the
 * planner starts each call so that it ENDS `leadS` seconds before the car reaches the call's first corner at
 * its current speed, never while the previous call is still being said, and pulls a call earlier when the
 * next one would otherwise have to start before it ends. Notes behind the car (a recovery put it past
 * them, a spin, a shortcut) or too close to be said in time are dropped, and a note is said at most once.
 * Pure: no DOM, no audio; the view (codriver.ts) plays what it returns.
 */
import type { Call } from './calls';

/** Co-driver timing setting → lead time, s: how long before the corner each call ends. */
export const CALL_LEAD_S = { early: 4.5, normal: 3.5, late: 2.5 } as const;
export type CallTiming = keyof typeof CALL_LEAD_S;

/** A call that would end later than this before its corner is dropped: the driver could not use it, s. */
export const MIN_USEFUL_LEAD_S = 1.8;
/** Silence between two calls, s (so two calls are heard as two). */
export const CALL_GAP_S = 0.3;
/** Speed below which the time to a corner is taken at this speed, m/s (a stopped car is not read to). */
export const MIN_PLAN_SPEED_MS = 5;
/** How far ahead in time the planner looks for calls that could crowd the next one, s. */
const LOOKAHEAD_S = 30;

export class CallPlanner {
  private next = 0;
  /** Time the voice is free again, s (the call being said ends, plus the gap). */
  private busyUntilS = -Infinity;
  /** Calls dropped so far (passed, or too late to be said in time), in road order. */
  readonly dropped: Call[] = [];

  constructor(
    readonly calls: readonly Call[],
    public leadS: number = CALL_LEAD_S.normal,
  ) {}

  /** Index of the next call not yet said or dropped (the HUD strip shows from its first note). */
  get nextCall(): number {
    return this.next;
  }

  /** Whether a call (or the gap after it) is still being said at `timeS`. */
  busyAt(timeS: number): boolean {
    return timeS < this.busyUntilS;
  }

  /**
   * One step at time `timeS` (s, monotonic) with the car at `progressM` along the road, moving at `speedMS`.
   * Returns the call to start now, or null.
   */
  update(timeS: number, progressM: number, speedMS: number): Call | null {
    const v = Math.max(speedMS, MIN_PLAN_SPEED_MS);
    this.dropLate(timeS, progressM, v);
    if (timeS < this.busyUntilS || this.next >= this.calls.length) return null;
    if (this.latestStartS(progressM, v) > 0) return null;
    const c = this.calls[this.next++]!;
    this.busyUntilS = timeS + c.durationS + CALL_GAP_S;
    return c;
  }

  /** Drops calls the car has passed or can no longer hear in time (the voice is busy until busyUntilS). */
  private dropLate(timeS: number, progressM: number, v: number): void {
    const freeInS = Math.max(0, this.busyUntilS - timeS);
    while (this.next < this.calls.length) {
      const c = this.calls[this.next]!;
      const toEntryS = (c.entryM - progressM) / v;
      if (c.entryM > progressM && toEntryS - freeInS - c.durationS >= MIN_USEFUL_LEAD_S) return;
      this.dropped.push(c);
      this.next++;
    }
  }

  /**
   * Seconds from now until the next call must start: its own lead, pulled earlier by each following call
   * that would otherwise have to start before this one (and the gap) is over.
   */
  private latestStartS(progressM: number, v: number): number {
    let end = this.next;
    while (end < this.calls.length && (this.calls[end]!.entryM - progressM) / v < LOOKAHEAD_S) end++;
    let start = Infinity;
    for (let k = Math.max(end, this.next + 1) - 1; k >= this.next; k--) {
      const c = this.calls[k]!;
      const own = (c.entryM - progressM) / v - this.leadS - c.durationS;
      start = Math.min(own, start - CALL_GAP_S - c.durationS);
    }
    return start;
  }
}
