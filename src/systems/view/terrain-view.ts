/**
 * Terrain rendering: the stage's B-spline surface cut into square blocks, each with LOD levels (vertex step
 * 1, 2, 4, 8 cells) built on demand and picked every frame by camera distance. Cracks between blocks of
 * different levels are hidden by skirts (a strip hanging 2 m down along every block edge), which avoids
 * index stitching. Colour is a CPU splat into vertex colours: the surface map gives the ground type
 * (tarmac / gravel / snow / ice road, grass), then rock by slope and snow by altitude are blended on top,
 * with a little hashed per-vertex variation so large areas do not look flat.
 */
import type { Scene } from '@babylonjs/core/scene';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import type { Stage } from '../../../terrain/stage';
import type { SurfaceId } from '../../../terrain/surface';

export const BLOCK_CELLS = 32;
export const LOD_STEPS = [1, 2, 4, 8] as const;
/** Distance (m) beyond which level k+1 is used, per level. */
const LOD_DIST = [90, 200, 420];

/** Linear RGB base colours of ground types (what the splat blends). */
export const GROUND_COLORS: Record<SurfaceId | 'rock' | 'snowcap' | 'dirt', [number, number, number]> = {
  tarmac: [0.22, 0.22, 0.23],
  gravel: [0.56, 0.47, 0.35],
  snow: [0.9, 0.92, 0.96],
  ice: [0.72, 0.8, 0.88],
  grass: [0.25, 0.38, 0.15],
  rock: [0.42, 0.4, 0.38],
  snowcap: [0.93, 0.94, 0.97],
  dirt: [0.4, 0.33, 0.22],
};

