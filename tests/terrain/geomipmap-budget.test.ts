/**
 * The terrain's triangle budget on the shipped stages (issue 18: ≤ 1/30 of the full-resolution triangles at
 * τ = 1 px): the game's chase view (6 m behind the car, 2.5 m up, fovY 1 rad, 1080 px tall, 16:9, far plane
 * 4 km) at the start line and at ¼, ½, ¾ of the road, exact screen-space error against the full-resolution
 * mesh (the RTIN's bound, checked by brute force in rtin.test.ts), horizon occlusion on, the chunks the game
 * draws with. Figures: terrain/README.md, "Triangle budget".
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { RtinTerrain, lookAtLodCamera, type Stage } from '../../terrain';
import { loadStageFromDir } from '../../terrain/node';

const STAGES_DIR = join(process.cwd(), 'src/content/stages');
const TAU_PX = 1;
/** Every view draws at most this fraction of the full-resolution triangles (issue 18's budget; worst measured 1/57.7). */
const MAX_FRACTION = 1 / 30;
/** The whole road (four views) draws at most this fraction on average (measured: 1/71 … 1/128). */
const MAX_MEAN_FRACTION = 1 / 60;

function chaseView(stage: Stage, d: number) {
  const car = stage.road.poseAt(d);
  const fx = Math.sin(car.heading), fz = Math.cos(car.heading);
  return lookAtLodCamera([car.x - 6 * fx, car.y + 2.5, car.z - 6 * fz], [car.x + 10 * fx, car.y + 0.5, car.z + 10 * fz], { fovY: 1, aspect: 16 / 9, viewportHeightPx: 1080, near: 0.3, far: 4000 });
}

describe('terrain triangle budget on the shipped stages (RTIN, τ = 1 px)', () => {
  for (const id of readdirSync(STAGES_DIR).sort()) {
    it(`${id}: start and three points along the road`, () => {
      const stage = loadStageFromDir(join(STAGES_DIR, id));
      const r = new RtinTerrain(stage.bspline);
      let drawn = 0;
      for (const frac of [0, 0.25, 0.5, 0.75]) {
        const sel = r.select(chaseView(stage, stage.start.distanceM + (stage.lengthM - 1) * frac), TAU_PX);
        expect(sel.triangles / r.fullResTriangles).toBeLessThanOrEqual(MAX_FRACTION);
        // one draw call per chunk holding a drawn triangle
        expect(sel.chunksDrawn).toBe(sel.chunkIndices.filter((idx) => idx.length > 0).length);
        expect(sel.chunksDrawn).toBeLessThanOrEqual(r.chunkCount);
        drawn += sel.triangles;
      }
      expect(drawn / 4 / r.fullResTriangles).toBeLessThanOrEqual(MAX_MEAN_FRACTION);
    });
  }
});
