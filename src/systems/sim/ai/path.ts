/**
 * The path an AI driver follows (Félez §6: "each vehicle is associated with a lane whose middle line, called a
 * path, it tries to follow"): a racing line derived from the stage's road centreline, its curvature, the
 * friction along it, and the target-speed profile (grip-limited corner speeds with forward / backward
 * acceleration limits). Pure data + functions; built once per stage (and per driver skill for the profile).
 */
import { cornerSpeed, G } from './driver-model';
import { datan2 } from '../../../../terrain/dmath';

/** locate's walk: at most this many segments each way from the hint. */
const LOCATE_WINDOW = 40;
/** locate's walk goes on this many segments past the nearest so far (a kink can hide a nearer one). */
const LOCATE_PAST_MIN = 4;
/** Farther than this from the walk's best point (m) means the hint is stale: scan the whole path. */
const LOCATE_FAR_M = 15;
/** indexNear walks at most this many points from its hint before it bisects instead. */
const INDEX_WALK_MAX = 16;
/** Clearances are kept for index distances 2 … this (farther segments use the last one, a lower bound). */
const CLEAR_MAX_GAP = LOCATE_PAST_MIN + 1;
/** Clearance kept back for rounding (m): a stop is taken only when the bound wins by more than this. */
const CLEAR_ROUNDING_M = 1e-4;
/**
 * locate's per-segment record, packed (a locate reads a handful of neighbours, after passes that evicted the
 * path): start (x, z), edge (ex, ez), ex² + ez², length, then for gaps 2 … CLEAR_MAX_GAP the squared stops
 * of segmentClearances: clearance, lead (segments ahead) and lag (segments behind).
 */
const SEG_AX = 0, SEG_AZ = 1, SEG_EX = 2, SEG_EZ = 3, SEG_L2 = 4, SEG_LEN = 5, SEG_STOP = 6;
const SEG_LEAD = SEG_STOP + CLEAR_MAX_GAP - 1, SEG_LAG = SEG_LEAD + CLEAR_MAX_GAP - 1;
const SEG_STRIDE = SEG_LAG + CLEAR_MAX_GAP - 1;

export interface PathSource {
  /** Centreline xyz triples (~2 m apart), as terrain's Road / StageRoad.points. */
  points: Float64Array;
  /** Road width at each point, m. */
  widths: ArrayLike<number>;
}

export interface PathOptions {
  /** The path is a closed loop (rallycross circuit): the last point joins the first. */
  closed?: boolean;
  /** Tyre–road friction at a point (e.g. surface map → surfaces table). Default 1. */
  muAt?: (x: number, z: number) => number;
  /** 0 = follow the centreline, 1 = full racing line (apex cutting inside the road edges). Default 1. */
  racingLine?: number;
  /** Distance kept between the racing line and the road edge, m (half the car width + a margin). Default 1.6. */
  edgeMarginM?: number;
  /** Descent iterations of the racing line per resolution level. Default 250. */
  iterations?: number;
}

/** Speed-profile limits of one driver on one car. */
export interface ProfileLimits {
  /** Fraction of the friction the driver uses in corners (skill), (0, 1]. */
  gripUse: number;
  /** Accelerating limit, m/s² (power-limited car acceleration, or the driver's mean acceleration a_m). */
  accelMS2: number | ((v: number, mu: number) => number);
  /** Braking deceleration as a fraction of μ g. */
  brakeUse: number;
  /** Top speed, m/s. */
  vMaxMS: number;
  /** Share the friction between cornering and accelerating / braking (default true). */
  frictionCircle?: boolean;
}

export interface PathLocation {
  /** Segment index [index, index+1]. */
  index: number;
  /** Arc length along the path, m (in [0, lengthM) on a closed path). */
  s: number;
  /** Signed lateral offset from the path, m (+ = left of the direction of travel). */
  lateral: number;
}

