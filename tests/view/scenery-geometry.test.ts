/**
 * Generated scenery meshes (issue 18, stage dressing): normals and shapes. A lit surface is only as bright as its
 * normal lets it be, so every tree crown's normals must point away from the trunk (the lathes were lit from
 * below before, grey-dark under snow), the spruce's cones also upward, the impostors up; the boulders' normals
 * away from their middle; the edge post's sides away from its axis and its tops up. Each boulder variant has its
 * own lumps, and the variants are picked evenly over positions.
 */
import { describe, expect, it } from 'vitest';
import { buildTreeGeometry, TREE_LEVELS, TREE_SPECIES, type TreeGeometry } from '../../src/systems/view/tree-geometry';
import { buildPostGeometry, buildRockGeometry, POST_BANDS, rockVariantAt, ROCK_VARIANTS } from '../../src/systems/view/scenery-geometry';
import { outwardNormals } from '../../src/systems/view/outward-normals';

/** Float rounding of a normalised sum. */
const EPS = 1e-9;

function checkUnit(g: TreeGeometry): void {
  expect(g.normals.length).toBe(g.positions.length);
  for (let v = 0; v < g.normals.length; v += 3) expect(Math.abs(Math.hypot(g.normals[v]!, g.normals[v + 1]!, g.normals[v + 2]!) - 1)).toBeLessThan(EPS);
}

describe('outward normals', () => {
  it('turn a face wound either way away from the centre (unit cube, both windings)', () => {
    // one quad of the x = 1 face, wound both ways: the normal is +x whatever the winding
    const pos = [1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1];
    for (const idx of [[0, 1, 2, 0, 2, 3], [0, 2, 1, 0, 3, 2]]) {
      const n = outwardNormals(pos, idx, () => [0.5, 0.5, 0.5]);
      for (let v = 0; v < 4; v++) expect(n.slice(3 * v, 3 * v + 3)).toEqual([1, 0, 0]);
    }
  });
});

describe('tree normals', () => {
  for (const sp of TREE_SPECIES)
    it(`${sp}: lathe normals point away from the trunk, impostor normals up`, () => {
      for (let l = 0; l < TREE_LEVELS; l++) {
        for (const snowy of [false, true]) {
          const g = buildTreeGeometry(sp, l, snowy);
          checkUnit(g);
          for (let v = 0; v < g.positions.length; v += 3) {
            const x = g.positions[v]!, z = g.positions[v + 2]!;
            const nx = g.normals[v]!, ny = g.normals[v + 1]!, nz = g.normals[v + 2]!;
            if (l === TREE_LEVELS - 1) expect([nx, ny, nz]).toEqual([0, 1, 0]);
            else if (Math.hypot(x, z) > 1e-9) expect(nx * x + nz * z).toBeGreaterThan(0);
            else expect(ny).toBeGreaterThan(0); // on the axis: a tip
            // a spruce tier is a cone narrowing upward: its outward normal also looks up
            if (sp === 'spruce' && l < TREE_LEVELS - 1 && g.positions[v + 1]! > 0.2) expect(ny).toBeGreaterThan(0);
          }
        }
      }
    });
});

describe('boulders and posts', () => {
  it('boulder variants: normals away from the middle, each variant its own shape, picked evenly', () => {
    const shapes = new Set<string>();
    for (let v = 0; v < ROCK_VARIANTS; v++) {
      const g = buildRockGeometry(v);
      checkUnit(g);
      for (const i of g.indices) expect(i).toBeLessThan(g.positions.length / 3);
      for (let k = 0; k < g.positions.length; k += 3) {
        const dx = g.positions[k]!, dy = g.positions[k + 1]! - 0.3, dz = g.positions[k + 2]!;
        expect(g.normals[k]! * dx + g.normals[k + 1]! * dy + g.normals[k + 2]! * dz).toBeGreaterThan(0);
      }
      shapes.add(g.positions.map((p) => p.toFixed(4)).join());
      expect(buildRockGeometry(v).positions).toEqual(g.positions); // deterministic
    }
    expect(shapes.size).toBe(ROCK_VARIANTS);
    // 30,000 positions on a 0.37 m lattice: each variant 1/ROCK_VARIANTS of them within 3 %
    const counts = new Array<number>(ROCK_VARIANTS).fill(0);
    for (let i = 0; i < 30000; i++) counts[rockVariantAt((i % 173) * 0.37 - 30, Math.floor(i / 173) * 0.37 - 30)]!++;
    for (const c of counts) expect(Math.abs(c / 30000 - 1 / ROCK_VARIANTS)).toBeLessThan(0.03);
  });

  it('edge post: 1 m tall, 1 m across, its bands in order with the reflector on top, sides outward and tops up', () => {
    const g = buildPostGeometry();
    checkUnit(g);
    const ys = g.positions.filter((_, i) => i % 3 === 1);
    expect(Math.min(...ys)).toBe(0);
    expect(Math.max(...ys)).toBe(1);
    for (let k = 0; k < g.positions.length; k += 3) {
      const x = g.positions[k]!, y = g.positions[k + 1]!, z = g.positions[k + 2]!;
      const n = [g.normals[k]!, g.normals[k + 1]!, g.normals[k + 2]!];
      // each face's vertices are its own: a top vertex has an up normal, a side vertex a horizontal one facing out
      if (n[1]! > 0.5) expect(n).toEqual([0, 1, 0]);
      else {
        expect(Math.abs(n[1]!)).toBeLessThan(EPS);
        expect(n[0]! * x + n[2]! * z).toBeGreaterThan(0);
      }
      // colour: the band the vertex's face belongs to (tops at a band's top height)
      expect(Math.max(Math.abs(x), Math.abs(z))).toBeCloseTo(0.5, 12);
      expect(POST_BANDS.some(([top]) => y <= top + EPS)).toBe(true);
    }
    const top = POST_BANDS[POST_BANDS.length - 1]!;
    expect(top[0]).toBe(1);
    // the top vertices (y = 1) carry the reflector's colour
    for (let k = 0; k < g.positions.length; k += 3)
      if (g.positions[k + 1] === 1) expect(g.colors.slice((4 * k) / 3, (4 * k) / 3 + 3)).toEqual([...top[1]]);
  });
});
