/**
 * Pass 3: drivetrain — engine → clutch → gearbox → differential(s) → wheel drive torques (Deák
 * §5.2–5.5), plus the once-per-tick drivetrain logic (gear shifts, clutch / diff lock and unlock, stall).
 *
 * Engine (§5.2): T = throttle·T_curve(ω_e) − (f₀ + f₁·ω_e); the curve is piecewise linear (table or
 * normalised × peak). Idle control raises the throttle below idle; the rev limiter cuts it above the limiter.
 * The engine's own DOF ω_e is integrable state. Stall below `stall_rpm`; the starter turns it over again
 * (gear in neutral, clutch pedal down or automatic clutch).
 *
 * Clutch (§5.3, dry, Coulomb): capacity T_cap = clutch_max_torque · engagement. The clutch is a Coulomb
 * constraint row in the driveline solve (vehicle-block.ts): it transmits whatever torque λ would make engine
 * and driveline turn together by the end of the step (ω_e = G·Σ s_i ω_i), so while |λ| ≤ T_cap the plates
 * are LOCKED (engine + driveline solved as one inertia); when |λ| would exceed T_cap it is clamped to ±T_cap
 * and the plates SLIP. `clutchLocked` records the lock state of each tick (lock ↔ unlock transitions).
 *
 * Gearbox (§5.4): ratios × final drive, efficiency η on the wheel side (drive) or engine side (overrun).
 * Sequential manual shifts (Controls.shift) and an automatic box with Deák's torque rule: move to the
 * neighbouring gear when the wheel torque T_curve(ω_e')·r' there exceeds the current one; neutral for
 * `shift_time_s` during a shift.
 *
 * Differentials (§5.5): open (fixed torque split s_i; AWD centre split by front_torque_fraction), viscous
 * (T = k·Δω), clutch-pack LSD (Coulomb row like the clutch, capacity preload + ramp·|T_in| with power /
 * coast ramps) and locked (a row with unbounded capacity).
 */
import type { SimWorld } from '../../../ecs/world';
import type { CarConfig, DiffConfig } from '../../../content/car-schema';
import { hasComponent } from 'bitecs';
import { refreshRuntime, vehicles, type CarRuntime } from './registry';
import { curveTorque, engineFriction, totalRatio } from './engine-curve';
import { datan, dtan } from '../../../../terrain/dmath';

const AUTO_HOLD_S = 0.6;

/** Driveline shaft speed at the wheels' side of the gearbox: Σ s_i ω_i (open-diff kinematics). */
export function drivelineWheelSpeed(world: SimWorld, rt: CarRuntime): number {
  const W = world.c.Wheel;
  const s = rt.split;
  return (
    s[0] * W.omega[rt.wheels[0]]! +
    s[1] * W.omega[rt.wheels[1]]! +
    s[2] * W.omega[rt.wheels[2]]! +
    s[3] * W.omega[rt.wheels[3]]!
  );
}

/** Clutch engagement 0..1 (1 = fully engaged) from the pedal and the automatic clutch. */
function clutchEngagement(world: SimWorld, rt: CarRuntime): number {
  const C = world.c.Car;
  const eid = rt.eid;
  const pedal = world.c.Controls.clutch[eid]!;
  let e = 1 - pedal;
  if (C.autoClutch[eid]) {
    const cfg = rt.cfg;
    const we = C.omegaE[eid]!;
    let auto: number;
    if (C.shiftTimer[eid]! > 0) auto = 0;
    else if (C.clutchLocked[eid]) auto = we > cfg.engine.idle * 1.05 ? 1 : 0;
    else {
      // Launch: engagement rises with engine speed above a launch speed that grows with the throttle
      // (Deák §5.3: the automatic clutch disengages at low revs; a driver launches at higher revs).
      const range = cfg.engine.redline - cfg.engine.idle;
      const lo = cfg.engine.idle * 1.1 + 0.35 * world.c.Controls.throttle[eid]! * range;
      const hi = lo + 0.25 * range;
      auto = (we - lo) / (hi - lo);
      auto = auto < 0 ? 0 : auto > 1 ? 1 : auto;
    }
    if (auto < e) e = auto;
  }
  return e;
}

