/**
 * Uniform cubic B-spline surfaces over a regular grid (Deák §3.2): the grid values are the control
 * points, and only the height is evaluated as a function of (x, z) ("the trick of only evaluating one
 * coordinate (height) with respect to the other two"). Normals are analytic (derivative of the basis).
 *
 * The spline APPROXIMATES: it passes near, not through, the control points (it is smoother than the data,
 * stays within the control points' convex hull, and reproduces linear functions — planes — exactly).
 * Parameterisation: u = (x − x0)/cell; on span i ≤ u < i+1 with t = u − i the control points
 * P[i−1..i+2] are weighted by the uniform cubic basis
 *   B0 = (1−t)³/6, B1 = (3t³ − 6t² + 4)/6, B2 = (−3t³ + 3t² + 3t + 1)/6, B3 = t³/6          (de Boor, uniform)
 * and h(x, z) = Σa Σb Bb(tz) Ba(tx) P[j−1+b][i−1+a]; ∂h/∂x = Σ Bb(tz) B'a(tx) P / cell (likewise z).
 * Borders: the grid is padded by one ring of LINEARLY EXTRAPOLATED control points (P[−1] = 2P[0] − P[1]),
 * so planes are reproduced up to the edge. Hence the convex-hull bound (min/max of the data) holds on the
 * interior spans (those whose 4×4 support is real data); border spans may overshoot by the extrapolation.
 * Queries outside [minX, maxX] × [minZ, maxZ] are clamped to the border (height continues flat, the
 * gradient component across the border is 0).
 */
import type { Heightfield } from './heightfield';
import { CELL_POLY_LEN, CellPolyMemo, tileCellPolys } from './cell-poly';
import { createPatchKernel, sampleKernelAt, type PatchKernel } from './patch-kernel';

export interface HeightSample {
  h: number;
  dhdx: number;
  dhdz: number;
}

export interface SurfaceSample extends HeightSample {
  nx: number;
  ny: number;
  nz: number;
}

/** A surface sample with the height's second derivatives ∂²h/∂x², ∂²h/∂x∂z, ∂²h/∂z² (1/m). */
export interface CurvatureSample extends SurfaceSample {
  hxx: number;
  hxz: number;
  hzz: number;
}

/** A smooth scalar field on the X–Z plane (a surface-map property, a detail layer weight…). */
export interface ScalarField {
  evalInto(x: number, z: number, out: HeightSample): void;
  /** `evalInto` plus the second derivatives (a detail weight's part in the contact patch's curvature). */
  evalCurvatureInto(x: number, z: number, out: CurvatureSample): void;
}

/** Padded control grid + evaluator. Values are copied into a Float64Array with one extrapolated ring. */
export class BSplineGrid implements ScalarField {
  readonly width: number;
  readonly depth: number;
  readonly cellSize: number;
  readonly originX: number;
  readonly originZ: number;
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
  /** (width+2) × (depth+2) padded control points. */
  readonly p: Float64Array;
  /** Padded row length (width + 2). */
  readonly pw: number;
  readonly invCell: number;
  /** Cell polynomials for `curvatureSumsAt`, allocated on its first call (null until then). */
  private polys: CellPolyMemo | null = null;

  constructor(values: ArrayLike<number>, width: number, depth: number, cellSize: number, originX: number, originZ: number) {
    this.width = width;
    this.depth = depth;
    this.cellSize = cellSize;
    this.originX = originX;
    this.originZ = originZ;
    this.minX = originX;
    this.minZ = originZ;
    this.maxX = originX + (width - 1) * cellSize;
    this.maxZ = originZ + (depth - 1) * cellSize;
    this.invCell = 1 / cellSize;
    const pw = width + 2;
    const pd = depth + 2;
    this.pw = pw;
    const p = new Float64Array(pw * pd);
    for (let j = 0; j < depth; j++) {
      const row = (j + 1) * pw;
      for (let i = 0; i < width; i++) p[row + i + 1] = values[j * width + i]!;
      // linear extrapolation along X
      p[row] = 2 * p[row + 1]! - p[row + 2]!;
      p[row + width + 1] = 2 * p[row + width]! - p[row + width - 1]!;
    }
    // linear extrapolation along Z (including corners → bilinear extrapolation, exact for planes)
    for (let i = 0; i < pw; i++) {
      p[i] = 2 * p[pw + i]! - p[2 * pw + i]!;
      p[(pd - 1) * pw + i] = 2 * p[(pd - 2) * pw + i]! - p[(pd - 3) * pw + i]!;
    }
    this.p = p;
  }

  /** Height (value) and gradient at (x, z). No allocation. */
  evalInto(x: number, z: number, out: HeightSample): void {
    QUERY_AT[0] = x;
    QUERY_AT[1] = z;
    this.patchInto(this.spanBasis(), out);
  }

  value(x: number, z: number): number {
    this.evalInto(x, z, scratch);
    return scratch.h;
  }

