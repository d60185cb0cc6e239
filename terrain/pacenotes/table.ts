/**
 * THE pace-note table (terrain/README.md, "Pace notes"): every threshold the generator uses, in one place.
 *
 * Severity is a speed. A car at the grip limit in a corner of radius R has lateral acceleration μg, so
 * v = √(μ g R). With the reference friction below the radius bands map to the corner speeds a rally co-driver's
 * numbers stand for (a "6" is nearly flat in top gear, a "1" is second gear, a hairpin is first):
 *
 * | note    | radius band, m | corner speed √(μgR), km/h |
 * | ------- | -------------- | ------------------------- |
 * | hairpin | < 15 turning ≥ 110°, or < 20 turning ≥ 150° (a turn back) | < 39 … 45 |
 * | square  | < 20 turning 70° … 110° (a junction-like right angle)    | < 45      |
 * | 1       | < 20           | < 45                      |
 * | 2       | 20 … 35        | 45 … 60                   |
 * | 3       | 35 … 60        | 60 … 78                   |
 * | 4       | 60 … 100       | 78 … 101                  |
 * | 5       | 100 … 160      | 101 … 128                 |
 * | 6       | 160 … 300      | 128 … 175                 |
 * | (none)  | ≥ 300          | > 175: flat out, no note  |
 */
import type { Severity } from './types';

/** Reference tyre–road friction for the bands: dry gravel / wet tarmac, between snow (≈0.4) and dry tarmac (≈1). */
export const REFERENCE_FRICTION = 0.8;
/** m/s², the gravity the band speeds use (src/content/world-constants.ts holds the simulation's). */
export const BAND_GRAVITY_M_S2 = 9.81;

/** Upper radius bound of each numbered severity, m (severity 1 … 6); see the header table. */
export const SEVERITY_MAX_RADIUS_M: Readonly<Record<1 | 2 | 3 | 4 | 5 | 6, number>> = { 1: 20, 2: 35, 3: 60, 4: 100, 5: 160, 6: 300 };
/** Below this radius a corner that turns far enough is a hairpin (a first-gear corner), m … */
export const HAIRPIN_MAX_RADIUS_M = 15;
/** … when it turns at least this far, rad (110°). */
export const HAIRPIN_MIN_DEFLECTION_RAD = (110 * Math.PI) / 180;
/** A corner that turns back on itself (≥ 150°, rad) is a hairpin up to the severity-1 radius (mountain switchbacks). */
export const HAIRPIN_TURN_BACK_RAD = (150 * Math.PI) / 180;
/** A "square" corner is a tight right angle (a junction): radius below this, m … */
export const SQUARE_MAX_RADIUS_M = 20;
/** … and a deflection in this range, rad (70° … 110°). */
export const SQUARE_DEFLECTION_RAD: readonly [number, number] = [(70 * Math.PI) / 180, (110 * Math.PI) / 180];

/** A road point is in a corner where the driven line's radius is below this (the severity-6 bound), m. */
export const CORNER_MAX_RADIUS_M = SEVERITY_MAX_RADIUS_M[6];
/** Bends that turn less than this are straight-lined within the road's width and get no note, rad (5°). */
export const CORNER_MIN_DEFLECTION_RAD = (5 * Math.PI) / 180;
/** Two same-direction corner pieces closer than this are one corner (a wobble in a long bend), m. */
export const CORNER_MERGE_GAP_M = 10;
/**
 * The driven line: the centreline's curvature averaged over this window, m (about two car lengths). A car cannot
 * follow curvature changes shorter than its own turn-in, so polyline noise and clothoid joints do not set the note.
 */
export const DRIVEN_LINE_WINDOW_M = 10;

/** Corner length modifiers: `long` from this deflection (rad, 100°) or this length (m) … */
export const LONG_DEFLECTION_RAD = (100 * Math.PI) / 180;
export const LONG_LENGTH_M = 100;
/** … `very long` from this deflection (rad, 180°) or this length (m). Hairpins and squares take neither. */
export const VERY_LONG_DEFLECTION_RAD = Math.PI;
export const VERY_LONG_LENGTH_M = 200;

/** `tightens`: the exit half's minimum radius is at most this fraction of the entry half's (`opens`: the reverse). */
export const TIGHTENS_RATIO = 0.67;
/** `tightens late`: the tightening begins in the last part of the corner, after this fraction of its length. */
export const TIGHTENS_LATE_FRACTION = 2 / 3;

/** Vertical features are judged at the speed a car carries there: the bend's corner speed, capped at this, m/s. */
export const FEATURE_SPEED_CAP_M_S = 40;
/** The elevation profile's curvature is taken over this window, m (a car's wheelbase and suspension travel filter). */
export const VERTICAL_WINDOW_M = 12;
/**
 * Vertical-curvature thresholds as a fraction of g at speed: a = v² κ_v / g (κ_v = d²y/ds², 1/m). On a crest
 * (κ_v < 0) the tyres lose a share `a` of their load; at a = 1 the car leaves the ground. In a dip (κ_v > 0) the
 * suspension compresses by the same share.
 */
export const CREST_MIN_G = 0.35;
export const OVER_CREST_MIN_G = 0.6;
export const JUMP_MIN_G = 1;
export const DIP_MIN_G = 0.6;
/** One vertical feature per this stretch of road at most, m (a long crest is one note, not many). */
export const VERTICAL_FEATURE_SPACING_M = 40;

