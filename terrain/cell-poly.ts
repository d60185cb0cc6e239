/**
 * A uniform cubic B-spline cell (span) in the power basis: h(t, s) = Σi Σj c[i + 4j] tⁱ sʲ for t, s ∈ [0, 1] the
 * span parameters in x and z. The basis weights are polynomials B(t) = [1 t t² t³]·M with (de Boor, uniform)
 *   M = 1/6 · [ 1  4  1  0 ;  −3  0  3  0 ;  3  −6  3  0 ;  −1  3  −3  1 ]   (row: power of t, column: control point),
 * so h = Σa Σb Ba(t) Bb(s) P[b][a] gives C = M·Pᵀ·Mᵀ once per cell. Stored in metres: k[i + 4j] = c[i + 4j] / cellⁱ⁺ʲ,
 * h = Σ k[i + 4j] dxⁱ dzʲ with dx = t·cell, dz = s·cell the offsets from the cell's corner, so the derivatives come out
 * per metre with no scaling; after that a value, gradient and Hessian are 16 multiply–adds and their derivative
 * sums (bspline.ts `sumCellPolys`) instead of two sets of basis weights and 4×4 dot products.
 */

/** Numbers per cell polynomial (4 × 4 coefficients). */
export const CELL_POLY_LEN = 16;

/** M's entries are sixths and appear once per axis. */
const INV_36 = 1 / 36;

/**
 * The power-basis coefficients of the cell whose 4×4 control points start at p[k] (rows pw apart), times `scale`, per
 * metre (file header: out[o + i + 4j] multiplies dxⁱ dzʲ on cells of 1/invCell m), into out[o..o+15]. Integer
 * combinations first (×6 per axis), one scale per coefficient at the end.
 */
export function cellPolyInto(p: Float64Array, pw: number, k: number, scale: number, invCell: number, out: Float64Array, o: number): void {
  // along t, per control row b: R[b][i] = 6 Σa M[i][a] P[b][a]
  for (let b = 0; b < 4; b++) {
    const r = k + b * pw;
    const p0 = p[r]!, p1 = p[r + 1]!, p2 = p[r + 2]!, p3 = p[r + 3]!;
    ROWS[b] = p0 + 4 * p1 + p2;
    ROWS[4 + b] = 3 * (p2 - p0);
    ROWS[8 + b] = 3 * p0 - 6 * p1 + 3 * p2;
    ROWS[12 + b] = 3 * (p1 - p2) + (p3 - p0);
  }
  // along s: c[i + 4j] = Σb M[j][b] R[b][i] / 36, over cell^(i + j)
  let fi = scale * INV_36;
  for (let i = 0; i < 4; i++) {
    const q = 4 * i;
    const r0 = ROWS[q]!, r1 = ROWS[q + 1]!, r2 = ROWS[q + 2]!, r3 = ROWS[q + 3]!;
    out[o + i] = (r0 + 4 * r1 + r2) * fi;
    out[o + i + 4] = 3 * (r2 - r0) * (fi * invCell);
    out[o + i + 8] = (3 * r0 - 6 * r1 + 3 * r2) * (fi * invCell * invCell);
    out[o + i + 12] = (3 * (r1 - r2) + (r3 - r0)) * (fi * invCell * invCell * invCell);
    fi *= invCell;
  }
}

/** cellPolyInto's intermediate: ROWS[4i + b] = 6 × the t^i coefficient of control row b. */
const ROWS = new Float64Array(16);

/** log2 of the memo's side in cells: 32 × 32 slots cover 64 m × 64 m of 2 m cells without two sharing a slot. */
const MEMO_SIDE_BITS = 5;
const MEMO_MASK = (1 << MEMO_SIDE_BITS) - 1;
const MEMO_SLOTS = 1 << (2 * MEMO_SIDE_BITS);

/** A grid's padded control points and cell (BSplineGrid.p, .pw, .invCell). */
export interface ControlGrid {
  readonly p: Float64Array;
  readonly pw: number;
  readonly invCell: number;
}

/**
 * A direct-mapped memo of cell polynomials for one or more grids of the same geometry (a stage's macro heights and
 * its detail weight share one entry: the same span). Slot (i mod 32, j mod 32) holds the cell whose full padded
 * index it records, so a hit is the same cell and an entry is a pure function of its cell: the same query gives the
 * same bits whatever was cached before (no approximate reuse, nothing to snapshot).
 */
export class CellPolyMemo {
  /** The padded index of the cell each slot holds (−1: empty). */
  private readonly keys: Int32Array;
  /** Per slot, CELL_POLY_LEN coefficients per grid, grid g at g × CELL_POLY_LEN. */
  readonly coef: Float64Array;
  private readonly stride: number;

  constructor(private readonly grids: readonly ControlGrid[]) {
    this.stride = CELL_POLY_LEN * grids.length;
    this.keys = new Int32Array(MEMO_SLOTS).fill(-1);
    this.coef = new Float64Array(MEMO_SLOTS * this.stride);
  }

  /** Offset in `coef` of cell (i, j) (padded index k = j·pw + i), its polynomials built on a miss. */
  offsetOf(i: number, j: number, k: number): number {
    const slot = ((j & MEMO_MASK) << MEMO_SIDE_BITS) | (i & MEMO_MASK);
    const o = slot * this.stride;
    if (this.keys[slot] !== k) {
      const gs = this.grids;
      for (let g = 0; g < gs.length; g++) cellPolyInto(gs[g]!.p, gs[g]!.pw, k, 1, gs[g]!.invCell, this.coef, o + g * CELL_POLY_LEN);
      this.keys[slot] = k;
    }
    return o;
  }
}

/**
 * Every cell of a periodic n × n tile, wrapped as bspline.ts `wrapTile` lays it out ((n+3)² with the span (i, j)'s
 * control points from row j, column i), times `scale`: n² × CELL_POLY_LEN numbers, cell (i, j) at (j·n + i) × 16.
 */
export function tileCellPolys(wrapped: Float64Array, n: number, scale: number, invCell: number): Float64Array {
  const out = new Float64Array(n * n * CELL_POLY_LEN);
  const w = n + 3;
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) cellPolyInto(wrapped, w, j * w + i, scale, invCell, out, (j * n + i) * CELL_POLY_LEN);
  return out;
}