function startShift(world: SimWorld, rt: CarRuntime, target: number): void {
  const C = world.c.Car;
  const eid = rt.eid;
  const n = rt.cfg.gearbox.forwardGears;
  const t = target < -1 ? -1 : target > n ? n : target;
  if (t === C.gear[eid] && C.shiftTimer[eid]! <= 0) return;
  C.shiftTarget[eid] = t;
  C.gear[eid] = 0;
  C.clutchLocked[eid] = 0;
  C.shiftHold[eid] = Math.round(AUTO_HOLD_S / world.dt);
  if (rt.cfg.gearbox.shiftTime > 0) C.shiftTimer[eid] = rt.cfg.gearbox.shiftTime;
  else {
    C.shiftTimer[eid] = 0;
    C.gear[eid] = t;
  }
}

function autoGearbox(world: SimWorld, rt: CarRuntime): void {
  const C = world.c.Car;
  const eid = rt.eid;
  const cfg = rt.cfg;
  const g = C.gear[eid]!;
  const throttle = world.c.Controls.throttle[eid]!;
  if (g === 0) {
    if (throttle > 0.05 && C.shiftTimer[eid]! <= 0) startShift(world, rt, 1);
    return;
  }
  if (g < 0 || C.shiftHold[eid]! > 0) return;
  const ws = drivelineWheelSpeed(world, rt);
  const n = cfg.gearbox.forwardGears;
  const e = cfg.engine;
  const weG = ws * totalRatio(cfg, g);
  if (throttle > 0.1) {
    // The speed tests first, and the torque in this gear looked up once, when a torque test needs it: every test
    // is a pure function of the same numbers, so this changes which curve look-ups run, not the decision.
    let tG = Number.NaN;
    if (g < n) {
      if (weG > e.redline * 0.985) {
        startShift(world, rt, g + 1);
        return;
      }
      if (ws * totalRatio(cfg, g + 1) > e.idle * 1.5) {
        tG = wheelTorqueAt(cfg, ws, g);
        if (wheelTorqueAt(cfg, ws, g + 1) > tG) {
          startShift(world, rt, g + 1);
          return;
        }
      }
    }
    if (g > 1 && ws * totalRatio(cfg, g - 1) < e.redline * 0.9) {
      if (tG !== tG) tG = wheelTorqueAt(cfg, ws, g); // NaN: not looked up yet
      if (wheelTorqueAt(cfg, ws, g - 1) > tG * 1.02) startShift(world, rt, g - 1);
    }
  } else if (g > 1 && weG < e.idle + 0.25 * (e.redline - e.idle)) {
    startShift(world, rt, g - 1);
  }
}

/** Full-throttle wheel torque in gear gg at driveline wheel speed ws (Deák §5.4 automatic rule). */
function wheelTorqueAt(cfg: CarConfig, ws: number, gg: number): number {
  const r = totalRatio(cfg, gg);
  const w = ws * r;
  return w > cfg.engine.limiter ? 0 : curveTorque(cfg, w) * r;
}

/** Steering: rate-limited centre angle, then Ackermann per front wheel (+ = left). */
function steering(world: SimWorld, rt: CarRuntime): void {
  const C = world.c.Car;
  const W = world.c.Wheel;
  const eid = rt.eid;
  const cfg = rt.cfg;
  let target = world.c.Controls.steer[eid]! * cfg.steering.maxAngle;
  // Residual crush bends the steering (collision Damage, Tongue crush → steer pull): the rack drifts toward
  // the pull, which the driver feels and has to hold off.
  const D = world.c.Damage;
  if (rt.cache.damaged) {
    const max = cfg.steering.maxAngle;
    target += D.steerPullRad[eid]!;
    target = target > max ? max : target < -max ? -max : target;
  }
  const cur = C.steerAngle[eid]!;
  const maxStep = cfg.steering.maxRate * world.dt;
  const d = target - cur;
  const a = d > maxStep ? cur + maxStep : d < -maxStep ? cur - maxStep : target;
  C.steerAngle[eid] = a;
  const kc = rt.cache;
  if (a === kc.ackIn) {
    // Same rack angle as last tick (the common case once the rate limit has caught up): same wheel angles.
    for (let i = 0; i < 4; i++) W.steer[rt.wheels[i]!] = kc.ackOut[i]!;
    return;
  }
  // Ackermann: each front wheel points at the turn centre on the rear axle line: tan δ_i = L / (L/tan δ ∓ t/2).
  const L = cfg.body.wheelbaseM;
  const t = cfg.body.trackFrontM;
  const k = cfg.steering.ackermann;
  const turning = !(Math.abs(a) < 1e-9);
  const ta = turning ? dtan(a) : 0; // one tangent for both steered wheels
  for (let i = 0; i < 4; i++) {
    const w = rt.wheels[i]!;
    const wc = cfg.wheels[i]!;
    let st = 0;
    if (wc.steered && turning) {
      const side = wc.left ? 1 : -1; // inner wheel is on the side of the turn
      const ack = datan(L / (L / ta - side * (t / 2)));
      st = a + k * (ack - a);
    }
    W.steer[w] = st;
    kc.ackOut[i] = st;
  }
  kc.ackIn = a;
}

