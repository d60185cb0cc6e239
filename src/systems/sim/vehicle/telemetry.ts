/**
 * Read-only car telemetry for views (renderer, audio, HUD), the AI, tests and the car CLI.
 */
import type { SimWorld } from '../../../ecs/world';
import { carRuntime } from './registry';
import { STANDARD_GRAVITY_M_S2 } from '../../../content/world-constants';
import { datan2 } from '../../../../terrain/dmath';

/** Forward speed below which the slip angle's denominator is held (m/s): α stays finite at standstill. */
const SLIP_ANGLE_MIN_SPEED = 0.5;

/**
 * Slip angle α = atan2(−v_y, max(|v_x|, 0.5 m/s)) (rad, + = sliding right, force to the left) from a wheel's
 * contact-point velocity of the tick's last force evaluation (Wheel.vx, vy); 0 off the ground. Telemetry only,
 * so it is computed where it is read rather than for every car every tick.
 */
export function slipAngleOf(grounded: number, vx: number, vy: number): number {
  if (!grounded) return 0;
  const avx = vx < 0 ? -vx : vx;
  return datan2(-vy, avx > SLIP_ANGLE_MIN_SPEED ? avx : SLIP_ANGLE_MIN_SPEED);
}

export interface WheelTelemetry {
  /** Road-wheel steer angle (rad, + = left). */
  steerRad: number;
  spinAngleRad: number;
  /** Spin rate (rad/s, + = rolling forward). */
  omega: number;
  /** Suspension compression (m, + = compressed; 0 = full droop). */
  travelM: number;
  /** Wheel-centre height in the body frame (m) = config position.y + travel − static travel. */
  bodyY: number;
  contactX: number;
  contactY: number;
  contactZ: number;
  grounded: boolean;
  /** Terrain surface code (SURFACE_IDS index). */
  surface: number;
  slipRatio: number;
  slipAngleRad: number;
  loadN: number;
  /** Tyre forces in the wheel frame: fx forward, fy left (N). */
  fx: number;
  fy: number;
}

export interface CarTelemetry {
  speedMs: number;
  /** Forward speed in the body frame (m/s, negative when reversing). */
  forwardMs: number;
  rpm: number;
  /** −1 R, 0 N, 1..n. */
  gear: number;
  shifting: boolean;
  throttle: number;
  brake: number;
  handbrake: number;
  /** Road-wheel steer angle of the centre wheel (rad). */
  steer: number;
  /** Clutch engagement as the driver sees it: 1 = engaged. */
  clutch: number;
  clutchLocked: boolean;
  engineStalled: boolean;
  /** Lateral / longitudinal acceleration in the body frame, in g (+ left / + forward). */
  latG: number;
  longG: number;
  /** Engine load 0..1 (throttle the engine sees). */
  engineLoad: number;
  engineTorqueNm: number;
  wheels: [WheelTelemetry, WheelTelemetry, WheelTelemetry, WheelTelemetry];
}

const wheel = (): WheelTelemetry => ({
  steerRad: 0,
  spinAngleRad: 0,
  omega: 0,
  travelM: 0,
  bodyY: 0,
  contactX: 0,
  contactY: 0,
  contactZ: 0,
  grounded: false,
  surface: 0,
  slipRatio: 0,
  slipAngleRad: 0,
  loadN: 0,
  fx: 0,
  fy: 0,
});

export function emptyTelemetry(): CarTelemetry {
  return {
    speedMs: 0,
    forwardMs: 0,
    rpm: 0,
    gear: 0,
    shifting: false,
    throttle: 0,
    brake: 0,
    handbrake: 0,
    steer: 0,
    clutch: 0,
    clutchLocked: false,
    engineStalled: false,
    latG: 0,
    longG: 0,
    engineLoad: 0,
    engineTorqueNm: 0,
    wheels: [wheel(), wheel(), wheel(), wheel()],
  };
}

/** Fill (or create) a telemetry record for car `eid`. Allocation-free when `out` is given. */
export function readCarTelemetry(world: SimWorld, eid: number, out: CarTelemetry = emptyTelemetry()): CarTelemetry {
  const rt = carRuntime(world, eid);
  const b = world.c.RigidBody;
  const C = world.c.Car;
  const W = world.c.Wheel;
  const ctl = world.c.Controls;
  const vx = b.vx[eid]!,
    vy = b.vy[eid]!,
    vz = b.vz[eid]!;
  out.speedMs = Math.sqrt(vx * vx + vy * vy + vz * vz);
  out.forwardMs = b.R2[eid]! * vx + b.R5[eid]! * vy + b.R8[eid]! * vz;
  out.rpm = (C.omegaE[eid]! * 30) / Math.PI;
  out.gear = C.gear[eid]!;
  out.shifting = C.shiftTimer[eid]! > 0;
  out.throttle = ctl.throttle[eid]!;
  out.brake = ctl.brake[eid]!;
  out.handbrake = ctl.handbrake[eid]!;
  out.steer = C.steerAngle[eid]!;
  out.clutch = rt.cfg.drivetrain.clutchMaxTorque > 0 ? C.clutchCapacity[eid]! / rt.cfg.drivetrain.clutchMaxTorque : 0;
  out.clutchLocked = C.clutchLocked[eid] === 1;
  out.engineStalled = C.stalled[eid] === 1;
  out.latG = C.accX[eid]! / STANDARD_GRAVITY_M_S2; // "g" the unit, not the world's gravity
  out.longG = C.accZ[eid]! / STANDARD_GRAVITY_M_S2;
  out.engineLoad = C.throttleEff[eid]!;
  out.engineTorqueNm = C.engineTorque[eid]!;
  for (let i = 0; i < 4; i++) {
    const w = rt.wheels[i]!;
    const o = out.wheels[i]!;
    const wc = rt.cfg.wheels[i]!;
    o.steerRad = W.steer[w]!;
    o.spinAngleRad = W.angle[w]!;
    o.omega = W.omega[w]!;
    o.travelM = W.travel[w]!;
    o.bodyY = wc.position[1] + W.travel[w]! - wc.staticTravel;
    o.contactX = W.cx[w]!;
    o.contactY = W.cy[w]!;
    o.contactZ = W.cz[w]!;
    o.grounded = W.grounded[w] === 1;
    o.surface = W.surface[w]!;
    o.slipRatio = W.slipRatio[w]!;
    o.slipAngleRad = slipAngleOf(W.grounded[w]!, W.vx[w]!, W.vy[w]!);
    o.loadN = W.load[w]!;
    o.fx = W.fx[w]!;
    o.fy = W.fy[w]!;
  }
  return out;
}
