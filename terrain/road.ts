/**
 * Road centreline: a polyline at ~2 m spacing (x, y, z), widths and cumulative distance, built from sparse
 * control points with a centripetal Catmull-Rom spline. Heading convention (one place for the whole game):
 * heading θ is a rotation about +Y; forward = (sin θ, 0, cos θ), so θ = 0 faces +Z and θ = atan2(dx, dz).
 * A car facing θ has its body +X (left, glTF) at (cos θ, 0, −sin θ): `lateralM` > 0 means left of the road.
 */
import { datan2 } from './dmath';
export interface RoadProjection {
  /** Distance along the centreline of the nearest point, m. */
  distanceM: number;
  /** Signed offset from the centreline, m, positive to the left of the direction of travel. */
  lateralM: number;
  /** Index of the segment [index, index+1] containing the nearest point. */
  index: number;
}

export interface RoadPose {
  x: number;
  y: number;
  z: number;
  heading: number;
  width: number;
}

const HASH_CELL = 16;

export class Road {
  /** xyz triples, ~2 m apart. */
  readonly points: Float64Array;
  readonly widths: Float32Array;
  /** Cumulative distance along the polyline at each point, m. */
  readonly distances: Float64Array;
  readonly count: number;
  readonly lengthM: number;
  private readonly hx0: number;
  private readonly hz0: number;
  private readonly hw: number;
  private readonly hd: number;
  private readonly cellStart: Int32Array;
  private readonly cellSegs: Int32Array;

