/**
 * Traffic drawn as car bodies (src/systems/view/traffic-bodies.ts, car/traffic-body.ts): each vehicle type is
 * the generated body of its car file (the van: its dimensions in the van style) less the rally fittings, plus
 * four closed low-poly wheels on the axles, in one mesh; on a NullEngine a town with the 200 cars draws
 * the traffic in (types + 1) draw calls, every vehicle on the bicycle model exactly once, bodies only within
 * NEAR_BODY_M of the eye, and the traffic's triangles stay within a quarter of the low preset's budget.
 */
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { BUILTIN_CARS, loadBuiltinCar } from '../../src/content/cars/index';
import { buildCarBody } from '../../src/systems/view/car/car-body-mesh';
import { buildTrafficBody, TRAFFIC_WHEEL_SIDES } from '../../src/systems/view/car/traffic-body';
import { carShapeOf } from '../../src/systems/view/car/car-shape';
import { NEAR_BODY_M, TrafficBodies, vehicleTypeShape } from '../../src/systems/view/traffic-bodies';
import { RENDER_BUDGETS } from '../../src/systems/view/graphics-presets';
import { VAN } from '../../src/systems/sim/traffic/index';
import { TownRun } from '../../src/run/town';

const CFGS = BUILTIN_CARS.map((b) => loadBuiltinCar(b.id));
const SHAPES = [...CFGS.map(carShapeOf), vehicleTypeShape(VAN)];
/** Float32 storage: 1e-5 m is far below any modelled feature. */
const TOL_M = 1e-5;
/** The traffic's share of a preset's triangle budget (the ground, buildings and the player's car take the rest). */
const TRAFFIC_BUDGET_SHARE = 0.25;
/** Simulated time before the scene is measured, s (the traffic has spread along the streets). */
const SETTLE_S = 10;

describe('traffic body mesh', () => {
  it.each(SHAPES.map((s, i) => ({ i, s })))('type $i: the kept body parts, the tail lights and four closed octagonal wheels', ({ s }) => {
    const m = buildTrafficBody(s);
    const gen = buildCarBody(s);
    const kept = gen.body.parts.filter((p) => ['lower body', 'greenhouse', 'side glass', 'front and rear'].includes(p.name)).reduce((a, p) => a + p.count, 0);
    const part = (n: string) => m.parts.find((p) => p.name === n)!;
    expect(part('body').count).toBe(kept);
    expect(part('tail lights').count).toBe(gen.brakeLights.indices.length / 3);
    // per wheel: a tread quad (2 triangles) and one triangle of each side wall per side
    expect(part('wheels').count).toBe(4 * TRAFFIC_WHEEL_SIDES * 4);
    // every wheel vertex on or inside its wheel's cylinder, and each wheel's bottom on the car's ground line
    const w0 = part('wheels').first * 3;
    for (let v = w0; v < m.positions.length / 3; v++) {
      const [x, y, z] = [m.positions[3 * v]!, m.positions[3 * v + 1]!, m.positions[3 * v + 2]!];
      const w = s.wheels.reduce((best, c) => (Math.hypot(c.x - x, c.z - z) < Math.hypot(best.x - x, best.z - z) ? c : best));
      expect(Math.abs(x - w.x)).toBeLessThanOrEqual(w.widthM / 2 + TOL_M);
      expect(Math.hypot(y - w.y, z - w.z)).toBeLessThanOrEqual(w.radiusM + TOL_M);
    }
  });

  it('the van stands on its wheels, at its type length and width, in the van style', () => {
    const s = vehicleTypeShape(VAN);
    expect(s.look.style).toBe('van');
    expect([s.lengthM, s.widthM]).toEqual([VAN.lengthM, VAN.widthM]);
    const zs = s.wheels.map((w) => w.z);
    expect(Math.max(...zs) - Math.min(...zs)).toBeCloseTo(VAN.aM + VAN.bM, 12);
    for (const w of s.wheels) expect(w.y - w.radiusM).toBe(0);
  });
});

describe('traffic bodies in a town', () => {
  it(`200 cars: types + 1 draw calls, each vehicle drawn once, bodies within ${NEAR_BODY_M} m, triangles within budget`, () => {
    const run = new TownRun({ seed: 1, cars: 200, player: CFGS[1]!, trafficCars: CFGS });
    run.run(SETTLE_S);
    const scene = new Scene(new NullEngine());
    const bodies = new TrafficBodies(scene, run.traffic, SHAPES.slice(0, CFGS.length), (x, z) => run.town.ground.height(x, z));
    const b = run.world.c.RigidBody, e = run.playerEid;
    const [ex, ez] = [b.px[e]!, b.pz[e]!];
    bodies.update(ex, ez);
    expect(bodies.meshes.length).toBe(run.traffic.types.length + 1);
    const st = run.traffic.state;
    let onBicycle = 0, nearExpected = 0;
    for (let k = 0; k < st.capacity; k++) {
      if (!st.alive[k] || st.eid[k]! >= 0) continue;
      onBicycle++;
      if (Math.hypot(st.x[k]! - ex, st.z[k]! - ez) <= NEAR_BODY_M) nearExpected++;
    }
    const { near, far } = bodies.counts();
    expect(onBicycle).toBeGreaterThan(150);
    expect(near + far).toBe(onBicycle);
    expect(near).toBe(nearExpected);
    expect(bodies.meshes.reduce((a, m) => a + m.thinInstanceCount, 0)).toBe(onBicycle);
    const tris = bodies.meshes.reduce((a, m) => a + (m.thinInstanceCount * m.getTotalIndices()) / 3, 0);
    expect(tris).toBeLessThanOrEqual(TRAFFIC_BUDGET_SHARE * RENDER_BUDGETS.low.triangles);
    bodies.dispose();
    scene.dispose();
  }, 60_000);
});
