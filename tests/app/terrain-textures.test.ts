import { describe, expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { DETAIL_SIZE, GROUND_LAYERS, detailTexture, splatMaps } from '../../src/systems/view/terrain-textures';
import { SURFACE_IDS } from '../../terrain/surface';

describe('generated ground textures', () => {
  it('detail textures tile without a seam: the wrap-around step is no larger than the steps inside', () => {
    const N = DETAIL_SIZE;
    for (const layer of GROUND_LAYERS) {
      const t = detailTexture(layer);
      const lum = (i: number, j: number): number => t[(j * N + i) * 4]! + t[(j * N + i) * 4 + 1]! + t[(j * N + i) * 4 + 2]!;
      // mean |Δ| between neighbouring columns, and across the wrap (column N−1 → 0); same for rows
      let inner = 0, wrap = 0, innerR = 0, wrapR = 0;
      for (let j = 0; j < N; j++) {
        for (let i = 0; i < N - 1; i++) inner += Math.abs(lum(i + 1, j) - lum(i, j));
        wrap += Math.abs(lum(0, j) - lum(N - 1, j));
      }
      for (let i = 0; i < N; i++) {
        for (let j = 0; j < N - 1; j++) innerR += Math.abs(lum(i, j + 1) - lum(i, j));
        wrapR += Math.abs(lum(i, 0) - lum(i, N - 1));
      }
      inner /= N * (N - 1);
      wrap /= N;
      innerR /= N * (N - 1);
      wrapR /= N;
      // periodic noise: the seam is statistically a neighbour step (a non-tiling texture jumps ~10× more)
      expect(wrap, layer).toBeLessThan(2 * inner + 1);
      expect(wrapR, layer).toBeLessThan(2 * innerR + 1);
    }
  });

  it('splat maps follow the surface map (roads) and the slope / altitude rules', () => {
    const stage = loadStageFromDir('src/content/stages/test-short');
    const s = splatMaps(stage);
    const texel = (x: number, z: number): number => {
      const i = Math.floor(((x - s.originX) / s.extentX) * s.size);
      const j = Math.floor(((z - s.originZ) / s.extentZ) * s.size);
      return (j * s.size + i) * 4;
    };
    let road = 0;
    let off = 0;
    for (let d = stage.start.distanceM; d < stage.finish.distanceM; d += 25) {
      const p = stage.road.poseAt(d);
      const o = texel(p.x, p.z);
      const id = SURFACE_IDS[stage.surfaceMap.surfaceAt(p.x, p.z)];
      // layer weights: R gravel, G tarmac, B snow, A = 1 − ice
      expect([s.map2[o], s.map2[o + 1], s.map2[o + 2], s.map2[o + 3]]).toEqual([id === 'gravel' ? 255 : 0, id === 'tarmac' ? 255 : 0, id === 'snow' ? 255 : 0, id === 'ice' ? 0 : 255]);
      if (id !== 'grass') road++;
      // 30 m to the side of the road: grass (no road layer)
      const ox = p.x + 30 * Math.cos(p.heading), oz = p.z - 30 * Math.sin(p.heading);
      if (SURFACE_IDS[stage.surfaceMap.surfaceAt(ox, oz)] === 'grass') {
        const q = texel(ox, oz);
        expect([s.map2[q], s.map2[q + 1], s.map2[q + 2], s.map2[q + 3]]).toEqual([0, 0, 0, 255]);
        off++;
      }
      // base layer always present
      expect(s.map1[o]).toBe(255);
    }
    expect(road).toBeGreaterThan(10);
    expect(off).toBeGreaterThan(5);
    // rock weight is a ramp of the heightfield gradient: 0 below |∇h| = 0.4, 1 above 0.7
    const hf = stage.heightfield;
    let checked = 0;
    for (let j = 2; j < hf.depth - 2; j += 7) {
      for (let i = 2; i < hf.width - 2; i += 7) {
        const h = (a: number, b: number): number => hf.heights[b * hf.width + a]!;
        const g = Math.hypot((h(i + 1, j) - h(i - 1, j)) / (2 * hf.cellSize), (h(i, j + 1) - h(i, j - 1)) / (2 * hf.cellSize));
        const o = texel(hf.origin.x + i * hf.cellSize + 0.01, hf.origin.z + j * hf.cellSize + 0.01);
        if (g < 0.35) expect(s.map1[o + 2]).toBe(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