/** Menger curvature (1/R of the circle through three points), signed: + turning left (+Y up, heading about +Y). */
export function mengerCurvature(ax: number, az: number, bx: number, bz: number, cx: number, cz: number): number {
  const abx = bx - ax, abz = bz - az, bcx = cx - bx, bcz = cz - bz, acx = cx - ax, acz = cz - az;
  // cross of (b − a) and (c − b) in the XZ plane with forward (sin θ, cos θ) and left (cos θ, −sin θ):
  // turning left means the direction rotates toward left: cross = abz·bcx − abx·bcz > 0.
  const cross = abz * bcx - abx * bcz;
  const den = Math.hypot(abx, abz) * Math.hypot(bcx, bcz) * Math.hypot(acx, acz);
  return den > 1e-12 ? (2 * cross) / den : 0;
}

export class AiPath {
  readonly n: number;
  readonly x: Float64Array;
  readonly z: Float64Array;
  /** Arc length at each point, m. */
  readonly s: Float64Array;
  /** Signed curvature at each point, 1/m (+ = turning left). */
  readonly kappa: Float64Array;
  readonly mu: Float64Array;
  /** Racing-line offset from the centreline at each point, m (+ = left). */
  readonly offset: Float64Array;
  readonly lengthM: number;
  readonly closed: boolean;
  /** Heading (rad, as `headingAt`) of the segment from each point, computed once: look-ups read it. */
  private readonly segHeading: Float64Array;
  /**
   * Segment records (SEG_STRIDE numbers each, computed once, the values locate computed per call before) with
   * locate's stopping rule: at SEG_STOP + q − 2, (C/2)², C the least distance from the segment to any segment
   * q … 2·LOCATE_WINDOW indices away from it (less CLEAR_ROUNDING_M; see segmentClearances).
   */
  private readonly seg: Float64Array;

