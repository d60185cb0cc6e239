/**
 * Steady cornering below 0.3 g against the linear bicycle model, Félez et al. eqs 1–5:
 *   m(u̇ − v r) = F_xf + F_xr − δ F_yf         (1)
 *   m(v̇ + u r) = F_yf + F_yr + δ F_xf         (2)
 *   I_z ṙ = a F_yf − b F_yr                    (3)
 *   α_f = δ − (a r + v)/u                      (4)
 *   α_r = (b r − v)/u                          (5)
 * with F_yf = C_f α_f, F_yr = C_r α_r. In steady state (u̇ = v̇ = ṙ = 0, F_xf = 0 for the RWD car) (2)–(3)
 * are linear in (v, r). The axle cornering stiffnesses are taken from the tyre model's slope at the static
 * loads: C = 2·∂F_y/∂tanα at α → 0 of `brushForce` (no constant copied from the config).
 */
import { describe, expect, it } from 'vitest';
import { rig } from './helpers';
import { brushForce, stiffnessAtLoad } from '../../src/systems/sim/vehicle/tires';
import { readCarTelemetry } from '../../src/systems/sim/vehicle/telemetry';
import type { CarConfig, TireConfig } from '../../src/content/car-schema';
import { DEFAULT_SURFACES } from '../../src/content/surfaces';
import { loadCarConfig } from '../../src/content/car-load';
import { readBuiltin } from '../../src/content/cars/index';

// The classic RWD car with an OPEN rear diff: its clutch-pack LSD (preload) would add a yaw moment
// (T_L ≠ T_R) that the bicycle model does not have.
const openDiff = loadCarConfig('extends = "classic-rwd.toml"\n[drivetrain]\nrear_diff = { type = "open" }\n', 'classic-open.toml', readBuiltin);

function axleStiffness(t: TireConfig): number {
  const n = t.nominalLoad;
  const mu = t.grip * DEFAULT_SURFACES[0]!.muStatic;
  const c = stiffnessAtLoad(t.corneringStiffness, n, n, t.stiffnessLoadExponent);
  const h = 1e-6;
  const out = { fx: 0, fy: 0, phi: 0 };
  const fy = brushForce(0, h, n, mu, stiffnessAtLoad(t.longStiffness, n, n, t.stiffnessLoadExponent), c, out, t.pressureUniformity).fy;
  return (2 * fy) / h;
}

function bicycle(cfg: CarConfig, u: number, delta: number): { r: number; v: number } {
  const m = cfg.body.massKg;
  const a = cfg.body.cgToFrontM,
    b = cfg.body.cgToRearM;
  const Cf = axleStiffness(cfg.tires.front),
    Cr = axleStiffness(cfg.tires.rear);
  // (2): m u r = Cf(δ − (a r + v)/u) + Cr((b r − v)/u);  (3): 0 = a Cf(δ − (a r + v)/u) − b Cr((b r − v)/u)
  // → A [v, r]ᵀ = rhs
  const a11 = (Cf + Cr) / u,
    a12 = m * u + (Cf * a - Cr * b) / u,
    r1 = Cf * delta;
  const a21 = (a * Cf - b * Cr) / u,
    a22 = (a * a * Cf + b * b * Cr) / u,
    r2 = a * Cf * delta;
  const det = a11 * a22 - a12 * a21;
  return { v: (r1 * a22 - a12 * r2) / det, r: (a11 * r2 - a21 * r1) / det };
}

describe('steady cornering vs linear bicycle model (Félez et al. eqs 1–5)', () => {
  for (const [u, steer] of [
    [10, 0.04],
    [12, 0.07],
    [18, 0.03],
  ] as const) {
    it(`classic RWD (open diff) at ${u} m/s, steer ${steer}: yaw rate, lateral acceleration and slip angles within 3 %`, () => {
      const r = rig(openDiff, { pose: { speed: u } });
      const b = r.world.c.RigidBody;
      let integ = 0.3;
      const tel = readCarTelemetry(r.world, r.eid);
      r.input.input.steer = Math.round(steer * 1000);
      const dt = r.world.dt;
      const acc = { ay: 0, r: 0, delta: 0, u: 0, af: 0, ar: 0, n: 0 };
      r.run(14, () => {
        readCarTelemetry(r.world, r.eid, tel);
        // Speed hold with throttle (PI), as a driver would on a constant-speed cornering test.
        const e = u - tel.forwardMs;
        integ += 0.5 * e * dt;
        const thr = Math.min(1, Math.max(0, integ + 0.8 * e));
        r.input.input.throttle = Math.round(thr * 1000);
        if (r.world.time > 10) {
          acc.ay += tel.forwardMs * b.wy[r.eid]!; // a_y = u·r in steady state (the accelerometer also sees g·sin roll)
          acc.r += b.wy[r.eid]!;
          acc.delta += 0.5 * (tel.wheels[0]!.steerRad + tel.wheels[1]!.steerRad);
          acc.af += 0.5 * (tel.wheels[0]!.slipAngleRad + tel.wheels[1]!.slipAngleRad);
          acc.ar += 0.5 * (tel.wheels[2]!.slipAngleRad + tel.wheels[3]!.slipAngleRad);
          acc.u += tel.forwardMs;
          acc.n++;
        }
      });
      const out = { ay: acc.ay / acc.n, r: acc.r / acc.n, delta: acc.delta / acc.n, u: acc.u / acc.n, af: acc.af / acc.n, ar: acc.ar / acc.n };
      const p = bicycle(r.cfg, out.u, out.delta);
      // Slip angles from eqs 4–5 at the predicted (v, r).
      const a = r.cfg.body.cgToFrontM,
        bb = r.cfg.body.cgToRearM;
      const af = out.delta - (a * p.r + p.v) / out.u,
        ar = (bb * p.r - p.v) / out.u;
      expect(out.ay).toBeLessThan(0.3 * 9.81);
      expect(out.ay).toBeGreaterThan(0.05 * 9.81);
      expect(Math.abs(out.r / p.r - 1)).toBeLessThan(0.03);
      expect(Math.abs(out.ay / (out.u * p.r) - 1)).toBeLessThan(0.03);
      // Axle slip angles (the tyre model's own steady state) against eqs 4–5.
      expect(Math.abs(out.af / af - 1)).toBeLessThan(0.03);
      expect(Math.abs(out.ar / ar - 1)).toBeLessThan(0.03);
    });
  }
});
