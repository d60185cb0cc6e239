/**
 * View-dependent RTIN terrain (Lindstrom & Pascucci, "Terrain simplification simplified", IEEE TVCG 2002)
 * over the whole 2ⁿ+1 heightmap: per-triangle refinement, so the mesh is fine only where the projected error
 * needs it (the geomipmap's 16 m blocks of 2 m fans are not).
 *
 * A node is active (its diamond's two triangles are split) when its saturated error (rtin-measure.ts),
 * projected from the nearest point of its nested bounding sphere, exceeds τ pixels: err·K·F / z_min > τ with
 * z_min = depth(centre) − radius (geomipmap-projection.ts: a vertical error δ at view depth ≥ z moves its
 * point by ≤ δ·K·F / z pixels), and the sphere is not wholly outside the frustum. Saturation and nesting make
 * the test monotone, so the active set is closed under the dependencies and the mesh conforms. A drawn
 * triangle's midpoint is inactive, and the triangle, its nodes and the full-resolution mesh over it lie in
 * that node's sphere with error ≤ err, so every drawn point is within τ pixels of the full-resolution mesh.
 *
 * Draw batching: triangles with legs longer than a chunk (`chunkCells`) are always split, so every drawn
 * triangle lies in one chunk square; each chunk is one full-resolution vertex grid and one index buffer.
 * Horizon occlusion (geomipmap-occlusion.ts, with rtin-occlusion.ts's lower bounds) leaves out triangles, at
 * legs ≥ OCCLUSION_MIN_LEG cells with their whole subtree, after the active set is fixed (it never changes it).
 */
import type { BSplineSurface } from './bspline';
import { TerrainError } from './errors';
import { isPow2Plus1 } from './heightfield';
import { dtan } from './dmath';
import { OCCLUSION_EYE_CLEARANCE_M, type LodCamera, type SelectOptions } from './geomipmap';
import { isBoxOccluded, type OcclusionTree } from './geomipmap-occlusion';
import { screenErrorModel } from './geomipmap-projection';
import { measureRtin, type RtinMeasure } from './rtin-measure';
import { buildRtinOcclusionTree } from './rtin-occlusion';
import { sampleVertexGrid, type VertexGrid } from './vertex-grid';

/** Cells per chunk side the game draws with (128 cells = 256 m on 2 m cells: ≤ 64 draw calls on 1025²). */
export const RTIN_CHUNK_CELLS = 128;
/** Triangles with legs at least this long (L1, cells) are tested for occlusion with their subtree (smaller ones: the test costs more than the triangles it saves). */
const OCCLUSION_MIN_LEG = 16;
/** Bit mask of the six frustum planes. */
const ALL_PLANES = 0b111111;
/** First index capacity per chunk (grows by doubling). */
const INITIAL_CHUNK_INDICES = 3 * 256;

export interface RtinOptions {
  /** Cells per chunk side, a power of two ≤ the map's cells (default RTIN_CHUNK_CELLS, or the map). */
  chunkCells?: number;
}

/** One `select`: the chunks' index lists (views valid until the next select) and counts. */
export interface RtinSelection {
  /** Per chunk, chunk-local vertex indices (r·vertsPerSide + c), CCW seen from +Y; empty when not drawn. */
  chunkIndices: Uint32Array[];
  triangles: number;
  /** Chunks with at least one triangle (draw calls). */
  chunksDrawn: number;
  /** Triangles left out as hidden behind the terrain (counted at the tested subtree's size). */
  occludedTriangles: number;
}

