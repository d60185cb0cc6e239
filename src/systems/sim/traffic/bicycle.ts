/**
 * The automatic vehicles' dynamic model, Félez et al. §5 (eqs 1–5), in the body frame (u forward, v left, r
 * yaw rate, + = left), small steering angles:
 *   m(u̇ − v r) = F_xf + F_xr − δ F_yf         (1)
 *   m(v̇ + u r) = F_yf + F_yr + δ F_xf         (2)
 *   I_z ṙ = a F_yf − b F_yr                    (3)
 *   α_f = δ − (a r + v)/u                      (4)
 *   α_r = (b r − v)/u                          (5)
 * with linear tyres F_y = C α (traffic corners below 0.35 g, where the brush tyre is linear within a few %).
 * Longitudinal forces: the hyperbolic constant-power drive of §5 (full-throttle force min(μ m g·driven share,
 * P/u)) times the throttle pedal, brake = pedal × μ m g split 60/40, rolling resistance and drag on the rear.
 * The lateral pair (2)–(3) is stiff at low speed (time constant m u/(C_f + C_r) → 0), so it is stepped with
 * backward Euler: a 2×2 linear solve per step, stable at any step and with the exact steady state of the
 * continuous equations. Below 1 m/s the slip angles (4)–(5) are taken at u = 1 m/s, and below 0.3 m/s the
 * vehicle rolls kinematically (rear axle without side slip: r = u δ / L, v = b r).
 */
import { dcos, dsin } from '../../../../terrain/dmath';
import { fullThrottleAcceleration, G } from '../ai/driver-model';
import type { TrafficVehicleType } from './vehicle-types';
import type { TrafficState } from './state';

/** Tyre–road friction the traffic plans and brakes with (dry asphalt). */
export const TRAFFIC_MU = 0.9;
const AIR_DENSITY_KG_M3 = 1.225;
const FRONT_BRAKE_SHARE = 0.6;
/** Speed floor of the slip angles (4)–(5) and the speed below which the kinematic model takes over, m/s. */
const U_SLIP_MIN_MS = 1;
const U_KINEMATIC_MS = 0.3;

/** The steady yaw rate of eqs 2–5 (u̇ = v̇ = ṙ = 0, F_x = 0): r = u δ / (L + K u²), K = m(b C_r − a C_f)/(L C_f C_r). */
export function steadyYawRate(t: TrafficVehicleType, u: number, delta: number): number {
  const L = t.aM + t.bM;
  const K = (t.massKg * (t.bM * t.crNPerRad - t.aM * t.cfNPerRad)) / (L * t.cfNPerRad * t.crNPerRad);
  return (u * delta) / (L + K * u * u);
}

/**
 * Backward-Euler step of eqs 2–3 at forward speed u (> 0) and steering δ, front longitudinal force F_xf:
 *   [m/dt + (C_f+C_r)/u]·v' + [m u + (a C_f − b C_r)/u]·r' = m v/dt + C_f δ + δ F_xf
 *   [(a C_f − b C_r)/u]·v'  + [I_z/dt + (a² C_f + b² C_r)/u]·r' = I_z r/dt + a C_f δ
 * Writes (v', r') into out.
 */
export function stepLateral(t: TrafficVehicleType, u: number, v: number, r: number, delta: number, fxf: number, dt: number, out: { v: number; r: number }): void {
  const m = t.massKg, cf = t.cfNPerRad, cr = t.crNPerRad, a = t.aM, b = t.bM;
  const a11 = m / dt + (cf + cr) / u;
  const a12 = m * u + (a * cf - b * cr) / u;
  const a21 = (a * cf - b * cr) / u;
  const a22 = t.izzKgM2 / dt + (a * a * cf + b * b * cr) / u;
  const r1 = (m * v) / dt + cf * delta + delta * fxf;
  const r2 = (t.izzKgM2 * r) / dt + a * cf * delta;
  const det = a11 * a22 - a12 * a21;
  out.v = (r1 * a22 - a12 * r2) / det;
  out.r = (a11 * r2 - a21 * r1) / det;
}

const lat = { v: 0, r: 0 };

/** Front and rear longitudinal forces (N) for the pedals at speed u. */
function longitudinalForces(t: TrafficVehicleType, u: number, throttle: number, brake: number): { fxf: number; fxr: number } {
  const m = t.massKg;
  const drive = throttle * m * fullThrottleAcceleration(u, TRAFFIC_MU, t.drivenWeightFraction, t.powerW, m);
  const brakeF = u > 0 ? brake * TRAFFIC_MU * G * m : 0;
  const resist = u > 0 ? m * G * t.rollingResistance + 0.5 * AIR_DENSITY_KG_M3 * t.dragAreaM2 * u * u : 0;
  return {
    fxf: drive * t.frontDriveFraction - FRONT_BRAKE_SHARE * brakeF,
    fxr: drive * (1 - t.frontDriveFraction) - (1 - FRONT_BRAKE_SHARE) * brakeF - resist,
  };
}

/** Resistance deceleration the driver knows its vehicle has at speed u (rolling + drag), m/s². */
export function resistanceDecel(t: TrafficVehicleType, u: number): number {
  return G * t.rollingResistance + (0.5 * AIR_DENSITY_KG_M3 * t.dragAreaM2 * u * u) / t.massKg;
}

/** One step of vehicle k: pedals in [0, 1], δ already in st.delta. Advances u, v, r, ψ, x, z and the odometer. */
export function stepBicycle(st: TrafficState, k: number, t: TrafficVehicleType, throttle: number, brake: number, dt: number): void {
  const u0 = st.u[k]!, v0 = st.v[k]!, r0 = st.r[k]!, delta = st.delta[k]!;
  const { fxf, fxr } = longitudinalForces(t, u0, throttle, brake);
  // eq 1 with the lateral force of the current state (eq 4 at the speed floor; none while rolling kinematically)
  const uS = Math.max(U_SLIP_MIN_MS, u0);
  const fyf = u0 < U_KINEMATIC_MS ? 0 : t.cfNPerRad * (delta - (t.aM * r0 + v0) / uS);
  let u = u0 + dt * (v0 * r0 + (fxf + fxr - delta * fyf) / t.massKg);
  if (u < 0) u = 0; // the brakes stop the car, they do not reverse it
  let v: number, r: number;
  if (u < U_KINEMATIC_MS) {
    r = (u * delta) / (t.aM + t.bM);
    v = t.bM * r;
  } else {
    stepLateral(t, Math.max(U_SLIP_MIN_MS, u), v0, r0, delta, fxf, dt, lat);
    v = lat.v;
    r = lat.r;
  }
  const psi = st.psi[k]! + r * dt;
  const sp = dsin(psi), cp = dcos(psi);
  // body → world: forward (sin ψ, cos ψ), left (cos ψ, −sin ψ)
  st.x[k] = st.x[k]! + (u * sp + v * cp) * dt;
  st.z[k] = st.z[k]! + (u * cp - v * sp) * dt;
  st.psi[k] = psi;
  st.u[k] = u;
  st.v[k] = v;
  st.r[k] = r;
  st.odometerM[k] = st.odometerM[k]! + u * dt;
}
