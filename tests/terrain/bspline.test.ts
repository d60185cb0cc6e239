import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { BSplineGrid, BSplineSurface, DetailLayer, Heightfield, TerrainError, createRng, encodeGrayPng, SurfaceMap, type SurfaceSample } from '../../terrain';

function noiseField(n: number, seed: number, cell = 2, amp = 20): Heightfield {
  const rng = createRng(seed);
  const h = new Float32Array(n * n);
  for (let i = 0; i < h.length; i++) h[i] = amp * rng();
  return Heightfield.fromFloat32(h, n, n, { cellSize: cell, origin: { x: -10, z: 5 } });
}

const S = (): SurfaceSample => ({ h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 });

describe('BSplineSurface', () => {
  it('reproduces planes exactly, including the border spans', () => {
    const n = 17;
    const a = 0.37, b = -0.21, c = 12.5;
    const cell = 1.5, ox = -7, oz = 3;
    const h = new Float32Array(n * n);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = c + a * (ox + i * cell) + b * (oz + j * cell);
    const hf = Heightfield.fromFloat32(h, n, n, { cellSize: cell, origin: { x: ox, z: oz } });
    const s = new BSplineSurface(hf);
    const out = S();
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (u, v) => {
        const x = s.minX + u * (s.maxX - s.minX);
        const z = s.minZ + v * (s.maxZ - s.minZ);
        s.sample(x, z, out);
        // tolerance = float32 rounding of the control points
        expect(Math.abs(out.h - (c + a * x + b * z))).toBeLessThan(2e-5);
        expect(Math.abs(out.dhdx - a)).toBeLessThan(2e-5);
        expect(Math.abs(out.dhdz - b)).toBeLessThan(2e-5);
      }),
      { numRuns: 500 },
    );
  });

  it('stays within the control points min/max on interior spans', () => {
    const hf = noiseField(33, 7);
    const s = new BSplineSurface(hf);
    let lo = Infinity, hi = -Infinity;
    for (const v of hf.heights) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const c = hf.cellSize;
    // interior spans: 1 ≤ u ≤ width−2
    fc.assert(
      fc.property(fc.double({ min: 1, max: 31, noNaN: true }), fc.double({ min: 1, max: 31, noNaN: true }), (u, v) => {
        const y = s.height(hf.origin.x + u * c, hf.origin.z + v * c);
        expect(y).toBeGreaterThanOrEqual(lo - 1e-9);
        expect(y).toBeLessThanOrEqual(hi + 1e-9);
      }),
      { numRuns: 2000 },
    );
  });

  it('is C1 across cell borders (value and gradient continuous)', () => {
    const hf = noiseField(33, 11);
    const s = new BSplineSurface(hf);
    const c = hf.cellSize;
    const e = 1e-7;
    const A = S(), B = S();
    for (let i = 1; i < 31; i++) {
      for (let k = 0; k < 20; k++) {
        const zf = hf.origin.z + (1 + (k * 29) / 20) * c;
        const xb = hf.origin.x + i * c; // vertical cell border
        s.sample(xb - e, zf, A);
        s.sample(xb + e, zf, B);
        expect(Math.abs(A.h - B.h)).toBeLessThan(1e-5);
        expect(Math.abs(A.dhdx - B.dhdx)).toBeLessThan(1e-5);
        expect(Math.abs(A.dhdz - B.dhdz)).toBeLessThan(1e-5);
        const zb = hf.origin.z + i * c; // horizontal border
        s.sample(zf - hf.origin.z + hf.origin.x, zb - e, A);
        s.sample(zf - hf.origin.z + hf.origin.x, zb + e, B);
        expect(Math.abs(A.h - B.h)).toBeLessThan(1e-5);
        expect(Math.abs(A.dhdx - B.dhdx)).toBeLessThan(1e-5);
        expect(Math.abs(A.dhdz - B.dhdz)).toBeLessThan(1e-5);
      }
    }
  });

  it('analytic normals match central differences (with and without detail layer)', () => {
    const hf = noiseField(33, 3);
    const weight = SurfaceMap.uniform('gravel', 33, 33, 2, hf.origin).field('detailAmplitudeM');
    for (const detail of [null, DetailLayer.random(createRng(5), { amplitude: 1, weight })]) {
      const s = new BSplineSurface(hf, detail);
      const out = S();
      const rng = createRng(99);
      const e = 1e-4;
      for (let k = 0; k < 500; k++) {
        const x = s.minX + 0.5 + rng() * (s.maxX - s.minX - 1);
        const z = s.minZ + 0.5 + rng() * (s.maxZ - s.minZ - 1);
        s.sample(x, z, out);
        const gx = (s.height(x + e, z) - s.height(x - e, z)) / (2 * e);
        const gz = (s.height(x, z + e) - s.height(x, z - e)) / (2 * e);
        const inv = 1 / Math.hypot(gx, 1, gz);
        expect(Math.abs(out.nx + gx * inv)).toBeLessThan(1e-5);
        expect(Math.abs(out.ny - inv)).toBeLessThan(1e-5);
        expect(Math.abs(out.nz + gz * inv)).toBeLessThan(1e-5);
        expect(Math.abs(Math.hypot(out.nx, out.ny, out.nz) - 1)).toBeLessThan(1e-12);
        expect(out.h).toBeCloseTo(s.height(x, z), 12);
      }
    }
  });

  it('a detail weight on the macro grid is evaluated with it (shared basis): the same bits as two separate evaluations', () => {
    const hf = noiseField(33, 3);
    const weight = new BSplineGrid(noiseField(33, 8, 2, 1).heights, 33, 33, 2, hf.origin.x, hf.origin.z);
    const detail = DetailLayer.random(createRng(5), { amplitude: 0.5, weight });
    const s = new BSplineSurface(hf, detail);
    expect(s.grid.sameGeometry(weight)).toBe(true);
    const rng = createRng(12);
    const fused = S(), apart = S(), w1 = S(), w2 = S(), m = S();
    for (let k = 0; k < 2000; k++) {
      // a margin of 3 m past every border: the clamped spans and zero cross-border gradients as well
      const x = s.minX - 3 + rng() * (s.maxX - s.minX + 6);
      const z = k % 50 === 0 ? s.minZ + 2 * (k % 17) : s.minZ - 3 + rng() * (s.maxZ - s.minZ + 6);
      s.sample(x, z, fused);
      s.grid.evalInto(x, z, apart);
      detail.addInto(x, z, apart);
      expect([fused.h, fused.dhdx, fused.dhdz]).toEqual([apart.h, apart.dhdx, apart.dhdz]);
      expect(s.height(x, z)).toBe(apart.h);
      s.grid.evalPairInto(weight, x, z, m, w1);
      weight.evalInto(x, z, w2);
      expect([w1.h, w1.dhdx, w1.dhdz]).toEqual([w2.h, w2.dhdx, w2.dhdz]);
    }
    // a weight on another grid is evaluated on its own
    const coarse = new BSplineGrid(noiseField(17, 8, 4, 1).heights, 17, 17, 4, hf.origin.x, hf.origin.z);
    expect(coarse.sameGeometry(s.grid)).toBe(false);
  });

  it('sampleMany equals sample', () => {
    const hf = noiseField(17, 4);
    const s = new BSplineSurface(hf);
    const n = 100;
    const xs = new Float64Array(n), zs = new Float64Array(n);
    const rng = createRng(1);
    for (let k = 0; k < n; k++) { xs[k] = s.minX + rng() * 32; zs[k] = s.minZ + rng() * 32; }
    const out = { h: new Float64Array(n), nx: new Float64Array(n), ny: new Float64Array(n), nz: new Float64Array(n) };
    s.sampleMany(xs, zs, out);
    const o = S();
    for (let k = 0; k < n; k++) {
      s.sample(xs[k]!, zs[k]!, o);
      expect(out.h[k]).toBe(o.h);
      expect(out.ny[k]).toBe(o.ny);
    }
  });

  it('raycast hits the surface', () => {
    const hf = noiseField(33, 8, 2, 5);
    const s = new BSplineSurface(hf);
    const rng = createRng(2);
    for (let k = 0; k < 100; k++) {
      const o = { x: s.minX + 10 + rng() * 40, y: 30, z: s.minZ + 10 + rng() * 40 };
      const d = { x: rng() - 0.5, y: -1, z: rng() - 0.5 };
      const hit = s.raycast(o, d, 200);
      expect(hit).not.toBeNull();
      expect(Math.abs(hit!.y - s.height(hit!.x, hit!.z))).toBeLessThan(1e-4);
      const len = Math.hypot(d.x, d.y, d.z);
      expect(Math.abs(o.x + (d.x / len) * hit!.distance - hit!.x)).toBeLessThan(1e-9);
    }
    expect(s.raycast({ x: 0, y: 100, z: 20 }, { x: 0, y: 1, z: 0 }, 50)).toBeNull();
  });
});

