/**
 * The driver model of Félez et al. §6 as pure functions: look-ahead distance (eq 6), the steering
 * angle of the arc through the look-ahead point (eq 7), the PD steering controller (eq 8), the acceleration
 * needed to reach a reference speed at a reference distance (eq 9), and the throttle / brake PD controllers
 * (eqs 10–13). No world access here: driver.ts wires them to the car state; tests check them in isolation.
 */
import { STANDARD_GRAVITY_M_S2 } from '../../../content/world-constants';
import { datan } from '../../../../terrain/dmath';


/** Gravity the driver model plans with (standard gravity: its belief, worked out before a world exists), m/s². */
export const G = STANDARD_GRAVITY_M_S2;

/**
 * Eq 6: look-ahead (reference) distance d_s = t_s·u + d_0. A more aggressive driver has a smaller t_s.
 * `u` is the longitudinal speed (m/s), clamped at 0 so reversing does not shorten the preview below d_0.
 */
export function lookAheadDistance(u: number, tS: number, d0: number): number {
  return tS * Math.max(0, u) + d0;
}

/**
 * Eq 7: δ_P = arctan(h / R), R the radius of the arc through the vehicle's reference point, tangent to its
 * longitudinal axis, passing through the look-ahead point P. The scanned figure is missing, so the radius is
 * derived here: with P at (x forward, y left) in the vehicle frame, the circle tangent to the x axis at the
 * origin with centre (0, R) passes through P when x² + (y − R)² = R², i.e. R = (x² + y²) / (2y).
 * So δ_P = arctan(2·h·y / (x² + y²)), signed (+ = left, y > 0). A point behind the car (x < 0) still yields
 * the turn toward it: the formula is symmetric in x, and the sign of y picks the side.
 * Returns 0 when P coincides with the reference point.
 */
export function arcSteerAngle(xForward: number, yLeft: number, wheelbaseM: number): number {
  const l2 = xForward * xForward + yLeft * yLeft;
  if (l2 < 1e-12) return 0;
  // curvature 1/R = 2y / l²
  return datan((2 * wheelbaseM * yLeft) / l2);
}

/**
 * Eq 8: δ = δ_P + c_dδ · dδ_P/dt (proportional gain 1, as in the paper). The derivative is passed in (the
 * caller filters the finite difference). A more aggressive driver has a larger c_dδ.
 */
export function pdSteer(deltaP: number, dDeltaPdt: number, cD: number): number {
  return deltaP + cD * dDeltaPdt;
}

/**
 * Eq 9: a_r = (u_r² − u²) / (2 d_r): the uniform acceleration that reaches the reference speed u_r after the
 * reference distance d_r. d_r is floored at `minDistM` (a reference at the car's nose would ask for infinite
 * acceleration).
 */
export function requiredAcceleration(u: number, uRef: number, dRefM: number, minDistM = 0.5): number {
  return (uRef * uRef - u * u) / (2 * Math.max(minDistM, dRefM));
}

/**
 * Eqs 11–12: proportional gain of the throttle controller. If a_r < a_m (the driver type's mean acceleration)
 * the car is asked for a_r itself, c_p = 1/(μ g); above it the request saturates at a_m, c_p = a_m/(μ g a_r).
 * `aCapMS2` generalises the paper's μ·g (the vehicle's acceleration at full throttle in the paper's model) to
 * the acceleration our car can actually reach at full throttle at this speed, min(μ g, P/(m u)) (see
 * fullThrottleAcceleration): with a real engine, pedal fraction ≈ wanted acceleration / available acceleration.
 */
export function throttleGain(aR: number, aM: number, aCapMS2: number): number {
  const cap = Math.max(1e-6, aCapMS2);
  return aR < aM ? 1 / cap : aM / (cap * aR);
}

/** Eq 10: acel = c_p·a_r + c_d·da_r/dt, clamped to a pedal fraction [0, 1]. */
export function throttlePedal(aR: number, dArDt: number, aM: number, aCapMS2: number, cD: number): number {
  const cP = throttleGain(aR, aM, aCapMS2);
  const v = cP * aR + cD * dArDt;
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/**
 * Eq 13: brake = a_r / (μ g) for a deceleration request (a_r < 0 → a positive pedal fraction, clamped to
 * [0, 1]). `brakeCapMS2` generalises μ g to the deceleration the car reaches at full pedal (the lower of the
 * tyre limit μ g and the brakes' own limit).
 */
export function brakePedal(aR: number, brakeCapMS2: number): number {
  const v = -aR / Math.max(1e-6, brakeCapMS2);
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/**
 * The acceleration a car can reach at full throttle at speed u on friction μ: traction-limited (μ g times the
 * driven share of the weight) at low speed, power-limited P/(m u) above. Used as the "μ g" of eqs 11–13.
 */
export function fullThrottleAcceleration(u: number, mu: number, drivenWeightFraction: number, powerW: number, massKg: number): number {
  const traction = mu * G * drivenWeightFraction;
  const power = powerW / (massKg * Math.max(1, u));
  return Math.min(traction, power);
}

/** Grip-limited cornering speed v = √(μ g / |κ|) (steady circular motion, lateral force ≤ μ m g). */
export function cornerSpeed(kappa: number, mu: number, vMax: number): number {
  const k = Math.abs(kappa);
  if (k < 1e-9) return vMax;
  return Math.min(vMax, Math.sqrt((mu * G) / k));
}

/** First-order low-pass y ← y + (x − y)·dt/(τ + dt) (stable for any dt; τ = 0 passes x through). */
export function lowPass(prev: number, x: number, dt: number, tau: number): number {
  return prev + ((x - prev) * dt) / (tau + dt);
}

/** Wraps an angle to (−π, π]. */
export function wrapPi(a: number): number {
  let x = a;
  while (x > Math.PI) x -= 2 * Math.PI;
  while (x <= -Math.PI) x += 2 * Math.PI;
  return x;
}
