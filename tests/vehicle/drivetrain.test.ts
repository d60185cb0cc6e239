/**
 * Drivetrain (Deák §5.2–5.5): gearbox power balance, differentials, clutch lock/unlock, stall.
 */
import { describe, expect, it } from 'vitest';
import { rig, SplitMu } from './helpers';
import { evaluateForces } from '../../src/run/pipeline';
import { drivelineAccelerations } from '../../src/systems/sim/vehicle/vehicle-block';
import { carRuntime } from '../../src/systems/sim/vehicle/registry';
import { drivelineWheelSpeed } from '../../src/systems/sim/vehicle/drivetrain';
import { totalRatio } from '../../src/systems/sim/vehicle/engine-curve';
import { readCarTelemetry } from '../../src/systems/sim/vehicle/telemetry';
import { loadCarConfig } from '../../src/content/car-load';
import { readBuiltin } from '../../src/content/cars/index';
import type { SimWorld } from '../../src/ecs/world';

/** Re-evaluate forces and the driveline solve at the current state (so torques and speeds match). */
function evalAt(world: SimWorld, eid: number): void {
  evaluateForces(world);
  drivelineAccelerations(world, carRuntime(world, eid), new Float64Array(5));
}

function powers(world: SimWorld, eid: number): { pin: number; pout: number } {
  evalAt(world, eid);
  const C = world.c.Car;
  const W = world.c.Wheel;
  const rt = carRuntime(world, eid);
  let pout = 0;
  for (const w of rt.wheels) pout += W.driveTorque[w]! * W.omega[w]!;
  // Gearbox input: clutch torque × clutch output speed G·Σ s_i ω_i.
  const G = totalRatio(rt.cfg, C.gear[eid]!);
  return { pin: C.clutchTorque[eid]! * G * drivelineWheelSpeed(world, rt), pout };
}


const variant = (diff: string): ReturnType<typeof loadCarConfig> =>
  loadCarConfig(`extends = "classic-rwd.toml"\n[drivetrain]\nrear_diff = ${diff}\n`, 'classic-variant.toml', readBuiltin);

describe('gearbox', () => {
  it('transmits power with its efficiency η (drive) and 1/η seen from the wheels (overrun)', () => {
    const r = rig('hatch-gti');
    const eta = r.cfg.gearbox.efficiency * (1 - r.cfg.gearbox.autoEfficiencyLoss); // automatic box
    r.input.input.throttle = 700;
    r.run(6);
    let p = powers(r.world, r.eid);
    expect(r.world.c.Car.clutchLocked[r.eid]).toBe(1);
    expect(p.pin).toBeGreaterThan(10_000);
    expect(p.pout / p.pin).toBeCloseTo(eta, 9);
    // Overrun: wheels drive the engine; the engine side receives η of the wheel power.
    r.input.input.throttle = 0;
    r.run(0.3);
    p = powers(r.world, r.eid);
    expect(r.world.c.Car.clutchLocked[r.eid]).toBe(1);
    expect(p.pin).toBeLessThan(0);
    expect(p.pin / p.pout).toBeCloseTo(eta, 9);
  });

  it('while the clutch slips at launch, the gearbox still passes η of the clutch-output power', () => {
    const r = rig('classic-rwd');
    r.input.input.throttle = 1000;
    r.run(0.3);
    expect(r.world.c.Car.clutchLocked[r.eid]).toBe(0);
    const p = powers(r.world, r.eid);
    const eta = r.cfg.gearbox.efficiency * (1 - r.cfg.gearbox.autoEfficiencyLoss);
    expect(p.pout / p.pin).toBeCloseTo(eta, 9);
    // Coulomb clutch: slipping means the transmitted torque equals the capacity.
    expect(Math.abs(r.world.c.Car.clutchTorque[r.eid]!)).toBeCloseTo(r.world.c.Car.clutchCapacity[r.eid]!, 9);
  });
});