  constructor(x: Float64Array, z: Float64Array, mu: Float64Array, offset: Float64Array, closed: boolean) {
    const n = x.length;
    this.n = n;
    this.x = x;
    this.z = z;
    this.mu = mu;
    this.offset = offset;
    this.closed = closed;
    this.s = new Float64Array(n);
    for (let i = 1; i < n; i++) this.s[i] = this.s[i - 1]! + Math.hypot(x[i]! - x[i - 1]!, z[i]! - z[i - 1]!);
    this.lengthM = this.s[n - 1]! + (closed ? Math.hypot(x[0]! - x[n - 1]!, z[0]! - z[n - 1]!) : 0);
    // curvature over a chord of ±span points (≈ ±6 m), then a light box smoothing
    const span = 3;
    const k = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let a = i - span, c = i + span;
      if (closed) {
        a = (a + n) % n;
        c = c % n;
      } else {
        a = Math.max(0, a);
        c = Math.min(n - 1, c);
        if (a === i || c === i) {
          k[i] = 0;
          continue;
        }
      }
      k[i] = mengerCurvature(x[a]!, z[a]!, x[i]!, z[i]!, x[c]!, z[c]!);
    }
    this.kappa = smooth(k, 2, closed);
    this.segHeading = new Float64Array(n);
    this.seg = new Float64Array(n * SEG_STRIDE);
    for (let i = 0; i < n; i++) {
      const j = i + 1 < n ? i + 1 : 0;
      const o = i * SEG_STRIDE, ex = x[j]! - x[i]!, ez = z[j]! - z[i]!;
      this.seg[o + SEG_AX] = x[i]!;
      this.seg[o + SEG_AZ] = z[i]!;
      this.seg[o + SEG_EX] = ex;
      this.seg[o + SEG_EZ] = ez;
      this.seg[o + SEG_L2] = ex * ex + ez * ez;
      this.seg[o + SEG_LEN] = Math.hypot(ex, ez) || 1;
      // the last point of an open path takes the heading of the segment into it
      const a = !closed && i === n - 1 ? i - 1 : i, b = !closed && i === n - 1 ? i : j;
      this.segHeading[i] = datan2(x[b]! - x[a]!, z[b]! - z[a]!);
    }
    segmentClearances(x, z, closed, this.seg);
  }

  /**
   * Builds the path from a centreline, moved sideways inside the road to a minimum-curvature racing line
   * (see minimumCurvatureOffsets): wide on entry, apex on the inside, wide on exit.
   */
  static fromCentreline(src: PathSource, opts: PathOptions = {}): AiPath {
    const closed = opts.closed ?? false;
    const pts = src.points;
    let n = pts.length / 3;
    // a closed source may repeat its first point at the end: drop duplicates
    if (closed && n > 2 && Math.hypot(pts[0]! - pts[3 * n - 3]!, pts[2]! - pts[3 * n - 1]!) < 0.5) n--;
    const cx = new Float64Array(n), cz = new Float64Array(n), nx = new Float64Array(n), nz = new Float64Array(n), lim = new Float64Array(n);
    const margin = opts.edgeMarginM ?? 1.6;
    for (let i = 0; i < n; i++) {
      cx[i] = pts[3 * i]!;
      cz[i] = pts[3 * i + 2]!;
    }
    for (let i = 0; i < n; i++) {
      const a = closed ? (i - 1 + n) % n : Math.max(0, i - 1);
      const b = closed ? (i + 1) % n : Math.min(n - 1, i + 1);
      const dx = cx[b]! - cx[a]!, dz = cz[b]! - cz[a]!;
      const l = Math.hypot(dx, dz) || 1;
      // left of forward (fx, fz) is (fz, −fx) (terrain/road.ts header)
      nx[i] = dz / l;
      nz[i] = -dx / l;
      lim[i] = Math.max(0, Number(src.widths[Math.min(i, src.widths.length - 1)]) / 2 - margin) * (opts.racingLine ?? 1);
    }
    const off = minimumCurvatureOffsets(cx, cz, nx, nz, lim, closed, opts.iterations ?? 250);
    const x = new Float64Array(n), z = new Float64Array(n), mu = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = cx[i]! + off[i]! * nx[i]!;
      z[i] = cz[i]! + off[i]! * nz[i]!;
      mu[i] = opts.muAt ? opts.muAt(x[i]!, z[i]!) : 1;
    }
    return new AiPath(x, z, smoothMin(mu, 4, closed), off, closed);
  }

  /** Wraps (closed) or clamps (open) an arc length into the path. */
  wrapS(s: number): number {
    if (this.closed) {
      const L = this.lengthM;
      return ((s % L) + L) % L;
    }
    return s < 0 ? 0 : s > this.s[this.n - 1]! ? this.s[this.n - 1]! : s;
  }

  /** Index i with s[i] ≤ s < s[i+1] (binary search). */
  indexAt(s: number): number {
    const ss = this.wrapS(s);
    let lo = 0, hi = this.n - 1;
    if (ss >= this.s[hi]!) return hi;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.s[mid]! <= ss) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /**
   * `indexAt(s)` found by walking from `hint` (an index looked up a moment ago: a driver's look-ahead moves a
   * point or two per decision) instead of bisecting the whole path. The same index: with s[] non-decreasing and
   * s[0] = 0, the i with s[i] ≤ ss < s[i+1] (n − 1 when ss ≥ s[n−1]) is the largest i with s[i] ≤ ss, which the
   * walk reaches from any start; past INDEX_WALK_MAX steps (a jump: a reset, a wrap) it bisects.
   */
  indexNear(s: number, hint: number): number {
    const ss = this.wrapS(s);
    const arc = this.s, last = this.n - 1;
    // (a NaN arc length fails every comparison: the bisection's answer, 0)
    if (!(ss >= 0) || !(hint >= 0 && hint <= last)) return this.indexAt(s);
    let i = hint;
    if (arc[i]! <= ss) {
      for (let k = 0; i < last && arc[i + 1]! <= ss; k++, i++) if (k === INDEX_WALK_MAX) return this.indexAt(s);
    } else {
      for (let k = 0; arc[i]! > ss; k++, i--) if (k === INDEX_WALK_MAX) return this.indexAt(s);
    }
    return i;
  }

  /** Point at arc length s (linear between samples) into out = [x, z]. */
  pointAt(s: number, out: Float64Array | number[]): void {
    const ss = this.wrapS(s);
    this.pointAtIndex(ss, this.indexAt(ss), out);
  }

  /** `pointAt(s, out)` with its index looked up from `hint` (see indexNear); returns that index. */
  pointNear(s: number, hint: number, out: Float64Array | number[]): number {
    const ss = this.wrapS(s);
    const i = this.indexNear(ss, hint);
    this.pointAtIndex(ss, i, out);
    return i;
  }

  /** Point at the wrapped arc length ss on segment i (pointAt's interpolation) into out = [x, z]. */
  private pointAtIndex(ss: number, i: number, out: Float64Array | number[]): void {
    const j = i + 1 < this.n ? i + 1 : this.closed ? 0 : i;
    const s1 = j === 0 ? this.lengthM : this.s[j]!;
    const span = s1 - this.s[i]!;
    const f = span > 0 ? (ss - this.s[i]!) / span : 0;
    out[0] = this.x[i]! + f * (this.x[j]! - this.x[i]!);
    out[1] = this.z[i]! + f * (this.z[j]! - this.z[i]!);
  }

  /** Heading (rotation about +Y, forward = (sin θ, 0, cos θ)) of the path at arc length s. */
  headingAt(s: number): number {
    return this.segHeading[this.indexAt(s)]!;
  }

  /** Heading of the segment from point i (`headingAt(s)` is `headingOf(indexAt(s))`). */
  headingOf(i: number): number {
    return this.segHeading[i]!;
  }

  /**
   * Nearest point of the path to (x, z). With a `hint` (the segment found last time) the search walks from it
   * downhill in distance, a few segments past the nearest, at most LOCATE_WINDOW each way: a car moves a
   * segment or two per tick, so that costs a handful of tests. A full scan runs when there is no hint or the
   * walk ends far from the car (car reset, first call).
   */
  locate(x: number, z: number, hint = -1, out: PathLocation = { index: 0, s: 0, lateral: 0 }): PathLocation {
    const segs = this.closed ? this.n : this.n - 1;
    let best = Infinity, bestK = 0, bestF = 0;
    if (hint >= 0 && hint < segs) {
      best = this.segmentDistance2(hint, x, z);
      bestK = hint;
      bestF = this.lastF;
      // offset of bestK from the hint along the walk (+ = the first direction)
      let bestOff = 0;
      for (let dir = 1; dir >= -1; dir -= 2) {
        let misses = 0;
        for (let d = 1; d <= LOCATE_WINDOW && misses < LOCATE_PAST_MIN; d++) {
          // every segment from here on in this direction is ≥ gap indices from bestK, past its far end (ahead
          // of it going +): when the clearance of bestK at that gap is over twice the best distance, or the
          // point is not past that end and the lead (lag) is over the best distance, none can be nearer
          const gap = dir * d - bestOff;
          const q = gap < 0 ? -gap : gap;
          if (q >= 2) {
            const o = bestK * SEG_STRIDE + (q < CLEAR_MAX_GAP ? q : CLEAR_MAX_GAP) - 2;
            const past = dir > 0 ? (bestF < 1 ? this.seg[o + SEG_LEAD]! : -1) : bestF > 0 ? this.seg[o + SEG_LAG]! : -1;
            if (best < this.seg[o + SEG_STOP]! || best < past) break;
          }
          let k = hint + dir * d;
          if (this.closed) k = k < 0 ? k + segs : k >= segs ? k - segs : k;
          else if (k < 0 || k >= segs) break;
          const d2 = this.segmentDistance2(k, x, z);
          // a tie (a vertex shared by two segments) goes to the lower index, as in the full scan
          if (d2 < best || (d2 === best && k < bestK)) {
            best = d2;
            bestK = k;
            bestF = this.lastF;
            bestOff = dir * d;
            misses = 0;
          } else misses++;
        }
      }
    }
    if (hint < 0 || hint >= segs || best > LOCATE_FAR_M * LOCATE_FAR_M) {
      best = Infinity;
      for (let k = 0; k < segs; k++) {
        const d2 = this.segmentDistance2(k, x, z);
        if (d2 < best) {
          best = d2;
          bestK = k;
          bestF = this.lastF;
        }
      }
    }
    const k = bestK, o = k * SEG_STRIDE, sg = this.seg;
    const ex = sg[o + SEG_EX]!, ez = sg[o + SEG_EZ]!;
    const len = sg[o + SEG_LEN]!;
    out.index = k;
    out.s = this.s[k]! + bestF * len;
    if (this.closed && out.s >= this.lengthM) out.s -= this.lengthM;
    out.lateral = ((x - sg[o + SEG_AX]!) * ez - (z - sg[o + SEG_AZ]!) * ex) / len;
    return out;
  }

  /** Fraction along segment k of the point nearest the last `segmentDistance2` query. */
  private lastF = 0;

  /** Squared distance from (x, z) to segment k (point k to the next), its nearest fraction into `lastF`. */
  private segmentDistance2(k: number, x: number, z: number): number {
    const sg = this.seg, o = k * SEG_STRIDE;
    const ax = sg[o + SEG_AX]!, az = sg[o + SEG_AZ]!, ex = sg[o + SEG_EX]!, ez = sg[o + SEG_EZ]!, l2 = sg[o + SEG_L2]!;
    let f = l2 > 0 ? ((x - ax) * ex + (z - az) * ez) / l2 : 0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    this.lastF = f;
    const qx = ax + f * ex - x, qz = az + f * ez - z;
    return qx * qx + qz * qz;
  }


  /**
   * Target-speed profile: v_i = min(v_max, √(gripUse·μ_i·g / |κ_i|)), then a forward pass limiting the speed
   * gain to v_{i+1}² ≤ v_i² + 2·a_acc·c·Δs and a backward pass limiting the loss to v_i² ≤ v_{i+1}² + 2·a_brk·c·Δs
   * with a_brk = brakeUse·μ·g (uniformly accelerated motion between samples, as eq 9) and c the friction-circle
   * share left by the cornering acceleration v²κ. On a closed path
   * the passes run around twice so the lap wraps consistently. `startSpeed` pins v at index 0 of an open
   * path (a standing start).
   */
  speedProfile(lim: ProfileLimits, startSpeed?: number): Float64Array {
    const n = this.n;
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = cornerSpeed(this.kappa[i]!, lim.gripUse * this.mu[i]!, lim.vMaxMS);
    const acc = (vv: number, mu: number): number => (typeof lim.accelMS2 === 'number' ? lim.accelMS2 : lim.accelMS2(vv, mu));
    const ds = (i: number, j: number): number => (j === 0 && i === n - 1 ? this.lengthM - this.s[i]! : Math.abs(this.s[j]! - this.s[i]!));
    if (!this.closed && startSpeed !== undefined) v[0] = Math.min(v[0]!, startSpeed);
    const rounds = this.closed ? 2 : 1;
    // friction circle: the share of the grip left for accelerating / braking while cornering at v,
    // √(1 − (v² κ / (gripUse μ g))²), floored so that a car at the corner limit can still leave the corner
    const circle = (vv: number, i: number): number => {
      const r = lim.frictionCircle === false ? 0 : (vv * vv * Math.abs(this.kappa[i]!)) / Math.max(1e-9, lim.gripUse * this.mu[i]! * G);
      return Math.max(0.35, Math.sqrt(Math.max(0, 1 - r * r)));
    };
    for (let r = 0; r < rounds; r++) {
      for (let q = 0; q < (this.closed ? n : n - 1); q++) {
        const i = q, j = (q + 1) % n;
        const lim2 = v[i]! * v[i]! + 2 * acc(v[i]!, this.mu[i]!) * circle(v[i]!, i) * ds(i, j);
        if (v[j]! * v[j]! > lim2) v[j] = Math.sqrt(lim2);
      }
    }
    for (let r = 0; r < rounds; r++) {
      for (let q = this.closed ? n - 1 : n - 2; q >= 0; q--) {
        const i = q, j = (q + 1) % n;
        const lim2 = v[j]! * v[j]! + 2 * lim.brakeUse * this.mu[i]! * G * circle(v[j]!, j) * ds(i, j);
        if (v[i]! * v[i]! > lim2) v[i] = Math.sqrt(lim2);
      }
    }
    return v;
  }

  /** Time to drive from s0 to s1 (s1 > s0; wraps laps on a closed path) at the profile speeds, s. */
  profileTime(v: Float64Array, s0: number, s1: number): number {
    let t = 0;
    const step = 1;
    for (let s = s0; s < s1; s += step) {
      const h = Math.min(step, s1 - s);
      const i = this.indexAt(s);
      const j = i + 1 < this.n ? i + 1 : this.closed ? 0 : i;
      const vv = 0.5 * (v[i]! + v[j]!);
      t += h / Math.max(0.5, vv);
    }
    return t;
  }
}

