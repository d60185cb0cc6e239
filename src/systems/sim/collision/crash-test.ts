/**
 * Time-resolved 1D crash test (Tongue et al. §5.3, §7.2 and §8): car 1 (behind, moving) runs into car 2
 * (ahead) or into a rigid barrier. Each car end in contact is a bumper (k_b ∥ nonlinear damper, dead length
 * L_b, eq 9) in series with the body (preloaded spring F_0 + k_c·x_c that only loads: no elastic recovery).
 *
 * Instead of Tongue's 15 switched equation sets (eqs 13–15, 25–29) we keep one set of states and let the
 * phases fall out of the constitutive laws, which give the same three phases per car:
 *   I bumper only (F < F_y), II bumper + body yielding, III bumper at its dead length → body only.
 * The force F is common to all elements in series. Given the overlap s of the undeformed outlines,
 *   s = Σ x_b,i + Σ (F/k_e,i + x_c,i(F)),   x_c,i(F) = max(x_c,i, (F − F_0,i)/k_c,i),
 * where k_e = 20·k_c is a stiff elastic body compliance (a regularisation: the paper's body is rigid below
 * its preload).
 *
 * The bumper is force-limited: its damper force C_b ẋ/√(γ + ẋ²) (eq 8) tends to C_b as ẋ grows, so a bumper
 * pushed by more than k_b x_b + C_b strokes at whatever speed the closing motion imposes — Tongue's
 * "constant region" (eqs 26–28: damper force C_b, the bumper nodes move with the cars). Its rate is eq 9
 * solved for ẋ_b, ẋ_b = D√γ/√(C_b² − D²) with D = F − k_b x_b, unbounded as D → C_b, so each step solves F
 * and the strokes together, the bumper backward-Euler over the step:
 *   x_b,i(F) = clamp(x_b,i + h·ẋ_b(F − k_b x_b,i), 0, L_b),   Σ x_b,i(F) + Σ body_i(F) = s,
 * monotone in F (bisection). At 20 m/s the bumper takes the whole closing speed through its stroke and the
 * body yields when k_b x_b + C_b reaches F_0, within the last millimetres of the stroke (then phase III).
 * Car momenta change by ∓F·h. Stepping (§8.2): the free approach is jumped in one exact step to the contact
 * time; in contact we use the small step h (default 10 µs, ≪ 1/(10ω) of every element here).
 * End of contact (§8.1): bumper-only contact ends when the outlines separate; once a body has crushed the
 * collision ends when the closing speed reaches zero (the body would start to recover).
 */
import { BUMPER_DEAD_LENGTH, type BumperParams } from './crush';

export interface CrashCar {
  mass: number;
  v0: number;
  bumper: BumperParams;
  /** Body stiffness of the end in contact (N/m). */
  kc: number;
  /** Residual crush already there (m). */
  crush0?: number;
}

export interface CrashTestOptions {
  /** Gap between the bumpers at t = 0 (m). */
  gap: number;
  /** Contact step (s). */
  h?: number;
  /** Trace sample interval (s). */
  sampleEvery?: number;
  /** Time to run after contact ends (s). */
  after?: number;
}

export interface CrashSample {
  t: number;
  v1: number;
  v2: number;
  F: number;
  xb1: number;
  xc1: number;
  xb2: number;
  xc2: number;
}

export interface CrashResult {
  samples: CrashSample[];
  contactStart: number;
  contactEnd: number;
  v1: number;
  v2: number;
  crush1: number;
  crush2: number;
  peakForce: number;
  /** 'bumper' when no body yielded. */
  severity: 'bumper' | 'body';
  /** Time a body first yielded (s); NaN when none did. */
  yieldStart: number;
  /** Time each bumper first reached its dead length (s); NaN when it did not. */
  strokeEnd1: number;
  strokeEnd2: number;
  /** Largest bumper deflection of each car (m). */
  maxBumper1: number;
  maxBumper2: number;
}

interface EndState {
  kb: number;
  Cb: number;
  sg: number;
  F0: number;
  kc: number;
  ke: number;
  xb: number;
  xc: number;
}

function endState(c: CrashCar): EndState {
  return {
    kb: c.bumper.kb, Cb: c.bumper.Cb, sg: Math.sqrt(c.bumper.gamma), F0: c.bumper.F0, kc: c.kc, ke: 20 * c.kc,
    xb: 0, xc: c.crush0 ?? 0,
  };
}

function bodyDeflection(e: EndState, F: number): number {
  return F / e.ke + Math.max(e.xc, (F - e.F0) / e.kc);
}

/** Bumper rate from eq 9 solved for ẋ_b (see file comment); ±∞ once |D| reaches C_b (force-limited). */
function bumperRate(e: EndState, D: number): number {
  if (D >= e.Cb) return Infinity;
  if (D <= -e.Cb) return -Infinity;
  return (D * e.sg) / Math.sqrt(e.Cb * e.Cb - D * D);
}

/** The bumper deflection at the end of a step h through which force F acts (backward Euler, clamped). */
function bumperAfter(e: EndState, F: number, h: number): number {
  const x = e.xb + h * bumperRate(e, F - e.kb * e.xb);
  return x >= BUMPER_DEAD_LENGTH ? BUMPER_DEAD_LENGTH : x > 0 ? x : 0;
}

