/**
 * Residual crush is felt by the driver: the collision Damage component's powerFactor scales engine torque and
 * steerPullRad biases the steering rack (docs/collisions.md). Cars without a collider are unaffected.
 */
import { describe, expect, it } from 'vitest';
import { rig } from './helpers';
import { attachCarColliderFromConfig } from '../../src/systems/sim/collision/car-collider';
import { quantizeInput } from '../../src/ecs/controls';

describe('damage reaches the driving', () => {
  it('engine torque scales exactly with powerFactor (same state, one tick)', () => {
    // Euler evaluates the forces once, at the identical start state, so the recorded torques compare exactly.
    const a = rig('hatch-gti', { integrator: 'euler' });
    const b = rig('hatch-gti', { integrator: 'euler' });
    attachCarColliderFromConfig(a.world, a.eid, a.cfg);
    attachCarColliderFromConfig(b.world, b.eid, b.cfg);
    b.world.c.Damage.powerFactor[b.eid] = 0.6;
    for (const r of [a, b]) r.input.input = quantizeInput({ steer: 0, throttle: 1, brake: 0, clutch: 0, handbrake: 0 });
    a.run(0.002);
    b.run(0.002);
    const ta = a.world.c.Car.engineTorque[a.eid]!;
    expect(ta).toBeGreaterThan(50);
    expect(b.world.c.Car.engineTorque[b.eid]! / ta).toBeCloseTo(0.6, 12);
  });

  it('a car with a collider and no damage drives exactly like a car without one', () => {
    const a = rig('hatch-gti');
    const b = rig('hatch-gti');
    attachCarColliderFromConfig(b.world, b.eid, b.cfg);
    for (const r of [a, b]) r.input.input = quantizeInput({ steer: 0.2, throttle: 0.8, brake: 0, clutch: 0, handbrake: 0 });
    a.run(1);
    b.run(1);
    expect(b.world.c.RigidBody.pz[b.eid]).toBe(a.world.c.RigidBody.pz[a.eid]);
    expect(b.world.c.Car.steerAngle[b.eid]).toBe(a.world.c.Car.steerAngle[a.eid]);
  });

  it('steer pull moves the rack to the pull angle with the wheel centred (rate-limited)', () => {
    const r = rig('hatch-gti');
    attachCarColliderFromConfig(r.world, r.eid, r.cfg);
    r.world.c.Damage.steerPullRad[r.eid] = 0.03;
    r.run(0.002);
    // First tick: limited by the max steer rate.
    expect(r.world.c.Car.steerAngle[r.eid]).toBeCloseTo(Math.min(0.03, r.cfg.steering.maxRate * 0.002), 12);
    r.run(0.5);
    expect(r.world.c.Car.steerAngle[r.eid]).toBeCloseTo(0.03, 12);
  });
});