/** Once per tick, before the force passes: steering, gearbox, clutch/diff lock state, stall and starter. */
export function vehicleTickLogic(world: SimWorld): void {
  const res = vehicles(world);
  const C = world.c.Car;
  const ctl = world.c.Controls;
  for (const rt of res.list) {
    const eid = rt.eid;
    refreshRuntime(rt);
    // Components are added between ticks, so one hasComponent per car per tick serves every stage.
    rt.cache.damaged = hasComponent(world, eid, world.c.Damage);
    const cfg = rt.cfg;
    steering(world, rt);
    // Gearbox.
    if (C.shiftHold[eid]! > 0) C.shiftHold[eid] = C.shiftHold[eid]! - 1;
    if (C.shiftTimer[eid]! > 0) {
      C.shiftTimer[eid] = C.shiftTimer[eid]! - world.dt;
      if (C.shiftTimer[eid]! <= 1e-12) {
        C.shiftTimer[eid] = 0;
        C.gear[eid] = C.shiftTarget[eid]!;
      }
    }
    const req = ctl.shift[eid]!;
    if (req !== 0) startShift(world, rt, (C.shiftTimer[eid]! > 0 ? C.shiftTarget[eid]! : C.gear[eid]!) + req);
    else if (C.autoGear[eid] && C.shiftTimer[eid]! <= 0) autoGearbox(world, rt);
    // Engine stall / start.
    const we = C.omegaE[eid]!;
    if (!C.stalled[eid] && we < cfg.engine.stall) C.stalled[eid] = 1;
    else if (C.stalled[eid] && we > cfg.engine.idle * 0.8) C.stalled[eid] = 0;
    // Clutch capacity for this tick; lock state as found by the last solve.
    const G = totalRatio(cfg, C.gear[eid]!);
    const cap = G === 0 ? 0 : cfg.drivetrain.clutchMaxTorque * clutchEngagement(world, rt);
    C.clutchCapacity[eid] = cap;
    const lock = cap > 0 && C.clutchSticking[eid] ? 1 : 0;
    if (lock && !C.clutchLocked[eid]) engageImpulse(world, rt, G);
    C.clutchLocked[eid] = lock;
    const ds = C.diffSticking[eid]!;
    C.frontDiffLocked[eid] = ds & 1 ? 1 : 0;
    C.rearDiffLocked[eid] = ds & 2 ? 1 : 0;
    C.centreDiffLocked[eid] = ds & 4 ? 1 : 0;
  }
}

/**
 * The plates grab: a plastic angular impulse along the clutch constraint J = (−G·s_i, 1) that makes engine
 * and driveline speeds equal while conserving their generalised momentum (Δq = M⁻¹Jᵀμ, μ = −J·q / J M⁻¹ Jᵀ).
 * Kinetic energy can only drop (an inelastic engagement).
 */
function engageImpulse(world: SimWorld, rt: CarRuntime, G: number): void {
  const C = world.c.Car;
  const W = world.c.Wheel;
  const cfg = rt.cfg;
  const s = rt.split;
  const slip = C.omegaE[rt.eid]! - G * drivelineWheelSpeed(world, rt);
  let m = 1 / cfg.engine.inertia;
  for (let i = 0; i < 4; i++) {
    const I = cfg.wheels[i]!.front ? cfg.tires.front.inertia : cfg.tires.rear.inertia;
    m += (G * s[i]!) ** 2 / I;
  }
  const mu = -slip / m;
  C.omegaE[rt.eid] = C.omegaE[rt.eid]! + mu / cfg.engine.inertia;
  for (let i = 0; i < 4; i++) {
    if (s[i] === 0) continue;
    const I = cfg.wheels[i]!.front ? cfg.tires.front.inertia : cfg.tires.rear.inertia;
    const w = rt.wheels[i]!;
    W.omega[w] = W.omega[w]! - (G * s[i]! * mu) / I;
  }
}

