/**
 * Whole-car checks from equations and conservation laws: coast-down (drag + rolling resistance), no energy
 * gain while coasting, handbrake hold on a 15 % slope.
 */
import { describe, expect, it } from 'vitest';
import { rig } from './helpers';
import { INTEGRATORS, type SimWorld } from '../../src/ecs/world';
import { SlopeGround } from '../../src/ecs/ground';
import { kineticEnergy } from '../../src/ecs/rigid-body';
import { carRuntime, AIR_DENSITY } from '../../src/systems/sim/vehicle/registry';
import { springForce } from '../../src/content/car-schema';
import { loadCarConfig } from '../../src/content/car-load';
import { readBuiltin } from '../../src/content/cars/index';
import { stiffnessAtLoad } from '../../src/systems/sim/vehicle/tires';

describe('coast-down', () => {
  it('in neutral follows m_eff·v̇ = −(½ρC_dA·v² + C_rr·m·g) (closed form) within 0.5 %', () => {
    const v0 = 30;
    const r = rig('classic-rwd', { pose: { speed: v0 }, car: { autoGear: false, gear: 0 } });
    const c = r.cfg;
    const m = c.body.massKg;
    // The spinning wheels coast with the car: m_eff = m + Σ I_w/R².
    const mEff = m + 2 * (c.tires.front.inertia / c.tires.front.radius ** 2) + 2 * (c.tires.rear.inertia / c.tires.rear.radius ** 2);
    const k = 0.5 * AIR_DENSITY * c.body.dragCoefficient * c.body.frontalAreaM2;
    const cr = c.tires.rear.rollingResistance * m * 9.81; // tarmac adds 0 (surfaces.toml); same C_rr front/rear
    expect(c.tires.front.rollingResistance).toBe(c.tires.rear.rollingResistance);
    // v(t) = √(c/k)·tan(atan(v0·√(k/c)) − t·√(kc)/m_eff)
    const v = (t: number): number => Math.sqrt(cr / k) * Math.tan(Math.atan(v0 * Math.sqrt(k / cr)) - (t * Math.sqrt(k * cr)) / mEff);
    const b = r.world.c.RigidBody;
    for (const t of [5, 10, 20, 30]) {
      r.run(t - r.world.time);
      const sim = Math.hypot(b.vx[r.eid]!, b.vz[r.eid]!);
      expect(Math.abs(sim / v(t) - 1)).toBeLessThan(0.005);
    }
  });
});

/** Mechanical energy of the car (engine excluded: decoupled in neutral): body + wheel spin + gravity + springs. */
function carEnergy(world: SimWorld, eid: number): number {
  const rt = carRuntime(world, eid);
  const c = rt.cfg;
  const b = world.c.RigidBody;
  const W = world.c.Wheel;
  let e = kineticEnergy(world, eid) + c.body.massKg * 9.81 * b.py[eid]!;
  for (let i = 0; i < 4; i++) {
    const w = rt.wheels[i]!;
    const wc = c.wheels[i]!;
    const sc = wc.front ? c.suspension.front : c.suspension.rear;
    const tc = wc.front ? c.tires.front : c.tires.rear;
    e += 0.5 * tc.inertia * W.omega[w]! ** 2;
    // Suspension spring: ∫F_s ds by Simpson (progressive + bump stop); anti-roll bar ½k(sL − sR)², once per axle.
    const s = Math.max(0, W.travel[w]!);
    e += (s / 6) * (springForce(sc, 0) + 4 * springForce(sc, s / 2) + springForce(sc, s));
    if (wc.left) e += 0.5 * sc.antiRoll * (W.travel[w]! - W.travel[rt.wheels[i + 1]!]!) ** 2;
    // Tyre radial spring N = k δ (1 + δ/0.1): ∫ = k(δ²/2 + δ³/0.3).
    const n = W.load[w]!;
    if (n > 0) {
      const d = (-1 + Math.sqrt(1 + (40 * n) / tc.radialStiffness)) / 20; // root of 10δ² + δ = N/k
      e += tc.radialStiffness * (d * d / 2 + (d * d * d) / 0.3);
      // Tread bristles (linear range): ½ (C/σ) u².
      e += 0.5 * (stiffnessAtLoad(tc.longStiffness, n, tc.nominalLoad, tc.stiffnessLoadExponent) / tc.relaxLong) * W.ux[w]! ** 2;
      e += 0.5 * (stiffnessAtLoad(tc.corneringStiffness, n, tc.nominalLoad, tc.stiffnessLoadExponent) / tc.relaxLat) * W.uy[w]! ** 2;
    }
  }
  return e;
}

describe('no energy gain while coasting', () => {
  for (const integrator of INTEGRATORS) {
    it(`${integrator}: mechanical energy never rises over 0.1 s while coasting with steering inputs`, () => {
      const r = rig('hatch-gti', { integrator, pose: { speed: 25 }, car: { autoGear: false, gear: 0 } });
      r.run(0.5);
      let prev = carEnergy(r.world, r.eid);
      const e0 = prev;
      let maxRise = -Infinity;
      for (let k = 0; k < 80; k++) {
        r.input.input.steer = Math.round(150 * Math.sin(k * 0.25));
        r.run(0.1);
        const e = carEnergy(r.world, r.eid);
        maxRise = Math.max(maxRise, e - prev);
        prev = e;
      }
      // Round-off and the springs' energy estimate: allow 1e-5 of the initial energy per interval.
      expect(maxRise).toBeLessThan(1e-5 * e0);
      expect(prev).toBeLessThan(e0);
    });
  }
});