export class RtinTerrain {
  readonly surface: BSplineSurface;
  /** Nodes per map side (2ⁿ+1). */
  readonly size: number;
  readonly chunkCells: number;
  readonly chunksPerSide: number;
  readonly chunkCount: number;
  /** Vertices per chunk side (chunkCells + 1). */
  readonly vertsPerSide: number;
  readonly fullResTriangles: number;
  /** Surface height per node (z·size + x), m: the drawn vertices' heights. */
  readonly heights: Float64Array;
  readonly measure: RtinMeasure;
  readonly cell: number;
  readonly originX: number;
  readonly originZ: number;
  private readonly tree: OcclusionTree;
  private readonly planes = new Float64Array(24);
  private readonly bufs: Uint32Array[];
  private readonly counts: Int32Array;
  /** Per-select state: depth axis, error scale (K·F / τ), eye, whether depth is exact and occlusion is on. */
  private fx = 0; private fy = 0; private fz = 0; private f0 = 0; private k = 0;
  private eye = { x: 0, y: 0, z: 0 };
  private exact = true;
  private occlude = false;
  private occluded = 0;

  constructor(surface: BSplineSurface, opts: RtinOptions = {}) {
    const hf = surface.heightfield, N = hf.width;
    if (hf.width !== hf.depth || !isPow2Plus1(N)) throw new TerrainError('<rtin>', 'heightfield size', 'a square 2ⁿ+1 map', `${hf.width}×${hf.depth}`);
    const C = opts.chunkCells ?? Math.min(RTIN_CHUNK_CELLS, N - 1);
    if (!isPow2Plus1(C + 1) || C > N - 1) throw new TerrainError('<rtin>', 'chunkCells', `a power of two ≤ ${N - 1}`, String(C));
    this.surface = surface;
    this.size = N;
    this.cell = hf.cellSize;
    this.originX = hf.origin.x;
    this.originZ = hf.origin.z;
    this.chunkCells = C;
    this.chunksPerSide = (N - 1) / C;
    this.chunkCount = this.chunksPerSide ** 2;
    this.vertsPerSide = C + 1;
    this.fullResTriangles = 2 * (N - 1) * (N - 1);
    const grid = sampleVertexGrid(surface, this.originX, this.originZ, this.cell, 0, 0, 1, N);
    this.heights = new Float64Array(N * N);
    for (let k = 0; k < N * N; k++) this.heights[k] = grid.positions[3 * k + 1]!;
    this.measure = measureRtin(this.heights, N, this.cell);
    this.tree = buildRtinOcclusionTree(this.heights, N, this.cell, this.originX, this.originZ);
    this.bufs = Array.from({ length: this.chunkCount }, () => new Uint32Array(INITIAL_CHUNK_INDICES));
    this.counts = new Int32Array(this.chunkCount);
  }

  /** Full-resolution vertex grid of a chunk: B-spline positions and analytic normals, (c, r) at r·V + c. */
  chunkMesh(chunk: number): VertexGrid {
    const cx = chunk % this.chunksPerSide, cz = (chunk - cx) / this.chunksPerSide;
    return sampleVertexGrid(this.surface, this.originX, this.originZ, this.cell, cx * this.chunkCells, cz * this.chunkCells, 1, this.vertsPerSide);
  }

  /** The conforming mesh for this camera at ≤ maxErrorPx of screen-space error, culled and (by default) occlusion-culled. */
  select(camera: LodCamera, maxErrorPx: number, opts: SelectOptions = {}): RtinSelection {
    this.prepareView(camera, maxErrorPx);
    this.occluded = 0;
    const e = camera.position, S = this.size - 1;
    const u = (e.x - this.originX) / this.cell, v = (e.z - this.originZ) / this.cell;
    const inMap = u >= 0 && v >= 0 && u <= S && v <= S;
    this.occlude = (opts.occlusion ?? true) && this.exact && inMap && e.y - this.meshHeightAt(u, v) >= OCCLUSION_EYE_CLEARANCE_M;
    this.counts.fill(0);
    this.visit(0, 0, S, S, S, 0, ALL_PLANES);
    this.visit(S, S, 0, 0, 0, S, ALL_PLANES);
    const chunkIndices: Uint32Array[] = [];
    let triangles = 0, chunksDrawn = 0;
    for (let c = 0; c < this.chunkCount; c++) {
      const n = this.counts[c]!;
      chunkIndices.push(this.bufs[c]!.subarray(0, n));
      triangles += n / 3;
      if (n > 0) chunksDrawn++;
    }
    return { chunkIndices, triangles, chunksDrawn, occludedTriangles: this.occluded };
  }

