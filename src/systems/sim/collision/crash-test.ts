/**
 * Time-resolved 1D crash test (Tongue, seed 002, §5.3, §7.2 and §8): car 1 (behind, moving) runs into car 2
 * (ahead) or into a rigid barrier. Each car end in contact is a bumper (k_b ∥ nonlinear damper, dead length
 * L_b, eq 9) in series with the body (preloaded spring F_0 + k_c·x_c that only loads: no elastic recovery).
 *
 * Instead of Tongue's 15 switched equation sets (eqs 13–15, 25–29) we keep one set of states and let the
 * phases fall out of the constitutive laws, which give the same three phases per car:
 *   I bumper only (F < F_y), II bumper + body yielding, III bumper at its dead length → body only.
 * The force F is common to all elements in series. Given the overlap s of the undeformed outlines,
 *   s = Σ x_b,i + Σ (F/k_e,i + x_c,i(F)),   x_c,i(F) = max(x_c,i, (F − F_0,i)/k_c,i),
 * where k_e = 20·k_c is a stiff elastic body compliance (a regularisation: the paper's body is rigid below
 * its preload) so F is found from s by bisection each step; the bumper rate follows from its force balance
 * F = k_b x_b + C_b ẋ_b/√(γ + ẋ_b²) → ẋ_b = D√γ/√(C_b² − D²), D = F − k_b x_b (eq 9 solved for ẋ_b).
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

function bumperRate(e: EndState, F: number): number {
  let D = F - e.kb * e.xb;
  const lim = 0.999 * e.Cb;
  if (D > lim) D = lim;
  else if (D < -lim) D = -lim;
  let r = (D * e.sg) / Math.sqrt(e.Cb * e.Cb - D * D);
  if (e.xb >= BUMPER_DEAD_LENGTH && r > 0) r = 0;
  if (e.xb <= 0 && r < 0) r = 0;
  return r;
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
  if (!(closing0 > 0)) return { samples, contactStart: NaN, contactEnd: NaN, v1, v2, crush1: e1.xc, crush2: e2?.xc ?? 0, peakForce: 0, severity: 'bumper' };
  // Free approach: one exact jump to the contact time.
  t = opts.gap / closing0;
  push(0);
  const contactStart = t;
  let s = 0; // overlap of the undeformed outlines (m)
  const crushStart1 = e1.xc, crushStart2 = e2?.xc ?? 0;
  let peak = 0;
  let yielded = false;
  let nextSample = t + sampleEvery;
  const solveF = (B: number): number => {
    const xcSum = e1.xc + (e2 ? e2.xc : 0);
    if (B <= xcSum) return 0;
    let lo = 0, hi = 2 * Math.max(e1.F0, e2?.F0 ?? 0) + 1;
    const g = (f: number): number => bodyDeflection(e1, f) + (e2 ? bodyDeflection(e2, f) : 0);
    while (g(hi) < B) hi *= 2;
    for (let i = 0; i < 80 && hi - lo > 1e-10 * hi; i++) {
      const mid = 0.5 * (lo + hi);
      if (g(mid) < B) lo = mid;
      else hi = mid;
    }
    return 0.5 * (lo + hi);
  };
  for (let i = 0; i < 5_000_000; i++) {
    const F = solveF(s - e1.xb - (e2 ? e2.xb : 0));
    if (F > peak) peak = F;
    // plastic crush follows the force (no recovery)
    const c1 = Math.max(e1.xc, (F - e1.F0) / e1.kc);
    if (c1 > e1.xc) { e1.xc = c1; yielded = true; }
    if (e2) {
      const c2 = Math.max(e2.xc, (F - e2.F0) / e2.kc);
      if (c2 > e2.xc) { e2.xc = c2; yielded = true; }
    }
    const r1 = bumperRate(e1, F);
    const r2 = e2 ? bumperRate(e2, F) : 0;
    // Once a body has yielded, the step that would reverse the closing speed is shortened so that it ends
    // exactly at zero closing speed (end of the collision, §8.1): momentum exchange stays equal and opposite.
    let hs = h;
    const inv = 1 / m1 + (e2 ? 1 / m2 : 0);
    if (yielded && F > 0 && (v1 - v2) - F * inv * h < 0) hs = (v1 - v2) / (F * inv);
    // semi-implicit Euler: momenta from F, then positions with the new velocities
    v1 -= (F / m1) * hs;
    if (e2) v2 += (F / m2) * hs;
    s += (v1 - v2) * hs;
    e1.xb = Math.min(BUMPER_DEAD_LENGTH, Math.max(0, e1.xb + r1 * hs));
    if (e2) e2.xb = Math.min(BUMPER_DEAD_LENGTH, Math.max(0, e2.xb + r2 * hs));
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
  };
}
