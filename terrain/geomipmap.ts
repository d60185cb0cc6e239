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
import { isBoxOccluded, type OcclusionTree } from './geomipmap-occlusion';
import { minDepthOfBox, screenErrorModel, type ScreenErrorModel } from './geomipmap-projection';
import { sampleVertexGrid } from './vertex-grid';

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

/** Options of one `GeoMipmap.select`. */
export interface SelectOptions {
  /**
   * Leave out blocks hidden behind the terrain (horizon occlusion, geomipmap-occlusion.ts; default true).
   * Only valid when `camera` is the one that renders the selection.
   */
  occlusion?: boolean;
}

/**
 * Occlusion is used only while the eye is at least this far above the highest vertex the terrain under it can
 * be drawn with, m: the ray to a hidden point then leaves the eye above the drawn surface and crosses it well
 * beyond the game cameras' near planes (0.1 m).
 */
export const OCCLUSION_EYE_CLEARANCE_M = 0.5;

/** The occlusion test runs on quadtree nodes of at most this many blocks a side (and on every block). */
const OCCLUSION_NODE_BLOCKS = 4;

/** Sub-cells per block side of the error metric: a level's error is located to 1/SUB_CELLS of the block side. */
export const SUB_CELLS = 4;

/**
 * Height at node (i, j) of the triangles a level draws over block (bx, bz) (B nodes a side, level vertices
 * every s-th node) from the W × W node heights `tru`: each 2s × 2s group of the level is a fan of 8
 * triangles round its centre (`GeoMipmap.indices`), a block of one quad two triangles split along
 * (0, 0)–(1, 1). Linear on the triangle holding the node. `stitched`: where that triangle's side lies on the
 * block edge, the stitched variant's one triangle (centre, both corners) that skips the edge midpoint.
 */
function drawnLevelHeight(tru: Float32Array, W: number, B: number, bx: number, bz: number, s: number, i: number, j: number, stitched: boolean): number {
  const li = i - bx * B, lj = j - bz * B, o = bz * B * W + bx * B; // o: the block's first node
  if (s === B) {
    const u = li / B, v = lj / B, h00 = tru[o]!, h10 = tru[o + B]!, h01 = tru[o + B * W]!, h11 = tru[o + B * W + B]!;
    return u >= v ? h00 + u * (h10 - h00) + v * (h11 - h10) : h00 + v * (h01 - h00) + u * (h11 - h01);
  }
  const g = 2 * s;
  const gx = Math.min(B - g, Math.floor(li / g) * g) + s, gz = Math.min(B - g, Math.floor(lj / g) * g) + s; // fan centre
  const u = (li - gx) / s, v = (lj - gz) / s, sx = u >= 0 ? s : -s, sz = v >= 0 ? s : -s, au = Math.abs(u), av = Math.abs(v);
  const hc = tru[o + gz * W + gx]!;
  if (au >= av) {
    const ex = gx + sx; // the side's line x = ex
    if (stitched && (ex === 0 || ex === B)) {
      const a = tru[o + (gz - s) * W + ex]!, b = tru[o + (gz + s) * W + ex]!;
      return hc + au * ((a + b) / 2 - hc) + (v * (b - a)) / 2;
    }
    // triangle (centre, edge midpoint on the dominant axis, corner)
    const mid = tru[o + gz * W + ex]!;
    return hc + au * (mid - hc) + av * (tru[o + (gz + sz) * W + ex]! - mid);
  }
  const ez = gz + sz;
  if (stitched && (ez === 0 || ez === B)) {
    const a = tru[o + ez * W + gx - s]!, b = tru[o + ez * W + gx + s]!;
    return hc + av * ((a + b) / 2 - hc) + (u * (b - a)) / 2;
  }
  const mid = tru[o + ez * W + gx]!;
  return hc + av * (mid - hc) + au * (tru[o + ez * W + gx + sx]! - mid);
}

/**
 * Side of the block edge (0 −X, 1 +X, 2 −Z, 3 +Z) the triangle holding local node (li, lj) stitches on when
 * that neighbour is coarser, or −1 (an interior triangle, or a one-quad level, which never stitches).
 */