  /** Same width, depth, cell and origin: a query falls in the same span with the same basis weights in both. */
  /**
   * Move the padded control points into `view` (the same numbers: the patch kernel's memory, terrain/patch-kernel.ts);
   * the grid reads them there from then on.
   */
  adoptControlPoints(view: Float64Array): void {
    if (view.length !== this.p.length) throw new Error(`adoptControlPoints: expected ${this.p.length} numbers, found ${view.length}`);
    (this as { p: Float64Array }).p = view;
  }

  sameGeometry(o: BSplineGrid): boolean {
    return o.width === this.width && o.depth === this.depth && o.cellSize === this.cellSize && o.originX === this.originX && o.originZ === this.originZ;
  }

  /**
   * `evalInto` of this grid into `out` and of `other` (same geometry, `sameGeometry`) into `otherOut`, sharing the
   * span look-up and the basis weights (a stage's detail-weight field lies on the heightmap's grid): the same
   * expressions on the same numbers as two `evalInto` calls, so the same bits, for one basis instead of two.
   */
  evalPairInto(other: BSplineGrid, x: number, z: number, out: HeightSample, otherOut: HeightSample): void {
    QUERY_AT[0] = x;
    QUERY_AT[1] = z;
    const k = this.spanBasis();
    this.patchInto(k, out);
    other.patchInto(k, otherOut);
  }

  /** `evalInto` plus the second derivatives (the same h and gradient bits). */
  evalCurvatureInto(x: number, z: number, out: CurvatureSample): void {
    this.curvatureSumsAt(x, z, 0);
    curvatureFromSums(0, out);
  }

  /**
   * Value, gradient and second derivatives at (x, z) into CURV[o..o+5] (module scratch, BSplineSurface.sampleCurvature),
   * from the span's power-basis polynomial (cell-poly.ts, memoised per cell).
   */
  curvatureSumsAt(x: number, z: number, o: number): void {
    QUERY_AT[0] = x;
    QUERY_AT[1] = z;
    const k = this.spanAt();
    const memo = this.polys ?? (this.polys = new CellPolyMemo([this]));
    BASIS[20] = this.cellSize;
    sumCellPolys(memo.coef, memo.offsetOf(SPAN_IJ[0]!, SPAN_IJ[1]!, k), o, 1);
  }

  /**
   * `curvatureSumsAt` at (x, z) = QUERY_AT of this grid into CURV[0..5] and of another grid of the same geometry into CURV[6..11]: one
   * span look-up, both polynomials in one entry of `pair` (a memo of [this, other]). The macro sums are the same bits as
   * `curvatureSumsAt`'s (the same polynomial, the same evaluation).
   */
  pairCurvatureSumsAt(pair: CellPolyMemo): void {
    const k = this.spanAt();
    BASIS[20] = this.cellSize; // the other grid's too (same geometry)
    sumCellPolys(pair.coef, pair.offsetOf(SPAN_IJ[0]!, SPAN_IJ[1]!, k), 0, 2);
  }

  /**
   * `spanAt` plus the basis for (x, z) = QUERY_AT into BASIS (a0..a3, da0..da3 in x, b0..b3, db0..db3 in z); returns
   * the padded index of the span's first control point.
   */
  private spanBasis(): number {
    const k = this.spanAt();
    cubicBasisInto(BASIS[18]!, 0);
    cubicBasisInto(BASIS[19]!, 8);
    return k;
  }

  /**
   * Clamp and span for (x, z) = QUERY_AT: border factors gx, gz (0 where the query was clamped across a border, so
   * the gradient across it is 0) and span parameters t, s into BASIS[16..19], the span (i, j) into SPAN_IJ; returns
   * the padded index of the span's first control point (padded (i, j) = control point (i − 1, j − 1)).
   */
  private spanAt(): number {
    const w = this.width;
    const d = this.depth;
    let u = (QUERY_AT[0]! - this.originX) * this.invCell;
    let v = (QUERY_AT[1]! - this.originZ) * this.invCell;
    let gx = 1;
    let gz = 1;
    if (u < 0) {
      u = 0;
      gx = 0;
    } else if (u > w - 1) {
      u = w - 1;
      gx = 0;
    }
    if (v < 0) {
      v = 0;
      gz = 0;
    } else if (v > d - 1) {
      v = d - 1;
      gz = 0;
    }
    let i = Math.floor(u);
    if (i > w - 2) i = w - 2;
    let j = Math.floor(v);
    if (j > d - 2) j = d - 2;
    BASIS[16] = gx;
    BASIS[17] = gz;
    BASIS[18] = u - i;
    BASIS[19] = v - j;
    SPAN_IJ[0] = i;
    SPAN_IJ[1] = j;
    return (j * this.pw + i) | 0; // an int32 (a Smi across the call to patchInto, not a boxed double)
  }

  /**
   * h = Σb Bb(s) Σa Ba(t) P, and its gradient, over the 4×4 control points from padded index k, weights in BASIS.
   */
  private patchInto(k: number, out: HeightSample): void {
    sumPatch(this.p, this.pw, this.invCell, k);
    out.h = CURV[0]!;
    out.dhdx = CURV[1]!;
    out.dhdz = CURV[2]!;
  }
}

const scratch: HeightSample = { h: 0, dhdx: 0, dhdz: 0 };

