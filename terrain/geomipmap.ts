/**
 * Geometrical mipmapping (de Boer 2000; Deák §3.1). The heightmap is cut into blocks of
 * (2ⁿ+1)² vertices held in a quadtree with bounding boxes. Each block has LOD levels 0..maxLevel; level L
 * samples every 2^(L−subdivide) heightmap cells, so with `subdivide` = k > 0 the finest k levels tessellate
 * the B-spline surface finer than the heightmap (Deák: "more detailed tessellation on the fly").
 *
 * Per block and level: geometric error δ_L (max vertical distance between the level's mesh and the surface,
 * de Boer §2.3.1) and switch distance D_L = δ_L · C with C = v_res / (2 τ tan(fovY/2)) (de Boer's
 * C = A/T, A = n/|t|, T = 2τ/v_res), τ = allowed screen error in pixels. A block uses the coarsest level with
 * D_L ≤ d, d = distance from the camera to the block's bounding box (a stronger guarantee than de Boer's
 * centre distance: the projected error is ≤ τ everywhere in the block). Neighbouring levels are then limited
 * to differ by at most one (exact 4-neighbour L1 distance transform: two raster passes), and a block whose
 * neighbour is one level coarser drops every other vertex on that edge (edge-variant index buffer), so no
 * T-junctions → no cracks. Frustum culling tests the quadtree AABBs against the 6 planes of viewProj.
 */
import type { BSplineSurface, SurfaceSample } from './bspline';
import { TerrainError } from './errors';
import { isPow2Plus1 } from './heightfield';
import { dlog2, dtan } from './dmath';

/** Edge-variant flags: bit set → the neighbour on that side is one level coarser (stitch that edge). */
export const EDGE_NEG_X = 1;
export const EDGE_POS_X = 2;
export const EDGE_NEG_Z = 4;
export const EDGE_POS_Z = 8;

export interface GeoMipmapOptions {
  /** Vertices per block side at heightmap resolution, 2ⁿ+1 (default 65). */
  blockSize?: number;
  /** Extra levels finer than the heightmap (B-spline tessellation), default 0. */
  subdivide?: number;
}

export interface LodCamera {
  position: { x: number; y: number; z: number };
  /** Column-major 4×4 view-projection (Babylon/WebGL layout: translation in m[12..14]). */
  viewProj: ArrayLike<number>;
  fovY: number;
  viewportHeightPx: number;
}

export interface SelectedBlock {
  id: number;
  bx: number;
  bz: number;
  level: number;
  /** EDGE_* flags (neighbour coarser on that side). */
  edgeMask: number;
  /** Distance from the camera to the block AABB, m. */
  distance: number;
}

export interface BlockMesh {
  /** World xyz per vertex; vertex (c, r) at index r·(N+1) + c, c along +X, r along +Z. */
  positions: Float32Array;
  normals: Float32Array;
}

/**
 * Max |surface − bilinear from every s-th vertex| over the heightmap nodes of block (bx, bz) (B cells a side)
 * of the W × W node heights `tru`: the geometric error of a coarser level, m.
 */
function coarseLevelError(tru: Float32Array, W: number, B: number, bx: number, bz: number, s: number): number {
  let err = 0;
  for (let j = bz * B; j <= (bz + 1) * B; j++) {
    const j0 = bz * B + Math.min(B - s, Math.floor((j - bz * B) / s) * s);
    const fz = (j - j0) / s;
    for (let i = bx * B; i <= (bx + 1) * B; i++) {
      const i0 = bx * B + Math.min(B - s, Math.floor((i - bx * B) / s) * s);
      const fx = (i - i0) / s;
      const h00 = tru[j0 * W + i0]!, h10 = tru[j0 * W + i0 + s]!, h01 = tru[(j0 + s) * W + i0]!, h11 = tru[(j0 + s) * W + i0 + s]!;
      const interp = (1 - fz) * ((1 - fx) * h00 + fx * h10) + fz * ((1 - fx) * h01 + fx * h11);
      err = Math.max(err, Math.abs(tru[j * W + i]! - interp));
    }
  }
  return err;
}

