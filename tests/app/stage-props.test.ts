import { beforeAll, describe, expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { buildRunWorld } from '../../src/run/run-world';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { carChoice, gameCarAdapter } from '../../src/app/cars';
import { propSites } from '../../src/run/stage-colliders';
import { collisionRuntime } from '../../src/systems/sim/collision/runtime';
import { HavokProps } from '../../src/systems/sim/collision/props';
import { RUN_SETUP } from '../../src/app/game-setup';

const stage = loadStageFromDir('src/content/stages/test-short');

function world() {
  const ch = carChoice('hatch-gti');
  const s = stage.start;
  return buildRunWorld({ ...RUN_SETUP, props: true, ground: null, cars: [ch.replayCar({ x: s.x, y: s.y, z: s.z, heading: s.heading })] }, stage, gameCarAdapter);
}

describe('stage props and static scene in the game world', () => {
  beforeAll(async () => {
    await loadHavokNode();
  });

  it('props stand beside the road, on the terrain, at rest after 1 s; the scenery is in the static scene', () => {
    const sites = propSites(stage);
    expect(sites.filter((s) => s.kind === 'hay-bale')).toHaveLength(12);
    expect(sites.filter((s) => s.kind === 'cone')).toHaveLength(4);
    const proj = { distanceM: 0, lateralM: 0, index: 0 };
    for (const s of sites) {
      stage.road.project(s.x, s.z, proj);
      // outside the road surface: |lateral| > half width (offset ≥ 0.8 m, minus the prop radius ≤ 0.6 m)
      expect(Math.abs(proj.lateralM)).toBeGreaterThan(stage.road.poseAt(proj.distanceM).width / 2 + 0.1);
    }
    const run = world();
    const rt = collisionRuntime(run.world);
    expect(rt.scene.n).toBeGreaterThan(stage.scenery.filter((i) => i.kind === 'tree').length * 0.9);
    const props = rt.props;
    expect(props).toBeInstanceOf(HavokProps);
    const eids = (props as HavokProps).eids;
    expect(eids).toHaveLength(sites.length);
    for (let k = 0; k < 500; k++) runTick(run.world);
    const P = run.world.c.Prop;
    for (const e of eids) {
      // resting on the heightfield patch sampled from the B-spline: a flat-based prop on a slope stands on
      // its downhill rim, so its base centre is r·tan(slope) above the surface; + 1.5 cm for the patch's
      // linear interpolation (0.5 m spacing) and Havok's contact margin. Speed ≈ 0.
      const smp = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
      stage.bspline.sample(P.px[e]!, P.pz[e]!, smp);
      const tanSlope = Math.hypot(smp.dhdx, smp.dhdz);
      expect(Math.abs(P.py[e]! - smp.h)).toBeLessThan(P.radius[e]! * tanSlope + 0.015);
      expect(Math.hypot(P.vx[e]!, P.vy[e]!, P.vz[e]!)).toBeLessThan(0.05);
    }
  });

  it('is deterministic: two worlds give the same state hash after 1 s', () => {
    const a = world(), b = world();
    for (let k = 0; k < 500; k++) {
      runTick(a.world);
      runTick(b.world);
    }
    expect(stateHash(a.world)).toBe(stateHash(b.world));
  });
});