/**
 * The last curvature sums, [h, ∂h/∂x, ∂h/∂z, h_xx, h_xz, h_zz] each: the macro grid at 0, the detail weight at 6,
 * the detail tile (amplitude applied) at 12. Numbers in an array, not objects of several shapes, so the kernel's
 * stores stay monomorphic.
 */
const CURV = new Float64Array(18);

/** CURV[o..o+5] into `out`'s height, gradient and second derivatives. */
function curvatureFromSums(o: number, out: CurvatureSample): void {
  out.h = CURV[o]!;
  out.dhdx = CURV[o + 1]!;
  out.dhdz = CURV[o + 2]!;
  out.hxx = CURV[o + 3]!;
  out.hxz = CURV[o + 4]!;
  out.hzz = CURV[o + 5]!;
}

/**
 * The value h = Σb Bb(s) Σa Ba(t) P and gradient ∂h/∂x = Σb Bb(s) Σa B′a(t) P / cell (× the border factor), likewise
 * ∂h/∂z, over the 4×4 control points from padded index k (weights in BASIS), into CURV[0..2].
 */
function sumPatch(p: Float64Array, pw: number, invCell: number, k: number): void {
  const B = BASIS;
  const a0 = B[0]!, a1 = B[1]!, a2 = B[2]!, a3 = B[3]!, da0 = B[4]!, da1 = B[5]!, da2 = B[6]!, da3 = B[7]!;
  let p0 = p[k]!, p1 = p[k + 1]!, p2 = p[k + 2]!, p3 = p[k + 3]!;
  const r0 = a0 * p0 + a1 * p1 + a2 * p2 + a3 * p3;
  const q0 = da0 * p0 + da1 * p1 + da2 * p2 + da3 * p3;
  k += pw;
  p0 = p[k]!; p1 = p[k + 1]!; p2 = p[k + 2]!; p3 = p[k + 3]!;
  const r1 = a0 * p0 + a1 * p1 + a2 * p2 + a3 * p3;
  const q1 = da0 * p0 + da1 * p1 + da2 * p2 + da3 * p3;
  k += pw;
  p0 = p[k]!; p1 = p[k + 1]!; p2 = p[k + 2]!; p3 = p[k + 3]!;
  const r2 = a0 * p0 + a1 * p1 + a2 * p2 + a3 * p3;
  const q2 = da0 * p0 + da1 * p1 + da2 * p2 + da3 * p3;
  k += pw;
  p0 = p[k]!; p1 = p[k + 1]!; p2 = p[k + 2]!; p3 = p[k + 3]!;
  const r3 = a0 * p0 + a1 * p1 + a2 * p2 + a3 * p3;
  const q3 = da0 * p0 + da1 * p1 + da2 * p2 + da3 * p3;
  const b0 = B[8]!, b1 = B[9]!, b2 = B[10]!, b3 = B[11]!, db0 = B[12]!, db1 = B[13]!, db2 = B[14]!, db3 = B[15]!;
  const O = CURV;
  O[0] = b0 * r0 + b1 * r1 + b2 * r2 + b3 * r3;
  O[1] = B[16]! * (b0 * q0 + b1 * q1 + b2 * q2 + b3 * q3) * invCell;
  O[2] = B[17]! * (db0 * r0 + db1 * r1 + db2 * r2 + db3 * r3) * invCell;
}

/**
 * Value, gradient and second derivatives of `count` cell polynomials h = Σ k[i + 4j] dxⁱ dzʲ stored one after the
 * other from c[o] (cell-poly.ts, per metre; a macro grid and its paired weight share a cell) at dx = t·cell,
 * dz = s·cell (t = BASIS[18], s = BASIS[19], cell = BASIS[20]): with the power vectors X = (1, dx, dx², dx³),
 * X′ = (0, 1, 2dx, 3dx²), X″ = (0, 0, 2, 6dx) (likewise Z, computed once for all) and the rows a = Xᵀk, b = X′ᵀk,
 * e = X″ᵀk,
 *   h = a·Z, ∂h/∂x = b·Z, ∂h/∂z = a·Z′, h_xx = e·Z, h_xz = b·Z′, h_zz = a·Z″,
 * dot products rather than Horner chains (independent multiply–adds). Across a clamped border (BASIS[16] or [17]
 * = 0, where the height is flat) the derivatives along it are 0. Polynomial g into CURV[out + 6g ..].
 */