describe('differentials on split μ (left wheels on ice)', () => {
  it('open diff: equal torque to both sides, the ice wheel spins up', () => {
    const r = rig(variant('{ type = "open" }'), { ground: new SplitMu(), car: { autoGear: false, gear: 1 } });
    r.input.input.throttle = 1000;
    r.run(1.5);
    evalAt(r.world, r.eid);
    const W = r.world.c.Wheel;
    const [, , rl, rr] = carRuntime(r.world, r.eid).wheels;
    expect(Math.abs(W.driveTorque[rl]!)).toBeGreaterThan(10);
    expect(W.driveTorque[rl]! / W.driveTorque[rr]!).toBeCloseTo(1, 12);
    expect(W.omega[rl]!).toBeGreaterThan(2 * W.omega[rr]!);
  });

  it('locked diff: both sides turn at the same speed, torques differ', () => {
    const r = rig(variant('{ type = "locked" }'), { ground: new SplitMu(), car: { autoGear: false, gear: 1 } });
    r.input.input.throttle = 1000;
    r.run(1.5);
    evalAt(r.world, r.eid);
    const W = r.world.c.Wheel;
    const [, , rl, rr] = carRuntime(r.world, r.eid).wheels;
    expect(Math.abs(W.omega[rl]! - W.omega[rr]!)).toBeLessThan(1e-9 * Math.abs(W.omega[rr]!) + 1e-12);
    expect(W.omega[rr]!).toBeGreaterThan(5);
    // Equal spin accelerations ⇒ the torque difference is the tyres' reaction difference (Fx_RR − Fx_RL)·R
    // (+ the small rolling-resistance difference): the grippy tarmac side takes more torque.
    const R = r.cfg.tires.rear.radius;
    const dT = W.driveTorque[rr]! - W.driveTorque[rl]!;
    const dF = (W.fx[rr]! - W.fx[rl]!) * R;
    expect(dT).toBeGreaterThan(50);
    expect(Math.abs(dT - dF)).toBeLessThan(0.02 * Math.abs(dF) + 2 * r.cfg.tires.rear.rollingResistance * W.load[rr]! * R);
  });

  it('clutch-pack LSD: torque difference never exceeds preload + ramp·|T_in|', () => {
    const cfg = variant('{ type = "clutch", preload_nm = 50, power_ramp = 0.3, coast_ramp = 0.1 }');
    const r = rig(cfg, { ground: new SplitMu(), car: { autoGear: false, gear: 1 } });
    r.input.input.throttle = 1000;
    const W = r.world.c.Wheel;
    const C = r.world.c.Car;
    const [, , rl, rr] = carRuntime(r.world, r.eid).wheels;
    let maxRatio = 0;
    let slipped = false;
    r.run(1.5, () => {
      const d = Math.abs(W.driveTorque[rl]! - W.driveTorque[rr]!) / 2; // internal torque on each side
      const cap = 50 + 0.3 * Math.abs(C.diffInRear[r.eid]!);
      maxRatio = Math.max(maxRatio, d / cap);
      if (Math.abs(W.omega[rl]! - W.omega[rr]!) > 1) slipped = true;
    });
    expect(slipped).toBe(true);
    expect(maxRatio).toBeLessThan(1 + 1e-9);
    expect(maxRatio).toBeGreaterThan(0.99); // it does use its full locking torque while slipping
  });
});

