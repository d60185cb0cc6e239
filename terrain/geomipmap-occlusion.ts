/**
 * Horizon occlusion for the geomipmap: a box of terrain is hidden when every ray from the eye to every point
 * of its top face passes below the drawn terrain somewhere before it.
 *
 * Why it is exact enough to cull (no pixel changes): a ray from the eye to a point q = (x, top, z) of the
 * box's top face is, at parameter t ∈ (0, 1), at height eye.y + t·(top − eye.y) over the horizontal point
 * eye + t·(q − eye). For all q in the box's square footprint (side w) those points fill a square of side t·w
 * round eye + t·(centre − eye), all at the same height. If a lower bound of the drawn terrain over that square
 * lies above that height, every such ray is below the drawn surface there; it started above it (the eye
 * clears the drawn terrain under it), so it crossed the drawn surface in between, inside the view (the ray
 * segment is), on a block that is drawn. Rays to lower points of the box are lower at every t. So nothing
 * of the box can be seen, at any level it would be drawn at. The lower bound is the quadtree's minimum over
 * the ≤ 2 × 2 nodes covering the square: the minimum of the level-0 vertex heights (less the detail and
 * level-0 padding), and a coarser level's triangles interpolate a subset of those vertices, so no drawn
 * level goes below it.
 */

/** The quadtree of y-bounds the occlusion test reads (GeoMipmap's). */
export interface OcclusionTree {
  /** World x, z of the map's first node, m. */
  originX: number;
  originZ: number;
  /** Side of the whole map, m. */
  mapSideM: number;
  /** Depth of the block level (depth d has 2^d × 2^d nodes). */
  treeDepth: number;
  /** Minimum drawn height per node and depth, m. */
  treeMin: readonly Float32Array[];
  /** Highest drawn height on the map, m. */
  maxY: number;
}

/** Ray samples nearer than this to the eye are skipped: a block's own neighbourhood, m. */
const FIRST_SAMPLE_M = 8;
/** Ray samples are this far apart near the eye, m (half the game's 16 m draw blocks). */
const MIN_SAMPLE_STEP_M = 8;
/** Farther out they are this share of the distance apart (≤ ~50 samples per box on a 4 km ray). */
const SAMPLE_STEP_SHARE = 0.1;

/** Minimum of the tree's lower bounds over the square [x0, x1] × [z0, z1] (inside the map), m. */
function minOverSquare(t: OcclusionTree, x0: number, z0: number, x1: number, z1: number): number {
  // deepest depth whose nodes are at least as wide as the square: it overlaps ≤ 2 × 2 of them
  const side = x1 - x0;
  let d = t.treeDepth;
  while (d > 0 && t.mapSideM / (1 << d) < side) d--;
  const n = 1 << d, size = t.mapSideM / n;
  const i0 = Math.floor((x0 - t.originX) / size), i1 = Math.min(n - 1, Math.floor((x1 - t.originX) / size));
  const j0 = Math.floor((z0 - t.originZ) / size), j1 = Math.min(n - 1, Math.floor((z1 - t.originZ) / size));
  const mins = t.treeMin[d]!;
  let lo = Infinity;
  for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) lo = Math.min(lo, mins[j * n + i]!);
  return lo;
}

/**
 * True when the box footprint [x0, x0 + w] × [z0, z0 + w] with top `topY` is hidden from `eye` by the
 * drawn terrain (see the file comment). The caller guarantees that the eye is inside the map and above the
 * drawn terrain under it.
 */
export function isBoxOccluded(t: OcclusionTree, eye: { x: number; y: number; z: number }, x0: number, z0: number, w: number, topY: number): boolean {
  // the eye over the footprint sees the ground under it
  if (eye.x >= x0 && eye.x <= x0 + w && eye.z >= z0 && eye.z <= z0 + w) return false;
  const cx = x0 + w / 2, cz = z0 + w / 2;
  const dx = cx - eye.x, dz = cz - eye.z;
  const D = Math.sqrt(dx * dx + dz * dz);
  const mapX1 = t.originX + t.mapSideM, mapZ1 = t.originZ + t.mapSideM;
  for (let r = FIRST_SAMPLE_M; r < D; r += Math.max(MIN_SAMPLE_STEP_M, SAMPLE_STEP_SHARE * r)) {
    const s = r / D;
    const rayY = eye.y + s * (topY - eye.y);
    // a rising ray above all the terrain stays above it
    if (rayY > t.maxY && topY >= eye.y) return false;
    const hs = (s * w) / 2;
    const qx = eye.x + s * dx, qz = eye.z + s * dz;
    const sx0 = qx - hs, sz0 = qz - hs, sx1 = qx + hs, sz1 = qz + hs;
    if (sx0 < t.originX || sz0 < t.originZ || sx1 > mapX1 || sz1 > mapZ1) continue;
    if (minOverSquare(t, sx0, sz0, sx1, sz1) > rayY) return true;
  }
  return false;
}