function sumCellPolys(c: Float64Array, o: number, out: number, count: number): void {
  const cell = BASIS[20]!;
  const x = BASIS[18]! * cell, x2 = x * x, x3 = x2 * x, x1d = 2 * x, x2d = 3 * x2, x1e = 6 * x;
  const z = BASIS[19]! * cell, z2 = z * z, z3 = z2 * z, z1d = 2 * z, z2d = 3 * z2, z1e = 6 * z;
  const flatX = BASIS[16] === 0, flatZ = BASIS[17] === 0;
  const O = CURV;
  for (let g = 0; g < count; g++, o += CELL_POLY_LEN, out += 6) {
    let c0 = c[o]!, c1 = c[o + 1]!, c2 = c[o + 2]!, c3 = c[o + 3]!;
    const a0 = c0 + c1 * x + c2 * x2 + c3 * x3, b0 = c1 + c2 * x1d + c3 * x2d, e0 = 2 * c2 + c3 * x1e;
    c0 = c[o + 4]!; c1 = c[o + 5]!; c2 = c[o + 6]!; c3 = c[o + 7]!;
    const a1 = c0 + c1 * x + c2 * x2 + c3 * x3, b1 = c1 + c2 * x1d + c3 * x2d, e1 = 2 * c2 + c3 * x1e;
    c0 = c[o + 8]!; c1 = c[o + 9]!; c2 = c[o + 10]!; c3 = c[o + 11]!;
    const a2 = c0 + c1 * x + c2 * x2 + c3 * x3, b2 = c1 + c2 * x1d + c3 * x2d, e2 = 2 * c2 + c3 * x1e;
    c0 = c[o + 12]!; c1 = c[o + 13]!; c2 = c[o + 14]!; c3 = c[o + 15]!;
    const a3 = c0 + c1 * x + c2 * x2 + c3 * x3, b3 = c1 + c2 * x1d + c3 * x2d, e3 = 2 * c2 + c3 * x1e;
    O[out] = a0 + a1 * z + a2 * z2 + a3 * z3;
    O[out + 1] = b0 + b1 * z + b2 * z2 + b3 * z3;
    O[out + 2] = a1 + a2 * z1d + a3 * z2d;
    O[out + 3] = e0 + e1 * z + e2 * z2 + e3 * z3;
    O[out + 4] = b1 + b2 * z1d + b3 * z2d;
    O[out + 5] = 2 * a2 + a3 * z1e;
    if (flatX) O[out + 1] = O[out + 3] = O[out + 4] = 0;
    if (flatZ) O[out + 2] = O[out + 4] = O[out + 5] = 0;
  }
}

/**
 * The query point (x, z) of the next `spanBasis` / `DetailLayer.tileInto`. Those are too large for the JIT to
 * inline into the sampler, and double arguments to a call it did not inline are boxed on the heap (allocations in
 * every terrain sample); the point goes through this array instead.
 */
const QUERY_AT = new Float64Array(2);

/**
 * The last `spanBasis`: weights and derivative weights in x (0..7) and z (8..15), border gradient factors (16, 17),
 * the span parameters t (x) and s (z) (18, 19); the cell size of the next `sumCellPolys` (20).
 */
const BASIS = new Float64Array(21);

/** `sampleCurvature`'s point (x at 0, z at 2) for `sampleCurvatureAt`. */
const POINT = new Float64Array(3);

/** The last `spanAt`'s span (i, j) (the cell-polynomial memo's key with the padded index). */
const SPAN_IJ = new Int32Array(2);

/**
 * A periodic n×n tile as an (n+3)² array whose entry (a, b) is the tile's ((a − 1) mod n, (b − 1) mod n): the
 * 4×4 control points of span (i, j) (i, j = query cell mod n) start at b = j, a = i without wrapping.
 */
function wrapTile(values: Float64Array, n: number): Float64Array {
  const w = n + 3;
  const m = n - 1;
  const out = new Float64Array(w * w);
  for (let b = 0; b < w; b++) for (let a = 0; a < w; a++) out[b * w + a] = values[((b - 1) & m) * n + ((a - 1) & m)]!;
  return out;
}

/** Uniform cubic B-spline weights of t (file header) and their derivatives into BASIS[o..o+7]. */
function cubicBasisInto(t: number, o: number): void {
  const t2 = t * t;
  const t3 = t2 * t;
  const mt = 1 - t;
  BASIS[o] = (mt * mt * mt) / 6;
  BASIS[o + 1] = (3 * t3 - 6 * t2 + 4) / 6;
  BASIS[o + 2] = (-3 * t3 + 3 * t2 + 3 * t + 1) / 6;
  BASIS[o + 3] = t3 / 6;
  BASIS[o + 4] = -0.5 * mt * mt;
  BASIS[o + 5] = 1.5 * t2 - 2 * t;
  BASIS[o + 6] = -1.5 * t2 + t + 0.5;
  BASIS[o + 7] = 0.5 * t2;
}


/**
 * Optional centimetre-scale detail displacement added to the macro height (Deák §3.2: "macro and micro height
 * variation"). A periodic tile of seeded random control points evaluated with the same cubic B-spline, times an
 * amplitude (m) times an optional smooth weight field (e.g. the surface map's detail amplitude, so tarmac stays
 * smooth and gravel gets bumps). The sum stays C¹ because every factor is C¹.
 */
