/**
 * Scenery cells (src/systems/view/scenery-cells.ts), the graphics presets' lever on the forest: the kept subset
 * is nested (raising the density only adds trees) and even (any stretch of consecutive instances keeps its
 * share: the golden-ratio Weyl sequence i·φ mod 1 has discrepancy O(log N / N) because φ's continued fraction
 * has bounded partial quotients, Kuipers & Niederreiter, Uniform Distribution of Sequences, 1974, ch. 1 §3 and
 * ch. 2 §2; for windows of up to 400 instances that is at most 3 instances off N·density). On a NullEngine
 * with test-short's scenery: the instance count follows the density for the trees and bushes out of a car's
 * reach only (those within ALWAYS_DRAWN_EDGE_M of the road edge are always drawn: they collide), and cells
 * beyond the scenery distance are disabled.
 */
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { keepInstance, SCENERY_CELL_M } from '../../src/systems/view/scenery-cells';
import { isWithinReach, sceneryGroupKey, StageView } from '../../src/systems/view/stage-view';
import { loadStageFromDir } from '../../terrain/node';
import { GRAPHICS } from '../../src/systems/view/graphics-presets';
import { treeLevelAt } from '../../src/systems/view/tree-geometry';

/** Most instances a window may be off N·density (see the header). */
const WINDOW_SLACK = 3;

describe('keepInstance', () => {
  it('keeps none at 0, all at 1, and a nested subset in between', () => {
    for (let i = 0; i < 5000; i++) {
      expect(keepInstance(i, 0)).toBe(false);
      expect(keepInstance(i, 1)).toBe(true);
      if (keepInstance(i, 0.35)) expect(keepInstance(i, 0.7)).toBe(true);
    }
  });

  it('every window of consecutive instances keeps its share within a few instances', () => {
    for (const d of [GRAPHICS.low.treeDensity, GRAPHICS.medium.treeDensity])
      for (const n of [20, 100, 400])
        for (let s = 0; s < 4000; s += 13) {
          let c = 0;
          for (let i = s; i < s + n; i++) if (keepInstance(i, d)) c++;
          expect(Math.abs(c - n * d)).toBeLessThanOrEqual(WINDOW_SLACK);
        }
  });
});

describe('StageView scenery cells on test-short', () => {
  const stage = loadStageFromDir('src/content/stages/test-short');
  const scene = new Scene(new NullEngine());
  const view = new StageView(scene, stage, null);
  const thinned = stage.scenery.filter((s) => s.kind === 'tree' || s.kind === 'bush');
  const trees = stage.scenery.filter((s) => s.kind === 'tree').length;
  const others = stage.scenery.filter((s) => s.kind === 'rock' || s.kind === 'fence' || s.kind === 'marker' || s.kind === 'post').length;
  const cells = (): { name: string; on: boolean; x: number; z: number; n: number }[] =>
    view.meshes.filter((m) => /_(tree-\w+|bush|rock\d|fence|marker|post)_/.test(m.name)).map((m) => {
      const c = m.getBoundingInfo().boundingBox.centerWorld;
      return { name: m.name, on: m.isEnabled(false), x: c.x, z: c.z, n: m.thinInstanceCount };
    });
  /** Instances held counted per item (a tree cell holds every mesh level with the same instances: count level 0). */
  const drawnItems = (): number => cells().filter((c) => !/L[12]_/.test(c.name)).reduce((a, c) => a + c.n, 0);
  const FAR: readonly [number, number] = [Infinity, Infinity];

  it('has trees and bushes to thin', () => {
    expect(thinned.length).toBeGreaterThan(100);
  });

  it('density 1 draws every item; the low preset draws every tree within reach of the road, its share of the rest, every rock, fence, marker and post', () => {
    view.setGraphics({ treeDensity: 1, sceneryDistanceM: Infinity, treeLodM: FAR });
    expect(drawnItems()).toBe(thinned.length + others);
    const d = GRAPHICS.low.treeDensity;
    view.setGraphics({ treeDensity: d, sceneryDistanceM: Infinity, treeLodM: FAR });
    // the same rule per (group, cell), instances in stage order: within reach, or kept by the golden-ratio subset
    const index = new Map<string, number>();
    let want = others, reach = 0, far = 0, farKept = 0;
    for (const it of thinned) {
      const cell = `${sceneryGroupKey(stage, it)}|${Math.floor(it.x / SCENERY_CELL_M)},${Math.floor(it.z / SCENERY_CELL_M)}`;
      const i = index.get(cell) ?? 0;
      index.set(cell, i + 1);
      const pinned = isWithinReach(stage, it);
      if (pinned) reach++;
      else far++;
      if (pinned || keepInstance(i, d)) want++;
      if (!pinned && keepInstance(i, d)) farKept++;
    }
    expect(drawnItems()).toBe(want);
    expect(reach).toBeGreaterThan(0);
    expect(far).toBeGreaterThan(0);
    // the trees out of reach keep about their share (their indices are a sparse subset of the windows above)
    expect(Math.abs(farKept / far - d)).toBeLessThan(0.1);
    expect(trees).toBeGreaterThan(0);
  });

  it('hides exactly the cells further than the scenery distance, and draws one tree level per cell by distance', () => {
    const d = 200;
    const lod = GRAPHICS.medium.treeLodM;
    view.setGraphics({ treeDensity: 1, sceneryDistanceM: d, treeLodM: lod });
    const x = stage.start.x, z = stage.start.z;
    view.updateVisibility(x, z);
    const all = cells().filter((c) => c.n > 0);
    let near = 0;
    for (const c of all) {
      const [ix, iz] = c.name.split('_').slice(-1)[0]!.split(',').map(Number) as [number, number];
      const cx = (ix + 0.5) * SCENERY_CELL_M, cz = (iz + 0.5) * SCENERY_CELL_M;
      const dist = Math.hypot(Math.max(0, Math.abs(x - cx) - SCENERY_CELL_M / 2), Math.max(0, Math.abs(z - cz) - SCENERY_CELL_M / 2));
      const level = /L(\d)_/.exec(c.name);
      const want = dist <= d && (!level || Number(level[1]) === treeLevelAt(dist, lod));
      expect(c.on, c.name).toBe(want);
      if (c.on) near++;
    }
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(all.length);
  });
});
