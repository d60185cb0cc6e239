/**
 * Comparing two runs of the same stage by distance (issue 9: "overlay two runs by distance with the time
 * delta curve").
 *
 * A run is a sequence of samples (t_i, d_i) with d the distance along the road centreline. The time at which a
 * run first reaches distance x is T(x) = t at the first passage of x; with linear interpolation between the
 * samples of the running maximum of d (a run may roll back or spin; only new ground counts) this is a
 * monotone piecewise-linear function. The time delta at x is Δ(x) = T_B(x) − T_A(x) (positive: B is
 * slower there). Channel values are overlaid at the same first-passage points. For a run sampled every h
 * seconds the interpolation error of T is at most (h_d²/8)·max|T''| where h_d is the distance between
 * samples (linear interpolation bound), which the tests use as their tolerance.
 */

export interface DistanceSeries {
  /** Strictly increasing distances (m) of first passage. */
  d: Float64Array;
  /** Sample index of each first-passage point (for the other channels). */
  idx: Int32Array;
}

/** Keep the samples where the distance exceeds every earlier distance (first passage). */
export function firstPassage(dist: ArrayLike<number>): DistanceSeries {
  const d: number[] = [];
  const idx: number[] = [];
  let max = -Infinity;
  for (let i = 0; i < dist.length; i++) {
    const x = dist[i]!;
    if (Number.isFinite(x) && x > max) {
      max = x;
      d.push(x);
      idx.push(i);
    }
  }
  return { d: Float64Array.from(d), idx: Int32Array.from(idx) };
}

/** Linear interpolation of y (at first-passage points `s`) at distance x; NaN outside [d0, dn]. */
export function interpAt(s: DistanceSeries, y: ArrayLike<number>, x: number, hint = 0): { v: number; k: number } {
  const d = s.d;
  const n = d.length;
  if (n === 0 || x < d[0]! || x > d[n - 1]!) return { v: Number.NaN, k: hint };
  let k = Math.min(Math.max(hint, 0), n - 1);
  if (d[k]! > x) k = 0;
  while (k + 1 < n && d[k + 1]! < x) k++;
  if (k + 1 >= n || d[k]! === x) return { v: y[s.idx[k]!]!, k };
  const u = (x - d[k]!) / (d[k + 1]! - d[k]!);
  return { v: y[s.idx[k]!]! + u * (y[s.idx[k + 1]!]! - y[s.idx[k]!]!), k };
}

export interface RunSeries {
  t: ArrayLike<number>;
  dist: ArrayLike<number>;
  /** Other channels to overlay, by name. */
  channels?: Record<string, ArrayLike<number>>;
}

export interface Comparison {
  /** Common distance grid (m). */
  x: Float64Array;
  /** First-passage times of A and B (s, relative to each run's time at the grid start). */
  tA: Float64Array;
  tB: Float64Array;
  /** Δ(x) = tB − tA (s). */
  delta: Float64Array;
  /** Overlaid channels: name → [A(x), B(x)]. */
  channels: Record<string, [Float64Array, Float64Array]>;
}

/**
 * Resample runs A and B on a common distance grid with spacing `stepM` over the distance both covered,
 * and compute the time delta. Both runs' clocks are referenced to their first passage of the grid start.
 */
export function compareRuns(a: RunSeries, b: RunSeries, stepM = 5): Comparison {
  const sa = firstPassage(a.dist);
  const sb = firstPassage(b.dist);
  const empty: Comparison = { x: new Float64Array(0), tA: new Float64Array(0), tB: new Float64Array(0), delta: new Float64Array(0), channels: {} };
  if (sa.d.length < 2 || sb.d.length < 2) return empty;
  const x0 = Math.max(sa.d[0]!, sb.d[0]!);
  const x1 = Math.min(sa.d[sa.d.length - 1]!, sb.d[sb.d.length - 1]!);
  if (!(x1 > x0) || !(stepM > 0)) return empty;
  const n = Math.ceil((x1 - x0) / stepM - 1e-9) + 1;
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = Math.min(x0 + i * stepM, x1);
  const tA = new Float64Array(n), tB = new Float64Array(n), delta = new Float64Array(n);
  let ka = 0, kb = 0;
  for (let i = 0; i < n; i++) {
    const ra = interpAt(sa, a.t, x[i]!, ka);
    const rb = interpAt(sb, b.t, x[i]!, kb);
    ka = ra.k;
    kb = rb.k;
    tA[i] = ra.v;
    tB[i] = rb.v;
  }
  const a0 = tA[0]!, b0 = tB[0]!;
  for (let i = 0; i < n; i++) {
    tA[i] = tA[i]! - a0;
    tB[i] = tB[i]! - b0;
    delta[i] = tB[i]! - tA[i]!;
  }
  const channels: Record<string, [Float64Array, Float64Array]> = {};
  for (const name of Object.keys(a.channels ?? {})) {
    const ya = a.channels![name]!, yb = b.channels?.[name];
    if (!yb) continue;
    const ca = new Float64Array(n), cb = new Float64Array(n);
    ka = kb = 0;
    for (let i = 0; i < n; i++) {
      const ra = interpAt(sa, ya, x[i]!, ka);
      const rb = interpAt(sb, yb, x[i]!, kb);
      ka = ra.k;
      kb = rb.k;
      ca[i] = ra.v;
      cb[i] = rb.v;
    }
    channels[name] = [ca, cb];
  }
  return { x, tA, tB, delta, channels };
}
