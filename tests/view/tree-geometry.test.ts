/**
 * Generated trees (src/systems/view/tree-geometry.ts): every species has fewer triangles at each coarser level
 * (the point of a level of detail), every index names a vertex, the unit tree spans height 0..1, and each
 * graphics preset switches to the impostor further out the higher the preset (and within its scenery distance,
 * or the impostor would never be seen).
 */
import { describe, expect, it } from 'vitest';
import { buildTreeGeometry, speciesAt, treeLevelAt, triangleCount, TREE_LEVELS, TREE_SPECIES } from '../../src/systems/view/tree-geometry';
import { GRAPHICS, GRAPHICS_PRESETS } from '../../src/systems/view/graphics-presets';

/** Vertex heights are built from exact ring heights; allow float rounding only. */
const EPS = 1e-9;

describe('tree geometry', () => {
  for (const sp of TREE_SPECIES)
    it(`${sp}: triangles strictly decrease level by level, indices in range, height 0..1`, () => {
      const counts: number[] = [];
      for (let l = 0; l < TREE_LEVELS; l++) {
        const g = buildTreeGeometry(sp, l);
        const nv = g.positions.length / 3;
        expect(g.colors.length).toBe(nv * 4);
        expect(g.indices.length % 3).toBe(0);
        for (const i of g.indices) expect(i >= 0 && i < nv).toBe(true);
        const ys = g.positions.filter((_, i) => i % 3 === 1);
        expect(Math.min(...ys)).toBeCloseTo(0, 9);
        expect(Math.abs(Math.max(...ys) - 1)).toBeLessThan(EPS);
        counts.push(triangleCount(g));
      }
      for (let l = 1; l < TREE_LEVELS; l++) expect(counts[l]!).toBeLessThan(counts[l - 1]!);
      // the impostor is two crossed silhouettes: at most 16 triangles, a third of the near mesh or less
      expect(counts[TREE_LEVELS - 1]!).toBeLessThanOrEqual(Math.min(16, counts[0]! / 3));
    });

  it('picks the level by distance at the preset switch points', () => {
    for (const name of GRAPHICS_PRESETS) {
      const [a, b] = GRAPHICS[name].treeLodM;
      expect(a).toBeLessThan(b);
      expect(b).toBeLessThan(GRAPHICS[name].sceneryDistanceM);
      expect(treeLevelAt(a, [a, b])).toBe(0);
      expect(treeLevelAt(a + 0.01, [a, b])).toBe(1);
      expect(treeLevelAt(b, [a, b])).toBe(1);
      expect(treeLevelAt(b + 0.01, [a, b])).toBe(2);
    }
    expect(GRAPHICS.low.treeLodM[1]).toBeLessThan(GRAPHICS.medium.treeLodM[1]);
    expect(GRAPHICS.medium.treeLodM[1]).toBeLessThan(GRAPHICS.high.treeLodM[1]);
  });

  it('mixes species with the requested birch share over many positions', () => {
    const n = 20000;
    const counts = { spruce: 0, pine: 0, birch: 0 };
    for (let i = 0; i < n; i++) counts[speciesAt(i * 3.7, i * 1.3 + 11, 0.22)]++;
    // a binomial share over 20 000 draws: 4 σ = 4·sqrt(0.22·0.78/20000) ≈ 0.012
    expect(Math.abs(counts.birch / n - 0.22)).toBeLessThan(0.012);
    expect(counts.pine).toBeGreaterThan(n * 0.25);
    expect(counts.spruce).toBeGreaterThan(n * 0.3);
  });
});
