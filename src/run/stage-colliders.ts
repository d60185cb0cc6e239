/**
 * The stage's collision scene for a run world (`buildRunWorld` calls it, so every world made for a stage — the
 * game, the replay player and verifier, ghosts — has the same one):
 *
 * 1. static scene: trees, rocks, markers, fences and the start/finish arches of the stage scenery become
 *    the collision issue's scene colliders (`fromScenery`: cylinders and walls), tested by its
 *    detection/response pass against every car's CarCollider; bushes do not stop a car;
 * 2. the scenery as a Havok static world that finds each car's candidate obstacles when Havok is loaded
 *    (`useHavokSceneQueries`; contacts bit-identical with the TS grid, which runs when Havok is not loaded);
 * 3. Havok props (when the run setup asks for them — the game's default, recorded in a replay's header — and
 *    Havok is loaded: `loadHavokBrowser()` before the world is built): hay bales on both
 *    road edges at the two sharpest corners and cones beside the start line, each cluster standing on a
 *    Havok heightfield patch sampled from the stage's B-spline surface (the props world's own ground plane
 *    is put far below the stage so it never touches them). Props are hashed sim state (Prop component).
 */
import type { SimWorld } from '../ecs/world';
import type { Stage } from '../../terrain/stage';
import { fromScenery, type SceneColliders } from '../systems/sim/collision/scene';
import { setSceneColliders } from '../systems/sim/collision/runtime';
import { havokOrNull } from '../systems/sim/collision/havok-instance';
import { addObstacleToProps, enableHavokProps, spawnProp } from '../systems/sim/collision/props';
import { useHavokSceneQueries, useTsSceneQueries } from '../systems/sim/collision/havok-queries';
import type { PropKind } from '../systems/sim/collision/havok-scene';
import type { HavokPhysicsWithBindings } from '@babylonjs/havok';
import { dcos, dsin } from '../../terrain/dmath';

export interface PropSite {
  kind: PropKind;
  x: number;
  z: number;
  rotY: number;
}

/** Where the props of a stage stand (pure, deterministic from the road). */
export function propSites(stage: Stage): PropSite[] {
  const road = stage.road;
  const d0 = stage.start.distanceM + 40;
  const d1 = stage.finish.distanceM - 40;
  // curvature |dθ/ds| over 10 m, sampled every 5 m; the two sharpest corners at least 60 m apart
  const corners: { d: number; k: number }[] = [];
  for (let d = d0; d <= d1; d += 5) {
    const a = road.poseAt(d - 5).heading, b = road.poseAt(d + 5).heading;
    let dh = b - a;
    while (dh > Math.PI) dh -= 2 * Math.PI;
    while (dh < -Math.PI) dh += 2 * Math.PI;
    corners.push({ d, k: Math.abs(dh) / 10 });
  }
  corners.sort((p, q) => q.k - p.k || p.d - q.d);
  const picked: number[] = [];
  for (const c of corners) {
    if (picked.length >= 2) break;
    if (picked.every((d) => Math.abs(d - c.d) > 60)) picked.push(c.d);
  }
  const out: PropSite[] = [];
  const side = (d: number, offset: number, kind: PropKind): void => {
    const p = road.poseAt(d);
    // left of the heading: (cos θ, −sin θ) (forward is (sin θ, cos θ))
    const lx = dcos(p.heading), lz = -dsin(p.heading);
    for (const s of [-1, 1]) out.push({ kind, x: p.x + s * (p.width / 2 + offset) * lx, z: p.z + s * (p.width / 2 + offset) * lz, rotY: p.heading });
  };
  for (const d of picked.sort((a, b) => a - b)) for (const k of [-1, 0, 1]) side(d + 3 * k, 1.6, 'hay-bale');
  for (const k of [0, 1]) side(stage.start.distanceM + 6 + 4 * k, 0.8, 'cone');
  return out;
}

/**
 * Sets the stage's scene colliders and scene queries on `world`, and the Havok props when `props` is on and
 * Havok is loaded (worlds built without props have none, so a replay is played with the setting it records).
 */
export function buildStageColliders(world: SimWorld, stage: Stage, props: boolean): void {
  const hp = havokOrNull();
  const sites = hp && props ? propSites(stage) : [];
  const scene = fromScenery(stage.scenery);
  setSceneColliders(world, scene);
  if (hp && sites.length > 0) addProps(world, stage, hp, sites, scene);
  // Havok loaded → the scenery is a Havok static world that finds each car's candidate obstacles
  // (havok-queries.ts); the contacts are bit-identical with the TS grid's, so a replay verifies on either
  if (hp) useHavokSceneQueries(world, hp);
  else useTsSceneQueries(world);
}

/** Reach (m) around each prop site within which scenery obstacles go into the props world too. */
const PROP_SCENERY_REACH_M = 25;

function addProps(world: SimWorld, stage: Stage, hp: HavokPhysicsWithBindings, sites: PropSite[], scene: SceneColliders): void {
  // only the scenery near the props goes into the props world (a knocked bale stops at the tree beside it):
  // the thousands of trees of a forest stage as Havok bodies made building the world ~0.8 s slower and the
  // Havok step ~0.5 ms dearer at 500 Hz
  const props = enableHavokProps(world, hp, stage.heightfield.heights.reduce((a, b) => Math.min(a, b), Infinity) - 200, { obstacles: 'none' });
  const near = new Set<number>(), ids: number[] = [];
  for (const s of sites) {
    scene.query(s.x - PROP_SCENERY_REACH_M, s.z - PROP_SCENERY_REACH_M, s.x + PROP_SCENERY_REACH_M, s.z + PROP_SCENERY_REACH_M, ids);
    for (const i of ids) near.add(i);
  }
  for (const i of [...near].sort((a, b) => a - b)) addObstacleToProps(props, scene, i);
  const h = (x: number, z: number): number => stage.bspline.height(x, z);
  for (const s of sites) props.scene.addGroundPatch(h, s.x, s.z, 3, 0.5);
  for (const s of sites) spawnProp(world, s.kind, s.x, h(s.x, s.z), s.z, s.rotY);
}