const SOLVE_REL_TOL = 1e-12;

/** Common force F at overlap s: Σ bumper(F) + Σ body(F) = s (monotone in F; bisection). */
function solveForce(e1: EndState, e2: EndState | null, s: number, h: number): number {
  const g = (f: number): number =>
    bumperAfter(e1, f, h) + bodyDeflection(e1, f) + (e2 ? bumperAfter(e2, f, h) + bodyDeflection(e2, f) : 0) - s;
  if (g(0) >= 0) return 0;
  let lo = 0, hi = 2 * Math.max(e1.F0, e2?.F0 ?? 0) + 1;
  while (g(hi) < 0) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > SOLVE_REL_TOL * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (g(mid) < 0) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/** Run a crash test; car 2 = null is a rigid barrier. */
export function runCrashTest(car1: CrashCar, car2: CrashCar | null, opts: CrashTestOptions): CrashResult {
  const h = opts.h ?? 1e-5;
  const sampleEvery = opts.sampleEvery ?? 1e-3;
  const e1 = endState(car1);
  const e2 = car2 ? endState(car2) : null;
  const m1 = car1.mass, m2 = car2?.mass ?? Infinity;
  let v1 = car1.v0, v2 = car2?.v0 ?? 0;
  const closing0 = v1 - v2;
  const samples: CrashSample[] = [];
  let t = 0;
  const push = (F: number): void => {
    samples.push({ t, v1, v2, F, xb1: e1.xb, xc1: e1.xc, xb2: e2?.xb ?? 0, xc2: e2?.xc ?? 0 });
  };
  push(0);
  if (!(closing0 > 0))
    return {
      samples, contactStart: NaN, contactEnd: NaN, v1, v2, crush1: 0, crush2: 0, peakForce: 0, severity: 'bumper',
      yieldStart: NaN, strokeEnd1: NaN, strokeEnd2: NaN, maxBumper1: 0, maxBumper2: 0,
    };
  // Free approach: one exact jump to the contact time.
  t = opts.gap / closing0;
  push(0);
  const contactStart = t;
  let s = 0; // overlap of the undeformed outlines (m)
  const crushStart1 = e1.xc, crushStart2 = e2?.xc ?? 0;
  let peak = 0;
  let yielded = false;
  let nextSample = t + sampleEvery;
  let yieldStart = NaN, strokeEnd1 = NaN, strokeEnd2 = NaN, maxB1 = 0, maxB2 = 0;
  let hPrev = h;
  for (let i = 0; i < 5_000_000; i++) {
    // force and bumper strokes at this overlap, the bumpers stepped over the last step (backward Euler)
    const F = solveForce(e1, e2, s, hPrev);
    e1.xb = bumperAfter(e1, F, hPrev);
    if (e2) e2.xb = bumperAfter(e2, F, hPrev);
    if (e1.xb >= BUMPER_DEAD_LENGTH && Number.isNaN(strokeEnd1)) strokeEnd1 = t;
    if (e2 && e2.xb >= BUMPER_DEAD_LENGTH && Number.isNaN(strokeEnd2)) strokeEnd2 = t;
    maxB1 = Math.max(maxB1, e1.xb);
    maxB2 = Math.max(maxB2, e2?.xb ?? 0);
    if (F > peak) peak = F;
    // plastic crush follows the force (no recovery)
    const c1 = Math.max(e1.xc, (F - e1.F0) / e1.kc);
    if (c1 > e1.xc) { e1.xc = c1; yielded = true; }
    if (e2) {
      const c2 = Math.max(e2.xc, (F - e2.F0) / e2.kc);
      if (c2 > e2.xc) { e2.xc = c2; yielded = true; }
    }
    if (yielded && Number.isNaN(yieldStart)) yieldStart = t;
    // Once a body has yielded, the step that would reverse the closing speed is shortened so that it ends
    // exactly at zero closing speed (end of the collision, §8.1): momentum exchange stays equal and opposite.
    let hs = h;
    const inv = 1 / m1 + (e2 ? 1 / m2 : 0);
    if (yielded && F > 0 && (v1 - v2) - F * inv * h < 0) hs = (v1 - v2) / (F * inv);
    // semi-implicit Euler: momenta from F, then the overlap with the new velocities
    v1 -= (F / m1) * hs;
    if (e2) v2 += (F / m2) * hs;
    s += (v1 - v2) * hs;
    hPrev = hs;
    t += hs;
    if (t >= nextSample) {
      push(F);
      nextSample += sampleEvery;
    }
    const ended = yielded ? v1 - v2 <= 0 : s <= e1.xc + (e2 ? e2.xc : 0) && v1 - v2 < 0;
    if (ended) break;
  }
  const contactEnd = t;
  push(0);
  const after = opts.after ?? 0.05;
  if (after > 0) {
    t += after;
    push(0);
  }
  return {
    samples, contactStart, contactEnd, v1, v2,
    crush1: e1.xc - crushStart1, crush2: (e2?.xc ?? 0) - crushStart2, peakForce: peak,
    severity: yielded ? 'body' : 'bumper',
    yieldStart, strokeEnd1, strokeEnd2, maxBumper1: maxB1, maxBumper2: maxB2,
  };
}