describe('no energy gain without drag or rolling resistance', () => {
  const frictionless = loadCarConfig(
    'extends = "hatch-gti.toml"\n[body]\ndrag_coefficient = 0\n[tires.front]\nrolling_resistance = 0\n[tires.rear]\nrolling_resistance = 0\n',
    'hatch-frictionless.toml',
    readBuiltin,
  );
  for (const integrator of INTEGRATORS) {
    it(`${integrator}: straight coast keeps its energy (no rise, loss < 0.1 % in 10 s)`, () => {
      const r = rig(frictionless, { integrator, pose: { speed: 25 }, car: { autoGear: false, gear: 0 } });
      r.run(1);
      const e0 = carEnergy(r.world, r.eid);
      let prev = e0;
      let maxRise = -Infinity;
      for (let k = 0; k < 100; k++) {
        r.run(0.1);
        const e = carEnergy(r.world, r.eid);
        maxRise = Math.max(maxRise, e - prev);
        prev = e;
      }
      expect(maxRise).toBeLessThan(1e-7 * e0);
      // Net change: a loss (tyre slip, damping) or round-off of the energy sum (≈1e-9 of E), never a gain.
      expect(e0 - prev).toBeGreaterThan(-1e-8 * e0);
      expect(e0 - prev).toBeLessThan(1e-3 * e0);
    });
  }
});

describe('handbrake on a 15 % slope', () => {
  for (const integrator of INTEGRATORS) {
    for (const heading of [0, Math.PI]) {
      it(`${integrator}, facing ${heading === 0 ? 'uphill' : 'downhill'}: holds 60 s with drift < 1 cm`, () => {
        const r = rig('classic-rwd', { integrator, ground: new SlopeGround(0.15), pose: { heading }, car: { autoGear: false, gear: 0 } });
        r.input.input.handbrake = 1000;
        r.run(3);
        const b = r.world.c.RigidBody;
        const p0 = [b.px[r.eid]!, b.py[r.eid]!, b.pz[r.eid]!];
        r.run(60);
        const drift = Math.hypot(b.px[r.eid]! - p0[0]!, b.py[r.eid]! - p0[1]!, b.pz[r.eid]! - p0[2]!);
        expect(drift).toBeLessThan(0.01);
        expect(Math.hypot(b.vx[r.eid]!, b.vy[r.eid]!, b.vz[r.eid]!)).toBeLessThan(1e-3);
      });
    }
  }
});

describe('standstill and very low speed', () => {
  it('a parked car on flat ground does not creep or jitter (neutral, no brakes)', () => {
    const r = rig('hatch-gti', { car: { autoGear: false, gear: 0 } });
    r.run(2);
    const b = r.world.c.RigidBody;
    const W = r.world.c.Wheel;
    const wheels = carRuntime(r.world, r.eid).wheels;
    const x0 = b.pz[r.eid]!;
    let maxOmega = 0;
    let maxV = 0;
    r.run(20, () => {
      for (const w of wheels) maxOmega = Math.max(maxOmega, Math.abs(W.omega[w]!));
      maxV = Math.max(maxV, Math.hypot(b.vx[r.eid]!, b.vz[r.eid]!));
    });
    expect(maxV).toBeLessThan(1e-4);
    expect(maxOmega).toBeLessThan(1e-3);
    expect(Math.abs(b.pz[r.eid]! - x0)).toBeLessThan(1e-4);
  });

  it('rolling at 0.5 m/s with light braking stops and the braked wheels stay still (no chatter)', () => {
    const r = rig('classic-rwd', { pose: { speed: 0.5 }, car: { autoGear: false, gear: 0 } });
    r.input.input.brake = 150;
    const b = r.world.c.RigidBody;
    const W = r.world.c.Wheel;
    const wheels = carRuntime(r.world, r.eid).wheels;
    r.run(2);
    // Stopped: from here the brakes hold each wheel (Coulomb clamp), the body only settles on its springs.
    let maxOmega = 0;
    r.run(6, () => {
      for (const w of wheels) maxOmega = Math.max(maxOmega, Math.abs(W.omega[w]!));
    });
    expect(maxOmega).toBeLessThan(1e-6);
    expect(Math.hypot(b.vx[r.eid]!, b.vz[r.eid]!)).toBeLessThan(1e-4);
  });
});

describe('aero', () => {
  it('downforce adds ½ρ(C_LA)v² to the tyre loads at constant speed', () => {
    const r = rig('rally-awd', { pose: { speed: 40 } });
    const c = r.cfg;
    const W = r.world.c.Wheel;
    const wheels = carRuntime(r.world, r.eid).wheels;
    // Hold ~40 m/s with throttle so the car is in a steady state.
    let integ = 0.5;
    const b = r.world.c.RigidBody;
    let sum = 0;
    let nS = 0;
    let vS = 0;
    r.run(6, () => {
      const v = Math.hypot(b.vx[r.eid]!, b.vz[r.eid]!);
      const e = 40 - v;
      integ += 0.5 * e * r.world.dt;
      r.input.input.throttle = Math.round(Math.min(1, Math.max(0, integ + 0.5 * e)) * 1000);
      if (r.world.time > 4) {
        for (const w of wheels) sum += W.load[w]!;
        vS += v * v;
        nS++;
      }
    });
    const expected = c.body.massKg * 9.81 + 0.5 * AIR_DENSITY * c.body.downforceClA * (vS / nS);
    expect(Math.abs(sum / nS / expected - 1)).toBeLessThan(0.005);
  });
});