function hash2(i: number, j: number): number {
  let h = (i * 374761393 + j * 668265263) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

interface Block {
  bi: number;
  bj: number;
  cx: number;
  cz: number;
  levels: (Mesh | null)[];
  current: number;
}

export class TerrainView {
  readonly blocks: Block[] = [];
  readonly material: StandardMaterial;
  private readonly minH: number;
  private readonly maxH: number;

  constructor(
    private readonly scene: Scene,
    private readonly stage: Stage,
  ) {
    const hf = stage.heightfield;
    let lo = Infinity;
    let hi = -Infinity;
    for (const h of hf.heights) {
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
    this.minH = lo;
    this.maxH = hi;
    const mat = new StandardMaterial('terrainMat', scene);
    mat.diffuseColor = Color3.White();
    mat.specularColor = new Color3(0.04, 0.04, 0.04);
    mat.ambientColor = new Color3(0.5, 0.5, 0.5);
    mat.backFaceCulling = false; // winding-agnostic (skirts are two-sided anyway)
    this.material = mat;
    const nbx = Math.ceil((hf.width - 1) / BLOCK_CELLS);
    const nbz = Math.ceil((hf.depth - 1) / BLOCK_CELLS);
    for (let bj = 0; bj < nbz; bj++) {
      for (let bi = 0; bi < nbx; bi++) {
        const cx = hf.origin.x + (bi + 0.5) * BLOCK_CELLS * hf.cellSize;
        const cz = hf.origin.z + (bj + 0.5) * BLOCK_CELLS * hf.cellSize;
        this.blocks.push({ bi, bj, cx, cz, levels: LOD_STEPS.map(() => null), current: -1 });
      }
    }
  }

  /** Pick each block's level from its distance to the camera; build levels lazily. */
  update(camX: number, camZ: number, budget = 24): void {
    let built = 0;
    const half = BLOCK_CELLS * this.stage.heightfield.cellSize * 0.5;
    for (const b of this.blocks) {
      const d = Math.max(0, Math.hypot(b.cx - camX, b.cz - camZ) - half);
      let lvl = 0;
      while (lvl < LOD_DIST.length && d > LOD_DIST[lvl]!) lvl++;
      if (lvl === b.current) continue;
      if (!b.levels[lvl]) {
        if (built >= budget && b.current >= 0) continue; // spread the work over frames
        b.levels[lvl] = this.buildBlock(b, LOD_STEPS[lvl]!);
        built++;
      }
      if (b.current >= 0) b.levels[b.current]!.setEnabled(false);
      b.levels[lvl]!.setEnabled(true);
      b.current = lvl;
    }
  }

  /** Triangles currently drawn by the terrain. */
  triangleCount(): number {
    let n = 0;
    for (const b of this.blocks) if (b.current >= 0) n += b.levels[b.current]!.getTotalIndices() / 3;
    return n;
  }

  private buildBlock(b: Block, step: number): Mesh {
    const hf = this.stage.heightfield;
    const surf = this.stage.bspline;
    const sm = this.stage.surfaceMap;
    const i0 = b.bi * BLOCK_CELLS;
    const j0 = b.bj * BLOCK_CELLS;
    const i1 = Math.min(i0 + BLOCK_CELLS, hf.width - 1);
    const j1 = Math.min(j0 + BLOCK_CELLS, hf.depth - 1);
    const nx = Math.floor((i1 - i0) / step) + 1 + ((i1 - i0) % step ? 1 : 0);
    const nz = Math.floor((j1 - j0) / step) + 1 + ((j1 - j0) % step ? 1 : 0);
    const gi = (k: number): number => Math.min(i0 + k * step, i1);
    const gj = (k: number): number => Math.min(j0 + k * step, j1);
    const n = nx * nz;
    const skirt = 2 * (nx + nz) * 2; // border vertices duplicated (lower copy)
    const total = n + skirt;
    const xs = new Float64Array(n);
    const zs = new Float64Array(n);
    for (let r = 0; r < nz; r++)
      for (let c = 0; c < nx; c++) {
        xs[r * nx + c] = hf.origin.x + gi(c) * hf.cellSize;
        zs[r * nx + c] = hf.origin.z + gj(r) * hf.cellSize;
      }
    const h = new Float64Array(n);
    const nxA = new Float64Array(n);
    const nyA = new Float64Array(n);
    const nzA = new Float64Array(n);
    surf.sampleMany(xs, zs, { h, nx: nxA, ny: nyA, nz: nzA });
    const positions = new Float32Array(total * 3);
    const normals = new Float32Array(total * 3);
    const colors = new Float32Array(total * 4);
    const span = Math.max(1, this.maxH - this.minH);
    const snowLine = this.minH + 0.78 * span;
    for (let k = 0; k < n; k++) {
      positions[3 * k] = xs[k]!;
      positions[3 * k + 1] = h[k]!;
      positions[3 * k + 2] = zs[k]!;
      normals[3 * k] = nxA[k]!;
      normals[3 * k + 1] = nyA[k]!;
      normals[3 * k + 2] = nzA[k]!;
      const id = sm.surfaceIdAt(xs[k]!, zs[k]!);
      const base = GROUND_COLORS[id];
      const v = hash2(Math.round(xs[k]! / hf.cellSize), Math.round(zs[k]! / hf.cellSize));
      let r = base[0];
      let g = base[1];
      let bl = base[2];
      if (id === 'grass') {
        // grass: vary toward dry/dirt patches
        const t = 0.25 * v;
        r += (GROUND_COLORS.dirt[0] - r) * t;
        g += (GROUND_COLORS.dirt[1] - g) * t;
        bl += (GROUND_COLORS.dirt[2] - bl) * t;
        // rock by slope: ny < cos 35° fully rock
        const slope = Math.min(1, Math.max(0, (0.93 - nyA[k]!) / (0.93 - 0.8)));
        r += (GROUND_COLORS.rock[0] - r) * slope;
        g += (GROUND_COLORS.rock[1] - g) * slope;
        bl += (GROUND_COLORS.rock[2] - bl) * slope;
        // snow by altitude (less on steep faces)
        const sn = Math.min(1, Math.max(0, (h[k]! - snowLine) / (0.08 * span))) * (1 - 0.7 * slope);
        r += (GROUND_COLORS.snowcap[0] - r) * sn;
        g += (GROUND_COLORS.snowcap[1] - g) * sn;
        bl += (GROUND_COLORS.snowcap[2] - bl) * sn;
      }
      const shade = 0.92 + 0.16 * v;
      colors[4 * k] = r * shade;
      colors[4 * k + 1] = g * shade;
      colors[4 * k + 2] = bl * shade;
      colors[4 * k + 3] = 1;
    }
    const indices: number[] = [];
    for (let r = 0; r < nz - 1; r++)
      for (let c = 0; c < nx - 1; c++) {
        const a = r * nx + c;
        // right-handed scene, +Y up: counter-clockwise seen from above
        indices.push(a, a + nx, a + 1, a + 1, a + nx, a + nx + 1);
      }
    // skirts: walk the border loop, duplicate each vertex 2 m lower, and join with a strip
    const loop: number[] = [];
    for (let c = 0; c < nx; c++) loop.push(c);
    for (let r = 1; r < nz; r++) loop.push(r * nx + nx - 1);
    for (let c = nx - 2; c >= 0; c--) loop.push((nz - 1) * nx + c);
    for (let r = nz - 2; r >= 1; r--) loop.push(r * nx);
    let v = n;
    const lower: number[] = [];
    for (const k of loop) {
      positions[3 * v] = positions[3 * k]!;
      positions[3 * v + 1] = positions[3 * k + 1]! - 2;
      positions[3 * v + 2] = positions[3 * k + 2]!;
      normals[3 * v] = normals[3 * k]!;
      normals[3 * v + 1] = normals[3 * k + 1]!;
      normals[3 * v + 2] = normals[3 * k + 2]!;
      for (let q = 0; q < 4; q++) colors[4 * v + q] = colors[4 * k + q]!;
      lower.push(v++);
    }
    for (let s = 0; s < loop.length; s++) {
      const a = loop[s]!;
      const b2 = loop[(s + 1) % loop.length]!;
      const la = lower[s]!;
      const lb = lower[(s + 1) % loop.length]!;
      // both windings: skirts are seen from either side
      indices.push(a, la, b2, b2, la, lb, a, b2, la, b2, lb, la);
    }
    const mesh = new Mesh(`terrain_${b.bi}_${b.bj}_s${step}`, this.scene);
    const vd = new VertexData();
    vd.positions = positions.subarray(0, v * 3);
    vd.normals = normals.subarray(0, v * 3);
    vd.colors = colors.subarray(0, v * 4);
    vd.indices = indices;
    vd.applyToMesh(mesh, false);
    mesh.material = this.material;
    mesh.isPickable = false;
    mesh.receiveShadows = true;
    mesh.freezeWorldMatrix();
    mesh.setEnabled(false);
    return mesh;
  }

  lowestHeight(): number {
    return this.minH;
  }

  dispose(): void {
    for (const b of this.blocks) for (const m of b.levels) m?.dispose();
    this.material.dispose();
  }
}