export class DetailLayer {
  readonly cellSize: number;
  readonly amplitude: number;
  readonly tileCells: number;
  private readonly grid: Float64Array;
  private readonly mask: number;
  readonly invCell: number;
  /** Smooth factor on the amplitude (null: 1 everywhere). */
  readonly weight: ScalarField | null;
  /** max |tile control point|: the unweighted displacement is within ± amplitude × this (convex hull). */
  readonly maxAbsTileValue: number;
  private readonly ws: HeightSample = { h: 0, dhdx: 0, dhdz: 0 };
  private readonly tile: HeightSample = { h: 0, dhdx: 0, dhdz: 0 };
  /** The tile with one control point more before and two after on each axis, copied from the other side. */
  private readonly wrapped: Float64Array;
  /** Every tile cell's power-basis polynomial, amplitude applied (cell-poly.ts), built on the first curvature sample. */
  private tilePolys: Float64Array | null = null;

  /** `values`: tileCells² numbers in [−1, 1] (tileCells a power of two); see `DetailLayer.random`. */
  constructor(values: Float64Array, tileCells: number, cellSize: number, amplitude: number, weight: ScalarField | null = null) {
    this.grid = values;
    this.tileCells = tileCells;
    this.mask = tileCells - 1;
    this.cellSize = cellSize;
    this.invCell = 1 / cellSize;
    this.amplitude = amplitude;
    this.weight = weight;
    this.wrapped = wrapTile(values, tileCells);
    let m = 0;
    for (let k = 0; k < values.length; k++) m = Math.max(m, Math.abs(values[k]!));
    this.maxAbsTileValue = m;
  }

  static random(rng: () => number, opts: { tileCells?: number; cellSize?: number; amplitude?: number; weight?: ScalarField | null } = {}): DetailLayer {
    const n = opts.tileCells ?? 64;
    const v = new Float64Array(n * n);
    for (let i = 0; i < v.length; i++) v[i] = 2 * rng() - 1;
    return new DetailLayer(v, n, opts.cellSize ?? 0.35, opts.amplitude ?? 0.03, opts.weight ?? null);
  }

  /** Adds the detail height and gradient to `out`. */
  addInto(x: number, z: number, out: HeightSample): void {
    if (this.weight) {
      this.weight.evalInto(x, z, this.ws);
      this.addWeightedInto(x, z, this.ws, out);
      return;
    }
    QUERY_AT[0] = x;
    QUERY_AT[1] = z;
    const d = this.tileInto();
    out.h += d.h;
    out.dhdx += d.dhdx;
    out.dhdz += d.dhdz;
  }

  /** `addInto` with the weight field's sample at (x, z) already in `ws` (BSplineSurface evaluates it with the macro grid). */
  addWeightedInto(x: number, z: number, ws: HeightSample, out: HeightSample): void {
    QUERY_AT[0] = x;
    QUERY_AT[1] = z;
    const d = this.tileInto();
    const h = d.h;
    // product rule: d(w·n) = w'·n + w·n'
    out.h += ws.h * h;
    out.dhdx += ws.dhdx * h + ws.h * d.dhdx;
    out.dhdz += ws.dhdz * h + ws.h * d.dhdz;
  }

  /**
   * The unweighted detail displacement's value, gradient and second derivatives at (x, z) = QUERY_AT into CURV[12..17], from
   * the tile cell's power-basis polynomial (all n² built once from the wrapped copy, amplitude folded in: 16 numbers
   * a cell, 512 KiB for the shipped 64² tile).
   */
  tileCurvatureSumsAt(): void {
    const u = QUERY_AT[0]! * this.invCell;
    const v = QUERY_AT[1]! * this.invCell;
    const fi = Math.floor(u);
    const fj = Math.floor(v);
    BASIS[16] = 1;
    BASIS[17] = 1;
    BASIS[18] = u - fi;
    BASIS[19] = v - fj;
    const m = this.mask;
    const n = this.tileCells;
    const polys = this.tilePolys ?? this.cellPolys();
    BASIS[20] = this.cellSize;
    sumCellPolys(polys, ((fj & m) * n + (fi & m)) * CELL_POLY_LEN, 12, 1);
  }

  /** The tile cells' power-basis polynomials (built on the first call). */
  cellPolys(): Float64Array {
    return (this.tilePolys ??= tileCellPolys(this.wrapped, this.tileCells, this.amplitude, this.invCell));
  }

  /** Move the tile cells' polynomials into `view` (the same numbers: the patch kernel's memory). */
  adoptCellPolys(view: Float64Array): void {
    const n = this.cellPolys().length;
    if (view.length !== n) throw new Error(`adoptCellPolys: expected ${n} numbers, found ${view.length}`);
    this.tilePolys = view;
  }