export class GeoMipmap {
  readonly surface: BSplineSurface;
  readonly blockSize: number;
  readonly subdivide: number;
  /** Blocks per side. */
  readonly blocksPerSide: number;
  readonly blockCount: number;
  readonly maxLevel: number;
  /** Heightmap cells per block side. */
  readonly blockCells: number;
  /** δ per block and level: delta[id·(maxLevel+1) + L], m. */
  readonly delta: Float32Array;
  /** AABB per block: minY, maxY (x/z follow from the block grid). */
  readonly minY: Float32Array;
  readonly maxY: Float32Array;
  /** Full-resolution triangle count (every block at the heightmap level). */
  readonly fullResTriangles: number;
  private readonly cell: number;
  private readonly ox: number;
  private readonly oz: number;
  private readonly indexCache = new Map<number, Uint32Array>();
  private readonly levels: Int32Array;
  private readonly treeDepth: number;
  /** quadtree y-bounds per depth (depth d has 2^d × 2^d nodes). */
  private readonly treeMin: Float32Array[] = [];
  private readonly treeMax: Float32Array[] = [];
  private readonly planes = new Float64Array(24);

  constructor(surface: BSplineSurface, opts: GeoMipmapOptions = {}) {
    const hf = surface.heightfield;
    const bs = opts.blockSize ?? 65;
    const k = opts.subdivide ?? 0;
    if (!isPow2Plus1(bs)) throw new TerrainError('<geomipmap>', 'blockSize', '2ⁿ+1 vertices (e.g. 33, 65, 129)', String(bs));
    if (hf.width !== hf.depth || (hf.width - 1) % (bs - 1) !== 0 || !isPow2Plus1(hf.width)) {
      throw new TerrainError('<geomipmap>', 'heightfield size', `a square 2ⁿ+1 map divisible into ${bs - 1}-cell blocks`, `${hf.width}×${hf.depth}`);
    }
    if (!Number.isInteger(k) || k < 0 || k > 3) throw new TerrainError('<geomipmap>', 'subdivide', 'an integer 0..3', String(k));
    this.surface = surface;
    this.blockSize = bs;
    this.subdivide = k;
    this.blockCells = bs - 1;
    this.blocksPerSide = (hf.width - 1) / this.blockCells;
    this.blockCount = this.blocksPerSide ** 2;
    this.maxLevel = dlog2(this.blockCells) + k;
    this.cell = hf.cellSize;
    this.ox = hf.origin.x;
    this.oz = hf.origin.z;
    this.levels = new Int32Array(this.blockCount);
    this.fullResTriangles = 2 * (hf.width - 1) * (hf.depth - 1);
    this.treeDepth = dlog2(this.blocksPerSide);

    // surface heights at the heightmap nodes (the "true" surface the levels approximate)
    const W = hf.width;
    const g = surface.grid;
    const tru = new Float32Array(W * W);
    for (let j = 0; j < W; j++) for (let i = 0; i < W; i++) tru[j * W + i] = g.value(this.ox + i * this.cell, this.oz + j * this.cell);
    const nl = this.maxLevel + 1;
    const delta = new Float32Array(this.blockCount * nl);
    const minY = new Float32Array(this.blockCount).fill(Infinity);
    const maxY = new Float32Array(this.blockCount).fill(-Infinity);
    const B = this.blockCells;
    const P = g.p;
    const pw = W + 2;
    const detailAmp = surface.detail ? surface.detail.amplitude * 0.1 : 0; // detail weight ≤ 0.1 m/m in practice
    for (let bz = 0; bz < this.blocksPerSide; bz++) {
      for (let bx = 0; bx < this.blocksPerSide; bx++) {
        const id = bz * this.blocksPerSide + bx;
        let d2 = 0;
        for (let j = bz * B; j <= (bz + 1) * B; j++) {
          for (let i = bx * B; i <= (bx + 1) * B; i++) {
            const v = tru[j * W + i]!;
            if (v < minY[id]!) minY[id] = v;
            if (v > maxY[id]!) maxY[id] = v;
            // second differences of the control points bound the spline's curvature
            const c = (j + 1) * pw + i + 1;
            d2 = Math.max(d2, Math.abs(P[c - 1]! - 2 * P[c]! + P[c + 1]!), Math.abs(P[c - pw]! - 2 * P[c]! + P[c + pw]!));
          }
        }
        // levels finer than / equal to the heightmap: linear interpolation error ≤ s²/8 · max|h''| (s in cells)
        for (let L = 0; L <= k; L++) delta[id * nl + L] = (d2 / 8) * 4 ** (L - k);
        // coarser levels: max |surface − bilinear from the level's vertices| over the heightmap nodes
        for (let L = k + 1; L < nl; L++) {
          const err = coarseLevelError(tru, W, B, bx, bz, 1 << (L - k));
          delta[id * nl + L] = Math.max(err, delta[id * nl + L - 1]!);
        }
        minY[id] = minY[id]! - detailAmp - delta[id * nl]!;
        maxY[id] = maxY[id]! + detailAmp + delta[id * nl]!;
      }
    }
    this.delta = delta;
    this.minY = minY;
    this.maxY = maxY;
    this.buildBoundsTree();
  }