/**
 * Caution rules, by the speed the driver must shed: the approach speed is what a car reaches accelerating at
 * `APPROACH_ACCEL_M_S2` from the previous corner's speed (from rest at the start), capped at `FEATURE_SPEED_CAP_M_S`.
 * A corner whose speed is below `CAUTION_SPEED_RATIO` × the approach speed gets `caution` (half the speed gone:
 * three quarters of the kinetic energy), below `DOUBLE_CAUTION_SPEED_RATIO` × it `double caution`.
 */
export const APPROACH_ACCEL_M_S2 = 3;
export const CAUTION_SPEED_RATIO = 0.5;
export const DOUBLE_CAUTION_SPEED_RATIO = 0.35;

/**
 * `double caution` / `caution` where the road drops away: the terrain beside the corner's OUTSIDE edge is probed at
 * `DROP_PROBE_OFFSETS_M` beyond the edge; the deepest drop below the road over the corner decides. A drop of
 * `DOUBLE_CAUTION_DROP_M` within 6 m (a slope steeper than 1:2, twice a car's height) rolls a car that slides off;
 * `CAUTION_DROP_M` (1:3, well over a car's ~1.4 m height) is a drop a car does not drive back up from. Lower
 * banks (the shipped forest stages' cut-and-fill, mostly under 2 m) stay silent so that `caution` keeps its weight.
 */
export const DROP_PROBE_OFFSETS_M: readonly number[] = [2, 4, 6];
export const DOUBLE_CAUTION_DROP_M = 3;
export const CAUTION_DROP_M = 2;

/**
 * `bumpy`: the road's roughness at car-relevant wavelengths. The elevation minus its local quadratic trend over
 * `BUMPY_TREND_WINDOW_M` (which keeps waves shorter than ~20 m, the ones the suspension must absorb, and takes out
 * crests and dips, which have notes of their own), as an RMS over `BUMPY_RMS_WINDOW_M`. From `BUMPY_MIN_RMS_M`
 * a sinusoidal ripple spans 2√2 × 0.04 ≈ 0.11 m peak to peak, more than a rally car's ~0.1 m of suspension travel
 * each side of ride height at speed: the suspension tops and bottoms out and the wheels hop (grip lost).
 * Bumpy stretches less than `BUMPY_MERGE_GAP_M` apart are one note.
 */
export const BUMPY_TREND_WINDOW_M = 20;
export const BUMPY_RMS_WINDOW_M = 50;
export const BUMPY_MIN_RMS_M = 0.04;
export const BUMPY_MERGE_GAP_M = 50;

/** `narrows`: the width falls to at most this fraction of the width before, within `NARROWS_WITHIN_M`. */
export const NARROWS_RATIO = 0.8;
export const NARROWS_WITHIN_M = 50;
/** A surface change is called when the new surface lasts at least this long, m (a patch is not a change). */
export const SURFACE_MIN_RUN_M = 30;
/** `don't cut`: a tree or rock whose edge is within this distance of the corner's inside road edge, m. */
export const DONT_CUT_MARGIN_M = 2.5;

/** Links: a gap shorter than this is `into` (the next note follows at once), m … */
export const INTO_MAX_GAP_M = 15;
/** … shorter than this `and` (called in the same breath); from here on a distance is called, m. */
export const AND_MAX_GAP_M = 30;

/** Distances a co-driver calls, m. A gap is rounded to the nearest (with the running total kept, file.ts). */
export const CALL_DISTANCES_M: readonly number[] = [30, 50, 70, 100, 150, 200, 250, 300, 350, 400, 500, 600, 700, 800, 900, 1000, 1200, 1500, 2000];

/** Corner speed at the grip limit, v = √(μ g R), m/s. */
export function cornerSpeed(radiusM: number): number {
  return Math.sqrt(REFERENCE_FRICTION * BAND_GRAVITY_M_S2 * radiusM);
}

/** The severity of a corner from its driven-line minimum radius and its total deflection (rad). */
export function severityFor(minRadiusM: number, deflectionRad: number): Severity {
  const d = Math.abs(deflectionRad);
  if (minRadiusM < HAIRPIN_MAX_RADIUS_M && d >= HAIRPIN_MIN_DEFLECTION_RAD) return 'hairpin';
  if (minRadiusM < SEVERITY_MAX_RADIUS_M[1] && d >= HAIRPIN_TURN_BACK_RAD) return 'hairpin';
  if (minRadiusM < SQUARE_MAX_RADIUS_M && d >= SQUARE_DEFLECTION_RAD[0] && d <= SQUARE_DEFLECTION_RAD[1]) return 'square';
  for (const s of [1, 2, 3, 4, 5, 6] as const) if (minRadiusM < SEVERITY_MAX_RADIUS_M[s]) return s;
  return 6;
}

/** The call distance nearest to `m` (the largest one for longer gaps). */
export function nearestCallDistance(m: number): number {
  let best = CALL_DISTANCES_M[0]!;
  for (const c of CALL_DISTANCES_M) if (Math.abs(c - m) < Math.abs(best - m)) best = c;
  return best;
}