/**
 * locate's stopping rules, per segment i (A → B, unit direction u) and index gap q (2 … CLEAR_MAX_GAP), over the
 * segments j = i ± e, q ≤ e ≤ 2·LOCATE_WINDOW (indices wrapped on a closed path: a short loop brings j back near
 * i, which only disables the stop). Every j the walk could still test lies within 2·LOCATE_WINDOW of its best
 * (both within LOCATE_WINDOW of the hint), so a stop never skips a segment the walk would have taken: the
 * result keeps every bit. For a point P at distance d from segment i:
 *  • clearance C_q(i), the least distance from segment i to any such j: every j is at least C_q − d from P
 *    (triangle inequality through P's nearest point on i), so d < C_q/2 proves none nearer than i;
 *  • lead L_q(i) = min over j = i + e of (Q − B)·u over j's ends Q: when P is not past B ((P − B)·u ≤ 0, its
 *    nearest fraction on i below 1), every point R of those j has (R − P)·u ≥ L_q, so d < L_q proves none
 *    nearer; lag, the same behind: min over j = i − e of (A − Q)·u, for P not before A.
 * Written into the segment records as squares of (C_q − CLEAR_ROUNDING_M)/2, L_q − CLEAR_ROUNDING_M and the
 * lag less it, −1 where ≤ 0.
 */
