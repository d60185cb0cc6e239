import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { BSplineGrid, BSplineSurface, DetailLayer, Heightfield, createRng, type CurvatureSample } from '../../terrain';
import { CELL_POLY_LEN, CellPolyMemo, cellPolyInto } from '../../terrain/cell-poly';

/**
 * The power-basis cell polynomials (terrain/cell-poly.ts) against the B-spline's own definition: the uniform cubic
 * basis B(t) = ((1−t)³, 3t³−6t²+4, −3t³+3t²+3t+1, t³)/6 with its first and second derivatives, summed over the 4×4
 * control points (de Boor). Tolerance: both sides are sums of the same 16 control points |P| ≤ H; the power
 * basis' weights sum to at most (1 + 1 + 2 + 4/3)² ≈ 28 in absolute value (M's row sums), each rounded over ≤ 12
 * operations per side, so |Δ| ≤ 2·12·28·ε·H ≈ 700 ε·H; per derivative order the cell factor 1/cell and the power
 * derivative's factor (≤ 3 for the first, ≤ 6 for the second) scale it.
 */
const EPS_H = 1024 * Number.EPSILON;

const basis = (t: number): number[] => [(1 - t) ** 3 / 6, (3 * t ** 3 - 6 * t * t + 4) / 6, (-3 * t ** 3 + 3 * t * t + 3 * t + 1) / 6, t ** 3 / 6];
const basis1 = (t: number): number[] => [-0.5 * (1 - t) ** 2, 1.5 * t * t - 2 * t, -1.5 * t * t + t + 0.5, 0.5 * t * t];
const basis2 = (t: number): number[] => [1 - t, 3 * t - 2, 1 - 3 * t, t];

/** [h, h_t, h_s, h_tt, h_ts, h_ss] of the span with control points P(a, b) (a along t, b along s) at (t, s). */
function referenceSpan(P: (a: number, b: number) => number, t: number, s: number): number[] {
  const [B, B1, B2, C, C1, C2] = [basis(t), basis1(t), basis2(t), basis(s), basis1(s), basis2(s)];
  const out = [0, 0, 0, 0, 0, 0];
  for (let b = 0; b < 4; b++)
    for (let a = 0; a < 4; a++) {
      const p = P(a, b);
      out[0]! += B[a]! * C[b]! * p;
      out[1]! += B1[a]! * C[b]! * p;
      out[2]! += B[a]! * C1[b]! * p;
      out[3]! += B2[a]! * C[b]! * p;
      out[4]! += B1[a]! * C1[b]! * p;
      out[5]! += B[a]! * C2[b]! * p;
    }
  return out;
}

/** A grid's [h, ∂x, ∂z, xx, xz, zz] at (x, z) by the definition: clamp to the border (gradient across it 0). */
function referenceGrid(g: BSplineGrid, x: number, z: number): number[] {
  let u = (x - g.originX) / g.cellSize,
    v = (z - g.originZ) / g.cellSize;
  const gx = u < 0 || u > g.width - 1 ? 0 : 1;
  const gz = v < 0 || v > g.depth - 1 ? 0 : 1;
  u = Math.min(Math.max(u, 0), g.width - 1);
  v = Math.min(Math.max(v, 0), g.depth - 1);
  const i = Math.min(Math.floor(u), g.width - 2),
    j = Math.min(Math.floor(v), g.depth - 2);
  const r = referenceSpan((a, b) => g.p[(j + b) * g.pw + i + a]!, u - i, v - j);
  const c = 1 / g.cellSize;
  return [r[0]!, gx * r[1]! * c, gz * r[2]! * c, gx * r[3]! * c * c, gx * gz * r[4]! * c * c, gz * r[5]! * c * c];
}

/** The unweighted periodic tile (n² values, cell `cell`, × amp) by the definition. */
function referenceTile(values: Float64Array, n: number, cell: number, amp: number, x: number, z: number): number[] {
  const u = x / cell,
    v = z / cell;
  const i = Math.floor(u),
    j = Math.floor(v);
  const wrap = (k: number): number => ((k % n) + n) % n;
  const r = referenceSpan((a, b) => values[wrap(j - 1 + b) * n + wrap(i - 1 + a)]!, u - i, v - j);
  const c = 1 / cell;
  return [r[0]! * amp, r[1]! * c * amp, r[2]! * c * amp, r[3]! * c * c * amp, r[4]! * c * c * amp, r[5]! * c * c * amp];
}

const C = (): CurvatureSample => ({ h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0, hxx: 0, hxz: 0, hzz: 0 });
const six = (o: CurvatureSample): number[] => [o.h, o.dhdx, o.dhdz, o.hxx, o.hxz, o.hzz];
/** Tolerances of the six outputs for control points within ±H on cells of `cell` m (header). */
const tolerances = (H: number, cell: number): number[] => [1, 3 / cell, 3 / cell, 6 / cell ** 2, 9 / cell ** 2, 6 / cell ** 2].map((f) => EPS_H * H * f);

