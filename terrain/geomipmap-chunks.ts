/**
 * Draw batching for the geomipmap: small blocks place the LOD finely (the 1 px screen-space error needs
 * 8-cell blocks to come near 1/30 of the full-resolution triangles), but one draw call per block would be
 * thousands. A chunk is a square of G × G blocks sharing one full-resolution vertex grid; every level of a
 * block is a subset of those vertices (level L takes every 2^L-th), so the chunk's one index buffer is the
 * blocks' (level, edge mask) index buffers remapped into the chunk grid and concatenated. Edge vertices are
 * shared by neighbouring blocks inside a chunk, and neighbouring chunks sample the same world positions on
 * their common edge, so the stitching of `GeoMipmap.indices` stays crack-free across chunks.
 */
import type { BlockMesh, GeoMipmap, SelectedBlock } from './geomipmap';
import { TerrainError } from './errors';

/** Vertices per block side the game draws with (2ⁿ+1): 8-cell blocks let the LOD follow the error closely. */
export const DRAW_BLOCK_SIZE = 9;
/** Blocks per chunk side the game draws with: 16 × 16 blocks (256 m on 2 m cells) are one draw call. */
export const DRAW_BLOCKS_PER_CHUNK = 16;

/** The chunk size that divides the map: DRAW_BLOCKS_PER_CHUNK, or fewer on a small map. */
export function chunkBlocksFor(blocksPerSide: number): number {
  let g = DRAW_BLOCKS_PER_CHUNK;
  while (blocksPerSide % g !== 0) g >>= 1;
  return g;
}

export class GeoMipmapChunks {
  readonly gm: GeoMipmap;
  /** Blocks per chunk side (G). */
  readonly blocksPerChunk: number;
  readonly chunksPerSide: number;
  readonly chunkCount: number;
  /** Vertices per chunk side: G · (block quads at level 0) + 1. */
  readonly vertsPerSide: number;
  /** Level-0 quads per block side. */
  private readonly fine: number;

  constructor(gm: GeoMipmap, blocksPerChunk: number) {
    if (!Number.isInteger(blocksPerChunk) || blocksPerChunk < 1 || gm.blocksPerSide % blocksPerChunk !== 0) {
      throw new TerrainError('<geomipmap>', 'blocksPerChunk', `a divisor of ${gm.blocksPerSide} blocks per side`, String(blocksPerChunk));
    }
    this.gm = gm;
    this.blocksPerChunk = blocksPerChunk;
    this.chunksPerSide = gm.blocksPerSide / blocksPerChunk;
    this.chunkCount = this.chunksPerSide ** 2;
    this.fine = gm.quadsPerSide(0);
    this.vertsPerSide = blocksPerChunk * this.fine + 1;
  }

  /** Chunk holding block `blockId`. */
  chunkOf(blockId: number): number {
    const nb = this.gm.blocksPerSide, G = this.blocksPerChunk;
    const bx = blockId % nb, bz = Math.floor(blockId / nb);
    return Math.floor(bz / G) * this.chunksPerSide + Math.floor(bx / G);
  }

  /** Full-resolution vertex grid of a chunk: B-spline positions and analytic normals, (c, r) at r·V + c. */
  chunkMesh(chunk: number): BlockMesh {
    const G = this.blocksPerChunk;
    const cx = chunk % this.chunksPerSide, cz = Math.floor(chunk / this.chunksPerSide);
    return this.gm.vertexGrid(cx * G * this.fine, cz * G * this.fine, 1, this.vertsPerSide);
  }

  /** One index buffer for the selected blocks of one chunk (each at its level and edge variant). */
  chunkIndices(blocks: readonly SelectedBlock[]): Uint32Array {
    let total = 0;
    for (const b of blocks) total += this.gm.indices(b.level, b.edgeMask).length;
    const out = new Uint32Array(total);
    const V = this.vertsPerSide, G = this.blocksPerChunk;
    let o = 0;
    for (const b of blocks) {
      const idx = this.gm.indices(b.level, b.edgeMask);
      const N1 = this.gm.quadsPerSide(b.level) + 1, step = 1 << b.level;
      const base = (b.bz % G) * this.fine * V + (b.bx % G) * this.fine;
      for (let k = 0; k < idx.length; k++) {
        const v = idx[k]!;
        const r = Math.floor(v / N1), c = v - r * N1;
        out[o++] = base + r * step * V + c * step;
      }
    }
    return out;
  }
}