describe('Heightfield', () => {
  it('round-trips through a 16-bit PNG', () => {
    const hf = noiseField(33, 1);
    const png = hf.toPng();
    const back = Heightfield.fromPng(png.bytes, { cellSize: 2, heightScale: png.heightScale, heightOffset: png.heightOffset }, 'h.png');
    expect(back.width).toBe(33);
    for (let i = 0; i < hf.heights.length; i++) expect(Math.abs(back.heights[i]! - hf.heights[i]!)).toBeLessThan(png.heightScale / 65535);
  });

  it('rejects bad images with errors naming file, field, expected and found', () => {
    const meta = { cellSize: 1, heightScale: 10, heightOffset: 0 };
    const eight = encodeGrayPng(new Uint8Array(33 * 33), 33, 33, 8);
    expect(() => Heightfield.fromPng(eight, meta, 'a.png')).toThrow(TerrainError);
    expect(() => Heightfield.fromPng(eight, meta, 'a.png')).toThrow(/a\.png.*bit depth.*16-bit.*8-bit/);
    const rect = encodeGrayPng(new Uint16Array(33 * 17), 33, 17, 16);
    expect(() => Heightfield.fromPng(rect, meta, 'b.png')).toThrow(/b\.png.*square.*33×17/);
    const odd = encodeGrayPng(new Uint16Array(30 * 30), 30, 30, 16);
    expect(() => Heightfield.fromPng(odd, meta, 'c.png')).toThrow(/c\.png.*2ⁿ\+1.*30×30/);
    const ok = encodeGrayPng(new Uint16Array(33 * 33), 33, 33, 16);
    expect(() => Heightfield.fromPng(ok, { ...meta, size: 65 }, 'd.png')).toThrow(/d\.png.*65×65.*33×33/);
    expect(() => Heightfield.fromPng(ok, undefined, 'e.png')).toThrow(/e\.png.*metadata.*missing/);
    expect(() => Heightfield.fromPng(ok, { cellSize: 1, heightOffset: 0 } as never, 'f.png')).toThrow(/f\.png.*heightScale.*missing/);
    expect(() => Heightfield.fromFloat32(new Float32Array(5), 2, 2, { cellSize: 1 }, 'g')).toThrow(/g.*heights.*4.*5/);
  });
});

describe('SurfaceMap', () => {
  it('looks up codes and interpolates properties smoothly', () => {
    const codes = new Uint8Array(17 * 17).fill(1);
    for (let j = 0; j < 17; j++) for (let i = 0; i < 8; i++) codes[j * 17 + i] = 0;
    const m = new SurfaceMap(17, 17, 1, { x: 0, z: 0 }, codes);
    expect(m.surfaceIdAt(2, 5)).toBe('tarmac');
    expect(m.surfaceIdAt(12, 5)).toBe('gravel');
    const a = m.property('detailAmplitudeM', 2, 8);
    const b = m.property('detailAmplitudeM', 14, 8);
    const mid = m.property('detailAmplitudeM', 7.5, 8);
    expect(a).toBeCloseTo(0.003, 6);
    expect(b).toBeCloseTo(0.03, 6);
    expect(mid).toBeGreaterThan(a);
    expect(mid).toBeLessThan(b);
    const bad = encodeGrayPng(new Uint8Array(4).fill(9), 2, 2, 8);
    expect(() => SurfaceMap.fromPng(bad, { cellSize: 1, origin: { x: 0, z: 0 } }, 's.png')).toThrow(/s\.png.*surface code.*9/);
  });
});
