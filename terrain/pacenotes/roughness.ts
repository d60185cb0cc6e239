/**
 * `bumpy` notes: where the elevation profile is rough at the wavelengths a car's suspension must absorb (table.ts,
 * BUMPY_*). Roughness at a point is the RMS, over a window along the road, of the height left after removing the
 * local quadratic trend (least squares over a shorter window): crests, dips and grades are exactly quadratic over a
 * few metres, so they leave nothing, while a ripple a few metres long is kept whole.
 */
import type { RoadProfile } from './profile';
import { BUMPY_MERGE_GAP_M, BUMPY_MIN_RMS_M, BUMPY_RMS_WINDOW_M, BUMPY_TREND_WINDOW_M } from './table';
import { featureNote } from './features';
import type { PaceNote } from './types';

/** Solves the 3×3 system m·x = r (Cramer's rule) and returns x[0]; NaN when singular (fewer than 3 distinct points). */
function solveFirst(m: readonly number[], r: readonly number[]): number {
  const det = (a: readonly number[]): number => a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) - a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) + a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const d = det(m);
  if (Math.abs(d) < 1e-12) return NaN;
  return det([r[0]!, m[1]!, m[2]!, r[1]!, m[4]!, m[5]!, r[2]!, m[7]!, m[8]!]) / d;
}

/** Height of each point above the least-squares parabola through the points within ± half the window length. */
function detrendedHeights(p: RoadProfile, windowM: number): Float64Array {
  const out = new Float64Array(p.n);
  const h = windowM / 2;
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < p.n; k++) {
    const sk = p.s[k]!;
    while (p.s[lo]! < sk - h) lo++;
    while (hi + 1 < p.n && p.s[hi + 1]! <= sk + h) hi++;
    // normal equations of y ≈ c0 + c1 u + c2 u², u = s − s_k: the trend at the point is c0
    const sums = [0, 0, 0, 0, 0];
    const r = [0, 0, 0];
    for (let j = lo; j <= hi; j++) {
      const u = p.s[j]! - sk;
      const y = p.y[j]!;
      sums[0]! += 1; sums[1]! += u; sums[2]! += u * u; sums[3]! += u * u * u; sums[4]! += u * u * u * u;
      r[0]! += y; r[1]! += u * y; r[2]! += u * u * y;
    }
    const m = [sums[0]!, sums[1]!, sums[2]!, sums[1]!, sums[2]!, sums[3]!, sums[2]!, sums[3]!, sums[4]!];
    const trend = solveFirst(m, r);
    out[k] = Number.isNaN(trend) ? 0 : p.y[k]! - trend;
  }
  return out;
}

/** RMS of the detrended height over a window centred on each point, m (prefix sums of squares: linear time). */
export function roadRoughness(p: RoadProfile): Float64Array {
  const d = detrendedHeights(p, BUMPY_TREND_WINDOW_M);
  const squares = new Float64Array(p.n + 1);
  for (let k = 0; k < p.n; k++) squares[k + 1] = squares[k]! + d[k]! * d[k]!;
  const out = new Float64Array(p.n);
  const h = BUMPY_RMS_WINDOW_M / 2;
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < p.n; k++) {
    while (p.s[lo]! < p.s[k]! - h) lo++;
    while (hi + 1 < p.n && p.s[hi + 1]! <= p.s[k]! + h) hi++;
    out[k] = Math.sqrt(Math.max(0, squares[hi + 1]! - squares[lo]!) / (hi - lo + 1));
  }
  return out;
}

/** One `bumpy` note per rough stretch (RMS ≥ BUMPY_MIN_RMS_M), stretches closer than BUMPY_MERGE_GAP_M joined. */
export function bumpyNotes(p: RoadProfile): PaceNote[] {
  const rms = roadRoughness(p);
  const notes: PaceNote[] = [];
  let open: PaceNote | null = null;
  for (let k = 0; k < p.n; k++) {
    if (rms[k]! < BUMPY_MIN_RMS_M) {
      open = null;
      continue;
    }
    const s = p.s[k]!;
    if (open) open.endM = s;
    else {
      const prev = notes[notes.length - 1];
      if (prev && s - prev.endM < BUMPY_MERGE_GAP_M) open = prev;
      else notes.push((open = featureNote('bumpy', s)));
      open.endM = s;
    }
  }
  return notes;
}
