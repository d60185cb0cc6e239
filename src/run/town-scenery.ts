/**
 * The town's collision scenery (issue 23 item 4): buildings as boxes and light and sign poles as cylinders in the
 * run world's collision scene, so a car that leaves the street meets Knight's restitution model and Tongue's
 * crush like stage scenery (src/systems/sim/collision/system.ts).
 */
import type { SimWorld } from '../ecs/world';
import { groundSample } from '../ecs/ground';
import { collisionRuntime } from '../systems/sim/collision/runtime';
import type { Town } from '../../terrain/town/index';

/** Light and sign poles: steel posts of this radius and height, m. */
const POLE_RADIUS_M = 0.1;
const POLE_HEIGHT_M = 4;
/** Buildings reach this far below the ground surface at their centre (the ground's relief under them), m. */
const BUILDING_FOOTING_M = 3;
/** Poles likewise start below the ground, m. */
const POLE_FOOTING_M = 1;

/** Adds the town's buildings (boxes) and poles (cylinders) to the run world's collision scene (Knight's model). */
export function addTownScenery(world: SimWorld, town: Town): void {
  const scene = collisionRuntime(world).scene;
  const g = groundSample();
  const heightAt = (x: number, z: number): number => (world.ground.sample(x, z, g), g.h);
  town.scenery.buildings.forEach((b, i) => {
    const base = heightAt(b.x, b.z) - BUILDING_FOOTING_M;
    scene.add({ kind: 'box', center: [b.x, b.z], half_extents: [b.halfX, b.halfZ], base_m: base, height_m: b.heightM + BUILDING_FOOTING_M, id: `building ${i}` });
  });
  town.scenery.poles.forEach((p, i) => {
    const base = heightAt(p.x, p.z) - POLE_FOOTING_M;
    scene.add({ kind: 'cylinder', center: [p.x, p.z], radius: POLE_RADIUS_M, base_m: base, height_m: POLE_HEIGHT_M + POLE_FOOTING_M, id: `pole ${i}` });
  });
}