  /** The unweighted detail displacement (amplitude × tile spline) and its gradient at QUERY_AT, in a reused sample. */
  private tileInto(): HeightSample {
    const u = QUERY_AT[0]! * this.invCell;
    const v = QUERY_AT[1]! * this.invCell;
    const fi = Math.floor(u);
    const fj = Math.floor(v);
    const t = u - fi;
    const s = v - fj;
    const t2 = t * t, t3 = t2 * t, mt = 1 - t;
    const s2 = s * s, s3 = s2 * s, ms = 1 - s;
    const a0 = (mt * mt * mt) / 6, a1 = (3 * t3 - 6 * t2 + 4) / 6, a2 = (-3 * t3 + 3 * t2 + 3 * t + 1) / 6, a3 = t3 / 6;
    const da0 = -0.5 * mt * mt, da1 = 1.5 * t2 - 2 * t, da2 = -1.5 * t2 + t + 0.5, da3 = 0.5 * t2;
    const b0 = (ms * ms * ms) / 6, b1 = (3 * s3 - 6 * s2 + 4) / 6, b2 = (-3 * s3 + 3 * s2 + 3 * s + 1) / 6, b3 = s3 / 6;
    const db0 = -0.5 * ms * ms, db1 = 1.5 * s2 - 2 * s, db2 = -1.5 * s2 + s + 0.5, db3 = 0.5 * s2;
    const m = this.mask;
    const n = this.tileCells;
    const g = this.grid;
    const i0 = (fi - 1) & m, i1 = fi & m, i2 = (fi + 1) & m, i3 = (fi + 2) & m;
    let row = ((fj - 1) & m) * n;
    const r0 = a0 * g[row + i0]! + a1 * g[row + i1]! + a2 * g[row + i2]! + a3 * g[row + i3]!;
    const q0 = da0 * g[row + i0]! + da1 * g[row + i1]! + da2 * g[row + i2]! + da3 * g[row + i3]!;
    row = (fj & m) * n;
    const r1 = a0 * g[row + i0]! + a1 * g[row + i1]! + a2 * g[row + i2]! + a3 * g[row + i3]!;
    const q1 = da0 * g[row + i0]! + da1 * g[row + i1]! + da2 * g[row + i2]! + da3 * g[row + i3]!;
    row = ((fj + 1) & m) * n;
    const r2 = a0 * g[row + i0]! + a1 * g[row + i1]! + a2 * g[row + i2]! + a3 * g[row + i3]!;
    const q2 = da0 * g[row + i0]! + da1 * g[row + i1]! + da2 * g[row + i2]! + da3 * g[row + i3]!;
    row = ((fj + 2) & m) * n;
    const r3 = a0 * g[row + i0]! + a1 * g[row + i1]! + a2 * g[row + i2]! + a3 * g[row + i3]!;
    const q3 = da0 * g[row + i0]! + da1 * g[row + i1]! + da2 * g[row + i2]! + da3 * g[row + i3]!;
    const A = this.amplitude;
    const d = this.tile;
    d.h = (b0 * r0 + b1 * r1 + b2 * r2 + b3 * r3) * A;
    d.dhdx = (b0 * q0 + b1 * q1 + b2 * q2 + b3 * q3) * (A * this.invCell);
    d.dhdz = (db0 * r0 + db1 * r1 + db2 * r2 + db3 * r3) * (A * this.invCell);
    return d;
  }
}

/**
 * Macro (CURV 0..5) + detail into `out`: the tile n (CURV 12..17) weighted by w (CURV 6..11) when `weighted`,
 * d(w·n) = w′·n + w·n′ and H(w·n) = Hw·n + ∇w⊗∇n + ∇n⊗∇w + w·Hn (the same h and gradient expressions as
 * `DetailLayer.addWeightedInto`).
 */
function addDetailCurvature(weighted: boolean, out: CurvatureSample): void {
  const C = CURV;
  const n = C[12]!, nx = C[13]!, nz = C[14]!;
  if (!weighted) {
    out.h = C[0]! + n;
    out.dhdx = C[1]! + nx;
    out.dhdz = C[2]! + nz;
    out.hxx = C[3]! + C[15]!;
    out.hxz = C[4]! + C[16]!;
    out.hzz = C[5]! + C[17]!;
    return;
  }
  const w = C[6]!, wx = C[7]!, wz = C[8]!;
  out.h = C[0]! + w * n;
  out.dhdx = C[1]! + (wx * n + w * nx);
  out.dhdz = C[2]! + (wz * n + w * nz);
  out.hxx = C[3]! + (C[9]! * n + 2 * wx * nx + w * C[15]!);
  out.hxz = C[4]! + (C[10]! * n + wx * nz + wz * nx + w * C[16]!);
  out.hzz = C[5]! + (C[11]! * n + 2 * wz * nz + w * C[17]!);
}

export interface RayHit {
  x: number;
  y: number;
  z: number;
  distance: number;
  nx: number;
  ny: number;
  nz: number;
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** Output arrays for `sampleMany`; any of the optional arrays may be omitted. */
export interface SampleManyOut {
  h: Float32Array | Float64Array;
  dhdx?: Float32Array | Float64Array;
  dhdz?: Float32Array | Float64Array;
  nx?: Float32Array | Float64Array;
  ny?: Float32Array | Float64Array;
  nz?: Float32Array | Float64Array;
}

/** The terrain surface: macro B-spline of the heightfield plus the optional detail layer. */
export class BSplineSurface {
  readonly heightfield: Heightfield;
  readonly grid: BSplineGrid;
  readonly detail: DetailLayer | null;
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
  private readonly tmp: SurfaceSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
  /** The detail layer's weight field when it lies on the macro grid (evaluated together with it), else null. */
  private readonly pairedWeight: BSplineGrid | null;
  private readonly ws: HeightSample = { h: 0, dhdx: 0, dhdz: 0 };
  private readonly wsCurv: CurvatureSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0, hxx: 0, hxz: 0, hzz: 0 };
  /** Cell polynomials of the macro grid and the paired weight in one entry, built on the first `sampleCurvature`. */
  private pairPolys: CellPolyMemo | null = null;
  /** The WebAssembly patch kernel (`buildKernel`): undefined until `prepareCurvature` or the first `sampleCurvature`, null where it does not apply. */
  private kernel: PatchKernel | null | undefined = undefined;

