/**
 * The wheels' own mass (Deák §5.1: chassis + four wheels with a travel DOF each; src/systems/sim/vehicle/
 * unsprung.ts). Numbers from the equations of the linear quarter car and from momentum conservation.
 */
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'smol-toml';
import { rig } from './helpers';
import { springForce } from '../../src/content/car-schema';
import { loadCarConfig } from '../../src/content/car-load';
import { readBuiltin } from '../../src/content/cars/index';
import { carRuntime } from '../../src/systems/sim/vehicle/registry';
import { INTEGRATORS, type IntegratorKind } from '../../src/ecs/world';
import { evaluateForces } from '../../src/run/pipeline';
import type { Ground, GroundSample } from '../../src/ecs/ground';

const G = 9.81;

/**
 * Hatch GTI made front/rear symmetric (CG mid-wheelbase, rear suspension and tyres = front), so that equal
 * motion of the four corners (heave) decouples from pitch and roll, and each corner is the textbook 2-DOF
 * quarter car: sprung m_s/4 on spring k_s, wheel m_u on tyre k_t. `damping` sets both damper rates.
 */
function symmetricCar(damping?: number) {
  const d = parse(readBuiltin('hatch-gti')) as Record<string, Record<string, unknown>>;
  const body = d['body']!;
  body['cg_to_front_m'] = (body['wheelbase_m'] as number) / 2;
  const susp = d['suspension'] as Record<string, Record<string, unknown>>;
  const tires = d['tires'] as Record<string, Record<string, unknown>>;
  susp['rear'] = { ...susp['front']!, progression_n_per_mm2: 0 };
  susp['front'] = { ...susp['rear'] };
  tires['rear'] = { ...tires['front']! };
  if (damping !== undefined) {
    for (const s of [susp['front']!, susp['rear']!]) {
      s['bump_damping_n_s_per_m'] = damping;
      s['rebound_damping_n_s_per_m'] = damping;
    }
  }
  d['setup'] = {};
  return loadCarConfig(stringify(d), 'symmetric.toml');
}

/** Times of the upward zero crossings of x(t) − mean, linearly interpolated between ticks. */
function upCrossings(xs: number[], dt: number): number[] {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const out: number[] = [];
  for (let i = 1; i < xs.length; i++) {
    const a = xs[i - 1]! - mean,
      b = xs[i]! - mean;
    if (a < 0 && b >= 0) out.push((i - 1 + a / (a - b)) * dt);
  }
  return out;
}

