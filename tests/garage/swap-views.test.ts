/**
 * After a live swap (garage Apply, dev live reload) everything derived from the car's config follows at once:
 * the drivable wrapper the views read (drawn shape, tacho redline, wheel travel measured from the new static
 * ride height), the drawn mesh (tyre radius), and recovery (`place` re-spawns with the new config).
 */
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { createSimWorld, type SimWorld } from '../../src/ecs/world';
import { runTick } from '../../src/run/pipeline';
import { HeldInput, neutralInput, setInputSource } from '../../src/ecs/controls';
import { BUILTIN_CARS, readBuiltin } from '../../src/content/cars/index';
import { replayCarFromText, vehicleCarAdapter } from '../../src/run/cars';
import { applyCarText } from '../../src/app/garage/live-car';
import { carChoice } from '../../src/app/cars';
import { emptyTelemetry } from '../../src/app/car-link';
import { CarView } from '../../src/systems/view/car-view';
import { carRuntime } from '../../src/systems/sim/vehicle/registry';
import type { CarConfig } from '../../src/content/car-schema';

const HATCH = BUILTIN_CARS.find((c) => c.id === 'hatch-gti')!;
/** The swapped file: bigger tyres (0.318 → 0.345 m), redline 6500 → 7200 rpm (limiter above it), 1420 → 1600 kg. */
const SWAPPED = HATCH.text.replace('mass_kg = 1420', 'mass_kg = 1600').replace(/radius_m = 0\.318/g, 'radius_m = 0.345').replace('redline_rpm = 6500', 'redline_rpm = 7200').replace('limiter_rpm = 6700', 'limiter_rpm = 7400');

function spawnGameCar(world: SimWorld, text = HATCH.text): number {
  return vehicleCarAdapter.spawn(world, replayCarFromText({ id: 'hatch-gti', main: HATCH.file, text, read: readBuiltin, pose: { x: 0, y: 0, z: 0, heading: 0 } }));
}

function driving(seconds: number): { world: SimWorld; eid: number } {
  const world = createSimWorld({ integrator: 'midpoint' });
  const eid = spawnGameCar(world);
  const input = new HeldInput();
  setInputSource(world, eid, input);
  input.input.throttle = 1000;
  for (let i = 0, n = Math.round(seconds / world.dt); i < n; i++) runTick(world);
  return { world, eid };
}

function swap(world: SimWorld, eid: number): CarConfig {
  let seen: CarConfig | null = null;
  const r = applyCarText({ world, eid, carId: 'hatch-gti', onSwapped: (c) => (seen = c) }, SWAPPED, HATCH.file, readBuiltin);
  expect(r.applied).toBe(true);
  expect(seen).toBe(r.config); // the views' callback gets the config the sim now drives with
  return r.config!;
}

describe('a live swap reaches the views', () => {
  it('the re-wrapped car gives the new shape, the new tacho redline and travel from the new static ride height', () => {
    const { world, eid } = driving(1);
    const choice = carChoice('hatch-gti');
    const old = choice.wrap(world, eid);
    const tOld = emptyTelemetry();
    old.readTelemetry(world, tOld);
    expect(tOld.redlineRpm).toBeCloseTo(6500, 9);
    const cfg = swap(world, eid);
    const car = choice.wrap(world, eid, cfg);
    for (const w of car.shape.wheels) expect(w.radiusM).toBe(0.345);
    for (const w of old.shape.wheels) expect(w.radiusM).toBe(0.318);
    const t = emptyTelemetry();
    car.readTelemetry(world, t);
    // the loader converts rpm → rad/s once; the wrapper converts back: 7200 rpm up to rounding
    expect(t.redlineRpm).toBeCloseTo(7200, 9);
    expect(t.maxRpm).toBeCloseTo(7400 * 1.05, 9);
    // drawn travel = sim travel − the new config's static travel (what the loader derived for the new car)
    const W = world.c.Wheel;
    const rt = carRuntime(world, eid);
    for (let k = 0; k < 4; k++) expect(t.wheels[k]!.travel).toBeCloseTo(W.travel[rt.wheels[k]!]! - cfg.wheels[k]!.staticTravel, 12);
  });

  it('the rebuilt mesh draws the new tyre radius (mesh geometry, not the shape record)', () => {
    const { world, eid } = driving(0.5);
    const cfg = swap(world, eid);
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const choice = carChoice('hatch-gti');
    const before = new CarView(scene, choice.wrap(world, eid).shape, null);
    const after = new CarView(scene, choice.wrap(world, eid, cfg).shape, null);
    // an 18-gon tyre has a vertex at angle 0 and at π: its extent across the axle is exactly 2r
    for (const r of before.drawnWheelRadii()) expect(r).toBeCloseTo(0.318, 6);
    for (const r of after.drawnWheelRadii()) expect(r).toBeCloseTo(0.345, 6);
    expect(after.drawnWheelRadii()).toHaveLength(4);
    before.dispose();
    after.dispose();
    scene.dispose();
    engine.dispose();
  });

  it('recovery after a swap places exactly the car a fresh spawn of the new config would be', () => {
    const { world, eid } = driving(2);
    swap(world, eid);
    const pose = { x: 3, y: 0, z: 40, heading: 0.3 };
    vehicleCarAdapter.place(world, eid, pose);
    const fresh = createSimWorld({ integrator: 'midpoint' });
    const e2 = spawnGameCar(fresh, SWAPPED);
    vehicleCarAdapter.place(fresh, e2, pose);
    const stale = createSimWorld({ integrator: 'midpoint' });
    const e3 = spawnGameCar(stale); // the old config: what recovery used to re-spawn
    vehicleCarAdapter.place(stale, e3, pose);
    const b = world.c.RigidBody;
    const W = world.c.Wheel;
    const wheels = (w: SimWorld, e: number) => carRuntime(w, e).wheels.map((x) => w.c.Wheel.travel[x]!);
    expect(b.py[eid]).toBe(fresh.c.RigidBody.py[e2]);
    expect(b.mass[eid]).toBe(fresh.c.RigidBody.mass[e2]);
    expect(wheels(world, eid)).toEqual(wheels(fresh, e2));
    // with the old config (what recovery used to re-spawn) the heavier car's static compression would be
    // the 1420-kg one: the checks above fail against it
    expect(stale.c.RigidBody.mass[e3]).toBe(1420);
    expect(b.mass[eid]).toBe(1600);
    const ws = wheels(stale, e3);
    wheels(world, eid).forEach((t, k) => expect(t).toBeGreaterThan(ws[k]! + 1e-4));
    expect(W.omega[carRuntime(world, eid).wheels[0]!]).toBe(0); // placed at rest
    // and it drives on: 60 ticks with no input in both worlds give the same body height
    for (const [w, e] of [[world, eid], [fresh, e2]] as const) {
      const h = new HeldInput();
      h.input = neutralInput();
      setInputSource(w, e, h);
      for (let i = 0; i < 60; i++) runTick(w);
    }
    expect(b.py[eid]).toBeCloseTo(fresh.c.RigidBody.py[e2]!, 9);
  });
});
