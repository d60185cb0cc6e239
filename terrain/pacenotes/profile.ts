/**
 * The road as the pace-note generator sees it: distance, unwrapped heading, the driven line's signed curvature
 * (left positive) and the elevation profile's vertical curvature at every centreline point. Windows are in metres
 * along the road and values between points are interpolated linearly, so a constant-radius arc or a circular crest
 * gives its exact curvature whatever the point spacing.
 */
import { datan2 } from '../dmath';
import { DRIVEN_LINE_WINDOW_M, VERTICAL_WINDOW_M } from './table';

export interface RoadProfile {
  n: number;
  /** Distance along the centreline at each point, m. */
  s: Float64Array;
  /** Unwrapped heading at each point, rad (increasing = turning left; terrain/road.ts convention). */
  heading: Float64Array;
  /** Driven-line curvature, 1/m, positive to the left. */
  kappa: Float64Array;
  /** Elevation of the centreline at each point, m. */
  y: Float64Array;
  /** Vertical curvature d²y/ds², 1/m (negative on a crest). */
  vertical: Float64Array;
  /** Road width at each point, m. */
  width: Float64Array;
}

function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/** Value of `v` (sampled at distances `s`) at distance `d`, clamped to the ends. */
export function interpolateAt(s: Float64Array, v: Float64Array, d: number): number {
  const n = s.length;
  if (d <= s[0]!) return v[0]!;
  if (d >= s[n - 1]!) return v[n - 1]!;
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! <= d) lo = mid;
    else hi = mid;
  }
  const span = s[hi]! - s[lo]!;
  return span > 0 ? v[lo]! + ((v[hi]! - v[lo]!) * (d - s[lo]!)) / span : v[lo]!;
}

/** Cumulative horizontal distance of xyz points. */
function distancesOf(points: ArrayLike<number>, n: number): Float64Array {
  const s = new Float64Array(n);
  for (let k = 1; k < n; k++) s[k] = s[k - 1]! + Math.hypot(points[3 * k]! - points[3 * k - 3]!, points[3 * k + 2]! - points[3 * k - 1]!);
  return s;
}

/** Heading at each point (mean of its two segments'), unwrapped so it changes continuously. */
function headingsOf(points: ArrayLike<number>, n: number): Float64Array {
  const seg = new Float64Array(Math.max(1, n - 1));
  for (let k = 0; k < n - 1; k++) seg[k] = datan2(points[3 * k + 3]! - points[3 * k]!, points[3 * k + 5]! - points[3 * k + 2]!);
  for (let k = 1; k < n - 1; k++) seg[k] = seg[k - 1]! + wrapAngle(seg[k]! - seg[k - 1]!);
  const h = new Float64Array(n);
  for (let k = 0; k < n; k++) h[k] = k === 0 ? seg[0]! : k === n - 1 ? seg[n - 2]! : (seg[k - 1]! + seg[k]!) / 2;
  return h;
}

/** Mean curvature over a window centred on each point: the heading change across it over its length. */
function windowCurvature(s: Float64Array, heading: Float64Array, windowM: number): Float64Array {
  const n = s.length;
  const out = new Float64Array(n);
  const end = s[n - 1]!;
  for (let k = 0; k < n; k++) {
    const a = Math.max(0, s[k]! - windowM / 2);
    const b = Math.min(end, s[k]! + windowM / 2);
    out[k] = b > a ? (interpolateAt(s, heading, b) - interpolateAt(s, heading, a)) / (b - a) : 0;
  }
  return out;
}

/** Second difference of the elevation over ± half the window: exact for a parabola or a circular arc's vertex. */
function verticalCurvature(s: Float64Array, y: Float64Array, windowM: number): Float64Array {
  const n = s.length;
  const out = new Float64Array(n);
  const h = windowM / 2;
  for (let k = 0; k < n; k++) {
    if (s[k]! - h < 0 || s[k]! + h > s[n - 1]!) continue;
    out[k] = (interpolateAt(s, y, s[k]! + h) - 2 * y[k]! + interpolateAt(s, y, s[k]! - h)) / (h * h);
  }
  return out;
}

/** The profile of a centreline given as xyz triples and widths (one per point, or one for all). */
export function roadProfile(points: ArrayLike<number>, widths: ArrayLike<number> | number): RoadProfile {
  const n = Math.floor(points.length / 3);
  const s = distancesOf(points, n);
  const heading = headingsOf(points, n);
  const y = new Float64Array(n);
  const width = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    y[k] = points[3 * k + 1]!;
    width[k] = typeof widths === 'number' ? widths : widths[Math.min(k, widths.length - 1)]!;
  }
  return {
    n,
    s,
    heading,
    kappa: windowCurvature(s, heading, DRIVEN_LINE_WINDOW_M),
    y,
    vertical: verticalCurvature(s, y, VERTICAL_WINDOW_M),
    width,
  };
}