function segmentClearances(x: Float64Array, z: Float64Array, closed: boolean, out: Float64Array): void {
  const n = x.length;
  const segs = closed ? n : n - 1;
  const reach = 2 * LOCATE_WINDOW;
  const nearAt = new Float64Array(reach + 1), leadAt = new Float64Array(reach + 1), lagAt = new Float64Array(reach + 1);
  const stop2 = (v: number): number => (v > 0 ? v * v : -1);
  for (let i = 0; i < segs; i++) {
    nearAt.fill(Infinity);
    leadAt.fill(Infinity);
    lagAt.fill(Infinity);
    const i2 = i + 1 < n ? i + 1 : 0;
    const len = Math.hypot(x[i2]! - x[i]!, z[i2]! - z[i]!) || 1;
    const ux = (x[i2]! - x[i]!) / len, uz = (z[i2]! - z[i]!) / len;
    for (let e = 1; e <= reach; e++) {
      for (let side = -1; side <= 1; side += 2) {
        let j = i + side * e;
        if (closed) j = ((j % segs) + segs) % segs;
        else if (j < 0 || j >= segs) continue;
        nearAt[e] = Math.min(nearAt[e]!, segmentSegmentDistance(x, z, i, j, n));
        const j2 = j + 1 < n ? j + 1 : 0;
        // ahead: (Q − B)·u; behind: (A − Q)·u, for both ends Q of segment j
        const lead = side > 0
          ? Math.min((x[j]! - x[i2]!) * ux + (z[j]! - z[i2]!) * uz, (x[j2]! - x[i2]!) * ux + (z[j2]! - z[i2]!) * uz)
          : Math.min((x[i]! - x[j]!) * ux + (z[i]! - z[j]!) * uz, (x[i]! - x[j2]!) * ux + (z[i]! - z[j2]!) * uz);
        if (side > 0) leadAt[e] = lead;
        else lagAt[e] = lead;
      }
    }
    // suffix minima: the bounds at gap q cover every e ≥ q
    let c = Infinity, lead = Infinity, lag = Infinity;
    for (let e = reach; e >= 2; e--) {
      c = Math.min(c, nearAt[e]!);
      lead = Math.min(lead, leadAt[e]!);
      lag = Math.min(lag, lagAt[e]!);
      if (e > CLEAR_MAX_GAP) continue;
      const o = i * SEG_STRIDE + e - 2;
      out[o + SEG_STOP] = stop2((c - CLEAR_ROUNDING_M) / 2);
      out[o + SEG_LEAD] = stop2(lead - CLEAR_ROUNDING_M);
      out[o + SEG_LAG] = stop2(lag - CLEAR_ROUNDING_M);
    }
  }
}

