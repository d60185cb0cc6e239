/**
 * The slip angle is telemetry only and is computed where it is read (`slipAngleOf`), from the contact-point
 * velocities of the tick's last force evaluation: α = atan2(−v_y, max(|v_x|, 0.5 m/s)), 0 off the ground.
 */
import { describe, expect, it } from 'vitest';
import { rig } from './helpers';
import { readCarTelemetry, slipAngleOf } from '../../src/systems/sim/vehicle/telemetry';
import { carRuntime } from '../../src/systems/sim/vehicle/registry';
import { CH, NCH, TelemetrySampler } from '../../src/app/telemetry/channels';

describe('slip angle where it is read', () => {
  it('α = atan2(−v_y, max(|v_x|, 0.5)) on the ground, 0 in the air', () => {
    // datan2 is a deterministic atan2 (terrain/dmath.ts); a few ulps of a 1-rad angle is < 1e-15 rad.
    for (const [vx, vy] of [[20, 1.5], [-8, -0.7], [0.2, 0.3], [0, -0.1], [35, 0]] as const) {
      expect(slipAngleOf(1, vx, vy)).toBeCloseTo(Math.atan2(-vy, Math.max(Math.abs(vx), 0.5)), 14);
      expect(slipAngleOf(0, vx, vy)).toBe(0);
    }
  });

  it('the car telemetry and the telemetry channels show the same angle, from the last evaluation', () => {
    const r = rig('classic-rwd', { pose: { speed: 15 } });
    r.input.input.steer = 80;
    r.input.input.throttle = 300;
    r.run(2);
    const tel = readCarTelemetry(r.world, r.eid);
    const W = r.world.c.Wheel;
    const wheels = carRuntime(r.world, r.eid).wheels;
    const out = new TelemetrySampler(r.eid).sample(r.world, 0, new Float64Array(NCH));
    const names = ['fl', 'fr', 'rl', 'rr'] as const;
    for (let i = 0; i < 4; i++) {
      const w = wheels[i]!;
      const a = tel.wheels[i]!.slipAngleRad;
      expect(W.grounded[w]).toBe(1);
      expect(a).toBe(slipAngleOf(1, W.vx[w]!, W.vy[w]!));
      expect(out[CH[`alpha_${names[i]!}`]]).toBe((a * 180) / Math.PI);
    }
    // A left turn at 15 m/s: the tyres run at a slip angle that pushes the car left (α > 0 at every wheel).
    for (let i = 0; i < 4; i++) expect(tel.wheels[i]!.slipAngleRad).toBeGreaterThan(0);
  });
});