  constructor(hf: Heightfield, detail: DetailLayer | null = null) {
    this.heightfield = hf;
    this.grid = new BSplineGrid(hf.heights, hf.width, hf.depth, hf.cellSize, hf.origin.x, hf.origin.z);
    this.detail = detail;
    const w = detail?.weight;
    this.pairedWeight = w instanceof BSplineGrid && this.grid.sameGeometry(w) ? w : null;
    this.minX = this.grid.minX;
    this.maxX = this.grid.maxX;
    this.minZ = this.grid.minZ;
    this.maxZ = this.grid.maxZ;
  }

  /**
   * Macro height + detail and their gradient at (x, z) into `out`. A weight field on the macro grid shares its
   * span and basis (`evalPairInto`): same bits as evaluating the two grids apart, a third fewer basis evaluations.
   */
  private heightInto(x: number, z: number, out: HeightSample): void {
    const pw = this.pairedWeight;
    if (pw !== null) {
      this.grid.evalPairInto(pw, x, z, out, this.ws);
      this.detail!.addWeightedInto(x, z, this.ws, out);
      return;
    }
    this.grid.evalInto(x, z, out);
    if (this.detail) this.detail.addInto(x, z, out);
  }

  /** Height y at (x, z), metres (macro + detail). */
  height(x: number, z: number): number {
    const t = this.tmp;
    this.heightInto(x, z, t);
    return t.h;
  }

  /** Height of the macro surface only (no detail layer). */
  heightMacro(x: number, z: number): number {
    const t = this.tmp;
    this.grid.evalInto(x, z, t);
    return t.h;
  }

  /** Height, gradient and unit normal n = (−∂h/∂x, 1, −∂h/∂z)/‖·‖ at (x, z), written into `out`. */
  sample(x: number, z: number, out: SurfaceSample): void {
    this.heightInto(x, z, out);
    const gx = out.dhdx;
    const gz = out.dhdz;
    const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
    out.nx = -gx * inv;
    out.ny = inv;
    out.nz = -gz * inv;
  }

  /**
   * `sample` plus the second derivatives of the height (macro + detail) at (x, z), each spline evaluated from its
   * cell's power-basis polynomial (cell-poly.ts): the same surface as `sample`'s basis-weight sums, rounded in
   * another order (a few ulps of the height scale apart, not the same bits). A surface whose detail weight lies on
   * the macro grid runs it in WebAssembly (terrain/patch-kernel.ts): the same bits as `sampleCurvatureJs`.
   */
  sampleCurvature(x: number, z: number, out: CurvatureSample): void {
    POINT[0] = x;
    POINT[2] = z;
    this.sampleCurvatureAt(POINT, out);
  }

  /**
   * `sampleCurvature` at (p[0], p[2]) (a point's x, y, z): the same numbers. Hot callers pass the point in an
   * array: a double argument to a call the JIT did not inline is boxed on the heap.
   */
  sampleCurvatureAt(p: Float64Array, out: CurvatureSample): void {
    const k = this.kernel === undefined ? this.buildKernel() : this.kernel;
    if (k !== null) return sampleKernelAt(k, p, out);
    QUERY_AT[0] = p[0]!;
    QUERY_AT[1] = p[2]!;
    this.curvatureAtQuery(out);
  }

  /**
   * Builds what `sampleCurvature` reads (the WebAssembly kernel, its data moved into it) now, at stage load, rather
   * than in the first simulated tick.
   */
  prepareCurvature(): void {
    if (this.kernel === undefined) this.buildKernel();
  }

  /** `sampleCurvature` in TypeScript: the reference the WebAssembly kernel is tested against, and every other surface's path. */
  sampleCurvatureJs(x: number, z: number, out: CurvatureSample): void {
    QUERY_AT[0] = x;
    QUERY_AT[1] = z;
    this.curvatureAtQuery(out);
  }

  /**
   * The WebAssembly patch kernel of a surface with a paired weight and a detail tile (null otherwise, or where the
   * module does not compile: the TypeScript path then). The grids' control points and the tile's polynomials move
   * into the kernel's memory, so they are not held twice.
   */
  private buildKernel(): PatchKernel | null {
    const g = this.grid, w = this.pairedWeight, d = this.detail;
    this.kernel = null;
    if (w === null || d === null) return null;
    const k = createPatchKernel({
      macro: g.p, weight: w.p, pw: g.pw, width: g.width, depth: g.depth, originX: g.originX, originZ: g.originZ,
      cellSize: g.cellSize, invCell: g.invCell,
      tilePolys: d.cellPolys(), tileCells: d.tileCells, tileCellSize: d.cellSize, tileInvCell: d.invCell,
    });
    if (k === null) return null;
    g.adoptControlPoints(k.macro);
    w.adoptControlPoints(k.weight);
    d.adoptCellPolys(k.tilePolys);
    return (this.kernel = k);
  }