function expectClose(got: number[], want: number[], tol: number[]): void {
  for (let k = 0; k < 6; k++) expect(Math.abs(got[k]! - want[k]!), `output ${k}: ${got[k]} vs ${want[k]}`).toBeLessThanOrEqual(tol[k]!);
}

/** n × n control points base ± amp (heights around 300 m, as on a stage, by default). */
function noiseGrid(n: number, seed: number, cell: number, amp: number, ox: number, oz: number, base = 300): BSplineGrid {
  const rng = createRng(seed);
  const v = new Float64Array(n * n);
  for (let i = 0; i < v.length; i++) v[i] = amp * (2 * rng() - 1) + base;
  return new BSplineGrid(v, n, n, cell, ox, oz);
}

const maxAbs = (a: Float64Array): number => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

describe('cell polynomials (power basis) equal the B-spline evaluation', () => {
  it('on a grid: inside, on cell borders and clamped beyond every border, all six outputs', () => {
    const g = noiseGrid(17, 3, 2, 25, -10, 5);
    const tol = tolerances(maxAbs(g.p), g.cellSize);
    const out = C();
    // u, v in cells: real numbers past both borders, and exact cell borders (integers, incl. 0 and width − 1)
    const coord = fc.oneof(fc.double({ min: -3, max: 19, noNaN: true }), fc.integer({ min: -1, max: 17 }));
    fc.assert(
      fc.property(coord, coord, (u, v) => {
        const x = g.originX + u * g.cellSize,
          z = g.originZ + v * g.cellSize;
        g.evalCurvatureInto(x, z, out);
        expectClose(six(out), referenceGrid(g, x, z), tol);
        // the value and gradient agree with the basis-weight path (`evalInto`, what `sample` uses)
        const plain = C();
        g.evalInto(x, z, plain);
        expectClose([plain.h, plain.dhdx, plain.dhdz, out.hxx, out.hxz, out.hzz], six(out), tol);
      }),
      { numRuns: 3000 },
    );
  });

  it('cellPolyInto: each coefficient is M·P·Mᵀ (a plane a + b·t + c·s gives exactly those three coefficients)', () => {
    // control points of the plane 7 + 2·(a − 1) − 3·(b − 1) (the span's own t, s): the spline reproduces planes,
    // so c = [7, 2, 0, 0; −3, 0…] up to rounding of integers (exact here: every sum is an integer over 36)
    const p = new Float64Array(16);
    for (let b = 0; b < 4; b++) for (let a = 0; a < 4; a++) p[b * 4 + a] = 7 + 2 * (a - 1) - 3 * (b - 1);
    const c = new Float64Array(CELL_POLY_LEN);
    cellPolyInto(p, 4, 0, 1, 1, c, 0);
    const want = new Float64Array(16);
    want[0] = 7;
    want[1] = 2;
    want[4] = -3;
    for (let k = 0; k < 16; k++) expect(Math.abs(c[k]! - want[k]!)).toBeLessThanOrEqual(8 * Number.EPSILON * 7);
  });

  it('on the periodic detail tile (amplitude folded in), across tile cells and tile periods', () => {
    const n = 16,
      cell = 0.35,
      amp = 0.03;
    const rng = createRng(17);
    const values = new Float64Array(n * n).map(() => 2 * rng() - 1);
    const flat = Heightfield.fromFloat32(new Float32Array(9 * 9), 9, 9, { cellSize: 2, origin: { x: -8, z: -8 } });
    // a flat macro grid: sampleCurvature inside it is the tile alone
    const s = new BSplineSurface(flat, new DetailLayer(values, n, cell, amp));
    const tol = tolerances(amp * maxAbs(values), cell);
    const out = C();
    const coord = fc.oneof(fc.double({ min: -7, max: 7, noNaN: true }), fc.integer({ min: -20, max: 20 }).map((k) => k * cell));
    fc.assert(
      fc.property(coord, coord, (x, z) => {
        s.sampleCurvature(x, z, out);
        expectClose(six(out), referenceTile(values, n, cell, amp, x, z), tol);
      }),
      { numRuns: 2000 },
    );
  });

  it('macro + detail weighted on the macro grid (the paired memo): the product rule over three references', () => {
    const macro = noiseGrid(17, 5, 2, 25, -10, 5);
    const heights = new Float32Array(17 * 17).map((_, k) => macro.p[(Math.floor(k / 17) + 1) * macro.pw + (k % 17) + 1]!);
    const hf = Heightfield.fromFloat32(heights, 17, 17, { cellSize: 2, origin: { x: -10, z: 5 } });
    const weight = noiseGrid(17, 6, 2, 0.5, -10, 5, 1);
    const n = 16;
    const rng = createRng(7);
    const values = new Float64Array(n * n).map(() => 2 * rng() - 1);
    const s = new BSplineSurface(hf, new DetailLayer(values, n, 0.35, 0.05, weight));
    const out = C();
    const H = maxAbs(new BSplineGrid(hf.heights, 17, 17, 2, -10, 5).p);
    // each product a·b of the product rule is off by ≤ |a|·δb + δa·|b| ≤ 2·EPS_H·scale(a)·scale(b), the scale of a
    // derivative of order r being max|P|·(1, 3, 6)[r] / cell^r (the header's bound per factor)
    const scale = (max: number, cell: number, r: number): number => (max * [1, 3, 6][r]!) / cell ** r;
    const W = maxAbs(weight.p),
      T = 0.05 * maxAbs(values);
    const terms = [[[0, 0]], [[1, 0], [0, 1]], [[1, 0], [0, 1]], [[2, 0], [1, 1], [1, 1], [0, 2]], [[2, 0], [1, 1], [1, 1], [0, 2]], [[2, 0], [1, 1], [1, 1], [0, 2]]];
    const tol = tolerances(H, 2).map((t, k) => t + terms[k]!.reduce((sum, [rw, rt]) => sum + 2 * EPS_H * scale(W, 2, rw!) * scale(T, 0.35, rt!), 0));
    fc.assert(
      fc.property(fc.double({ min: -13, max: 47, noNaN: true }), fc.double({ min: 2, max: 42, noNaN: true }), (x, z) => {
        s.sampleCurvature(x, z, out);
        const m = referenceGrid(s.grid, x, z);
        const [w, wx, wz, wxx, wxz, wzz] = referenceGrid(weight, x, z);
        const [d, dx, dz, dxx, dxz, dzz] = referenceTile(values, n, 0.35, 0.05, x, z);
        const want = [m[0]! + w! * d!, m[1]! + wx! * d! + w! * dx!, m[2]! + wz! * d! + w! * dz!, m[3]! + wxx! * d! + 2 * wx! * dx! + w! * dxx!, m[4]! + wxz! * d! + wx! * dz! + wz! * dx! + w! * dxz!, m[5]! + wzz! * d! + 2 * wz! * dz! + w! * dzz!];
        expectClose(six(out), want, tol);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('the cell-polynomial memo is a pure memo', () => {
  it('returns the same bits for the same (x, z) in any order, after any other queries, on any surface instance', () => {
    const make = (): BSplineSurface => {
      const rng = createRng(21);
      const h = new Float32Array(129 * 129).map(() => 40 * rng());
      const hf = Heightfield.fromFloat32(h, 129, 129, { cellSize: 2, origin: { x: 0, z: 0 } });
      const weight = new BSplineGrid(new Float64Array(129 * 129).map(() => rng()), 129, 129, 2, 0, 0);
      return new BSplineSurface(hf, DetailLayer.random(createRng(4), { weight }));
    };
    const rng = createRng(99);
    // points 64 m (32 cells, the memo's side) apart share a slot: they evict each other between the queries
    const pts: [number, number][] = [];
    for (let k = 0; k < 300; k++) {
      const x = 1 + rng() * 60,
        z = 1 + rng() * 60;
      pts.push([x, z], [x + 64, z], [x, z + 128], [x + 192, z + 64]);
    }
    const a = make();
    const first = pts.map(([x, z]) => six(sampleOf(a, x, z)));
    const b = make();
    // a shuffled order (Fisher–Yates): every slot filled and evicted in another order
    const order = pts.map((_, k) => k);
    for (let k = order.length - 1; k > 0; k--) {
      const r = Math.floor(rng() * (k + 1));
      [order[k], order[r]] = [order[r]!, order[k]!];
    }
    const second: number[][] = [];
    for (const k of order) second[k] = six(sampleOf(b, pts[k]![0], pts[k]![1]));
    // and again on the first surface, interleaved with queries elsewhere
    for (let k = 0; k < pts.length; k++) {
      sampleOf(a, 200 * rng(), 200 * rng());
      const [x, z] = pts[k]!;
      const again = six(sampleOf(a, x, z));
      for (let q = 0; q < 6; q++) expect(Object.is(again[q], first[k]![q])).toBe(true);
      for (let q = 0; q < 6; q++) expect(Object.is(second[k]![q], first[k]![q])).toBe(true);
    }
  });

  it('a slot holds one cell at a time: its entry is rebuilt from the control points on every change of cell', () => {
    const g = noiseGrid(70, 8, 2, 10, 0, 0);
    const memo = new CellPolyMemo([g]);
    const want = new Float64Array(CELL_POLY_LEN);
    // cells (1, 1), (33, 1), (1, 33), (33, 33) map to one slot (32 apart on both axes)
    for (const [i, j] of [[1, 1], [33, 1], [1, 1], [1, 33], [33, 33], [33, 33], [1, 1]] as const) {
      const k = j * g.pw + i;
      const o = memo.offsetOf(i, j, k);
      cellPolyInto(g.p, g.pw, k, 1, g.invCell, want, 0);
      expect(Array.from(memo.coef.subarray(o, o + CELL_POLY_LEN))).toEqual(Array.from(want));
    }
  });
});

function sampleOf(s: BSplineSurface, x: number, z: number): CurvatureSample {
  const o = C();
  s.sampleCurvature(x, z, o);
  return o;
}
