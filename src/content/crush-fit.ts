/**
 * Crush-parameter identification of Tongue, Packard & Harriman (§6), from a car file's crash table: the
 * content loader runs it to refuse crash tables that identify no crush model, and the collision model
 * (src/systems/sim/collision/crush.ts) uses its parameters.
 *
 * Parameter identification (§6):
 *  • bumper (§6.1): ζ = 1 at the origin (eq 18), C_b = ½·k_b·x_max (eq 19), γ = k_b·x_max² / (16 ζ² m) (eq 20);
 *    k_b is found so that a 5 mph (2.2352 m/s) barrier impact of the car's mass just uses x_max = L_b.
 *    Tongue uses a gradient descent; x_max(k_b) is monotone, so we bisect on log k_b instead.
 *  • body (§6.2): the preload F_0 is the peak bumper force in that 5 mph impact (eq 22). With one crash test
 *    (speed v, residual crush x) the body absorbs E_body = ½mv² − E_cap, E_cap = ½·m·(5 mph)² being what the
 *    bumper takes, and Campbell's line (eqs 10–12) gives E_body = F_0·x + ½k_c·x², i.e.
 *    k_c = 2(E_body − F_0·x)/x². The scanned eq 23 reads "½x_c²k_c − E_body·k_c − F²/2 = 0"; integrating eq 21
 *    from δ = F_0/k_c to the total deflection δ + x gives the same k_c as above (derived here; the scan drops
 *    the square on k_c and calls the total deflection x_c).
 *
 */
import type { CrushTest } from './crash-schema';
import { dexp, dlog } from '../../terrain/dmath';

export type { CrushTest };

export const MPH5 = 2.2352;
export const BUMPER_DEAD_LENGTH = 0.15;

export interface BumperParams {
  kb: number;
  Cb: number;
  gamma: number;
  /** Peak bumper force in the 5 mph identification impact = body preload F_0 (N). */
  F0: number;
  /** ½·m·(5 mph)², the energy a bumper takes without body crush (J). */
  cap: number;
  /** Max deflection reached in the identification impact (m), ≈ L_b. */
  xmax: number;
}

/**
 * Step budget of the crush-parameter fit (`identifyBumper`), in RK4 steps, for the bisection runs together and
 * again for the final run. Measured for 300 kg … 20 t: 16–20k bisection steps, 12.1k final steps; 10× that
 * turns an absurd mass into a clear error within a second instead of a hang.
 */
export const CRUSH_FIT_STEP_BUDGET = 200_000;
/** A bisection run stops once the bumper passes this multiple of the target stroke: it only needs "too far". */
const OVERSHOOT_STOP = 4;

/**
 * Bumper-only barrier impact, eq 9: m ẍ = −k_b x − C_b ẋ/√(γ + ẋ²), x(0) = 0, ẋ(0) = v0; RK4 with step h.
 * Runs until the bumper stops, `maxSteps` steps, or x > `stopAbove`; `steps` is how many it took.
 */
export function simulateBumper(
  mass: number, kb: number, Cb: number, gamma: number, v0: number, h = 1e-5, maxSteps = 10_000_000, stopAbove = Infinity,
): { xmax: number; Fmax: number; steps: number } {
  const acc = (x: number, v: number): number => -(kb * x + (Cb * v) / Math.sqrt(gamma + v * v)) / mass;
  let x = 0, v = v0, Fmax = 0, i = 0;
  for (; i < maxSteps && v > 0 && x <= stopAbove; i++) {
    const a1 = acc(x, v);
    const x2 = x + 0.5 * h * v, v2 = v + 0.5 * h * a1, a2 = acc(x2, v2);
    const x3 = x + 0.5 * h * v2, v3 = v + 0.5 * h * a2, a3 = acc(x3, v3);
    const x4 = x + h * v3, v4 = v + h * a3, a4 = acc(x4, v4);
    x += (h / 6) * (v + 2 * v2 + 2 * v3 + v4);
    v += (h / 6) * (a1 + 2 * a2 + 2 * a3 + a4);
    const F = kb * x + (Cb * Math.max(v, 0)) / Math.sqrt(gamma + v * v);
    if (F > Fmax) Fmax = F;
  }
  return { xmax: x, Fmax, steps: i };
}

