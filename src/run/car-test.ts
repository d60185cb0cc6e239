/**
 * Standard car tests, headless (used by `npm run car -- test`, the vehicle tests and the README table).
 * Each result carries the method used. Pure simulation code: no fs, no clock.
 */
import { createSimWorld, type IntegratorKind, type SimWorld } from '../ecs/world';
import { FlatGround } from '../ecs/ground';
import { spawnCar } from '../systems/sim/vehicle/prefab-car';
import { stepRun } from './step';
import { quantizeInput, setInputSource, type QuantizedInput, type RawInput } from '../ecs/controls';
import type { CarConfig } from '../content/car-schema';
import { STANDARD_GRAVITY_M_S2 as G0 } from '../content/world-constants';
import { readCarTelemetry, emptyTelemetry, type CarTelemetry } from '../systems/sim/vehicle/telemetry';
import { datan2 } from '../../terrain/dmath';

export interface CarTestResult {
  name: string;
  value: number;
  unit: string;
  method: string;
}

export interface CarTestOptions {
  surface?: number;
  integrator?: IntegratorKind;
  dt?: number;
}

type Driver = (t: CarTelemetry, world: SimWorld, eid: number) => RawInput;

/** Smallest step the car tests run at (10 kHz): every loop below is a tick count derived from dt, so this bounds them. */
export const CAR_TEST_MIN_DT = 1e-4;
/** Longest full-throttle run (s): top speed is normally found in 30–60 s. */
const ACCEL_RUN_S = 150;
/** Longest braking run (s) from 100 km/h. */
const BRAKE_RUN_S = 20;
/** Longest skidpad run (s). */
const SKIDPAD_RUN_S = 200;

function setup(cfg: CarConfig, opts: CarTestOptions, speed: number, driver: Driver): { world: SimWorld; eid: number; tel: CarTelemetry } {
  if (opts.dt !== undefined && !(opts.dt >= CAR_TEST_MIN_DT)) throw new Error(`car test: dt must be ≥ ${CAR_TEST_MIN_DT} s, found ${opts.dt}`);
  const world = createSimWorld({ integrator: opts.integrator ?? 'midpoint', dt: opts.dt, ground: new FlatGround(0, opts.surface ?? 0) });
  const eid = spawnCar(world, cfg, { x: 0, z: 0, heading: 0, speed });
  const tel = emptyTelemetry();
  setInputSource(world, eid, {
    next(w: SimWorld, e: number): QuantizedInput {
      readCarTelemetry(w, e, tel);
      return quantizeInput(driver(tel, w, e));
    },
  });
  return { world, eid, tel };
}

const maxDrivenSlip = (cfg: CarConfig, t: CarTelemetry): number => {
  let m = 0;
  for (let i = 0; i < 4; i++) if (cfg.wheels[i]!.driven && t.wheels[i]!.slipRatio > m) m = t.wheels[i]!.slipRatio;
  return m;
};

/**
 * Launch driver, the magazine standing-start procedure: the car stands on the foot brake at idle (engine
 * running, automatic clutch open) while it settles; at `go` the driver releases the brake and floors the
 * throttle. The clock starts at that instant (no rollout allowance). The automatic clutch then slips from the
 * throttle-dependent launch speed (drivetrain `clutchEngagement`), and the automatic gearbox shifts on the
 * Deák §5.4 torque rule (or at 98.5 % of redline) with the clutch open and ignition cut for the configured
 * `gearbox.shift_time_s` — the same code a player's car runs. The driver modulates the throttle to hold
 * driven slip ≈ 0.12 (traction control / a driver feathering the pedal), never below 25 %.
 */