  constructor(points: Float64Array, widths: Float32Array) {
    this.points = points;
    this.widths = widths;
    const n = points.length / 3;
    this.count = n;
    const dist = new Float64Array(n);
    for (let k = 1; k < n; k++) {
      dist[k] = dist[k - 1]! + Math.hypot(points[3 * k]! - points[3 * k - 3]!, points[3 * k + 2]! - points[3 * k - 1]!);
    }
    this.distances = dist;
    this.lengthM = dist[n - 1]!;
    // spatial hash of segments (CSR layout)
    let minX = Infinity, minZ = Infinity, maxX = -Infinity, maxZ = -Infinity;
    for (let k = 0; k < n; k++) {
      minX = Math.min(minX, points[3 * k]!);
      maxX = Math.max(maxX, points[3 * k]!);
      minZ = Math.min(minZ, points[3 * k + 2]!);
      maxZ = Math.max(maxZ, points[3 * k + 2]!);
    }
    this.hx0 = minX - HASH_CELL;
    this.hz0 = minZ - HASH_CELL;
    this.hw = Math.ceil((maxX - this.hx0) / HASH_CELL) + 2;
    this.hd = Math.ceil((maxZ - this.hz0) / HASH_CELL) + 2;
    const counts = new Int32Array(this.hw * this.hd + 1);
    const forEachCell = (k: number, fn: (c: number) => void): void => {
      const ax = points[3 * k]!, az = points[3 * k + 2]!, bx = points[3 * k + 3]!, bz = points[3 * k + 5]!;
      const i0 = Math.floor((Math.min(ax, bx) - this.hx0) / HASH_CELL);
      const i1 = Math.floor((Math.max(ax, bx) - this.hx0) / HASH_CELL);
      const j0 = Math.floor((Math.min(az, bz) - this.hz0) / HASH_CELL);
      const j1 = Math.floor((Math.max(az, bz) - this.hz0) / HASH_CELL);
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) fn(j * this.hw + i);
    };
    for (let k = 0; k < n - 1; k++) forEachCell(k, (c) => counts[c + 1]!++);
    for (let c = 0; c < this.hw * this.hd; c++) counts[c + 1]! += counts[c]!;
    this.cellStart = counts;
    const fill = Int32Array.from(counts);
    this.cellSegs = new Int32Array(counts[this.hw * this.hd]!);
    for (let k = 0; k < n - 1; k++) forEachCell(k, (c) => (this.cellSegs[fill[c]!++] = k));
  }

  /**
   * Builds a road from control points [x, z] (any spacing ≥ 0.5 m) through a centripetal Catmull-Rom
   * spline resampled every `spacing` metres; y is filled by `heightAt`.
   */
  static fromControlPoints(ctrl: ReadonlyArray<readonly [number, number]>, widths: ArrayLike<number> | number, heightAt: (x: number, z: number) => number, spacing = 2): Road {
    const m = ctrl.length;
    const wAt = (k: number): number => (typeof widths === 'number' ? widths : widths[Math.min(k, widths.length - 1)]!);
    // dense polyline
    const dx: number[] = [];
    const dz: number[] = [];
    const dw: number[] = [];
    const P = (k: number): [number, number] => {
      if (k < 0) return [2 * ctrl[0]![0] - ctrl[1]![0], 2 * ctrl[0]![1] - ctrl[1]![1]];
      if (k >= m) return [2 * ctrl[m - 1]![0] - ctrl[m - 2]![0], 2 * ctrl[m - 1]![1] - ctrl[m - 2]![1]];
      return [ctrl[k]![0], ctrl[k]![1]];
    };
    for (let k = 0; k < m - 1; k++) {
      const p0 = P(k - 1), p1 = P(k), p2 = P(k + 1), p3 = P(k + 2);
      const t0 = 0;
      const t1 = t0 + Math.max(1e-6, Math.sqrt(Math.hypot(p1[0] - p0[0], p1[1] - p0[1])));
      const t2 = t1 + Math.max(1e-6, Math.sqrt(Math.hypot(p2[0] - p1[0], p2[1] - p1[1])));
      const t3 = t2 + Math.max(1e-6, Math.sqrt(Math.hypot(p3[0] - p2[0], p3[1] - p2[1])));
      const segLen = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]);
      const steps = Math.max(4, Math.ceil(segLen / 0.25));
      for (let s = 0; s < steps; s++) {
        const t = t1 + ((t2 - t1) * s) / steps;
        const out: [number, number] = [0, 0];
        for (let c = 0; c < 2; c++) {
          // Barry–Goldman pyramid (centripetal Catmull-Rom)
          const a1 = ((t1 - t) / (t1 - t0)) * p0[c]! + ((t - t0) / (t1 - t0)) * p1[c]!;
          const a2 = ((t2 - t) / (t2 - t1)) * p1[c]! + ((t - t1) / (t2 - t1)) * p2[c]!;
          const a3 = ((t3 - t) / (t3 - t2)) * p2[c]! + ((t - t2) / (t3 - t2)) * p3[c]!;
          const b1 = ((t2 - t) / (t2 - t0)) * a1 + ((t - t0) / (t2 - t0)) * a2;
          const b2 = ((t3 - t) / (t3 - t1)) * a2 + ((t - t1) / (t3 - t1)) * a3;
          out[c] = ((t2 - t) / (t2 - t1)) * b1 + ((t - t1) / (t2 - t1)) * b2;
        }
        dx.push(out[0]);
        dz.push(out[1]);
        dw.push(wAt(k) + ((wAt(k + 1) - wAt(k)) * s) / steps);
      }
    }
    dx.push(ctrl[m - 1]![0]);
    dz.push(ctrl[m - 1]![1]);
    dw.push(wAt(m - 1));
    // uniform arc-length resampling
    const cum = [0];
    for (let k = 1; k < dx.length; k++) cum.push(cum[k - 1]! + Math.hypot(dx[k]! - dx[k - 1]!, dz[k]! - dz[k - 1]!));
    const total = cum[cum.length - 1]!;
    const n = Math.max(2, Math.round(total / spacing) + 1);
    const pts = new Float64Array(3 * n);
    const ws = new Float32Array(n);
    let seg = 0;
    for (let k = 0; k < n; k++) {
      const d = (total * k) / (n - 1);
      while (seg < cum.length - 2 && cum[seg + 1]! < d) seg++;
      const span = cum[seg + 1]! - cum[seg]!;
      const f = span > 0 ? Math.min(1, Math.max(0, (d - cum[seg]!) / span)) : 0;
      const x = dx[seg]! + (dx[seg + 1]! - dx[seg]!) * f;
      const z = dz[seg]! + (dz[seg + 1]! - dz[seg]!) * f;
      pts[3 * k] = x;
      pts[3 * k + 1] = heightAt(x, z);
      pts[3 * k + 2] = z;
      ws[k] = dw[seg]! + (dw[seg + 1]! - dw[seg]!) * f;
    }
    return new Road(pts, ws);
  }

  /** Nearest point of the centreline to (x, z). */
  project(x: number, z: number, out: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 }): RoadProjection {
    const p = this.points;
    let best = Infinity;
    let bestK = 0;
    let bestF = 0;
    const ci = Math.floor((x - this.hx0) / HASH_CELL);
    const cj = Math.floor((z - this.hz0) / HASH_CELL);
    const maxR = Math.max(this.hw, this.hd) + Math.abs(ci) + Math.abs(cj);
    for (let r = 0; r <= maxR; r++) {
      // ring r around (ci, cj)
      for (let j = cj - r; j <= cj + r; j++) {
        if (j < 0 || j >= this.hd) continue;
        const edgeRow = j === cj - r || j === cj + r;
        for (let i = ci - r; i <= ci + r; i += edgeRow ? 1 : 2 * r || 1) {
          if (i < 0 || i >= this.hw) continue;
          const c = j * this.hw + i;
          for (let q = this.cellStart[c]!; q < this.cellStart[c + 1]!; q++) {
            const k = this.cellSegs[q]!;
            const ax = p[3 * k]!, az = p[3 * k + 2]!;
            const ex = p[3 * k + 3]! - ax, ez = p[3 * k + 5]! - az;
            const l2 = ex * ex + ez * ez;
            let f = l2 > 0 ? ((x - ax) * ex + (z - az) * ez) / l2 : 0;
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            const qx = ax + f * ex - x, qz = az + f * ez - z;
            const d2 = qx * qx + qz * qz;
            if (d2 < best || (d2 === best && k < bestK)) {
              best = d2;
              bestK = k;
              bestF = f;
            }
          }
        }
      }
      // cells at ring r+1 are at least r·HASH_CELL away
      if (best < Infinity && Math.sqrt(best) <= r * HASH_CELL) break;
    }
    const k = bestK;
    const ax = p[3 * k]!, az = p[3 * k + 2]!;
    const ex = p[3 * k + 3]! - ax, ez = p[3 * k + 5]! - az;
    const len = Math.hypot(ex, ez) || 1;
    // left = (fz, −fx) for forward f = (fx, fz) (see header)
    out.lateralM = ((x - ax) * (ez / len) - (z - az) * (ex / len));
    out.distanceM = this.distances[k]! + bestF * (this.distances[k + 1]! - this.distances[k]!);
    out.index = k;
    return out;
  }

  /** Position, heading and width at a distance along the road (clamped to [0, lengthM]). */
  poseAt(distanceM: number, out: RoadPose = { x: 0, y: 0, z: 0, heading: 0, width: 0 }): RoadPose {
    const d = Math.max(0, Math.min(this.lengthM, distanceM));
    let lo = 0, hi = this.count - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.distances[mid]! <= d) lo = mid;
      else hi = mid;
    }
    const p = this.points;
    const span = this.distances[hi]! - this.distances[lo]!;
    const f = span > 0 ? (d - this.distances[lo]!) / span : 0;
    out.x = p[3 * lo]! + f * (p[3 * hi]! - p[3 * lo]!);
    out.y = p[3 * lo + 1]! + f * (p[3 * hi + 1]! - p[3 * lo + 1]!);
    out.z = p[3 * lo + 2]! + f * (p[3 * hi + 2]! - p[3 * lo + 2]!);
    out.heading = datan2(p[3 * hi]! - p[3 * lo]!, p[3 * hi + 2]! - p[3 * lo + 2]!);
    out.width = this.widths[lo]! + f * (this.widths[hi]! - this.widths[lo]!);
    return out;
  }
}
