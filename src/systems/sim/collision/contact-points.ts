/**
 * From the outline intersection points to one contact point and normal (Wu §4.3.2 Fig 4-4 and
 * §4.4.3 Figs 4-7…4-10; Knight & Bernard Fig 2):
 *  • one point: the point, with the obstacle's own surface normal there (supplied by the caller);
 *  • two points: their midpoint; normal ⟂ to the line joining them;
 *  • four (or three, or more) points: split in two groups of nearby points (seeded by the two points farthest
 *    apart), merge each group to its mean, then use the two-point rule.
 * The normal's sign is chosen by the caller (toward the car / against the approach velocity).
 */
export interface PointList {
  n: number;
  x: Float64Array;
  z: Float64Array;
}

export const newPointList = (cap = 32): PointList => ({ n: 0, x: new Float64Array(cap), z: new Float64Array(cap) });

export function pushPoint(l: PointList, x: number, z: number): void {
  if (l.n >= l.x.length) return; // more crossings than any real contact produces: keep the first ones
  l.x[l.n] = x;
  l.z[l.n] = z;
  l.n++;
}

export interface ContactGeom {
  x: number;
  z: number;
  /** Unit normal, sign not yet fixed; valid only when `points >= 2`. */
  nx: number;
  nz: number;
  points: number;
}

export const newContactGeom = (): ContactGeom => ({ x: 0, z: 0, nx: 0, nz: 0, points: 0 });

/** Reduce the points to one contact (see file comment). Returns false when there are none. */
export function reducePoints(l: PointList, out: ContactGeom): boolean {
  out.points = l.n;
  if (l.n === 0) return false;
  if (l.n === 1) {
    out.x = l.x[0]!;
    out.z = l.z[0]!;
    out.nx = 0;
    out.nz = 0;
    return true;
  }
  let ax: number, az: number, bx: number, bz: number;
  if (l.n === 2) {
    ax = l.x[0]!; az = l.z[0]!; bx = l.x[1]!; bz = l.z[1]!;
  } else {
    // Seeds: the pair farthest apart; every other point joins the nearer seed (ties → first seed).
    let i0 = 0, i1 = 1, best = -1;
    for (let i = 0; i < l.n; i++)
      for (let j = i + 1; j < l.n; j++) {
        const d = (l.x[i]! - l.x[j]!) ** 2 + (l.z[i]! - l.z[j]!) ** 2;
        if (d > best) { best = d; i0 = i; i1 = j; }
      }
    let sx0 = 0, sz0 = 0, n0 = 0, sx1 = 0, sz1 = 0, n1 = 0;
    for (let i = 0; i < l.n; i++) {
      const d0 = (l.x[i]! - l.x[i0]!) ** 2 + (l.z[i]! - l.z[i0]!) ** 2;
      const d1 = (l.x[i]! - l.x[i1]!) ** 2 + (l.z[i]! - l.z[i1]!) ** 2;
      if (d0 <= d1) { sx0 += l.x[i]!; sz0 += l.z[i]!; n0++; } else { sx1 += l.x[i]!; sz1 += l.z[i]!; n1++; }
    }
    ax = sx0 / n0; az = sz0 / n0; bx = sx1 / n1; bz = sz1 / n1;
  }
  out.x = 0.5 * (ax + bx);
  out.z = 0.5 * (az + bz);
  const dx = bx - ax, dz = bz - az;
  const len = Math.sqrt(dx * dx + dz * dz);
  if (len < 1e-9) {
    out.nx = 0;
    out.nz = 0;
    out.points = 1;
    return true;
  }
  out.nx = -dz / len;
  out.nz = dx / len;
  return true;
}