export function bumperFromKb(mass: number, kb: number, xmax = BUMPER_DEAD_LENGTH, zeta = 1): { Cb: number; gamma: number } {
  return { Cb: 0.5 * kb * xmax, gamma: (kb * xmax * xmax) / (16 * zeta * zeta * mass) }; // eqs 19, 20
}

/** §6.1: k_b such that a 5 mph impact deflects the bumper by exactly `xmax` (bisection, < 0.1 mm). */
export function identifyBumper(mass: number, xmax = BUMPER_DEAD_LENGTH, zeta = 1): BumperParams {
  if (!(mass > 0) || !Number.isFinite(mass)) throw new Error(`crush: mass must be a finite number > 0 kg, found ${mass}`);
  let lo = dlog(1), hi = dlog(1e9);
  let budget = CRUSH_FIT_STEP_BUDGET;
  for (let i = 0; i < 60; i++) {
    const mid = 0.5 * (lo + hi);
    const kb = dexp(mid);
    const { Cb, gamma } = bumperFromKb(mass, kb, xmax, zeta);
    const r = simulateBumper(mass, kb, Cb, gamma, MPH5, 1e-4, budget, OVERSHOOT_STOP * xmax);
    budget -= r.steps;
    if (budget <= 0) throw new Error(`crush: the bumper fit for a ${mass} kg car did not converge within ${CRUSH_FIT_STEP_BUDGET} steps`);
    if (r.xmax > xmax) lo = mid;
    else hi = mid;
    if (Math.abs(r.xmax - xmax) < 1e-5) break;
  }
  const kb = dexp(0.5 * (lo + hi));
  const { Cb, gamma } = bumperFromKb(mass, kb, xmax, zeta);
  const r = simulateBumper(mass, kb, Cb, gamma, MPH5, 1e-5, CRUSH_FIT_STEP_BUDGET);
  if (r.steps >= CRUSH_FIT_STEP_BUDGET) throw new Error(`crush: the bumper fit for a ${mass} kg car did not converge within ${CRUSH_FIT_STEP_BUDGET} steps`);
  return { kb, Cb, gamma, F0: r.Fmax, cap: 0.5 * mass * MPH5 * MPH5, xmax: r.xmax };
}


/** §6.2: body stiffness k_c from one crash test (see file comment). */
export function identifyBody(mass: number, bumper: BumperParams, test: CrushTest, label = 'crush'): number {
  const x = test.residual_crush_m;
  const Ebody = 0.5 * mass * test.speed_m_s ** 2 - bumper.cap;
  if (!(x > 0)) throw new Error(`${label}: residual_crush_m must be > 0 m, found ${x}`);
  if (!(Ebody > bumper.F0 * x))
    throw new Error(
      `${label}: a ${test.speed_m_s} m/s test leaves ${Ebody.toFixed(0)} J for the body, expected more than F_0·x = ` +
        `${(bumper.F0 * x).toFixed(0)} J (raise speed_m_s or lower residual_crush_m)`,
    );
  return (2 * (Ebody - bumper.F0 * x)) / (x * x);
}

/**
 * Default crash tests when a car file gives none (our assumption, documented in docs/collisions.md): NHTSA
 * full-frontal 35 mph barrier leaving 0.50 m, rear 30 mph leaving 0.40 m, side 20 mph leaving 0.30 m.
 */
export const DEFAULT_TESTS: Readonly<Record<'front' | 'rear' | 'side', CrushTest>> = {
  front: { speed_m_s: 15.6464, residual_crush_m: 0.5 },
  rear: { speed_m_s: 13.4112, residual_crush_m: 0.4 },
  side: { speed_m_s: 8.9408, residual_crush_m: 0.3 },
};

export interface CrushParams {
  bumper: BumperParams;
  kcF: number;
  kcR: number;
  kcS: number;
}

export function identifyCrush(
  mass: number, tests: Partial<Record<'front' | 'rear' | 'side', CrushTest>> = {},
): CrushParams {
  const bumper = identifyBumper(mass);
  return {
    bumper,
    kcF: identifyBody(mass, bumper, tests.front ?? DEFAULT_TESTS.front, 'crush.front'),
    kcR: identifyBody(mass, bumper, tests.rear ?? DEFAULT_TESTS.rear, 'crush.rear'),
    kcS: identifyBody(mass, bumper, tests.side ?? DEFAULT_TESTS.side, 'crush.side'),
  };
}

