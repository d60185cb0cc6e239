/**
 * Speed references of the driver (Félez §6.2): every reference is a pair (reference speed u_r, reference
 * distance d_r) turned into an acceleration by eq 9, a_r = (u_r² − u²)/(2 d_r); the driver acts on the most
 * restrictive (smallest) a_r. The references: the objective speed, the speed of the next curve, a stop line
 * (red light, stop sign, junction not granted, pedestrian), and the vehicle ahead (gap law and safety).
 */
import { TRAFFIC_MU } from './bicycle';
import { G } from '../ai/driver-model';

/** Time constant of speed keeping, s: a reference speed reached "now" uses d_r = τ_v (u_r + u)/2. */
export const SPEED_TAU_S = 1;
/** Comfortable deceleration the driver plans with (profiles toward a lower speed ahead), m/s². */
export const COMFORT_DECEL_MS2 = 2.5;
/** Hardest braking, m/s² (eq 13 at full pedal: μ g). */
export const MAX_DECEL_MS2 = TRAFFIC_MU * G;
/** Gap law g*(u) = G0 + T u (bumper to bumper): standstill gap G0, m; T is the driver's time headway. */
export const STANDSTILL_GAP_M = 2.5;
/** Time over which a gap error is closed, s. */
export const GAP_TAU_S = 2;
/** Floor of a reference distance, m (eq 9 at d_r → 0 asks for unbounded acceleration). */
const MIN_DR_M = 0.1;

/** The gap law: desired bumper-to-bumper gap at speed u with time headway T. */
export const desiredGap = (u: number, headwayS: number): number => STANDSTILL_GAP_M + headwayS * u;

/**
 * Eq 9 toward speed uT reached at distance d ahead (d ≤ 0: now). Two readings of one reference: (i) the speed
 * the driver may still have here to get down to uT by d with comfortable braking, u_lim = √(uT² + 2 b_c d),
 * held with d_r = τ_v (u_lim + u)/2 (eq 9 then gives (u_lim − u)/τ_v); (ii) if already faster than u_lim
 * (late), the uniform deceleration that reaches uT exactly at d (eq 9 with d_r = d), which can exceed b_c.
 */
export function targetRef(u: number, uT: number, d: number): number {
  const dd = Math.max(0, d);
  const uLim = Math.sqrt(uT * uT + 2 * COMFORT_DECEL_MS2 * dd);
  const a1 = (uLim * uLim - u * u) / (SPEED_TAU_S * Math.max(1e-3, uLim + u));
  if (u <= uLim) return a1;
  const a2 = (uT * uT - u * u) / (2 * Math.max(MIN_DR_M, dd));
  return Math.min(a1, a2);
}

/** Stop at distance d (the stop point); past it (d ≤ 0) the driver stands on the brakes. */
export function stopRef(u: number, d: number): number {
  if (d <= 0) return -MAX_DECEL_MS2 * 2;
  return targetRef(u, 0, d);
}

/**
 * The vehicle ahead at bumper gap `gap` with speed uL: the gap law reference u_r = u_L + (gap − g*(u))/τ_g
 * (steady state: u = u_L and gap = g*), held over d_r = τ_v (u_r + u)/2; and safety: whatever the leader does,
 * be able to match its speed before the gap shrinks to G0 (targetRef toward u_L at gap − G0; equal braking).
 */
export function leaderRef(u: number, uL: number, gap: number, headwayS: number): number {
  const uR = Math.max(0, uL + (gap - desiredGap(u, headwayS)) / GAP_TAU_S);
  const law = (uR * uR - u * u) / (SPEED_TAU_S * Math.max(1e-3, uR + u));
  return Math.min(law, targetRef(u, uL, gap - STANDSTILL_GAP_M));
}

/** Speed a driver takes a curve of radius R at, with lateral acceleration a_lat, m/s. */
export const curveSpeed = (radiusM: number, aLatMS2: number): number => Math.sqrt(aLatMS2 * radiusM);
