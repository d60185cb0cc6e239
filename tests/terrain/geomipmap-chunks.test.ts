import { describe, it, expect } from 'vitest';
import { BSplineSurface, GeoMipmap, GeoMipmapChunks, Heightfield, createRng, type SelectedBlock } from '../../terrain';
import { TerrainError } from '../../terrain/errors';

function terrain(n = 129, seed = 5): BSplineSurface {
  const rng = createRng(seed);
  const h = new Float32Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 30 * Math.sin(i / 9) * Math.cos(j / 13) + 4 * rng();
  return new BSplineSurface(Heightfield.fromFloat32(h, n, n, { cellSize: 2, origin: { x: -128, z: -128 } }));
}

/** Triangles as sorted strings of their three world-space vertices (order-free, exact float32 values). */
function triangleSet(pos: Float32Array, idx: ArrayLike<number>): string[] {
  const v = (k: number): string => `${pos[3 * k]},${pos[3 * k + 1]},${pos[3 * k + 2]}`;
  const out: string[] = [];
  for (let t = 0; t < idx.length; t += 3) out.push([v(idx[t]!), v(idx[t + 1]!), v(idx[t + 2]!)].sort().join('|'));
  return out.sort();
}

describe('GeoMipmapChunks', () => {
  const g = new GeoMipmap(terrain(), { blockSize: 9 });
  const chunks = new GeoMipmapChunks(g, 4);

  it('a chunk draws exactly the triangles of its blocks, for every level and edge variant', () => {
    const chunk = chunks.chunkOf(5 * g.blocksPerSide + 6); // an inner chunk (blocks 4..7 on both axes)
    const mesh = chunks.chunkMesh(chunk);
    for (let level = 0; level <= g.maxLevel; level++) {
      const blocks: SelectedBlock[] = [];
      for (let bz = 4; bz < 8; bz++) for (let bx = 4; bx < 8; bx++) {
        const id = bz * g.blocksPerSide + bx;
        blocks.push({ id, bx, bz, level, edgeMask: level === g.maxLevel ? 0 : (bx + 3 * bz) % 16, distance: 0 });
      }
      const expected: string[] = [];
      for (const b of blocks) expected.push(...triangleSet(g.blockMesh(b.id, b.level).positions, g.indices(b.level, b.edgeMask)));
      expect(triangleSet(mesh.positions, chunks.chunkIndices(blocks))).toEqual(expected.sort());
    }
  });

  it('neighbouring chunks share their edge vertices bit for bit (no cracks between draw calls)', () => {
    const V = chunks.vertsPerSide;
    const a = chunks.chunkMesh(0).positions, right = chunks.chunkMesh(1).positions, up = chunks.chunkMesh(chunks.chunksPerSide).positions;
    for (let k = 0; k < V; k++) {
      for (let c = 0; c < 3; c++) {
        expect(a[3 * (k * V + V - 1) + c]).toBe(right[3 * (k * V) + c]); // +X edge of chunk 0 = −X edge of chunk 1
        expect(a[3 * ((V - 1) * V + k) + c]).toBe(up[3 * k + c]); // +Z edge = −Z edge of the chunk above
      }
    }
  });

  it('refuses a chunk size that does not divide the map', () => {
    expect(() => new GeoMipmapChunks(g, 3)).toThrow(TerrainError);
    expect(chunks.chunkCount).toBe((g.blocksPerSide / 4) ** 2);
  });
});
