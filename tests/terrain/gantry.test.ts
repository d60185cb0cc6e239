/**
 * Start/finish gantries ('arch' scenery, placed on the road centre) must leave the road clear: their two
 * posts — the drawn ones (stage-view buildGantry) and the colliders (collision/scene.ts fromScenery, post
 * radius 0.3 m) — stand at ±radius across the road, and radius = road half-width + GANTRY_MARGIN_M. Before
 * this, the colliders sat ±0.4 m either side of the centre line: invisible posts that stopped cars.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { GANTRY_MARGIN_M } from '../../terrain/stage';
import { fromScenery } from '../../src/systems/sim/collision/scene';

const ROOT = join(__dirname, '../../src/content/stages');
const POST_RADIUS_M = 0.3;

describe('gantries span the road', () => {
  for (const id of ['test-short', 'forest-gravel', 'col-tarmac', 'snow-ridge', 'rallycross-bitring']) {
    it(`${id}: every arch post stands outside the road edge`, () => {
      const s = loadStageFromDir(join(ROOT, id));
      const arches = s.scenery.filter((it) => it.kind === 'arch');
      expect(arches.length).toBeGreaterThan(0);
      for (const a of arches) {
        const pr = s.road.project(a.x, a.z);
        const pose = s.road.poseAt(pr.distanceM);
        expect(a.radius).toBeCloseTo(pose.width / 2 + GANTRY_MARGIN_M, 9);
      }
      // the colliders built from the scenery: each post's centre is more than half a road width + its own
      // radius away from the centre line (lateral offset from the road projection)
      const sc = fromScenery(arches);
      expect(sc.n).toBe(2 * arches.length);
      for (let i = 0; i < sc.n; i++) {
        expect(sc.p2[i]).toBe(POST_RADIUS_M); // cylinder radius
        const pr = s.road.project(sc.p0[i]!, sc.p1[i]!); // cylinder centre (x, z)
        const half = s.road.poseAt(pr.distanceM).width / 2;
        expect(Math.abs(pr.lateralM)).toBeGreaterThan(half + POST_RADIUS_M);
      }
    });
  }
});
