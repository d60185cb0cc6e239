/**
 * Drive a loaded car for a fixed number of ticks on flat ground with throttle and a steering sweep, and report the
 * first tick at which its state stops being finite (or runs away). Used by the car property tests.
 */
import { createSimWorld, type IntegratorKind } from '../../src/ecs/world';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../../src/run/pipeline';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { carRuntime } from '../../src/systems/sim/vehicle/registry';
import type { CarConfig } from '../../src/content/car-schema';

/** Runaway limits: faster than 200 m/s or further than 1 km from the start in a few hundred ticks is not a car. */
const MAX_SPEED = 200;
const MAX_DISTANCE = 1000;

function finiteRow(store: Record<string, unknown>, eid: number): string | null {
  for (const [k, a] of Object.entries(store)) if (a instanceof Float64Array && !Number.isFinite(a[eid]!)) return k;
  return null;
}

/** null when the car ran `ticks` ticks with finite, bounded state; else what went wrong and when. */
export function driveProblem(cfg: CarConfig, ticks: number, integrator: IntegratorKind = 'midpoint'): string | null {
  const world = createSimWorld({ integrator });
  const eid = spawnCar(world, cfg, { x: 0, z: 0, heading: 0, speed: 5 });
  const input = new HeldInput();
  setInputSource(world, eid, input);
  const b = world.c.RigidBody;
  const wheels = carRuntime(world, eid).wheels;
  for (let i = 0; i < ticks; i++) {
    // quantised units (controls.ts): throttle 0..1000, steer −1000..1000; a slow sweep left and right
    input.input = { steer: i % 200 < 100 ? 600 : -600, throttle: 800, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
    runTick(world);
    const bad = finiteRow(world.c.RigidBody as unknown as Record<string, unknown>, eid) ?? finiteRow(world.c.Car as unknown as Record<string, unknown>, eid)
      ?? wheels.map((w) => finiteRow(world.c.Wheel as unknown as Record<string, unknown>, w)).find((x) => x !== null) ?? null;
    if (bad) return `non-finite ${bad} at tick ${i + 1}`;
    const v = Math.hypot(b.Px[eid]!, b.Py[eid]!, b.Pz[eid]!) / cfg.body.massKg;
    if (!(v < MAX_SPEED)) return `speed ${v} m/s at tick ${i + 1}`;
    if (!(Math.hypot(b.px[eid]!, b.py[eid]!, b.pz[eid]!) < MAX_DISTANCE)) return `position runaway at tick ${i + 1}`;
  }
  return null;
}
