/**
 * Scenario files → collision setup: `collider` tables on bodies and the `[[obstacles]]` list
 * (src/content/scenario-schema.ts). Called once by buildScenario.
 */
import type { SimWorld } from '../../../ecs/world';
import type { Scenario } from '../../../content/scenario-schema';
import { attachCarCollider, attachCarColliderFromConfig } from './car-collider';
import { carRuntime } from '../vehicle/registry';
import { collisionRuntime } from './runtime';
import { havokOrNull, requireHavok } from './havok-instance';
import { useHavokSceneQueries } from './havok-queries';
import { enableHavokProps, spawnProp } from './props';
import { fromScenery, type SceneryLike } from './scene';

/**
 * Stage scenery (terrain's `Stage.scenery`) → static colliders of the world (trees, rocks, fences, markers,
 * arches; see `fromScenery`). Call once after loading a stage; returns how many colliders were added.
 */
export function setupStageCollisions(world: SimWorld, stage: { scenery: readonly SceneryLike[] }): number {
  const scene = collisionRuntime(world).scene;
  const n0 = scene.n;
  fromScenery(stage.scenery, scene);
  return scene.n - n0;
}

export function setupScenarioCollisions(
  world: SimWorld, s: Scenario, entities: readonly { id: string; eid: number; kind: string }[],
  stage?: { scenery: readonly SceneryLike[] } | null,
): void {
  const rt = collisionRuntime(world);
  if (stage) setupStageCollisions(world, stage);
  // Scenario cars (vehicle issue) get their collider from the car file's body block.
  for (const ent of entities) {
    if (ent.kind !== 'car') continue;
    rt.names.set(ent.eid, ent.id);
    attachCarColliderFromConfig(world, ent.eid, carRuntime(world, ent.eid).cfg);
  }
  s.bodies.forEach((body, i) => {
    const ent = entities.find((e) => e.id === body.id);
    if (!ent) return;
    rt.names.set(ent.eid, body.id);
    const c = body.collider;
    if (!c) return;
    try {
      attachCarCollider(world, ent.eid, {
        cgToFrontM: c.cg_to_front_m, cgToRearM: c.cg_to_rear_m, widthM: c.width_m, heightM: c.height_m,
        cgHeightM: c.cg_height_m, clearanceM: c.clearance_m, method: c.method,
      });
    } catch (e) {
      throw new Error(`bodies[${i}].collider: ${(e as Error).message}`, { cause: e });
    }
  });
  s.obstacles.forEach((o, i) => {
    const id = o.id ?? `${o.kind}${i}`;
    try {
      if (o.kind === 'box') rt.scene.add({ ...o, id, rot_y_rad: (o.rot_y_deg * Math.PI) / 180 });
      else rt.scene.add({ ...o, id });
    } catch (e) {
      throw new Error(`obstacles[${i}]: ${(e as Error).message}`, { cause: e });
    }
  });
  // Havok loaded (the sim CLI preloads it) → Havok finds the candidate obstacles; else the TS grid (same contacts)
  const loaded = havokOrNull();
  if (loaded) useHavokSceneQueries(world, loaded);
  if (s.props.length > 0) {
    const hp = requireHavok('props');
    if (s.terrain.kind === 'flat') enableHavokProps(world, hp, s.terrain.height_m);
    else {
      // a heightfield patch around the props, 60 m beyond the outermost one, 1 m samples
      const xs = s.props.map((p) => p.position_m[0]), zs = s.props.map((p) => p.position_m[1]);
      const cx = 0.5 * (Math.min(...xs) + Math.max(...xs)), cz = 0.5 * (Math.min(...zs) + Math.max(...zs));
      const half = 0.5 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...zs) - Math.min(...zs)) + 60;
      enableHavokProps(world, hp, { cx, cz, half, spacing: 1 });
    }
    const gs = { h: 0, nx: 0, ny: 1, nz: 0, surface: 0 };
    s.props.forEach((p, i) => {
      world.ground.sample(p.position_m[0], p.position_m[1], gs);
      const eid = spawnProp(world, p.kind, p.position_m[0], gs.h, p.position_m[1], (p.rot_y_deg * Math.PI) / 180);
      rt.names.set(eid, p.id ?? `${p.kind}${i}`);
    });
  }
}

const colliderFields: Record<string, (w: SimWorld, e: number) => number> = {
  crush_front: (w, e) => w.c.CarCollider.crushF[e]!,
  crush_rear: (w, e) => w.c.CarCollider.crushR[e]!,
  crush_left: (w, e) => w.c.CarCollider.crushL[e]!,
  crush_right: (w, e) => w.c.CarCollider.crushRt[e]!,
  hits: (w, e) => w.c.CarCollider.hits[e]!,
  steer_pull: (w, e) => w.c.Damage.steerPullRad[e]!,
  power_factor: (w, e) => w.c.Damage.powerFactor[e]!,
};

/** Trace fields of collider bodies: `<id>.crush_front|crush_rear|crush_left|crush_right|hits|steer_pull|power_factor`. */
export function collisionTraceResolver(
  _run: unknown, ent: { eid: number }, field: string,
): ((w: SimWorld) => number) | null {
  const f = colliderFields[field];
  return f ? (w) => f(w, ent.eid) : null;
}
