/**
 * When the co-driver speaks. Fed the car's progress along the road and its speed every tick or frame, the
 * planner starts each call so that it ENDS `leadS` seconds before the car reaches the call's first corner at
 * its current speed, never while the previous call is still being said, and pulls a call earlier when the
 * next one would otherwise have to start before it ends. Notes behind the car (a recovery put it past
 * them, a spin, a shortcut) or too close to be said in time are dropped, and a note is said at most once.
 * Notes within ON_LINE_READ_M of the start line cannot be called at speed (the car reaches them from rest), so
 * a co-driver reads them on the line before the start: the planner merges them into one call said at once.
 * Pure: no DOM, no audio; the view (codriver.ts) plays what it returns.
 */
import { mergeCalls, type Call, type ClipSeconds } from './calls';
import { MIN_PLAN_SPEED_MS, SpeedTrend, leadAtEnd, speedCapAt, type SlowZone } from './motion';

/** The lead a call would end with if started `delayS` from now, s. */
type LeadAt = (c: Call, delayS: number) => number;

/** Co-driver timing setting → lead time, s: how long before the corner each call ends. */
export const CALL_LEAD_S = { early: 4.5, normal: 3.5, late: 2.5 } as const;
export type CallTiming = keyof typeof CALL_LEAD_S;

/**
 * A call that would end later than this before its corner is dropped: the driver could not use it, s (the
 * prediction of the car's motion over a call is good to ~0.5 s; 1.5 s is the least a driver can act on).
 */
export const MIN_USEFUL_LEAD_S = 2;
/**
 * A call is never started to end earlier than this before its corner, s, even to make room for the next one
 * (that one is dropped instead): a call 7 s early is forgotten by the corner.
 */
export const MAX_USEFUL_LEAD_S = 5.5;
/** Silence between two calls, s (so two calls are heard as two). */
export const CALL_GAP_S = 0.3;
/**
 * Corners this close after the start line are read on the line, m: from rest at a rally car's ~4 m/s² a car
 * covers 60 m in √(2·60/4) ≈ 5.5 s, so a call started once it moves could not end in time.
 */
export const ON_LINE_READ_M = 60;
/** How far ahead in time the planner looks for calls that could crowd the next one, s. */
const LOOKAHEAD_S = 30;

export class CallPlanner {
  private next = 0;
  /** Time the voice is free again, s (the call being said ends, plus the gap). */
  private busyUntilS = -Infinity;
  private readonly trend = new SpeedTrend();
  /** Calls dropped so far (passed, or too late to be said in time), in road order. */
  readonly dropped: Call[] = [];

  readonly calls: readonly Call[];

  /**
   * `calls` in road order; with `line` (the start line's distance along the road and the clip lengths), the
   * calls starting within ON_LINE_READ_M of it become one call, said on the first update.
   */
  constructor(
    calls: readonly Call[],
    public leadS: number = CALL_LEAD_S.normal,
    line?: { startM: number; clipS: ClipSeconds },
    /** The stage's slow corners (slowZones in notes.ts): the speed a call ends at is capped by them. */
    private readonly zones: readonly SlowZone[] = [],
  ) {
    const n = line ? calls.findIndex((c) => c.entryM > line.startM + ON_LINE_READ_M) : 0;
    const k = n < 0 ? calls.length : n;
    this.calls = line && k > 0 ? [{ ...mergeCalls(calls.slice(0, k), line.clipS), onLine: true }, ...calls.slice(k)] : calls;
  }

  /**
   * One step at time `timeS` (s, monotonic) with the car at `progressM` along the road, moving at `speedMS`.
   * Returns the call to start now, or null.
   */
  update(timeS: number, progressM: number, speedMS: number): Call | null {
    const a = this.trend.update(timeS, speedMS);
    const first = this.calls[0];
    if (this.next === 0 && first?.onLine && progressM < first.entryM + ON_LINE_READ_M) return this.start(timeS);
    const lead = (c: Call, delayS: number): number =>
      leadAtEnd(c.entryM - progressM, speedMS, a, delayS + c.durationS, (coveredM) => speedCapAt(this.zones, progressM + coveredM, c.entryM));
    this.dropLate(timeS, progressM, lead);
    if (timeS < this.busyUntilS || this.next >= this.calls.length) return null;
    if (this.latestStartS(progressM, speedMS, lead) > 0 || lead(this.calls[this.next]!, 0) > MAX_USEFUL_LEAD_S) return null;
    return this.start(timeS);
  }

  private start(timeS: number): Call {
    const c = this.calls[this.next++]!;
    this.busyUntilS = timeS + c.durationS + CALL_GAP_S;
    return c;
  }

  /** Drops calls the car has passed or can no longer hear in time (the voice is busy until busyUntilS). */
  private dropLate(timeS: number, progressM: number, lead: LeadAt): void {
    const freeInS = Math.max(0, this.busyUntilS - timeS);
    while (this.next < this.calls.length) {
      const c = this.calls[this.next]!;
      if (c.entryM > progressM && lead(c, freeInS) >= MIN_USEFUL_LEAD_S) return;
      this.dropped.push(c);
      this.next++;
    }
  }

  /**
   * Seconds from now until the next call must start: its own lead (the lead it would end with if started now,
   * less the wanted lead: the lead shrinks by a second a second), pulled earlier by each following call that
   * would otherwise have to start before this one (and the gap) is over.
   */
  private latestStartS(progressM: number, speedMS: number, lead: LeadAt): number {
    const v = Math.max(speedMS, MIN_PLAN_SPEED_MS);
    let end = this.next;
    while (end < this.calls.length && (this.calls[end]!.entryM - progressM) / v < LOOKAHEAD_S) end++;
    let start = Infinity;
    for (let k = Math.max(end, this.next + 1) - 1; k >= this.next; k--) {
      const c = this.calls[k]!;
      const own = lead(c, 0) - this.leadS;
      start = Math.min(own, start - CALL_GAP_S - c.durationS);
    }
    return start;
  }
}
