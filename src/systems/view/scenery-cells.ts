/**
 * Stage scenery drawn as thin instances, cut into square cells so that a graphics preset can hide what is far
 * away and thin out the forest: one mesh per (cell, prototype), frustum-culled by Babylon on its own bounds,
 * hidden past the preset's scenery distance, and its trees and bushes reduced to a fixed, well-spread subset
 * (`keepInstance`: the golden-ratio sequence, so 35 % of the trees are 35 % of every stretch of road); pinned
 * instances (the trees within a car's reach of the road) are drawn at every density.
 */
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Matrix } from '@babylonjs/core/Maths/math.vector';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { treeLevelAt } from './tree-geometry';

/** Cell edge, m: small enough to cull by distance, large enough to keep the draw calls few. */
export const SCENERY_CELL_M = 160;
/** Golden ratio conjugate: i·φ mod 1 spreads any prefix of instances evenly over [0, 1). */
const PHI = 0.6180339887498949;

/** Whether instance `i` of a cell is drawn at `density` (0..1): a low-discrepancy subset, nested as density grows. */
export function keepInstance(i: number, density: number): boolean {
  return (i * PHI) % 1 < density;
}

/**
 * One prototype set and whether the density setting thins it. With `levels`, the prototypes are the mesh levels
 * of detail of one object, nearest first, and a cell draws the one its distance picks (`treeLevelAt`); without,
 * a cell draws all of them (e.g. parts with different materials).
 */
export interface SceneryGroup {
  protos: Mesh[];
  mats: Matrix[];
  thinned: boolean;
  levels?: boolean;
  /** Per instance (parallel to mats): drawn at every density (a tree a car can reach is never hidden). */
  pinned?: boolean[];
}

interface Cell {
  cx: number;
  cz: number;
  meshes: Mesh[];
  mats: Matrix[];
  pinned: boolean[];
  thinned: boolean;
  levels: boolean;
  /** Instances kept at the current density (a cell with none is never enabled: it would draw its prototype). */
  kept: number;
}

export class SceneryCells {
  private readonly cells: Cell[] = [];
  private density = 1;
  private distanceM = Infinity;
  /** Distances where a levelled group switches from level 0 to 1 and from 1 to 2 (the impostor), m. */
  private lodM: readonly [number, number] = [Infinity, Infinity];
  /** Instances drawn at the current density (all cells, all prototypes). */
  instances = 0;

  constructor(groups: Iterable<[string, SceneryGroup]>) {
    for (const [kind, g] of groups) {
      for (const p of g.protos) p.setEnabled(false);
      if (g.mats.length === 0) continue;
      const byCell = new Map<string, { mats: Matrix[]; pinned: boolean[] }>();
      g.mats.forEach((m, i) => {
        const key = `${Math.floor(m.m[12]! / SCENERY_CELL_M)},${Math.floor(m.m[14]! / SCENERY_CELL_M)}`;
        let list = byCell.get(key);
        if (!list) byCell.set(key, (list = { mats: [], pinned: [] }));
        list.mats.push(m);
        list.pinned.push(g.pinned?.[i] ?? false);
      });
      for (const [key, { mats, pinned }] of byCell) {
        const [ix, iz] = key.split(',').map(Number) as [number, number];
        const meshes = g.protos.map((p) => {
          const c = p.clone(`${p.name}_${kind}_${key}`, null, true)!;
          // its own vertex buffers: clones sharing one geometry share its cached vertex array objects, which
          // hold the first clone's instance buffer (WebGL drew every cell with it, or with nothing after a refill)
          c.makeGeometryUnique();
          c.setEnabled(true);
          c.isPickable = false;
          c.receiveShadows = true;
          return c;
        });
        this.cells.push({ cx: (ix + 0.5) * SCENERY_CELL_M, cz: (iz + 0.5) * SCENERY_CELL_M, meshes, mats, pinned, thinned: g.thinned, levels: g.levels ?? false, kept: mats.length });
      }
    }
    this.fill();
  }

  /** All cell meshes (the stage view's mesh list, triangle count, disposal). */
  get meshes(): Mesh[] {
    return this.cells.flatMap((c) => c.meshes);
  }

  /** Tree and bush density 0..1, the distance past which cells are hidden and the level switch distances, m. */
  configure(density: number, distanceM: number, lodM: readonly [number, number] = this.lodM): void {
    const refill = density !== this.density;
    this.density = density;
    this.distanceM = distanceM;
    this.lodM = lodM;
    if (refill) this.fill();
  }

  /**
   * Hides the cells whose nearest point is further than the scenery distance from (x, z), and shows one mesh
   * level of each levelled cell, picked by the distance to the cell's nearest point.
   */
  updateVisibility(x: number, z: number): void {
    const half = SCENERY_CELL_M / 2;
    for (const c of this.cells) {
      const dx = Math.max(0, Math.abs(x - c.cx) - half);
      const dz = Math.max(0, Math.abs(z - c.cz) - half);
      const d = Math.hypot(dx, dz);
      const on = c.kept > 0 && d <= this.distanceM;
      const level = c.levels ? treeLevelAt(d, this.lodM) : -1;
      c.meshes.forEach((m, i) => {
        const show = on && (level < 0 || i === level);
        if (m.isEnabled(false) !== show) m.setEnabled(show);
      });
    }
  }

  /** Cells of levelled groups currently drawing each level (index = level), for tests and the perf overlay. */
  levelCounts(): number[] {
    const counts: number[] = [];
    for (const c of this.cells)
      if (c.levels)
        c.meshes.forEach((m, i) => {
          if (m.isEnabled(false)) counts[i] = (counts[i] ?? 0) + 1;
        });
    return counts;
  }

  /** Writes each cell's kept instances into its meshes' thin-instance buffers. */
  private fill(): void {
    this.instances = 0;
    for (const c of this.cells) {
      const kept = c.thinned ? c.mats.filter((_, i) => c.pinned[i] || keepInstance(i, this.density)) : c.mats;
      const buf = new Float32Array(Math.max(1, kept.length) * 16);
      kept.forEach((m, i) => m.copyToArray(buf, i * 16));
      for (const mesh of c.meshes) {
        mesh.thinInstanceSetBuffer('matrix', buf, 16, true);
        mesh.thinInstanceCount = kept.length;
        if (kept.length === 0) mesh.setEnabled(false);
        else mesh.thinInstanceRefreshBoundingInfo(false);
      }
      c.kept = kept.length;
      this.instances += kept.length * (c.levels ? 1 : c.meshes.length);
    }
  }
}