  /**
   * `sampleCurvature` at (x, z) = QUERY_AT. The grids' and the tile's sums read the point from QUERY_AT too (a
   * weight field's `evalCurvatureInto` writes the same point back).
   */
  private curvatureAtQuery(out: CurvatureSample): void {
    const pw = this.pairedWeight;
    const detail = this.detail;
    if (pw !== null) this.grid.pairCurvatureSumsAt(this.pairPolys ?? (this.pairPolys = new CellPolyMemo([this.grid, pw])));
    else {
      const w = detail?.weight;
      const x = QUERY_AT[0]!,
        z = QUERY_AT[1]!;
      if (w) {
        w.evalCurvatureInto(x, z, this.wsCurv); // may use CURV[0..5]: before the macro grid's sums
        const c = this.wsCurv;
        CURV[6] = c.h;
        CURV[7] = c.dhdx;
        CURV[8] = c.dhdz;
        CURV[9] = c.hxx;
        CURV[10] = c.hxz;
        CURV[11] = c.hzz;
      }
      this.grid.curvatureSumsAt(x, z, 0);
    }
    if (detail) {
      detail.tileCurvatureSumsAt();
      addDetailCurvature(detail.weight !== null, out);
    } else curvatureFromSums(0, out);
    const gx = out.dhdx;
    const gz = out.dhdz;
    const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
    out.nx = -gx * inv;
    out.ny = inv;
    out.nz = -gz * inv;
  }

  /** Batched queries: fills out.h[k] (and the optional arrays) for k < count (default xs.length). */
  sampleMany(xs: ArrayLike<number>, zs: ArrayLike<number>, out: SampleManyOut, count = xs.length): void {
    const t = this.tmp;
    const { h, dhdx, dhdz, nx, ny, nz } = out;
    const wantN = nx !== undefined || ny !== undefined || nz !== undefined;
    for (let k = 0; k < count; k++) {
      this.heightInto(xs[k]!, zs[k]!, t);
      h[k] = t.h;
      if (dhdx) dhdx[k] = t.dhdx;
      if (dhdz) dhdz[k] = t.dhdz;
      if (wantN) {
        const inv = 1 / Math.sqrt(t.dhdx * t.dhdx + 1 + t.dhdz * t.dhdz);
        if (nx) nx[k] = -t.dhdx * inv;
        if (ny) ny[k] = inv;
        if (nz) nz[k] = -t.dhdz * inv;
      }
    }
  }

  /**
   * First intersection of the ray origin + s·dir (dir need not be unit; distance is in metres along the unit
   * direction) with the surface for 0 ≤ s ≤ maxDist, or null. Marches in steps of ¼ cell (horizontal) / the
   * height gap, then refines the bracket by bisection to 1e-5 m. A ray starting below the surface hits at s=0.
   */
  raycast(origin: Vec3, dir: Vec3, maxDist: number): RayHit | null {
    const len = Math.hypot(dir.x, dir.y, dir.z);
    if (!(len > 0) || !(maxDist >= 0)) return null;
    const dx = dir.x / len, dy = dir.y / len, dz = dir.z / len;
    const horiz = Math.hypot(dx, dz);
    const cell = this.grid.cellSize;
    const baseStep = horiz > 1e-9 ? Math.min(0.25 * cell / horiz, 0.25 * cell / Math.max(1e-9, Math.abs(dy)) + 0.25 * cell) : 0.25 * cell;
    const f = (s: number): number => origin.y + dy * s - this.height(origin.x + dx * s, origin.z + dz * s);
    let s0 = 0;
    let f0 = f(0);
    if (f0 <= 0) return this.hitAt(origin, dx, dz, 0);
    while (s0 < maxDist) {
      // conservative step: never jump further than the vertical gap allows on steep terrain (slope ≤ ~4)
      const step = Math.max(Math.min(baseStep, Math.max(0.01, f0 / (Math.abs(dy) + 4 * horiz + 1e-9))), 1e-3);
      const s1 = Math.min(maxDist, s0 + step);
      const f1 = f(s1);
      if (f1 <= 0) {
        let lo = s0, hi = s1;
        for (let it = 0; it < 60 && hi - lo > 1e-5; it++) {
          const mid = 0.5 * (lo + hi);
          if (f(mid) > 0) lo = mid;
          else hi = mid;
        }
        return this.hitAt(origin, dx, dz, hi);
      }
      s0 = s1;
      f0 = f1;
      if (s1 >= maxDist) break;
    }
    return null;
  }

  private hitAt(o: Vec3, dx: number, dz: number, s: number): RayHit {
    const x = o.x + dx * s;
    const z = o.z + dz * s;
    const t = this.tmp;
    this.sample(x, z, t);
    return { x, y: t.h, z, distance: s, nx: t.nx, ny: t.ny, nz: t.nz };
  }
}
