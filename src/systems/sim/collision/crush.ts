/**
 * Crush model of Tongue, Packard & Harriman: per car end a bumper (spring k_b in parallel with the
 * nonlinear damper F = C_b·ẋ/√(γ + ẋ²), eqs 8–9, dead length L_b = 0.15 m) in series with the body (preloaded
 * spring F = F_0 + k_c·x, eqs 10–11, no elastic recovery).
 *
 * Parameter identification (§6): src/content/crush-fit.ts.
 *
 * Use in the impulse collisions (docs/physics.md (a)): the yaw-plane energy an impulse removes is absorbed by the
 * ends in contact. Two ends in series carry the same force F; each absorbs E(F): the bumper up to E_cap while F
 * rises to F_0 (E = E_cap·(F/F_0)², quasi-static), then the body from its current yield force F_y = F_0 + k_c·x
 * (plastic hardening, no recovery): E = (F² − F_y²)/(2k_c). We solve ΣE_i(F) = ΔE for F (bisection) and add
 * the new residual crush Δx_i = (F − F_y,i)/k_c,i.
 */
import {
  BUMPER_DEAD_LENGTH, bumperFromKb, CRUSH_FIT_STEP_BUDGET, DEFAULT_TESTS, identifyBody, identifyBumper, identifyCrush, MPH5,
  simulateBumper, type BumperParams, type CrushParams, type CrushTest,
} from '../../../content/crush-fit';

// The identification lives with the crash table it reads (src/content/crush-fit.ts); the model uses it from here.
export {
  BUMPER_DEAD_LENGTH, bumperFromKb, CRUSH_FIT_STEP_BUDGET, DEFAULT_TESTS, identifyBody, identifyBumper, identifyCrush, MPH5,
  simulateBumper, type BumperParams, type CrushParams, type CrushTest,
};

/** One car end as the energy split sees it. */
export interface CrushEnd {
  cap: number;
  F0: number;
  kc: number;
  /** Residual crush before this impact (m). */
  crush: number;
}

/** Energy the end absorbs when the force through it reaches F (quasi-static, see file comment). */
export function endEnergy(end: CrushEnd, F: number): number {
  if (F <= 0) return 0;
  const bump = F >= end.F0 ? end.cap : end.cap * (F / end.F0) ** 2;
  const Fy = end.F0 + end.kc * end.crush;
  return F > Fy ? bump + (F * F - Fy * Fy) / (2 * end.kc) : bump;
}

export function endCrushAt(end: CrushEnd, F: number): number {
  const Fy = end.F0 + end.kc * end.crush;
  return F > Fy ? (F - Fy) / end.kc : 0;
}

/**
 * Split the energy ΔE (J) between one or two ends in series; returns the common force and writes the added
 * crush (m) of each end into `added`.
 */
export function absorbEnergy(dE: number, a: CrushEnd, b: CrushEnd | null, added: [number, number]): number {
  added[0] = 0;
  added[1] = 0;
  if (!(dE > 0)) return 0;
  let lo = 0, hi = Math.max(a.F0, b?.F0 ?? 0) * 2;
  while (endEnergy(a, hi) + (b ? endEnergy(b, hi) : 0) < dE) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (endEnergy(a, mid) + (b ? endEnergy(b, mid) : 0) < dE) lo = mid;
    else hi = mid;
  }
  const F = hi;
  added[0] = endCrushAt(a, F);
  if (b) added[1] = endCrushAt(b, F);
  return F;
}

/** Below-yield margin of absorbCrush's shortcut: far wider than the bisection's 1e-9 relative tolerance. */
const YIELD_MARGIN = 1e-6;

/**
 * The added crush of absorbEnergy (into `added`) without its bisection when the ends take ΔE below their yield:
 * E(F) = Σ endEnergy is non-decreasing in F (in float64 too: every operation in it is monotone), so when
 * E(F_m) ≥ ΔE at F_m = (1 − YIELD_MARGIN)·min(F_y), the bisection's force ends within 1e-9 of a root ≤ F_m,
 * under every end's yield force F_y, and each added crush is 0: the same numbers, bit for bit.
 */
export function absorbCrush(dE: number, a: CrushEnd, b: CrushEnd | null, added: [number, number]): void {
  const fyA = a.F0 + a.kc * a.crush;
  const fm = (1 - YIELD_MARGIN) * (b ? Math.min(fyA, b.F0 + b.kc * b.crush) : fyA);
  if (endEnergy(a, fm) + (b ? endEnergy(b, fm) : 0) >= dE) {
    added[0] = 0;
    added[1] = 0;
    return;
  }
  absorbEnergy(dE, a, b, added);
}

/**
 * What residual crush does to the car (our choice, docs/collisions.md): side crush bends the front suspension and
 * pulls the steering toward the damaged side (0.1 rad per m of left-right difference, at most ±0.08 rad); front
 * crush past 0.10 m damages the cooling/engine bay: power falls linearly to 30 % at 0.60 m.
 */
export function damageFromCrush(front: number, _rear: number, left: number, right: number): { steerPullRad: number; powerFactor: number } {
  const pull = Math.max(-0.08, Math.min(0.08, 0.1 * (left - right)));
  const powerFactor = 1 - 0.7 * Math.min(1, Math.max(0, (front - 0.1) / 0.5));
  return { steerPullRad: pull, powerFactor };
}