describe('unsprung mass', () => {
  const damped = symmetricCar();
  const undamped = symmetricCar(1); // 1 N·s/m: ζ ≈ 1e-4, the frequency shift (ζ²/2) is below 1e-8

  // Linear quarter car at the static point: k_s = dF/ds (progression 0, bump stop clear), k_t = dN/dδ of the
  // progressive tyre N = k_t0·δ·(1 + δ/0.1 m) at its static deflection.
  const s = damped.suspension.front;
  const t = damped.tires.front;
  const mu = s.unsprungMass;
  const ms = (damped.body.massKg - 4 * mu) / 4;
  const n0 = (damped.body.massKg * G) / 4;
  const kt0 = t.radialStiffness;
  const delta0 = (-1 + Math.sqrt(1 + (40 * n0) / kt0)) / 20; // 10·k_t0·δ² + k_t0·δ − N0 = 0
  const kt = kt0 * (1 + 20 * delta0);
  const ks = s.springRate;
  // det(K − ω²M) = 0: m_s·m_u·ω⁴ − [m_s(k_s + k_t) + m_u·k_s]·ω² + k_s·k_t = 0.
  const A = ms * mu,
    B = ms * (ks + kt) + mu * ks,
    C = ks * kt;
  const wHop = Math.sqrt((B + Math.sqrt(B * B - 4 * A * C)) / (2 * A));
  const wBounce = Math.sqrt((B - Math.sqrt(B * B - 4 * A * C)) / (2 * A));

  it('the test car is linear at its static point (bump stop clear, static travel = sprung weight / k)', () => {
    const s0 = damped.wheels[0]!.staticTravel;
    expect(s0).toBeLessThan(s.travel - s.bumpStopGap);
    expect(springForce(s, s0)).toBeCloseTo(n0 - mu * G, 6);
  });

  for (const integrator of INTEGRATORS) {
    for (const mode of ['hop', 'bounce'] as const) {
      it(`${mode} frequency matches the 2-DOF quarter car (${integrator})`, () => {
        const w = mode === 'hop' ? wHop : wBounce;
        const r = rig(damped, { integrator: integrator as IntegratorKind });
        r.run(3); // settle with real dampers (same static point), then take the dampers out
        carRuntime(r.world, r.eid).cfg = undamped;
        // Start on the mode's eigenvector (body x_s, wheel x_u absolute): (k_s − ω²m_s)·x_s = k_s·x_u.
        const xs = 1e-3,
          xu = ((ks - w * w * ms) / ks) * xs;
        const amp = mode === 'hop' ? 0.5e-3 / Math.abs(xu - xs) : 1; // 0.5 mm of travel for hop, 1 mm of body for bounce
        const b = r.world.c.RigidBody;
        const W = r.world.c.Wheel;
        const wheels = carRuntime(r.world, r.eid).wheels;
        b.py[r.eid] = b.py[r.eid]! + amp * xs;
        for (const wh of wheels) W.travel[wh] = W.travel[wh]! + amp * (xu - xs);
        const trace: number[] = [];
        const periods = 8;
        r.run((periods * 2 * Math.PI) / w + 0.02, () => trace.push(mode === 'hop' ? W.travel[wheels[0]]! : b.py[r.eid]!));
        const ups = upCrossings(trace, r.world.dt);
        const measured = (2 * Math.PI * (ups.length - 1)) / (ups[ups.length - 1]! - ups[0]!);
        // Tolerance: the integrators' frequency error at ω·dt (hop: 96 rad/s × 2 ms ≈ 0.19): midpoint
        // (ω·dt)²/6 ≈ 0.62 % (measured 0.61 %), semi-implicit Euler (ω·dt)²/24 ≈ 0.15 % (0.16 %), RK4 ~1e-5; plus
        // the tyre's progression over the 0.5 mm amplitude (~1e-4). Bounce (ω·dt ≈ 0.02): all below 1e-4.
        const tol = mode === 'hop' ? { euler: 0.003, midpoint: 0.008, rk4: 5e-4 }[integrator] : 5e-4;
        expect(Math.abs(measured / w - 1)).toBeLessThan(tol);
      });
    }
  }

  for (const car of ['hatch-gti', 'classic-rwd', 'rally-awd']) {
    for (const integrator of INTEGRATORS) {
      it(`at rest each wheel is in balance on its axis and the tyres carry M·g (${car}, ${integrator})`, () => {
        const r = rig(car, { integrator: integrator as IntegratorKind });
        r.run(4);
        const W = r.world.c.Wheel;
        const ay = r.world.c.RigidBody.R4[r.eid]!; // â·ŷ (the body pitches ~2e-3 rad at rest)
        const wheels = carRuntime(r.world, r.eid).wheels;
        let total = 0;
        for (let i = 0; i < 4; i++) {
          const wh = wheels[i]!;
          const m = i < 2 ? r.cfg.suspension.front.unsprungMass : r.cfg.suspension.rear.unsprungMass;
          // Wheel at rest (unsprung.ts): T − F_s − m_u·g·(â·ŷ) = m_u·s̈ = 0. Measured ≤ 1.2e-6 N after 4 s of
          // damping; 1e-4 N is a residual wheel acceleration of ~3e-6 m/s².
          expect(Math.abs(W.tireAxis[wh]! - W.suspForce[wh]! - m * G * ay)).toBeLessThan(1e-4);
          // The same in normal load: N − F_s = m_u·g up to the static tangential tyre force's share along the
          // pitched axis (a few N × 2e-3 rad: measured ≤ 0.011 N).
          expect(Math.abs(W.load[wh]! - W.suspForce[wh]! - m * G)).toBeLessThan(0.05);
          total += W.load[wh]!;
        }
        // Σ N − M·g = M·(residual heave acceleration): measured ≤ 3e-10 relative after 4 s.
        expect(Math.abs(total / (r.cfg.body.massKg * G) - 1)).toBeLessThan(1e-6);
      });
    }
  }

  it('driving on bumps: along the suspension axis the five bodies feel only gravity and the tyres (nothing double counted)', () => {
    // Along â: M·a_body·â + Σ m_u,i·s̈_i = M·g·â + Σ T_i (unsprung.ts). The suspension force F_s and the wheels'
    // inertial shares are internal and must cancel; a tyre force also put on the body, or a suspension force
    // missing from it, breaks the balance by hundreds of N. No aero (drag has a component along a pitched â).
    const d = parse(readBuiltin('hatch-gti')) as Record<string, Record<string, unknown>>;
    d['body']!['drag_coefficient'] = 0;
    const bumps: Ground = {
      sample(x: number, z: number, o: GroundSample) {
        o.h = 0.05 * Math.sin(0.9 * x) * Math.sin(0.7 * z);
        const hx = 0.045 * Math.cos(0.9 * x) * Math.sin(0.7 * z),
          hz = 0.035 * Math.sin(0.9 * x) * Math.cos(0.7 * z);
        const n = Math.hypot(hx, 1, hz);
        o.nx = -hx / n;
        o.ny = 1 / n;
        o.nz = -hz / n;
        o.surface = 0;
      },
    };
    const r = rig(loadCarConfig(stringify(d), 'no-drag.toml'), { ground: bumps, pose: { speed: 15 } });
    r.input.input = { steer: 300, throttle: 700, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
    const b = r.world.c.RigidBody;
    const W = r.world.c.Wheel;
    const g = r.world.gravity;
    const wheels = carRuntime(r.world, r.eid).wheels;
    const M = r.cfg.body.massKg;
    const mus = wheels.map((_, i) => (i < 2 ? r.cfg.suspension.front.unsprungMass : r.cfg.suspension.rear.unsprungMass));
    let worst = 0,
      maxWheelAcc = 0;
    for (let k = 0; k < 12; k++) {
      r.run(0.25);
      evaluateForces(r.world); // forces and derivatives at the current state (â of this state)
      const e = r.eid;
      const ax = b.R1[e]!,
        ay = b.R4[e]!,
        az = b.R7[e]!;
      const gm = M * b.gravity[e]!;
      let lhs = b.fx[e]! * ax + b.fy[e]! * ay + b.fz[e]! * az,
        rhs = gm * (g.x * ax + g.y * ay + g.z * az);
      for (let i = 0; i < 4; i++) {
        lhs += mus[i]! * W.dTravelRate[wheels[i]!]!;
        rhs += W.tireAxis[wheels[i]!]!;
        maxWheelAcc = Math.max(maxWheelAcc, Math.abs(W.dTravelRate[wheels[i]!]!));
      }
      worst = Math.max(worst, Math.abs(lhs - rhs) / (M * G));
    }
    expect(maxWheelAcc).toBeGreaterThan(1); // the wheels really move on their own (m/s²)
    // Rounding only: a few ulps of forces up to ~1e4 N against M·g ≈ 1.4e4 N.
    expect(worst).toBeLessThan(1e-12);
  });

  for (const integrator of INTEGRATORS) {
    it(`free fall: wheels drop onto the droop stop and momentum grows by M·g·t (${integrator})`, () => {
      // No aero: drag would take ~1e-3 of the momentum over the fall.
      const d = parse(readBuiltin('hatch-gti')) as Record<string, Record<string, unknown>>;
      d['body']!['drag_coefficient'] = 0;
      const r = rig(loadCarConfig(stringify(d), 'no-drag.toml'), { integrator: integrator as IntegratorKind, pose: { y: 50 } });
      const b = r.world.c.RigidBody;
      const W = r.world.c.Wheel;
      const wheels = carRuntime(r.world, r.eid).wheels;
      const M = r.cfg.body.massKg;
      const mus = wheels.map((_, i) => (i < 2 ? r.cfg.suspension.front.unsprungMass : r.cfg.suspension.rear.unsprungMass));
      // Linear momentum of the five bodies along Y: M·v_body + Σ m_u·ṡ_i·â_y (â = body +Y; the wheels' share of
      // the body's own motion is already inside M).
      const py = (): number => M * b.vy[r.eid]! + wheels.reduce((sum, wh, i) => sum + mus[i]! * W.travelRate[wh]! * b.R4[r.eid]!, 0);
      const p0 = py();
      const time = 1;
      r.run(time);
      expect(W.load[wheels[0]]!).toBe(0); // still in the air (50 m up)
      // dP/dt = −M·g exactly in the model (unsprung.ts); the integrators add only rounding.
      expect(Math.abs((py() - p0) / (-M * G * time) - 1)).toBeLessThan(1e-9);
      for (const wh of wheels) {
        // Hanging on the stop: within 0.1 mm of full droop, at rest relative to the body.
        expect(Math.abs(W.travel[wh]!)).toBeLessThan(1e-4);
        expect(Math.abs(W.travelRate[wh]!)).toBeLessThan(1e-3);
      }
    });
  }
});