/** Add an internal diff torque T between side A (gets −T·wa) and side B (gets +T·wb). */
function addPair(world: SimWorld, a: number, b: number, t: number): void {
  const W = world.c.Wheel;
  W.torque[a] = W.torque[a]! - t;
  W.torque[b] = W.torque[b]! + t;
  W.driveTorque[a] = W.driveTorque[a]! - t;
  W.driveTorque[b] = W.driveTorque[b]! + t;
}

/** Viscous diff torque between two sides with speed difference dw (A − B). */
function viscousTorque(d: DiffConfig, dw: number): number {
  return d.kind === 'viscous' ? d.viscousNmPerRadS * dw : 0;
}

/** Pass 3 for one car: engine torque and friction, viscous diff torques, diff input torques for the LSD ramps. */
export function drivetrainCar(world: SimWorld, rt: CarRuntime): void {
  const C = world.c.Car;
  const W = world.c.Wheel;
  const ctl = world.c.Controls;
  const dt = world.dt;
  {
    const eid = rt.eid;
    const cfg = rt.cfg;
    const e = cfg.engine;
    const we = C.omegaE[eid]!;
    // Engine: throttle map with idle control and limiter.
    let thr = ctl.throttle[eid]!;
    let comb = 0;
    if (!C.stalled[eid]) {
      const base = rt.cache.idleThrBase; // T_fric(idle) / (T_curve + T_fric)(idle), per config
      const idleThr = base + (4 * (e.idle - we)) / e.idle;
      if (idleThr > thr) thr = idleThr > 1 ? 1 : idleThr;
      if (we > e.limiter) thr = 0;
      // Ignition cut while an automatic-clutch shift is in progress (no free revving in neutral).
      if (C.shiftTimer[eid]! > 0 && C.autoClutch[eid]) thr = idleThr > 0 ? (idleThr > 1 ? 1 : idleThr) : 0;
      // Deák §5.2: torque linear in throttle, friction ~linear in ω. The published curve is net
      // (at the flywheel, friction already taken off), so combustion gives u·(T_curve + T_fric) and the
      // friction term below takes T_fric off again: full throttle = the published curve, closed = −T_fric.
      comb = thr * (curveTorque(cfg, we) + engineFriction(cfg, we));
      // Crushed front end past the damage thresholds costs engine power (collision Damage.powerFactor).
      if (rt.cache.damaged) comb *= world.c.Damage.powerFactor[eid]!;
    } else {
      thr = 0;
      const starter = C.gear[eid] === 0 || ctl.clutch[eid]! > 0.5 || C.autoClutch[eid] !== 0;
      if (starter) comb = e.starterTorque;
    }
    C.throttleEff[eid] = thr;
    C.engineTorque[eid] = comb;
    // Engine friction: Coulomb-like (rises with speed), never drives the engine backwards.
    const fcap = engineFriction(cfg, we);
    let tf = (e.inertia * we) / dt + comb;
    tf = tf > fcap ? fcap : tf < -fcap ? -fcap : tf;
    C.engineAcc[eid] = C.engineAcc[eid]! + comb - tf;
    // Diff input torques (for the LSD ramps): last gearbox output × axle split.
    const tout = totalRatio(cfg, C.gear[eid]!) * C.clutchTorque[eid]!;
    const f = cfg.drivetrain.frontTorqueFraction;
    C.diffInFront[eid] = tout * f;
    C.diffInRear[eid] = tout * (1 - f);
    C.diffInCentre[eid] = tout;
    const kc = rt.cache;
    const w = rt.wheels;
    if (kc.frontVisc) addPair(world, w[0], w[1], viscousTorque(kc.frontDiff, W.omega[w[0]]! - W.omega[w[1]]!));
    if (kc.rearVisc) addPair(world, w[2], w[3], viscousTorque(kc.rearDiff, W.omega[w[2]]! - W.omega[w[3]]!));
    if (kc.centreVisc) {
      const t =
        0.5 * viscousTorque(kc.centreDiff, 0.5 * (W.omega[w[0]]! + W.omega[w[1]]! - W.omega[w[2]]! - W.omega[w[3]]!));
      addPair(world, w[0], w[2], t);
      addPair(world, w[1], w[3], t);
    }
  }
}
