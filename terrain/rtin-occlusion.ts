/**
 * The y lower-bound quadtree the horizon occlusion test (geomipmap-occlusion.ts) reads, built for the RTIN:
 * every drawn RTIN triangle interpolates heightmap nodes, so the least node height over a square bounds the
 * drawn surface there from below at any refinement.
 */
import type { OcclusionTree } from './geomipmap-occlusion';
import { dlog2 } from './dmath';

/** Leaf side of the tree, cells (16 m on 2 m cells: the occlusion test's near sample step is 8 m). */
export const RTIN_OCCLUSION_LEAF_CELLS = 8;

/** Largest float32 ≤ v (a lower bound must not round up). */
function roundDown32(v: number): number {
  const f = Math.fround(v);
  return f <= v ? f : Math.fround(v - Math.abs(v) * 2 ** -22 - 1e-30);
}

/** Occlusion tree over node heights `h` (N × N, z·N + x, N − 1 a power of two ≥ the leaf side). */
export function buildRtinOcclusionTree(h: Float64Array, N: number, cell: number, originX: number, originZ: number): OcclusionTree {
  const S = N - 1, leaf = Math.min(S, RTIN_OCCLUSION_LEAF_CELLS), depth = dlog2(S / leaf), n = 1 << depth;
  const leafMin = new Float32Array(n * n);
  let maxY = -Infinity;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      let lo = Infinity;
      for (let z = j * leaf; z <= (j + 1) * leaf; z++) for (let x = i * leaf; x <= (i + 1) * leaf; x++) lo = Math.min(lo, h[z * N + x]!);
      leafMin[j * n + i] = roundDown32(lo);
    }
  }
  for (let k = 0; k < N * N; k++) maxY = Math.max(maxY, h[k]!);
  const treeMin: Float32Array[] = [];
  treeMin[depth] = leafMin;
  for (let d = depth - 1; d >= 0; d--) {
    const m = 1 << d, below = treeMin[d + 1]!, cur = new Float32Array(m * m);
    for (let j = 0; j < m; j++) {
      for (let i = 0; i < m; i++) {
        const a = (2 * j) * 2 * m + 2 * i, b = a + 2 * m;
        cur[j * m + i] = Math.min(below[a]!, below[a + 1]!, below[b]!, below[b + 1]!);
      }
    }
    treeMin[d] = cur;
  }
  return { originX, originZ, mapSideM: S * cell, treeDepth: depth, treeMin, maxY };
}
