/**
 * terrain/height-ceiling.ts: a per-tile upper bound of a B-spline surface's computed height (convex hull of the
 * tile's control points, plus the detail layer's |w|·A·max|n|), which the halt guard reads instead of a sample.
 */
import { describe, expect, it } from 'vitest';
import { BSplineGrid, BSplineSurface, DetailLayer, Heightfield, createRng, type HeightSample, type ScalarField } from '../../terrain';
import { CEILING_TILE_SPANS, HeightCeiling } from '../../terrain/height-ceiling';

const N = 33, CELL = 2, ORIGIN = { x: -10, z: 5 };

function field(seed: number, amp: number): Heightfield {
  const rng = createRng(seed);
  const h = new Float32Array(N * N);
  for (let i = 0; i < h.length; i++) h[i] = amp * rng();
  return Heightfield.fromFloat32(h, N, N, { cellSize: CELL, origin: ORIGIN });
}

/** Query points: random ones 5 m past every border (clamped spans), every grid node and every tile edge exactly. */
function points(s: BSplineSurface): [number, number][] {
  const out: [number, number][] = [];
  const rng = createRng(41);
  for (let k = 0; k < 4000; k++)
    out.push([s.minX - 5 + rng() * (s.maxX - s.minX + 10), s.minZ - 5 + rng() * (s.maxZ - s.minZ + 10)]);
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) out.push([ORIGIN.x + i * CELL, ORIGIN.z + j * CELL]);
  return out;
}

/** A weight field the ceiling cannot bound (not a B-spline grid). */
const opaqueWeight: ScalarField = {
  evalInto: (_x: number, _z: number, out: HeightSample) => {
    out.h = 1;
    out.dhdx = out.dhdz = 0;
  },
  evalCurvatureInto: () => undefined,
};

describe('HeightCeiling', () => {
  const hf = field(3, 12);
  const weightOn = new BSplineGrid(field(8, 1).heights, N, N, CELL, ORIGIN.x, ORIGIN.z);
  const weightOff = new BSplineGrid(field(9, 1).heights, 20, 20, 3, ORIGIN.x - 4, ORIGIN.z + 1);
  const cases: [string, DetailLayer | null][] = [
    ['no detail layer', null],
    ['detail, no weight', DetailLayer.random(createRng(5), { amplitude: 0.4 })],
    ['detail weighted on the macro grid', DetailLayer.random(createRng(5), { amplitude: 0.4, weight: weightOn })],
    ['detail weighted on another grid', DetailLayer.random(createRng(5), { amplitude: 0.4, weight: weightOff })],
  ];
  for (const [name, detail] of cases)
    it(`bounds the computed height everywhere, past the borders and on every node (${name})`, () => {
      const s = new BSplineSurface(hf, detail);
      const c = HeightCeiling.of(s)!;
      for (const [x, z] of points(s)) expect(c.at(x, z)).toBeGreaterThanOrEqual(s.height(x, z));
      expect(c.at(Number.NaN, 0)).toBeNaN();
    });

  it('a flat terrain: the ceiling is the height plus the rounding margin (1e-6 × (1 + |h|))', () => {
    const h = new Float32Array(N * N).fill(7.25);
    const s = new BSplineSurface(Heightfield.fromFloat32(h, N, N, { cellSize: CELL, origin: ORIGIN }));
    const c = HeightCeiling.of(s)!;
    for (const [x, z] of points(s)) {
      expect(c.at(x, z) - s.height(x, z)).toBeGreaterThanOrEqual(0);
      expect(c.at(x, z) - 7.25).toBeCloseTo(1e-6 * 8.25, 12);
    }
  });

  it('a spike raises only the tiles whose spans read its control point', () => {
    const h = new Float32Array(N * N);
    const si = 16, sj = 16; // grid node (16, 16) = padded control point (17, 17)
    h[sj * N + si] = 10;
    const s = new BSplineSurface(Heightfield.fromFloat32(h, N, N, { cellSize: CELL, origin: ORIGIN }));
    const c = HeightCeiling.of(s)!;
    const T = CEILING_TILE_SPANS;
    for (let tj = 0; tj < (N - 1) / T; tj++)
      for (let ti = 0; ti < (N - 1) / T; ti++) {
        // the tile's centre; its spans read padded columns ti·T..ti·T+T+2 and rows tj·T..tj·T+T+2
        const x = ORIGIN.x + (ti + 0.5) * T * CELL, z = ORIGIN.z + (tj + 0.5) * T * CELL;
        const reads = ti * T <= si + 1 && si + 1 <= ti * T + T + 2 && tj * T <= sj + 1 && sj + 1 <= tj * T + T + 2;
        expect(c.at(x, z)).toBeCloseTo(reads ? 10 : 0, 3);
      }
  });

  it('a non-finite detail control point has no bound: no ceiling (heightfields refuse non-finite heights)', () => {
    for (const bad of [Number.NEGATIVE_INFINITY, Number.NaN]) {
      const tile = new Float64Array(16).fill(0.5);
      tile[5] = bad;
      expect(HeightCeiling.of(new BSplineSurface(hf, new DetailLayer(tile, 4, 0.35, 0.03)))).toBeNull();
    }
  });

  it('built once per surface: every ground on a loaded stage shares it', () => {
    const s = new BSplineSurface(hf);
    expect(HeightCeiling.of(s)).toBe(HeightCeiling.of(s));
  });

  it('a detail weight of another kind has no bound: no ceiling', () => {
    expect(HeightCeiling.of(new BSplineSurface(hf, DetailLayer.random(createRng(5), { weight: opaqueWeight })))).toBeNull();
  });
});
