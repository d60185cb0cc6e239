import { describe, it, expect, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { BSplineGrid, BSplineSurface, DetailLayer, Heightfield, createRng, type CurvatureSample } from '../../terrain';
import { loadStageFromDir } from '../../terrain/node';
import { patchKernelError } from '../../terrain/patch-kernel';
import { compileKernel, KERNELS, kernelModuleText } from '../../terrain/wasm/build';

/**
 * The WebAssembly contact-patch kernel (terrain/patch-kernel.ts, terrain/wasm/assembly/patch.ts) against the
 * TypeScript path it ports (`BSplineSurface.sampleCurvatureJs`): the same bits, field by field (Object.is), at any
 * point, inside the grid, across its clamped borders and far outside, through memo hits, misses and evictions.
 */
const FIELDS = ['h', 'dhdx', 'dhdz', 'hxx', 'hxz', 'hzz', 'nx', 'ny', 'nz'] as const;
const C = (): CurvatureSample => ({ h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0, hxx: 0, hxz: 0, hzz: 0 });
const STAGES = join(__dirname, '../../src/content/stages');

/** The fields where the kernel and the TypeScript path differ at (x, z) ([] when the same bits). */
function differences(s: BSplineSurface, x: number, z: number): string[] {
  const a = C(), b = C();
  s.sampleCurvature(x, z, a);
  s.sampleCurvatureJs(x, z, b);
  const at = new Float64Array([x, 123, z]);
  const c = C();
  s.sampleCurvatureAt(at, c);
  return FIELDS.filter((f) => !Object.is(a[f], b[f]) || !Object.is(c[f], b[f])).map((f) => `${f} at (${x}, ${z}): kernel ${a[f]}, TypeScript ${b[f]}`);
}

/** A surface of noise with a detail weight on the macro grid (the kernel's case). */
function noiseSurface(n: number, seed: number, cell: number): BSplineSurface {
  const rng = createRng(seed);
  const h = new Float32Array(n * n), w = new Float32Array(n * n);
  for (let i = 0; i < h.length; i++) {
    h[i] = 40 * rng() - 20;
    w[i] = rng();
  }
  const hf = Heightfield.fromFloat32(h, n, n, { cellSize: cell, origin: { x: -37.5, z: 12.25 } });
  const weight = new BSplineGrid(w, n, n, cell, hf.origin.x, hf.origin.z);
  return new BSplineSurface(hf, DetailLayer.random(createRng(seed + 1), { amplitude: 0.04, weight }));
}

describe('terrain patch kernel (WebAssembly)', () => {
  it('compiles and runs here', () => {
    expect(patchKernelError()).toBeNull();
  });

  it('gives the TypeScript path\'s bits on every shipped stage: along the road, anywhere on the map, outside it', () => {
    for (const name of ['test-short', 'rallycross-bitring', 'forest-gravel']) {
      const stage = loadStageFromDir(join(STAGES, name));
      const s = stage.bspline;
      const road = stage.road.points;
      const rng = createRng(7);
      const bad: string[] = [];
      for (let k = 0; k < 3000 && bad.length === 0; k++) {
        const i = Math.floor(rng() * (road.length / 3));
        bad.push(...differences(s, road[3 * i]! + 4 * rng() - 2, road[3 * i + 2]! + 4 * rng() - 2));
        bad.push(...differences(s, s.minX - 50 + rng() * (s.maxX - s.minX + 100), s.minZ - 50 + rng() * (s.maxZ - s.minZ + 100)));
      }
      expect(bad, name).toEqual([]);
    }
  });

  it('gives the same bits at any point of a random surface (fast-check), memo evictions included', () => {
    const s = noiseSurface(300, 3, 2);
    const coord = (lo: number, hi: number) => fc.oneof(
      fc.double({ min: lo - 40, max: hi + 40, noNaN: true }),
      // node lines (t = 0), the last span, the border, cells 256 m apart (the same memo slot)
      fc.integer({ min: -3, max: 305 }).map((i) => lo + 2 * i),
      fc.tuple(fc.integer({ min: 0, max: 2 }), fc.double({ min: 0, max: 1, noNaN: true })).map(([q, f]) => lo + 256 * q + f),
      fc.constantFrom(lo, hi, hi - 1e-9, 1e7, -1e7),
    );
    fc.assert(
      fc.property(coord(s.minX, s.maxX), coord(s.minZ, s.maxZ), (x, z) => differences(s, x, z).length === 0),
      { numRuns: 20000, seed: 19 },
    );
  });

  it('gives the same bits for any double, NaN, ±Infinity and 1e300 included, and a non-finite query leaves the memo as it was', () => {
    const s = noiseSurface(40, 5, 2);
    fc.assert(fc.property(fc.double(), fc.double(), (x, z) => differences(s, x, z).length === 0), { numRuns: 20000, seed: 23 });
    // NaN reaches the span look-up as cell (0, 0) (`| 0` there, a saturating truncation here): that cell's memo entry
    // must still be the corner's own polynomials afterwards
    const corner = [s.minX + 0.5, s.minZ + 0.5] as const;
    const before = C();
    s.sampleCurvatureJs(corner[0], corner[1], before);
    for (const [x, z] of [[NaN, 3], [3, NaN], [Infinity, -Infinity], [1e300, -1e300]] as const) {
      expect(differences(s, x, z)).toEqual([]);
      expect(differences(s, corner[0], corner[1])).toEqual([]);
    }
    const after = C();
    s.sampleCurvatureJs(corner[0], corner[1], after);
    expect(after).toEqual(before);
    expect(Number.isFinite(after.h)).toBe(true);
  });

  it('falls back to the TypeScript path, with the same bits and a reason, when the kernel\'s memory cannot be had', () => {
    const spy = vi.spyOn(WebAssembly, 'Memory').mockImplementation(function noMemory(): never {
      throw new RangeError('WebAssembly.Memory(): could not allocate memory');
    });
    try {
      const s = noiseSurface(64, 9, 2), o = C();
      s.sampleCurvature(3, 30, o);
      expect(patchKernelError()).toMatch(/MiB for the kernel: .*could not allocate memory/);
      expect(differences(s, 3, 30)).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    noiseSurface(64, 9, 2).sampleCurvature(3, 30, C());
    expect(patchKernelError()).toBeNull();
  });

  it('leaves the surface\'s own samples as they were: the grids and the tile moved into the kernel hold the same numbers', () => {
    const before = noiseSurface(64, 11, 2), after = noiseSurface(64, 11, 2);
    after.sampleCurvature(0, 20, C()); // builds the kernel: control points and tile polynomials move into its memory
    const rng = createRng(5);
    const a = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 }, b = { ...a };
    for (let k = 0; k < 2000; k++) {
      const x = before.minX + rng() * (before.maxX - before.minX), z = before.minZ + rng() * (before.maxZ - before.minZ);
      before.sample(x, z, a);
      after.sample(x, z, b);
      expect(b).toEqual(a);
      expect(after.height(x, z)).toBe(before.height(x, z));
    }
  });

  it('is the module its AssemblyScript source compiles to (npm run build:wasm)', async () => {
    const bytes = await compileKernel(KERNELS.patch);
    expect(readFileSync(KERNELS.patch.module, 'utf8')).toBe(kernelModuleText(KERNELS.patch, bytes));
  }, 60_000);
});