function launchDriver(cfg: CarConfig, go: { at: number }): Driver {
  let thr = 1;
  return (t, w) => {
    if (w.time < go.at) return { steer: 0, throttle: 0, brake: 1, clutch: 0, handbrake: 0 };
    const s = maxDrivenSlip(cfg, t);
    const target = s > 0.12 ? 1 - 6 * (s - 0.12) : 1;
    thr += 0.05 * ((target < 0.25 ? 0.25 : target) - thr);
    return { steer: 0, throttle: thr > 1 ? 1 : thr, brake: 0, clutch: 0, handbrake: 0 };
  };
}

/** 0–100 km/h and top speed from one full-throttle run. */
export function accelerationTest(cfg: CarConfig, opts: CarTestOptions = {}): CarTestResult[] {
  const go = { at: Infinity };
  const { world, eid, tel } = setup(cfg, opts, 0, launchDriver(cfg, go));
  for (let i = 0; i < Math.round(1 / world.dt); i++) stepRun(world); // settle on the brake at idle
  const t0 = world.time;
  go.at = t0 - world.dt / 2; // inputs sampled from the next tick on: brake off, throttle down
  let t100 = NaN;
  let vmax = 0;
  let lastGain = world.time;
  const maxTicks = Math.ceil(ACCEL_RUN_S / world.dt);
  for (let i = 0; i < maxTicks; i++) {
    stepRun(world);
    readCarTelemetry(world, eid, tel);
    const v = tel.speedMs;
    if (Number.isNaN(t100) && v >= 100 / 3.6) t100 = world.time - t0;
    if (v > vmax + 0.01) {
      vmax = v;
      lastGain = world.time;
    }
    if (world.time - lastGain > 4) break; // no gain of 0.01 m/s in 4 s: terminal speed
  }
  return [
    { name: '0-100 km/h', value: t100, unit: 's', method: 'standing start from rest on the brake at idle (clock starts at brake release, no rollout), full throttle with traction control (driven slip ≈ 0.12), automatic clutch launch, automatic upshifts with the configured shift time (clutch open, ignition cut), flat ground' },
    { name: 'top speed', value: vmax * 3.6, unit: 'km/h', method: 'same run continued until speed gains < 0.01 m/s in 4 s (drag + rolling resistance = drive force, or rev limiter)' },
  ];
}

/** 100–0 km/h braking distance with a threshold-braking (ABS-like) driver. */
export function brakingTest(cfg: CarConfig, opts: CarTestOptions = {}): CarTestResult[] {
  const { world, eid, tel } = setup(cfg, opts, 100 / 3.6, () => ({ steer: 0, throttle: 0, brake: 1, clutch: 0, handbrake: 0 }));
  const b = world.c.RigidBody;
  const x0 = b.px[eid]!,
    z0 = b.pz[eid]!;
  const maxTicks = Math.ceil(BRAKE_RUN_S / world.dt);
  for (let i = 0; i < maxTicks; i++) {
    stepRun(world);
    readCarTelemetry(world, eid, tel);
    if (tel.speedMs < 0.05) break;
  }
  const d = Math.hypot(b.px[eid]! - x0, b.pz[eid]! - z0);
  return [{ name: '100-0 km/h braking', value: d, unit: 'm', method: 'from 100 km/h, full brake pedal with the ABS assist (each wheel held near its peak slip), automatic clutch, distance to < 0.05 m/s' }];
}

/**
 * Constant-radius skidpad (R = 40 m, left turn): a path-following driver holds the circle while the speed
 * rises slowly. Max steady lateral acceleration = highest 1-s mean of v²/R with the path held (|e| < 0.5 m);
 * understeer gradient K from the linear fit δ = L/R + K·a_y over a_y ≤ 0.4 g (SAE J266 constant radius).
 */