  /** Frustum planes (normalised), the depth axis and the error scale for one select. */
  private prepareView(camera: LodCamera, tau: number): void {
    const m = camera.viewProj, p = this.planes;
    let o = 0;
    // Gribb–Hartmann, near as −w ≤ z (conservative for 0..1 depth too); a zero matrix culls nothing
    for (const [i, sgn] of [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]] as const) {
      for (let c = 0; c < 4; c++) p[o + c] = m[c * 4 + 3]! + sgn * m[c * 4 + i]!;
      const len = Math.hypot(p[o]!, p[o + 1]!, p[o + 2]!);
      if (len > 0) for (let c = 0; c < 4; c++) p[o + c] = p[o + c]! / len;
      else p[o + 3] = 1;
      o += 4;
    }
    const view = screenErrorModel(m, camera.viewportHeightPx);
    this.exact = Number.isFinite(view.pxPerMetre);
    this.eye = { x: camera.position.x, y: camera.position.y, z: camera.position.z };
    this.fx = view.fx;
    this.fy = view.fy;
    this.fz = view.fz;
    this.f0 = view.f0;
    // without a projection (a stand-in eye): the isotropic δ·K/d at the distance to the sphere
    this.k = (this.exact ? view.pxPerMetre : camera.viewportHeightPx / 2 / dtan(camera.fovY / 2)) / tau;
  }

  /** True when node m's sphere lies wholly outside one frustum plane. */
  private sphereOutside(m: number, x: number, z: number): boolean {
    return this.planesCrossed(m, x, z, ALL_PLANES) < 0;
  }

  /**
   * −1 when node m's sphere lies wholly outside one of the planes in `mask` (bit i: plane i), else `mask`
   * less the planes it lies wholly inside (a nested sphere's descendants need not test those again).
   */
  private planesCrossed(m: number, x: number, z: number, mask: number): number {
    const p = this.planes, r = this.measure.radius[m]!;
    const wx = this.originX + x * this.cell, wy = this.heights[m]!, wz = this.originZ + z * this.cell;
    let out = mask;
    for (let i = 0; i < 6; i++) {
      if ((mask & (1 << i)) === 0) continue;
      const o = 4 * i, d = p[o]! * wx + p[o + 1]! * wy + p[o + 2]! * wz + p[o + 3]!;
      if (d < -r) return -1;
      if (d > r) out &= ~(1 << i);
    }
    return out;
  }

  /** The projected-error part of the activity test (the caller has checked the frustum). */
  private errorExceeds(m: number, x: number, z: number): boolean {
    const e = this.measure.err[m]!;
    if (e === 0) return false;
    const wx = this.originX + x * this.cell, wy = this.heights[m]!, wz = this.originZ + z * this.cell;
    const depth = this.exact ? this.f0 + this.fx * wx + this.fy * wy + this.fz * wz : Math.hypot(wx - this.eye.x, wy - this.eye.y, wz - this.eye.z);
    const zMin = depth - this.measure.radius[m]!;
    return zMin <= 0 || e * this.k > zMin;
  }

  /** Whether node m (midpoint of a hypotenuse whose legs are `leg` cells, L1) is split. */
  private isActive(m: number, x: number, z: number, leg: number): boolean {
    if (this.sphereOutside(m, x, z)) return false;
    return leg > this.chunkCells || this.errorExceeds(m, x, z);
  }

  /**
   * Triangle a, b (hypotenuse), c (right angle), grid units: cull, split or draw. `planes`: the frustum planes
   * its sphere may cross (the sphere nests in its parents', so a plane the parent is inside needs no test).
   */
  private visit(ax: number, az: number, bx: number, bz: number, cx: number, cz: number, planes: number): void {
    const leg = Math.abs(ax - cx) + Math.abs(az - cz);
    if (leg > 1) {
      const mx = (ax + bx) >> 1, mz = (az + bz) >> 1, m = mz * this.size + mx;
      const crossed = planes === 0 ? 0 : this.planesCrossed(m, mx, mz, planes);
      if (crossed < 0) return;
      if (this.occlude && leg >= OCCLUSION_MIN_LEG && this.triangleOccluded(m, ax, az, bx, bz, cx, cz)) {
        this.occluded += (leg * leg) / (leg === Math.abs(ax - cx) || leg === Math.abs(az - cz) ? 1 : 2);
        return;
      }
      if (leg > this.chunkCells || this.errorExceeds(m, mx, mz)) {
        this.visit(cx, cz, ax, az, mx, mz, crossed);
        this.visit(bx, bz, cx, cz, mx, mz, crossed);
        return;
      }
    }
    this.emit(ax, az, bx, bz, cx, cz);
  }

  /** Triangle hidden behind the drawn terrain with its subtree: its bounding square and its diamond's top. */
  private triangleOccluded(m: number, ax: number, az: number, bx: number, bz: number, cx: number, cz: number): boolean {
    const x0 = Math.min(ax, bx, cx), z0 = Math.min(az, bz, cz);
    const w = Math.max(Math.max(ax, bx, cx) - x0, Math.max(az, bz, cz) - z0) * this.cell;
    return isBoxOccluded(this.tree, this.eye, this.originX + x0 * this.cell, this.originZ + z0 * this.cell, w, this.measure.hMax[m]!);
  }

  /** Appends a triangle to its chunk's index list, wound CCW seen from +Y. */
  private emit(ax: number, az: number, bx: number, bz: number, cx: number, cz: number): void {
    const C = this.chunkCells, V = this.vertsPerSide;
    const i = Math.floor((ax + bx + cx) / 3 / C), j = Math.floor((az + bz + cz) / 3 / C), chunk = j * this.chunksPerSide + i;
    const x0 = i * C, z0 = j * C;
    let buf = this.bufs[chunk]!;
    const n = this.counts[chunk]!;
    if (n + 3 > buf.length) {
      const grown = new Uint32Array(buf.length * 2);
      grown.set(buf);
      this.bufs[chunk] = buf = grown;
    }
    const ccw = (cx - ax) * (bz - az) - (bx - ax) * (cz - az) > 0;
    buf[n] = (az - z0) * V + (ax - x0);
    buf[n + (ccw ? 1 : 2)] = (bz - z0) * V + (bx - x0);
    buf[n + (ccw ? 2 : 1)] = (cz - z0) * V + (cx - x0);
    this.counts[chunk] = n + 3;
  }

  /** Height of the conforming mesh (the active set of the last prepared view) at grid point (u, v), m. */
  private meshHeightAt(u: number, v: number): number {
    const S = this.size - 1;
    let [ax, az, bx, bz, cx, cz] = v <= u ? [0, 0, S, S, S, 0] : [S, S, 0, 0, 0, S];
    for (;;) {
      const leg = Math.abs(ax - cx) + Math.abs(az - cz);
      const mx = (ax + bx) >> 1, mz = (az + bz) >> 1;
      if (leg <= 1 || !this.isActive(mz * this.size + mx, mx, mz, leg)) break;
      // children (c, a, m) and (b, c, m) lie either side of the line c–m
      const side = (p: number, q: number): number => (mx - cx) * (q - cz) - (mz - cz) * (p - cx);
      if (side(u, v) * side(ax, az) >= 0) [ax, az, bx, bz, cx, cz] = [cx, cz, ax, az, mx, mz];
      else [ax, az, bx, bz, cx, cz] = [bx, bz, cx, cz, mx, mz];
    }
    const h = this.heights, N = this.size;
    const ux = ax - cx, uz = az - cz, vx = bx - cx, vz = bz - cz, L2 = ux * ux + uz * uz;
    const du = ((u - cx) * ux + (v - cz) * uz) / L2, dv = ((u - cx) * vx + (v - cz) * vz) / L2;
    const hc = h[cz * N + cx]!;
    return hc + du * (h[az * N + ax]! - hc) + dv * (h[bz * N + bx]! - hc);
  }
}