/** Distance between segments i and j of a polyline (point k to k+1, wrapping to 0), 0 where they cross. */
function segmentSegmentDistance(x: Float64Array, z: Float64Array, i: number, j: number, n: number): number {
  const i2 = i + 1 < n ? i + 1 : 0, j2 = j + 1 < n ? j + 1 : 0;
  const ax = x[i]!, az = z[i]!, bx = x[i2]!, bz = z[i2]!, cx = x[j]!, cz = z[j]!, dx = x[j2]!, dz = z[j2]!;
  const o1 = (bx - ax) * (cz - az) - (bz - az) * (cx - ax), o2 = (bx - ax) * (dz - az) - (bz - az) * (dx - ax);
  const o3 = (dx - cx) * (az - cz) - (dz - cz) * (ax - cx), o4 = (dx - cx) * (bz - cz) - (dz - cz) * (bx - cx);
  // a proper crossing; touching and collinear overlaps show in the endpoint distances (an endpoint on the
  // other segment), and an orientation that rounding flips leaves that endpoint within ~1e-13 m of it
  if (o1 * o2 < 0 && o3 * o4 < 0) return 0;
  return Math.sqrt(Math.min(
    pointSegmentDistance2(ax, az, cx, cz, dx, dz), pointSegmentDistance2(bx, bz, cx, cz, dx, dz),
    pointSegmentDistance2(cx, cz, ax, az, bx, bz), pointSegmentDistance2(dx, dz, ax, az, bx, bz),
  ));
}