function stitchSideOf(B: number, s: number, li: number, lj: number): number {
  if (s === B) return -1;
  const g = 2 * s;
  const gx = Math.min(B - g, Math.floor(li / g) * g) + s, gz = Math.min(B - g, Math.floor(lj / g) * g) + s;
  const u = li - gx, v = lj - gz;
  const e = Math.abs(u) >= Math.abs(v) ? gx + Math.sign(u || 1) * s : gz + Math.sign(v || 1) * s;
  const base = Math.abs(u) >= Math.abs(v) ? 0 : 2;
  return e === 0 ? base : e === B ? base + 1 : -1;
}

/**
 * Error of a coarser level sampling every s-th node of block (bx, bz) (B cells a side) of the W × W node
 * heights `tru`, located per sub-cell: out[b·SUB_CELLS + a] = max |surface − the level's drawn triangles|
 * over the heightmap nodes in sub-cell (a, b) (a node on a sub-cell border counts in the lower one, whose
 * closed box holds it), m. Every level's triangles are unions of the full-resolution mesh's triangles (the
 * fans nest), so the difference is linear on each full-resolution triangle and its maximum is at a node:
 * this is the exact distance to the full-resolution mesh, not a bound. `stitch[side·SUB_CELLS + t]`: the same
 * with that side stitched, over the nodes of its stitched triangles in strip t along the edge (the sub-cell
 * row b = t for the ±X sides, column a = t for the ±Z sides).
 */