  /** Quadtree y-bounds: depth treeDepth is the blocks, each coarser depth the min / max of its 4 children. */
  private buildBoundsTree(): void {
    const { minY, maxY } = this;
    this.treeMin[this.treeDepth] = minY;
    this.treeMax[this.treeDepth] = maxY;
    for (let d = this.treeDepth - 1; d >= 0; d--) {
      const n = 1 << d;
      const mn = new Float32Array(n * n), mx = new Float32Array(n * n);
      const cmn = this.treeMin[d + 1]!, cmx = this.treeMax[d + 1]!;
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < n; i++) {
          const a = 2 * j * 2 * n + 2 * i;
          mn[j * n + i] = Math.min(cmn[a]!, cmn[a + 1]!, cmn[a + 2 * n]!, cmn[a + 2 * n + 1]!);
          mx[j * n + i] = Math.max(cmx[a]!, cmx[a + 1]!, cmx[a + 2 * n]!, cmx[a + 2 * n + 1]!);
        }
      }
      this.treeMin[d] = mn;
      this.treeMax[d] = mx;
    }
  }

  /** Cells per block side at level L (in mesh quads). */
  quadsPerSide(level: number): number {
    return (this.blockCells << this.subdivide) >> level;
  }

  /** World AABB of a block. */
  blockBounds(id: number): { minX: number; maxX: number; minY: number; maxY: number; minZ: number; maxZ: number } {
    const bx = id % this.blocksPerSide, bz = Math.floor(id / this.blocksPerSide);
    const s = this.blockCells * this.cell;
    return { minX: this.ox + bx * s, maxX: this.ox + (bx + 1) * s, minY: this.minY[id]!, maxY: this.maxY[id]!, minZ: this.oz + bz * s, maxZ: this.oz + (bz + 1) * s };
  }

  /** de Boer's C = v_res / (2 τ tan(fovY/2)): D_L = δ_L · C. */
  static switchFactor(fovY: number, viewportHeightPx: number, maxErrorPx: number): number {
    return viewportHeightPx / (2 * maxErrorPx * dtan(fovY / 2));
  }

  /** Switch distance of block `id` at level L. */
  switchDistance(id: number, level: number, C: number): number {
    return this.delta[id * (this.maxLevel + 1) + level]! * C;
  }

  private extractPlanes(m: ArrayLike<number>): void {
    // Gribb–Hartmann on clip = M·v, rows r_i = (m[i], m[4+i], m[8+i], m[12+i]). Near uses the GL
    // convention −w ≤ z (a superset of D3D's 0 ≤ z, so culling stays conservative for both).
    const p = this.planes;
    const row = (i: number, c: number): number => m[c * 4 + i]!;
    let o = 0;
    for (const [i, sgn] of [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]] as const) {
      for (let c = 0; c < 4; c++) p[o + c] = row(3, c) + sgn * row(i, c);
      o += 4;
    }
  }

  /** True if the AABB lies entirely outside one frustum plane. */
  private boxOutside(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): boolean {
    const p = this.planes;
    for (let o = 0; o < 24; o += 4) {
      const a = p[o]!, b = p[o + 1]!, c = p[o + 2]!, d = p[o + 3]!;
      // positive vertex
      const x = a >= 0 ? maxX : minX, y = b >= 0 ? maxY : minY, z = c >= 0 ? maxZ : minZ;
      if (a * x + b * y + c * z + d < 0) return true;
    }
    return false;
  }

  /**
   * LOD selection + culling for one frame. Returns the visible blocks with their level and edge flags.
   * Levels are chosen for all blocks (so neighbour constraints hold across the view edge), then culled.
   */
  select(camera: LodCamera, maxErrorPx: number): SelectedBlock[] {
    const C = GeoMipmap.switchFactor(camera.fovY, camera.viewportHeightPx, maxErrorPx);
    const nb = this.blocksPerSide;
    const nl = this.maxLevel + 1;
    const lv = this.levels;
    const s = this.blockCells * this.cell;
    const { x: cx, y: cy, z: cz } = camera.position;
    const dist = new Float64Array(this.blockCount);
    for (let bz = 0; bz < nb; bz++) {
      for (let bx = 0; bx < nb; bx++) {
        const id = bz * nb + bx;
        const x0 = this.ox + bx * s, z0 = this.oz + bz * s;
        const dx = cx < x0 ? x0 - cx : cx > x0 + s ? cx - x0 - s : 0;
        const dz = cz < z0 ? z0 - cz : cz > z0 + s ? cz - z0 - s : 0;
        const dy = cy < this.minY[id]! ? this.minY[id]! - cy : cy > this.maxY[id]! ? cy - this.maxY[id]! : 0;
        const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        dist[id] = d;
        let L = 0;
        while (L + 1 < nl && this.delta[id * nl + L + 1]! * C <= d) L++;
        lv[id] = L;
      }
    }
    // neighbours differ by ≤ 1: L = min over blocks b' of (L(b') + |b − b'|₁), two raster passes
    for (let bz = 0; bz < nb; bz++) {
      for (let bx = 0; bx < nb; bx++) {
        const id = bz * nb + bx;
        if (bx > 0) lv[id] = Math.min(lv[id]!, lv[id - 1]! + 1);
        if (bz > 0) lv[id] = Math.min(lv[id]!, lv[id - nb]! + 1);
      }
    }
    for (let bz = nb - 1; bz >= 0; bz--) {
      for (let bx = nb - 1; bx >= 0; bx--) {
        const id = bz * nb + bx;
        if (bx < nb - 1) lv[id] = Math.min(lv[id]!, lv[id + 1]! + 1);
        if (bz < nb - 1) lv[id] = Math.min(lv[id]!, lv[id + nb]! + 1);
      }
    }
    // quadtree frustum culling
    this.extractPlanes(camera.viewProj);
    const out: SelectedBlock[] = [];
    const visit = (d: number, i: number, j: number): void => {
      const n = 1 << d;
      const size = (nb / n) * s;
      const x0 = this.ox + i * size, z0 = this.oz + j * size;
      if (this.boxOutside(x0, this.treeMin[d]![j * n + i]!, z0, x0 + size, this.treeMax[d]![j * n + i]!, z0 + size)) return;
      if (d < this.treeDepth) {
        visit(d + 1, 2 * i, 2 * j);
        visit(d + 1, 2 * i + 1, 2 * j);
        visit(d + 1, 2 * i, 2 * j + 1);
        visit(d + 1, 2 * i + 1, 2 * j + 1);
        return;
      }
      const id = j * nb + i;
      const L = lv[id]!;
      let mask = 0;
      if (i > 0 && lv[id - 1]! > L) mask |= EDGE_NEG_X;
      if (i < nb - 1 && lv[id + 1]! > L) mask |= EDGE_POS_X;
      if (j > 0 && lv[id - nb]! > L) mask |= EDGE_NEG_Z;
      if (j < nb - 1 && lv[id + nb]! > L) mask |= EDGE_POS_Z;
      out.push({ id, bx: i, bz: j, level: L, edgeMask: mask, distance: dist[id]! });
    };
    visit(0, 0, 0);
    return out;
  }

  /** Level of every block from the last `select` (including culled ones). */
  lastLevels(): Int32Array {
    return this.levels;
  }

  /** Vertex positions (sampled from the B-spline surface) and analytic normals of a block at a level. */
  blockMesh(blockId: number, level: number): BlockMesh {
    const N = this.quadsPerSide(level);
    const bx = blockId % this.blocksPerSide, bz = Math.floor(blockId / this.blocksPerSide);
    const fine = this.blockCells << this.subdivide; // fine steps per block
    const fineCell = this.cell / (1 << this.subdivide);
    const step = 1 << level;
    const positions = new Float32Array((N + 1) * (N + 1) * 3);
    const normals = new Float32Array((N + 1) * (N + 1) * 3);
    const smp: SurfaceSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
    let o = 0;
    for (let r = 0; r <= N; r++) {
      // global fine indices → identical x/z (and therefore heights) on edges shared by neighbours
      const gz = bz * fine + r * step;
      const z = this.oz + gz * fineCell;
      for (let c = 0; c <= N; c++) {
        const gx = bx * fine + c * step;
        const x = this.ox + gx * fineCell;
        this.surface.sample(x, z, smp);
        positions[o] = x;
        positions[o + 1] = smp.h;
        positions[o + 2] = z;
        normals[o] = smp.nx;
        normals[o + 1] = smp.ny;
        normals[o + 2] = smp.nz;
        o += 3;
      }
    }
    return { positions, normals };
  }

  /**
   * Triangle list for a level and edge variant (shared by all blocks). Triangles wind counter-clockwise seen
   * from +Y (geometric normal up in the right-handed frame). Each 2×2 quad is a fan around its centre; on a
   * stitched edge the fan skips the edge midpoint (de Boer's "dropping edge vertices").
   */
  indices(level: number, edgeMask: number): Uint32Array {
    const key = level * 16 + edgeMask;
    const cached = this.indexCache.get(key);
    if (cached) return cached;
    const N = this.quadsPerSide(level);
    const V = N + 1;
    const out: number[] = [];
    const tri = (a: [number, number], b: [number, number], c: [number, number]): void => {
      // (c, r) = (x, z); ensure (b − a) × (c − a) has +Y: y = dz_b·dx_c − dx_b·dz_c > 0
      const cross = (b[1] - a[1]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[1] - a[1]);
      const ia = a[1] * V + a[0], ib = b[1] * V + b[0], ic = c[1] * V + c[0];
      if (cross > 0) out.push(ia, ib, ic);
      else out.push(ia, ic, ib);
    };
    if (N === 1) {
      tri([0, 0], [1, 0], [1, 1]);
      tri([0, 0], [1, 1], [0, 1]);
    } else {
      for (let qz = 0; qz < N; qz += 2) {
        for (let qx = 0; qx < N; qx += 2) {
          const m: [number, number] = [qx + 1, qz + 1];
          // sides: [corner A, mid, corner B, on block edge & masked?]
          const sides: [[number, number], [number, number], [number, number], boolean][] = [
            [[qx, qz], [qx + 1, qz], [qx + 2, qz], qz === 0 && (edgeMask & EDGE_NEG_Z) !== 0],
            [[qx + 2, qz], [qx + 2, qz + 1], [qx + 2, qz + 2], qx + 2 === N && (edgeMask & EDGE_POS_X) !== 0],
            [[qx + 2, qz + 2], [qx + 1, qz + 2], [qx, qz + 2], qz + 2 === N && (edgeMask & EDGE_POS_Z) !== 0],
            [[qx, qz + 2], [qx, qz + 1], [qx, qz], qx === 0 && (edgeMask & EDGE_NEG_X) !== 0],
          ];
          for (const [a, mid, b, skip] of sides) {
            if (skip) tri(m, a, b);
            else {
              tri(m, a, mid);
              tri(m, mid, b);
            }
          }
        }
      }
    }
    const arr = Uint32Array.from(out);
    this.indexCache.set(key, arr);
    return arr;
  }

  triangleCount(level: number, edgeMask: number): number {
    return this.indices(level, edgeMask).length / 3;
  }
}