/** Squared distance from (px, pz) to the segment a–b. */
function pointSegmentDistance2(px: number, pz: number, ax: number, az: number, bx: number, bz: number): number {
  const ex = bx - ax, ez = bz - az;
  const l2 = ex * ex + ez * ez;
  let f = l2 > 0 ? ((px - ax) * ex + (pz - az) * ez) / l2 : 0;
  f = f < 0 ? 0 : f > 1 ? 1 : f;
  const qx = ax + f * ex - px, qz = az + f * ez - pz;
  return qx * qx + qz * qz;
}

/** Box smoothing (two passes of radius r), wrapping on a closed path. */
function smooth(a: Float64Array, r: number, closed: boolean): Float64Array {
  const n = a.length;
  let src = a;
  for (let p = 0; p < 2; p++) {
    const dst = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let sum = 0, cnt = 0;
      for (let d = -r; d <= r; d++) {
        let k = i + d;
        if (closed) k = (k + n) % n;
        else if (k < 0 || k >= n) continue;
        sum += src[k]!;
        cnt++;
      }
      dst[i] = sum / cnt;
    }
    src = dst;
  }
  return src;
}

/** Running minimum over ±r points: a driver plans a corner for the slipperiest patch in it. */
function smoothMin(a: Float64Array, r: number, closed: boolean): Float64Array {
  const n = a.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let m = Infinity;
    for (let d = -r; d <= r; d++) {
      let k = i + d;
      if (closed) k = (k + n) % n;
      else if (k < 0 || k >= n) continue;
      if (a[k]! < m) m = a[k]!;
    }
    out[i] = m;
  }
  return out;
}