function coarseLevelSubErrors(tru: Float32Array, W: number, B: number, bx: number, bz: number, s: number, out: Float32Array, stitch: Float32Array): void {
  out.fill(0);
  stitch.fill(0);
  const subCells = B / SUB_CELLS;
  for (let j = bz * B; j <= (bz + 1) * B; j++) {
    const b = Math.min(SUB_CELLS - 1, Math.floor((j - bz * B) / subCells));
    for (let i = bx * B; i <= (bx + 1) * B; i++) {
      const a = Math.min(SUB_CELLS - 1, Math.floor((i - bx * B) / subCells));
      const k = b * SUB_CELLS + a;
      const h = tru[j * W + i]!;
      out[k] = Math.max(out[k]!, Math.abs(h - drawnLevelHeight(tru, W, B, bx, bz, s, i, j, false)));
      const side = stitchSideOf(B, s, i - bx * B, j - bz * B);
      if (side < 0) continue;
      const q = side * SUB_CELLS + (side < 2 ? b : a);
      stitch[q] = Math.max(stitch[q]!, Math.abs(h - drawnLevelHeight(tru, W, B, bx, bz, s, i, j, true)));
    }
  }
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
  /** δ per block and level (max over the block's sub-cells): delta[id·(maxLevel+1) + L], m. */
  readonly delta: Float32Array;
  /** δ per block, level and sub-cell: subDelta[(id·(maxLevel+1) + L)·SUB_CELLS² + b·SUB_CELLS + a], m. */
  readonly subDelta: Float32Array;
  /**
   * δ of a level's stitched triangles per block, level, side (0 −X, 1 +X, 2 −Z, 3 +Z) and strip along that
   * edge: stitchDelta[((id·(maxLevel+1) + L)·4 + side)·SUB_CELLS + t], m (used only where that neighbour is coarser).
   */
  readonly stitchDelta: Float32Array;
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
  private readonly subDepth = new Float64Array(SUB_CELLS * SUB_CELLS);
  private occlusionTree: OcclusionTree | null = null;
  /** Blocks inside the frustum but hidden behind the terrain at the last `select` (not returned). */
  lastOccludedBlocks = 0;

  constructor(surface: BSplineSurface, opts: GeoMipmapOptions = {}) {
    const hf = surface.heightfield;
    const bs = opts.blockSize ?? 65;
    const k = opts.subdivide ?? 0;
    if (!isPow2Plus1(bs) || bs - 1 < SUB_CELLS) throw new TerrainError('<geomipmap>', 'blockSize', `2ⁿ+1 vertices, at least ${SUB_CELLS + 1} (e.g. 17, 33, 65)`, String(bs));
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

    const nl = this.maxLevel + 1;
    this.delta = new Float32Array(this.blockCount * nl);
    this.subDelta = new Float32Array(this.blockCount * nl * SUB_CELLS * SUB_CELLS);
    this.stitchDelta = new Float32Array(this.blockCount * nl * 4 * SUB_CELLS);
    this.minY = new Float32Array(this.blockCount).fill(Infinity);
    this.maxY = new Float32Array(this.blockCount).fill(-Infinity);
    this.measureBlocks(surface);
    this.buildBoundsTree();
  }

  /** δ per block, level and sub-cell, and the blocks' y-bounds, from the surface heights at the heightmap nodes. */
  private measureBlocks(surface: BSplineSurface): void {
    const W = surface.heightfield.width, k = this.subdivide, nl = this.maxLevel + 1, B = this.blockCells;
    const g = surface.grid;
    const tru = new Float32Array(W * W);
    for (let j = 0; j < W; j++) for (let i = 0; i < W; i++) tru[j * W + i] = g.value(this.ox + i * this.cell, this.oz + j * this.cell);
    const { delta, subDelta, minY, maxY } = this;
    const S2 = SUB_CELLS * SUB_CELLS;
    const P = g.p;
    const pw = W + 2;
    const detailAmp = surface.detail ? surface.detail.amplitude * 0.1 : 0; // detail weight ≤ 0.1 m/m in practice
    const sub = new Float32Array(S2), stitch = new Float32Array(4 * SUB_CELLS), stitchDelta = this.stitchDelta;
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
        for (let L = 0; L <= k; L++) {
          delta[id * nl + L] = (d2 / 8) * 4 ** (L - k);
          subDelta.fill(delta[id * nl + L]!, (id * nl + L) * S2, (id * nl + L + 1) * S2);
          if (L === k) {
            // the heightmap level: its stitched edges skip a node, measured there like the coarser levels
            coarseLevelSubErrors(tru, W, B, bx, bz, 1, sub, stitch);
            stitchDelta.set(stitch, (id * nl + L) * 4 * SUB_CELLS);
          } else {
            // finer than the heightmap: a stitched edge spans twice the spacing, 4× the bound
            stitchDelta.fill(4 * delta[id * nl + L]!, (id * nl + L) * 4 * SUB_CELLS, (id * nl + L + 1) * 4 * SUB_CELLS);
          }
        }
        // coarser levels: max |surface − the level's drawn triangles| per sub-cell, never below the finer level's
        for (let L = k + 1; L < nl; L++) {
          coarseLevelSubErrors(tru, W, B, bx, bz, 1 << (L - k), sub, stitch);
          stitchDelta.set(stitch, (id * nl + L) * 4 * SUB_CELLS);
          const o = (id * nl + L) * S2;
          let e = 0;
          for (let q = 0; q < S2; q++) {
            subDelta[o + q] = Math.max(sub[q]!, subDelta[o - S2 + q]!);
            e = Math.max(e, subDelta[o + q]!);
          }
          delta[id * nl + L] = e;
        }
        minY[id] = minY[id]! - detailAmp - delta[id * nl]!;
        maxY[id] = maxY[id]! + detailAmp + delta[id * nl]!;
      }
    }
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

  /**
   * Least view depths (`view`, geomipmap-projection.ts) of the boxes of block `id`'s sub-cells (its y-range)
   * into `out` (SUB_CELLS², row along +X), m.
   */
  subCellDepths(id: number, view: ScreenErrorModel, out: Float64Array): void {
    const bx = id % this.blocksPerSide, bz = Math.floor(id / this.blocksPerSide);
    const sub = (this.blockCells * this.cell) / SUB_CELLS;
    const x00 = this.ox + bx * this.blockCells * this.cell, z00 = this.oz + bz * this.blockCells * this.cell;
    const lo = this.minY[id]!, hi = this.maxY[id]!;
    for (let b = 0; b < SUB_CELLS; b++) {
      const z0 = z00 + b * sub;
      for (let a = 0; a < SUB_CELLS; a++) {
        const x0 = x00 + a * sub;
        out[b * SUB_CELLS + a] = minDepthOfBox(view, x0, lo, z0, x0 + sub, hi, z0 + sub);
      }
    }
  }

  /** True if every sub-cell of block `id` at `level` projects to ≤ τ: δ_sub · C ≤ z_sub (C = pxPerMetre / τ). */
  levelWithinError(id: number, level: number, C: number, subDepth: Float64Array): boolean {
    const S2 = SUB_CELLS * SUB_CELLS, o = (id * (this.maxLevel + 1) + level) * S2;
    for (let q = 0; q < S2; q++) if (this.subDelta[o + q]! * C > subDepth[q]!) return false;
    return true;
  }

  /**
   * Screen-space error of block `id` at `level` seen by `camera`, pixels: the max over its sub-cells of
   * δ_sub · pxPerMetre / z_sub (geomipmap-projection.ts; 0 where δ_sub = 0, Infinity for an error in a box
   * that reaches the eye's plane).
   */
  blockErrorPx(id: number, level: number, camera: LodCamera): number {
    const depth = new Float64Array(SUB_CELLS * SUB_CELLS);
    const view = screenErrorModel(camera.viewProj, camera.viewportHeightPx);
    this.subCellDepths(id, view, depth);
    const o = (id * (this.maxLevel + 1) + level) * SUB_CELLS * SUB_CELLS;
    let eps = 0;
    for (let q = 0; q < depth.length; q++) {
      const e = this.subDelta[o + q]!;
      if (e > 0) eps = Math.max(eps, depth[q]! > 0 ? (e * view.pxPerMetre) / depth[q]! : Infinity);
    }
    return eps;
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
  select(camera: LodCamera, maxErrorPx: number, opts: SelectOptions = {}): SelectedBlock[] {
    const C = GeoMipmap.switchFactor(camera.fovY, camera.viewportHeightPx, maxErrorPx);
    const nb = this.blocksPerSide;
    const eye = camera.position;
    const inView = this.cullBlocks(camera.viewProj, null);
    const view = screenErrorModel(camera.viewProj, camera.viewportHeightPx);
    // no projection (a stand-in eye with a zero matrix): the distance test alone
    const exact = Number.isFinite(view.pxPerMetre);
    const dist = this.chooseLevels(eye, C, exact ? inView : [], view, maxErrorPx);
    this.limitNeighbourLevels();
    if (exact) this.refineStitchedEdges(inView, view, view.pxPerMetre / maxErrorPx);
    const occlude = (opts.occlusion ?? true) && eye.y - this.drawnHeightBound(eye.x, eye.z) >= OCCLUSION_EYE_CLEARANCE_M;
    // levels are chosen first (occlusion does not change them, so edge masks and the error bound stay as they are)
    const visible = occlude ? this.cullBlocks(camera.viewProj, eye) : inView;
    if (!occlude) this.lastOccludedBlocks = 0;
    const lv = this.levels;
    const out: SelectedBlock[] = [];
    for (const id of visible) {
      const i = id % nb, j = (id - i) / nb;
      const L = lv[id]!;
      let mask = 0;
      if (i > 0 && lv[id - 1]! > L) mask |= EDGE_NEG_X;
      if (i < nb - 1 && lv[id + 1]! > L) mask |= EDGE_POS_X;
      if (j > 0 && lv[id - nb]! > L) mask |= EDGE_NEG_Z;
      if (j < nb - 1 && lv[id + nb]! > L) mask |= EDGE_POS_Z;
      out.push({ id, bx: i, bz: j, level: L, edgeMask: mask, distance: dist[id]! });
    }
    return out;
  }

  /**
   * Coarsest level within the error for every block: first by the block's δ at the distance to the whole
   * block (cheap, conservative), then, for visible blocks only, refined by the sub-cell test (each sub-cell's
   * δ at its own distance). Culled blocks keep the conservative level, which only makes them finer. Returns
   * the distance to each block's box, m.
   */
  private chooseLevels(eye: { x: number; y: number; z: number }, C: number, visible: readonly number[], view: ScreenErrorModel, maxErrorPx: number): Float64Array {
    const nb = this.blocksPerSide, nl = this.maxLevel + 1, s = this.blockCells * this.cell, lv = this.levels;
    const dist = new Float64Array(this.blockCount);
    for (let bz = 0; bz < nb; bz++) {
      const z0 = this.oz + bz * s;
      const dz = eye.z < z0 ? z0 - eye.z : eye.z > z0 + s ? eye.z - z0 - s : 0;
      for (let bx = 0; bx < nb; bx++) {
        const id = bz * nb + bx, x0 = this.ox + bx * s;
        const dx = eye.x < x0 ? x0 - eye.x : eye.x > x0 + s ? eye.x - x0 - s : 0;
        const dy = eye.y < this.minY[id]! ? this.minY[id]! - eye.y : eye.y > this.maxY[id]! ? eye.y - this.maxY[id]! : 0;
        const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        dist[id] = d;
        let L = 0;
        while (L + 1 < nl && this.delta[id * nl + L + 1]! * C <= d) L++;
        lv[id] = L;
      }
    }
    const Cv = view.pxPerMetre / maxErrorPx;
    for (const id of visible) {
      // from the distance test's level, down while it fails (it is not a bound off the view axis), then up
      let L = lv[id]!;
      this.subCellDepths(id, view, this.subDepth);
      while (L > 0 && !this.levelWithinError(id, L, Cv, this.subDepth)) L--;
      while (L + 1 < nl && this.levelWithinError(id, L + 1, Cv, this.subDepth)) L++;
      lv[id] = L;
    }
    return dist;
  }

  /**
   * A block whose neighbour is one level coarser draws that edge stitched (its fan triangles there skip the
   * edge midpoint), which has its own error (`stitchDelta`). Where that error is over τ the neighbour comes
   * down to the block's level (no stitch there); the neighbour limit then runs again. Levels only fall, so
   * this ends.
   */
  private refineStitchedEdges(inView: readonly number[], view: ScreenErrorModel, Cv: number): void {
    const nb = this.blocksPerSide, lv = this.levels;
    for (let changed = true; changed; ) {
      changed = false;
      for (const id of inView) {
        const L = lv[id]!, i = id % nb, j = (id - i) / nb;
        const nbrs = [i > 0 ? id - 1 : -1, i < nb - 1 ? id + 1 : -1, j > 0 ? id - nb : -1, j < nb - 1 ? id + nb : -1];
        let depths = false;
        for (let side = 0; side < 4; side++) {
          const n = nbrs[side]!;
          if (n < 0 || lv[n]! <= L) continue;
          if (!depths) this.subCellDepths(id, view, this.subDepth);
          depths = true;
          if (this.stitchWithinError(id, L, side, Cv, this.subDepth)) continue;
          lv[n] = L;
          changed = true;
        }
      }
      if (changed) this.limitNeighbourLevels();
    }
  }

  /**
   * True if block `id` at `level` stitched on `side` projects to ≤ τ: each strip's δ · Cv ≤ the least depth of
   * its sub-cells in the block's half on that side (a stitched fan triangle reaches at most to its centre, half
   * a block in).
   */
  private stitchWithinError(id: number, level: number, side: number, Cv: number, subDepth: Float64Array): boolean {
    const o = ((id * (this.maxLevel + 1) + level) * 4 + side) * SUB_CELLS, half = SUB_CELLS / 2, c0 = side % 2 === 0 ? 0 : half;
    for (let t = 0; t < SUB_CELLS; t++) {
      let z = Infinity;
      for (let c = c0; c < c0 + half; c++) z = Math.min(z, subDepth[side < 2 ? t * SUB_CELLS + c : c * SUB_CELLS + t]!);
      if (this.stitchDelta[o + t]! * Cv > z) return false;
    }
    return true;
  }

  /** Neighbours differ by ≤ 1: L = min over blocks b' of (L(b') + |b − b'|₁), two raster passes. */
  private limitNeighbourLevels(): void {
    const nb = this.blocksPerSide, lv = this.levels;
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
  }

  /**
   * Ids of the blocks not entirely outside the frustum of `viewProj` (quadtree of AABBs), in quadtree order;
   * with an `eye`, also not hidden behind the terrain from it (a hidden node hides all its blocks).
   */
  private cullBlocks(viewProj: ArrayLike<number>, eye: { x: number; y: number; z: number } | null): number[] {
    this.extractPlanes(viewProj);
    const nb = this.blocksPerSide, s = this.blockCells * this.cell;
    const out: number[] = [];
    const tree = this.occlusion();
    this.lastOccludedBlocks = 0;
    const visit = (d: number, i: number, j: number): void => {
      const n = 1 << d;
      const size = (nb / n) * s;
      const x0 = this.ox + i * size, z0 = this.oz + j * size;
      const top = this.treeMax[d]![j * n + i]!;
      if (this.boxOutside(x0, this.treeMin[d]![j * n + i]!, z0, x0 + size, top, z0 + size)) return;
      // big nodes near the eye are never hidden whole: test from OCCLUSION_NODE_BLOCKS blocks a side down
      if (eye && n * OCCLUSION_NODE_BLOCKS >= nb && isBoxOccluded(tree, eye, x0, z0, size, top)) {
        this.lastOccludedBlocks += (nb / n) ** 2;
        return;
      }
      if (d < this.treeDepth) {
        visit(d + 1, 2 * i, 2 * j);
        visit(d + 1, 2 * i + 1, 2 * j);
        visit(d + 1, 2 * i, 2 * j + 1);
        visit(d + 1, 2 * i + 1, 2 * j + 1);
        return;
      }
      out.push(j * nb + i);
    };
    visit(0, 0, 0);
    return out;
  }

  /** The y-bounds quadtree as the occlusion test reads it. */
  private occlusion(): OcclusionTree {
    this.occlusionTree ??= { originX: this.ox, originZ: this.oz, mapSideM: this.blocksPerSide * this.blockCells * this.cell, treeDepth: this.treeDepth, treeMin: this.treeMin, maxY: this.treeMax[0]![0]! };
    return this.occlusionTree;
  }

  /**
   * Upper bound of the drawn terrain's height at (x, z) with its block at the level of the last `select`
   * (any edge variant): the highest vertex of the triangle fan group holding the point (a stitched edge uses
   * a subset of them), m. NaN outside the map.
   */
  drawnHeightBound(x: number, z: number): number {
    const fine = this.cell / (1 << this.subdivide), B = this.blockCells << this.subdivide;
    const u = (x - this.ox) / fine, v = (z - this.oz) / fine, side = this.blocksPerSide * B;
    if (!(u >= 0 && v >= 0 && u <= side && v <= side)) return NaN;
    const bi = Math.min(this.blocksPerSide - 1, Math.floor(u / B)), bj = Math.min(this.blocksPerSide - 1, Math.floor(v / B));
    const bu = bi * B, bv = bj * B, L = this.levels[bj * this.blocksPerSide + bi]!;
    const smp: SurfaceSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
    let hi = -Infinity;
    {
      const q = 1 << L, whole = B / q === 1;
      const g = whole ? B : 2 * q, step = whole ? B : q;
      const gu = bu + Math.min(B - g, Math.floor((u - bu) / g) * g), gv = bv + Math.min(B - g, Math.floor((v - bv) / g) * g);
      for (let r = 0; r <= g; r += step) {
        for (let c = 0; c <= g; c += step) {
          this.surface.sample(this.ox + (gu + c) * fine, this.oz + (gv + r) * fine, smp);
          hi = Math.max(hi, smp.h);
        }
      }
    }
    return hi;
  }

  /** Level of every block from the last `select` (including culled ones). */
  lastLevels(): Int32Array {
    return this.levels;
  }

  /** Vertex positions (sampled from the B-spline surface) and analytic normals of a block at a level. */
  blockMesh(blockId: number, level: number): BlockMesh {
    const bx = blockId % this.blocksPerSide, bz = Math.floor(blockId / this.blocksPerSide);
    const fine = this.blockCells << this.subdivide; // fine steps per block
    return this.vertexGrid(bx * fine, bz * fine, 1 << level, this.quadsPerSide(level) + 1);
  }

  /**
   * n × n vertices sampled from the B-spline surface: vertex (c, r) at the global fine grid index
   * (g0x + c·stride, g0z + r·stride) from the map origin, so blocks and chunks that share an edge compute
   * identical x, z and heights there. Position and analytic normal per vertex, (c, r) at r·n + c.
   */
  vertexGrid(g0x: number, g0z: number, stride: number, n: number): BlockMesh {
    return sampleVertexGrid(this.surface, this.ox, this.oz, this.cell / (1 << this.subdivide), g0x, g0z, stride, n);
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
