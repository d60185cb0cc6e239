/**
 * A conservative upper bound of a `BSplineSurface`'s height, per tile of TILE_SPANS × TILE_SPANS spline spans:
 * `at(x, z)` ≥ `surface.height(x, z)` for every (x, z), the computed (rounded) height included. A check that
 * only needs "the point is not far below the terrain" (the halt guard, src/systems/sim/halt-guard.ts) reads this
 * instead of evaluating the spline when the bound already answers.
 *
 * Why it bounds: on a span the macro height is Σb Bb(s) Σa Ba(t) P over the span's 4×4 padded control points,
 * with weights Ba, Bb ≥ 0 that sum to 1 (the uniform cubic basis, bspline.ts), so it is at most their maximum
 * (convex hull); a tile's bound is the maximum over the control points of all its spans. A query outside the grid
 * is clamped to the border span exactly as `BSplineGrid.spanBasis` does, with the same expressions. The detail
 * layer adds w · A · n: |n| ≤ max|tile values| (same convex-hull argument on the tile's control points) and
 * |w| ≤ max|weight control points| over the tile's spans when the weight lies on the macro grid, over the whole
 * weight grid when it lies on another grid; a weight field of another kind has no bound (`of` returns null).
 * The computed sums differ from the exact ones by a few ulps of their magnitude; CEILING_REL_MARGIN · (1 + max|P|)
 * added to every tile covers that by many orders of magnitude.
 */
import { BSplineGrid, type BSplineSurface } from './bspline';

/** Spans per tile side: 4 m tiles on the shipped 2 m grids, a few times the car's footprint. */
export const CEILING_TILE_SPANS = 2;
/** Margin for the rounding of the spline sums, relative to the largest control point magnitude (+1 m). */
const CEILING_REL_MARGIN = 1e-6;

export class HeightCeiling {
  private constructor(
    private readonly grid: BSplineGrid,
    /** Per tile (row-major, `tilesX` per row): the height bound, m. */
    private readonly tiles: Float64Array,
    private readonly tilesX: number,
  ) {}

  /**
   * The ceiling of `surface` (built once per surface, shared by every ground on it), or null when its detail
   * weight is a field this bound cannot see into or a control point is not finite.
   */
  static of(surface: BSplineSurface): HeightCeiling | null {
    let c = built.get(surface);
    if (c === undefined) built.set(surface, (c = HeightCeiling.build(surface)));
    return c;
  }

  private static build(surface: BSplineSurface): HeightCeiling | null {
    const g = surface.grid;
    const d = surface.detail;
    const w = d ? d.weight : null;
    if (w !== null && !(w instanceof BSplineGrid)) return null;
    // the largest |height| the sums can reach, macro and detail (the rounding margin's scale)
    const nA = d ? d.amplitude * d.maxAbsTileValue : 0;
    const wAll = w ? maxAbs(w.p) : 1;
    const scale = maxAbs(g.p) + wAll * nA;
    // NaN or ±Infinity anywhere: no bound (a −∞ control point makes the height −∞ where no maximum sees it)
    if (!Number.isFinite(scale)) return null;
    const macro = tileMaxima(g, false);
    if (d) {
      const wTiles = w && g.sameGeometry(w) ? tileMaxima(w, true).tiles : null;
      for (let k = 0; k < macro.tiles.length; k++) macro.tiles[k] = macro.tiles[k]! + (wTiles ? wTiles[k]! : wAll) * nA;
    }
    const pad = CEILING_REL_MARGIN * (1 + scale);
    for (let k = 0; k < macro.tiles.length; k++) macro.tiles[k] = macro.tiles[k]! + pad;
    return new HeightCeiling(g, macro.tiles, macro.tilesX);
  }

  /** An upper bound of the surface's height at (x, z) (see file comment); NaN for a non-finite query. */
  at(x: number, z: number): number {
    const g = this.grid;
    // the span of (x, z) as BSplineGrid.spanBasis finds it (same expressions: the same span)
    let u = (x - g.originX) * g.invCell;
    let v = (z - g.originZ) * g.invCell;
    if (!(u === u && v === v)) return Number.NaN;
    if (u < 0) u = 0;
    else if (u > g.width - 1) u = g.width - 1;
    if (v < 0) v = 0;
    else if (v > g.depth - 1) v = g.depth - 1;
    let i = Math.floor(u);
    if (i > g.width - 2) i = g.width - 2;
    let j = Math.floor(v);
    if (j > g.depth - 2) j = g.depth - 2;
    const ti = (i / CEILING_TILE_SPANS) | 0, tj = (j / CEILING_TILE_SPANS) | 0;
    return this.tiles[tj * this.tilesX + ti]!;
  }
}

const built = new WeakMap<BSplineSurface, HeightCeiling | null>();

/** max |a[k]|, NaN when some a[k] is NaN. */
function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let k = 0; k < a.length; k++) m = Math.max(m, Math.abs(a[k]!));
  return m;
}

/**
 * Per tile, the maximum of P (of |P| when `abs`) over the padded control points its spans read: span (i, j) reads
 * padded columns i..i+3 and rows j..j+3, so tile (ti, tj) reads columns ti·T..ti·T+T+2 (clipped to the grid) and
 * likewise rows.
 */
function tileMaxima(g: BSplineGrid, abs: boolean): { tiles: Float64Array; tilesX: number } {
  const T = CEILING_TILE_SPANS;
  const spansX = g.width - 1, spansZ = g.depth - 1, pw = g.pw, pd = g.depth + 2;
  const tilesX = Math.ceil(spansX / T), tilesZ = Math.ceil(spansZ / T);
  // rows first: per padded row and tile column, the maximum over that tile's control-point columns
  const rowMax = new Float64Array(pd * tilesX);
  for (let r = 0; r < pd; r++)
    for (let ti = 0; ti < tilesX; ti++) {
      let m = -Infinity;
      for (let c = ti * T; c <= Math.min(ti * T + T + 2, pw - 1); c++) {
        const v = abs ? Math.abs(g.p[r * pw + c]!) : g.p[r * pw + c]!;
        if (v > m) m = v;
      }
      rowMax[r * tilesX + ti] = m;
    }
  const tiles = new Float64Array(tilesX * tilesZ);
  for (let tj = 0; tj < tilesZ; tj++)
    for (let ti = 0; ti < tilesX; ti++) {
      let m = -Infinity;
      for (let r = tj * T; r <= Math.min(tj * T + T + 2, pd - 1); r++) if (rowMax[r * tilesX + ti]! > m) m = rowMax[r * tilesX + ti]!;
      tiles[tj * tilesX + ti] = m;
    }
  return { tiles, tilesX };
}
