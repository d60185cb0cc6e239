/**
 * Snow on trees (issue 18: "snow only where the surface map says snow"). Geometry: a snowy tree is the bare
 * tree with the same positions and triangles, its bark colours untouched and every other vertex colour mixed
 * toward SNOW_WHITE by SNOW_COVER (c' = c + (white − c)·cover, exact in floating point to 1e-12). Placement, on
 * the shipped stages through StageView on a NullEngine: a tree instance is in a snow group exactly when the
 * surface map's node at its foot is snow, so snow-ridge's trees on snow are all white and forest-gravel and
 * col-tarmac (no snow in their maps) have none.
 */
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { buildTreeGeometry, SNOW_COVER, SNOW_WHITE, TREE_LEVELS, TREE_SPECIES } from '../../src/systems/view/tree-geometry';
import { isSnowCovered, StageView } from '../../src/systems/view/stage-view';
import { loadStageFromDir } from '../../terrain/node';

/** Float rounding of one multiply-add per channel. */
const EPS = 1e-12;
const BARK = [[0.32, 0.22, 0.14], [0.86, 0.84, 0.78]];

describe('snow-covered tree geometry', () => {
  for (const sp of TREE_SPECIES)
    it(`${sp}: same shape, bark unchanged, crown mixed toward snow white by SNOW_COVER`, () => {
      for (let l = 0; l < TREE_LEVELS; l++) {
        const bare = buildTreeGeometry(sp, l);
        const snowy = buildTreeGeometry(sp, l, true);
        expect(snowy.positions).toEqual(bare.positions);
        expect(snowy.indices).toEqual(bare.indices);
        let crown = 0;
        for (let i = 0; i < bare.colors.length; i += 4) {
          const c = bare.colors.slice(i, i + 3);
          const isBark = BARK.some((b) => b.every((v, k) => v === c[k]));
          for (let k = 0; k < 3; k++) {
            const want = isBark ? c[k]! : c[k]! + (SNOW_WHITE[k]! - c[k]!) * SNOW_COVER;
            expect(Math.abs(snowy.colors[i + k]! - want)).toBeLessThan(EPS);
          }
          if (!isBark) crown++;
        }
        expect(crown).toBeGreaterThan(0);
      }
    });
});

/** Tree instances per stage in snow groups and in bare groups, and the count the surface-map rule predicts. */
function snowCounts(id: string): { snowInstances: number; bareInstances: number; want: number; trees: number } {
  const stage = loadStageFromDir(`src/content/stages/${id}`);
  const view = new StageView(new Scene(new NullEngine()), stage, null);
  view.setGraphics({ treeDensity: 1, sceneryDistanceM: Infinity, treeLodM: [Infinity, Infinity] });
  // level 0 cell meshes hold every instance of their cell (the other levels repeat them)
  const level0 = view.meshes.filter((m) => /^tree-\w+L0_/.test(m.name));
  const sum = (snow: boolean): number => level0.filter((m) => /Snow/.test(m.name) === snow).reduce((a, m) => a + m.thinInstanceCount, 0);
  const trees = stage.scenery.filter((s) => s.kind === 'tree');
  const want = trees.filter((t) => isSnowCovered(stage, t.x, t.z)).length;
  view.dispose();
  return { snowInstances: sum(true), bareInstances: sum(false), want, trees: trees.length };
}

describe('snow only where the surface map says snow', () => {
  it('snow-ridge: the trees standing on snow are exactly the snow-covered instances', () => {
    const c = snowCounts('snow-ridge');
    expect(c.want).toBeGreaterThan(0);
    expect(c.snowInstances).toBe(c.want);
    expect(c.snowInstances + c.bareInstances).toBe(c.trees);
  });

  for (const id of ['forest-gravel', 'col-tarmac'])
    it(`${id}: no snow in the surface map, no snowy tree`, () => {
      const c = snowCounts(id);
      expect(c.trees).toBeGreaterThan(0);
      expect(c.want).toBe(0);
      expect(c.snowInstances).toBe(0);
      expect(c.bareInstances).toBe(c.trees);
    });
});
