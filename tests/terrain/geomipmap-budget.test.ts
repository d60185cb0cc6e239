/**
 * The terrain's triangle budget on the shipped stages: the game's chase view (6 m behind the car, 2.5 m up,
 * fovY 1 rad, 1080 px tall, 16:9, far plane 4 km) at the start line and at ¼, ½, ¾ of the road, τ = 1 px of
 * exact screen-space error against the full-resolution mesh, horizon occlusion on, the block and chunk sizes
 * the game draws with. Figures: terrain/README.md, "Triangle budget".
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { DRAW_BLOCK_SIZE, GeoMipmap, GeoMipmapChunks, chunkBlocksFor, lookAtLodCamera, type Stage } from '../../terrain';
import { loadStageFromDir } from '../../terrain/node';

const STAGES_DIR = join(process.cwd(), 'src/content/stages');
const TAU_PX = 1;
/** Every view draws at most this fraction of the full-resolution triangles (worst measured: 1/23.1). */
const MAX_FRACTION = 1 / 23;
/** The whole road (four views) draws at most this fraction on average (measured: 1/26.4 … 1/55.8). */
const MAX_MEAN_FRACTION = 1 / 26;

function chaseView(stage: Stage, d: number) {
  const car = stage.road.poseAt(d);
  const fx = Math.sin(car.heading), fz = Math.cos(car.heading);
  return lookAtLodCamera([car.x - 6 * fx, car.y + 2.5, car.z - 6 * fz], [car.x + 10 * fx, car.y + 0.5, car.z + 10 * fz], { fovY: 1, aspect: 16 / 9, viewportHeightPx: 1080, near: 0.3, far: 4000 });
}

describe('geomipmap triangle budget on the shipped stages (τ = 1 px)', () => {
  for (const id of readdirSync(STAGES_DIR).sort()) {
    it(`${id}: start and three points along the road`, () => {
      const stage = loadStageFromDir(join(STAGES_DIR, id));
      const g = new GeoMipmap(stage.bspline, { blockSize: DRAW_BLOCK_SIZE });
      const chunks = new GeoMipmapChunks(g, chunkBlocksFor(g.blocksPerSide));
      let drawn = 0;
      for (const frac of [0, 0.25, 0.5, 0.75]) {
        const cam = chaseView(stage, stage.start.distanceM + (stage.lengthM - 1) * frac);
        const sel = g.select(cam, TAU_PX);
        let tris = 0;
        const used = new Set<number>();
        for (const b of sel) {
          tris += g.triangleCount(b.level, b.edgeMask);
          used.add(chunks.chunkOf(b.id));
          // level 0 is the finest there is (its δ is the spline between nodes, which no level removes)
          if (b.level > 0) expect(g.blockErrorPx(b.id, b.level, cam)).toBeLessThanOrEqual(TAU_PX);
        }
        expect(tris / g.fullResTriangles).toBeLessThanOrEqual(MAX_FRACTION);
        // one draw call per chunk holding a visible block; the map has chunkCount of them
        expect(used.size).toBeLessThanOrEqual(chunks.chunkCount);
        drawn += tris;
      }
      expect(drawn / 4 / g.fullResTriangles).toBeLessThanOrEqual(MAX_MEAN_FRACTION);
    });
  }
});