describe('clutch', () => {
  it('launch: slips, locks, unlocks for the 1→2 shift, locks again', () => {
    const r = rig('classic-rwd');
    r.input.input.throttle = 1000;
    const C = r.world.c.Car;
    const rt = carRuntime(r.world, r.eid);
    const seq: number[] = [C.clutchLocked[r.eid]!];
    let maxLockedSlip = 0;
    r.run(6, () => {
      const l = C.clutchLocked[r.eid]!;
      if (l !== seq[seq.length - 1]) seq.push(l);
      if (l) maxLockedSlip = Math.max(maxLockedSlip, Math.abs(C.omegaE[r.eid]! - totalRatio(rt.cfg, C.gear[r.eid]!) * drivelineWheelSpeed(r.world, rt)));
    });
    expect(seq.slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(C.gear[r.eid]!).toBeGreaterThanOrEqual(2);
    // Locked means one rigid engine + driveline: equal speeds to round-off.
    expect(maxLockedSlip).toBeLessThan(1e-6);
  });
});

describe('engine', () => {
  it('stalls when the clutch is dumped at idle in 3rd, restarts with the clutch pedal down', () => {
    const r = rig('hatch-gti', { car: { autoClutch: false, autoGear: false, gear: 3 } });
    r.input.input.clutch = 1000;
    r.run(1);
    let t = readCarTelemetry(r.world, r.eid);
    expect(t.engineStalled).toBe(false);
    expect(t.rpm).toBeGreaterThan(700);
    r.input.input.clutch = 0;
    r.run(2);
    t = readCarTelemetry(r.world, r.eid);
    expect(t.engineStalled).toBe(true);
    expect(t.rpm).toBeLessThan(1);
    expect(t.forwardMs).toBeGreaterThanOrEqual(0);
    // Restart: pedal down, the starter turns it over; idle control holds idle.
    r.input.input.clutch = 1000;
    r.run(3);
    t = readCarTelemetry(r.world, r.eid);
    expect(t.engineStalled).toBe(false);
    expect(Math.abs(t.rpm - 800)).toBeLessThan(80);
  });

  it('rev limiter holds the engine below limiter + margin in neutral at full throttle', () => {
    const r = rig('classic-rwd', { car: { autoGear: false, gear: 0 } });
    r.input.input.throttle = 1000;
    let maxRpm = 0;
    r.run(3, () => (maxRpm = Math.max(maxRpm, readCarTelemetry(r.world, r.eid).rpm)));
    expect(maxRpm).toBeGreaterThan(7300);
    expect(maxRpm).toBeLessThan(7400 + 150);
  });
});

describe('gearbox selection', () => {
  it('sequential shifts: down twice from 1st gives reverse and the car backs up; up goes back through neutral', () => {
    const r = rig('hatch-gti', { car: { autoGear: false, gear: 1 } });
    const C = r.world.c.Car;
    const press = (bit: number): void => {
      r.input.input.buttons = bit;
      r.run(0.02);
      r.input.input.buttons = 0;
      r.run(0.4); // > shift_time_s
    };
    press(2); // ShiftDown
    expect(C.gear[r.eid]).toBe(0);
    press(2);
    expect(C.gear[r.eid]).toBe(-1);
    r.input.input.throttle = 400;
    r.run(3);
    const t = readCarTelemetry(r.world, r.eid);
    expect(t.forwardMs).toBeLessThan(-2);
    expect(t.gear).toBe(-1);
    r.input.input.throttle = 0;
    press(1); // ShiftUp
    expect(C.gear[r.eid]).toBe(0);
  });

  it('automatic box upshifts through the gears under full throttle and never exceeds the limiter', () => {
    const r = rig('rally-awd');
    r.input.input.throttle = 1000;
    let maxGear = 0;
    let maxRpm = 0;
    r.run(25, () => {
      const t = readCarTelemetry(r.world, r.eid);
      maxGear = Math.max(maxGear, t.gear);
      maxRpm = Math.max(maxRpm, t.rpm);
    });
    expect(maxGear).toBe(r.cfg.gearbox.forwardGears);
    expect(maxRpm).toBeLessThan(7200 + 150);
  });
});

describe('more differentials', () => {
  it('viscous diff: transferred torque = k·Δω', () => {
    const k = 40;
    const r = rig(variant(`{ type = "viscous", viscous_nm_per_rad_s = ${k} }`), { ground: new SplitMu(), car: { autoGear: false, gear: 1 } });
    r.input.input.throttle = 1000;
    r.run(1);
    evalAt(r.world, r.eid);
    const W = r.world.c.Wheel;
    const [, , rl, rr] = carRuntime(r.world, r.eid).wheels;
    const dw = W.omega[rl]! - W.omega[rr]!;
    expect(Math.abs(dw)).toBeGreaterThan(1);
    // Open part equal on both sides; the viscous part −k·Δω on the fast side, +k·Δω on the slow side.
    expect(W.driveTorque[rr]! - W.driveTorque[rl]!).toBeCloseTo(2 * k * dw, 6);
  });

  it('AWD open centre diff splits the gearbox torque by front_torque_fraction', () => {
    const cfg = loadCarConfig(
      'extends = "rally-awd.toml"\n[drivetrain]\nfront_torque_fraction = 0.3\nfront_diff = { type = "open" }\nrear_diff = { type = "open" }\ncentre_diff = { type = "open" }\n',
      'awd-open.toml',
      readBuiltin,
    );
    const r = rig(cfg);
    r.input.input.throttle = 800;
    r.run(2);
    evalAt(r.world, r.eid);
    const W = r.world.c.Wheel;
    const w = carRuntime(r.world, r.eid).wheels;
    const front = W.driveTorque[w[0]]! + W.driveTorque[w[1]]!;
    const rear = W.driveTorque[w[2]]! + W.driveTorque[w[3]]!;
    expect(front + rear).toBeGreaterThan(100);
    expect(front / (front + rear)).toBeCloseTo(0.3, 9);
    expect(W.driveTorque[w[0]]! / W.driveTorque[w[1]]!).toBeCloseTo(1, 9);
  });
});

