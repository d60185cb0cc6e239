import { describe, expect, it } from 'vitest';
import { rig } from './helpers';
import { readCarTelemetry } from '../../src/systems/sim/vehicle/telemetry';
import { BUILTIN_CARS } from '../../src/content/cars/index';
import { INTEGRATORS } from '../../src/ecs/world';

describe('vehicle smoke', () => {
  it('ships three built-in cars', () => {
    expect(BUILTIN_CARS.map((c) => c.id).sort()).toEqual(['classic-rwd', 'hatch-gti', 'rally-awd']);
  });

  for (const integrator of INTEGRATORS) {
    it(`settles at static ride height and carries its weight (${integrator})`, () => {
      const r = rig('hatch-gti', { integrator });
      r.run(2);
      const t = readCarTelemetry(r.world, r.eid);
      const total = t.wheels.reduce((s, w) => s + w.loadN, 0);
      // Static equilibrium: Σ N = m g (within 0.1 %: the car is at rest after 2 s of damping).
      expect(total).toBeCloseTo(r.cfg.body.massKg * 9.81, -1);
      expect(Math.abs(total / (r.cfg.body.massKg * 9.81) - 1)).toBeLessThan(1e-3);
      // Front/rear split from the CG position: N_f/N = b/L.
      const front = t.wheels[0]!.loadN + t.wheels[1]!.loadN;
      expect(front / total).toBeCloseTo(r.cfg.body.cgToRearM / r.cfg.body.wheelbaseM, 2);
      expect(t.speedMs).toBeLessThan(1e-3);
    });
  }

  it('accelerates, steers left and brakes', () => {
    const r = rig('rally-awd');
    r.input.input.throttle = 1000;
    r.run(3);
    const t = readCarTelemetry(r.world, r.eid);
    expect(t.speedMs).toBeGreaterThan(15);
    r.input.input.throttle = 300;
    r.input.input.steer = 300;
    const b = r.world.c.RigidBody;
    r.run(1);
    expect(b.wy[r.eid]!).toBeGreaterThan(0.1); // yaw rate + = turning left (about +Y)
    r.input.input.steer = 0;
    r.input.input.throttle = 0;
    r.input.input.brake = 1000;
    r.run(6);
    expect(readCarTelemetry(r.world, r.eid).speedMs).toBeLessThan(0.05);
  });
});
