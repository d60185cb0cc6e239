/**
 * The car's motion as the planner extrapolates it over one call: current speed plus a smoothed acceleration
 * (a call lasts 1–7 s; a car leaving a hairpin gains 10 m/s in that time, and a call timed on the speed alone
 * would end seconds late), capped by the slow corners on the way (a car braking for a hairpin while a call
 * is said ends the call at hairpin speed).
 */

/** Speeds below this count as this, m/s (a car crawling round a snow hairpin is read to; a stopped one is not). */
export const MIN_PLAN_SPEED_MS = 1.5;
/** Acceleration is extrapolated within these bounds, m/s² (a rally car's launch; moderate braking). */
export const MAX_ACCEL_MS2 = 5;
export const MIN_ACCEL_MS2 = -3;
/** Braking assumed ahead of a slow corner, m/s² (a firm stop on loose ground). */
export const BRAKE_MS2 = 6;
/** Acceleration assumed out of a corner after its apex, m/s² (a rally car pulling out of a bend). */
export const EXIT_ACCEL_MS2 = 4;

/** A stretch of road the car must slow down for: a corner from its entry to its apex, at its corner speed. */
export interface SlowZone {
  fromM: number;
  apexM: number;
  speedMS: number;
}

/**
 * The most a car can be doing at `atM` given the slow corners that begin before `untilM` (braking envelope
 * before each, corner speed to the apex, accelerating out after it), m/s. The corner a call is for is left out: the car brakes for it after the call.
 */
export function speedCapAt(zones: readonly SlowZone[], atM: number, untilM: number): number {
  let cap = Infinity;
  for (const z of zones) {
    if (z.fromM >= untilM) continue;
    const before = Math.max(0, z.fromM - atM);
    const after = Math.max(0, atM - z.apexM);
    cap = Math.min(cap, Math.sqrt(z.speedMS * z.speedMS + 2 * BRAKE_MS2 * before + 2 * EXIT_ACCEL_MS2 * after));
  }
  return cap;
}

/** Time constant of the acceleration's smoothing, s (shift gaps and bumps average out). */
const ACCEL_SMOOTHING_S = 0.4;

/** Smoothed dv/dt from the speeds the planner is fed. */
export class SpeedTrend {
  private lastT = NaN;
  private lastV = 0;
  accelMS2 = 0;

  update(timeS: number, speedMS: number): number {
    const dt = timeS - this.lastT;
    if (dt > 0 && dt < 1) {
      const raw = (speedMS - this.lastV) / dt;
      const k = Math.min(1, dt / ACCEL_SMOOTHING_S);
      this.accelMS2 += k * (Math.max(MIN_ACCEL_MS2, Math.min(MAX_ACCEL_MS2, raw)) - this.accelMS2);
    } else if (!(dt > 0)) this.accelMS2 = 0; // first sample, or time went back (a replay seek)
    this.lastT = timeS;
    this.lastV = speedMS;
    return this.accelMS2;
  }
}

/**
 * Seconds to a point `distM` ahead, as measured at the end of a call that ends `tauS` from now: the car's
 * remaining distance over its speed then, both extrapolated with constant acceleration `a` (speed never
 * below MIN_PLAN_SPEED_MS), the speed then capped by `capAt(distance covered)`. Negative when the car would
 * be past the point.
 */
export function leadAtEnd(distM: number, speedMS: number, a: number, tauS: number, capAt: (coveredM: number) => number = () => Infinity): number {
  const v = Math.max(speedMS, MIN_PLAN_SPEED_MS);
  // with braking, the extrapolation stops where the speed reaches the floor
  const tStop = a < 0 ? Math.min(tauS, (MIN_PLAN_SPEED_MS - v) / a) : tauS;
  const vEnd = Math.max(MIN_PLAN_SPEED_MS, v + a * tStop);
  const covered = v * tStop + 0.5 * a * tStop * tStop + vEnd * (tauS - tStop);
  return (distM - covered) / Math.max(MIN_PLAN_SPEED_MS, Math.min(vEnd, capAt(covered)));
}