export function skidpadTest(cfg: CarConfig, opts: CarTestOptions = {}, radius = 40): CarTestResult[] {
  const L = cfg.body.wheelbaseM;
  let vTarget = 6;
  let integ = 0;
  let thrI = 0.2;
  const cx = radius; // centre to the left (+X is left of a +Z-facing car)
  const { world, eid, tel } = setup(cfg, opts, vTarget, (t, w, e) => {
    const b = w.c.RigidBody;
    const px = b.px[e]!,
      pz = b.pz[e]!;
    const rx = px - cx,
      rz = pz;
    const r = Math.hypot(rx, rz);
    const err = r - radius; // + = outside
    // Tangent for a counter-clockwise (left) turn seen from above with +X left: d/dθ of (cos, sin) mapping.
    const tx = rz / r,
      tz = -rx / r;
    const fx = b.R2[e]!,
      fz = b.R8[e]!;
    const headErr = datan2(fx * tz - fz * tx, fx * tx + fz * tz); // + = car points right of the tangent… sign below
    integ += err * w.dt;
    const delta = L / radius + 0.04 * err + 0.02 * integ - 1.2 * headErr;
    const steer = delta / cfg.steering.maxAngle;
    const dv = vTarget - t.speedMs;
    thrI += 0.3 * dv * w.dt;
    thrI = thrI < 0 ? 0 : thrI > 1 ? 1 : thrI;
    const thr = thrI + 0.5 * dv;
    return { steer, throttle: thr < 0 ? 0 : thr > 1 ? 1 : thr, brake: 0, clutch: 0, handbrake: 0 };
  });
  const b = world.c.RigidBody;
  const samples: { ay: number; delta: number; held: boolean }[] = [];
  const rate = 0.15; // m/s per s
  let bestAy = 0;
  const win: number[] = [];
  const perSec = Math.round(1 / world.dt);
  let lostFor = 0;
  for (let i = 0; i < SKIDPAD_RUN_S * perSec; i++) {
    const settle = i < 5 * perSec;
    if (!settle) vTarget += rate * world.dt;
    stepRun(world);
    readCarTelemetry(world, eid, tel);
    const r = Math.hypot(b.px[eid]! - cx, b.pz[eid]!);
    const held = Math.abs(r - radius) < 0.5;
    if (settle) continue;
    if (i % 10 === 0) samples.push({ ay: (tel.speedMs * tel.speedMs) / radius, delta: tel.steer, held });
    win.push(held ? (tel.speedMs * tel.speedMs) / radius : NaN);
    if (win.length > perSec) win.shift();
    if (win.length === perSec && win.every((x) => !Number.isNaN(x))) {
      const m = win.reduce((s, x) => s + x, 0) / perSec;
      if (m > bestAy) bestAy = m;
    }
    lostFor = held ? 0 : lostFor + world.dt;
    if (lostFor > 2 || tel.speedMs < vTarget - 3) break;
  }
  // Linear fit δ = δ0 + K·a_y over held samples with a_y ≤ 0.4 g ("g" the unit: standard gravity, as SAE J266 reports).
  const pts = samples.filter((s) => s.held && s.ay <= 0.4 * G0 && s.ay >= 0.05 * G0);
  let sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (const p of pts) {
    sx += p.ay;
    sy += p.delta;
    sxx += p.ay * p.ay;
    sxy += p.ay * p.delta;
  }
  const n = pts.length;
  const K = n > 2 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : NaN;
  return [
    { name: 'max steady lateral acceleration', value: bestAy / G0, unit: 'g', method: `${radius} m constant-radius skidpad, speed ramped 0.15 m/s², highest 1-s mean of v²/R with the path held within 0.5 m` },
    { name: 'understeer gradient', value: (K * G0 * 180) / Math.PI, unit: 'deg/g', method: `slope of road-wheel steer angle vs a_y on the ${radius} m skidpad (SAE J266 constant radius), 0.05–0.4 g; > 0 understeer` },
  ];
}

export function runCarTests(cfg: CarConfig, opts: CarTestOptions = {}): CarTestResult[] {
  return [...accelerationTest(cfg, opts), ...brakingTest(cfg, opts), ...skidpadTest(cfg, opts)];
}