/**
 * Minimum-curvature racing line: lateral offsets o_i (along the unit left normals n_i, |o_i| ≤ lim_i) that
 * minimise Σ κ_i², κ_i the Menger curvature of (p_{i−k}, p_i, p_{i+k}), p_i = c_i + o_i n_i. Coordinate
 * descent: each o_i takes the Newton step of its local energy κ_{i−k}² + κ_i² + κ_{i+k}² with the κ's
 * linearised in o_i (finite difference, 1 cm), clamped to the road. Run coarse to fine (stride k = 8, 4, 2,
 * 1) so long wavelengths converge quickly. Through a corner between straights this spreads the turn over
 * the road width: out–in–out, apex on the inside.
 */
export function minimumCurvatureOffsets(cx: Float64Array, cz: Float64Array, nx: Float64Array, nz: Float64Array, lim: Float64Array, closed: boolean, iterations: number): Float64Array {
  const n = cx.length;
  const off = new Float64Array(n);
  if (iterations <= 0 || !lim.some((v) => v > 0)) return off;
  const px = Float64Array.from(cx), pz = Float64Array.from(cz);
  const idx = (i: number): number => (closed ? ((i % n) + n) % n : i);
  const kap = (j: number, k: number): number => {
    const a = idx(j - k), b = idx(j + k);
    if (!closed && (a < 0 || b >= n || j < 0 || j >= n)) return 0;
    return mengerCurvature(px[a]!, pz[a]!, px[j]!, pz[j]!, px[b]!, pz[b]!);
  };
  const eps = 0.01;
  for (const k of [8, 4, 2, 1]) {
    if (k * 4 > n) continue;
    for (let it = 0; it < iterations; it++) {
      let moved = 0;
      for (let i = 0; i < n; i++) {
        if (!closed && (i < k || i >= n - k)) continue; // open ends stay on the centreline
        if (lim[i]! <= 0) continue;
        const jm = idx(i - k), jp = idx(i + k);
        const k0 = kap(jm, k), k1 = kap(i, k), k2 = kap(jp, k);
        px[i] = px[i]! + eps * nx[i]!;
        pz[i] = pz[i]! + eps * nz[i]!;
        const g0 = (kap(jm, k) - k0) / eps, g1 = (kap(i, k) - k1) / eps, g2 = (kap(jp, k) - k2) / eps;
        const gg = g0 * g0 + g1 * g1 + g2 * g2;
        let o = off[i]!;
        if (gg > 0) o -= (k0 * g0 + k1 * g1 + k2 * g2) / gg;
        o = o > lim[i]! ? lim[i]! : o < -lim[i]! ? -lim[i]! : o;
        moved = Math.max(moved, Math.abs(o - off[i]!));
        off[i] = o;
        px[i] = cx[i]! + o * nx[i]!;
        pz[i] = cz[i]! + o * nz[i]!;
      }
      if (moved < 1e-4) break;
    }
  }
  return off;
}
