/**
 * Lane centre paths as in Félez et al. §2 ("the middle line of the lanes as a continuous path … made of a
 * series of entities (straight lines and arcs)"): a path is a list of primitives, each a straight segment
 * (κ = 0) or a circular arc of constant curvature κ (1/m, + = turning left), joined tangent-continuously.
 *
 * Ground plane (x, z), +Y up; heading ψ about +Y with forward f(ψ) = (sin ψ, cos ψ) and left l(ψ) =
 * (cos ψ, −sin ψ), the same frame as a car body (+Z forward, +X left) yawed by ψ, so a promoted traffic car
 * keeps its heading. Along a primitive ψ(s) = ψ₀ + κ s and, integrating f:
 *   κ = 0: p(s) = p₀ + s f(ψ₀);   κ ≠ 0: p(s) = p₀ + (l(ψ₀) − l(ψ(s)))/κ   (since dl/dψ = −f).
 */
import { dcos, dsin } from '../dmath';

export interface PathPrim {
  /** Arc length at the primitive's start along its path, m. */
  s0: number;
  len: number;
  x0: number;
  z0: number;
  psi0: number;
  /** Curvature, 1/m (+ = left); 0 for a segment. */
  kappa: number;
}

/** A point on a path: position, heading and curvature. */
export interface PathPoint {
  x: number;
  z: number;
  psi: number;
  kappa: number;
}

export const pathPoint = (): PathPoint => ({ x: 0, z: 0, psi: 0, kappa: 0 });

/** Evaluates one primitive at local arc length `t` (0…len) into `out`. */
export function evalPrim(p: PathPrim, t: number, out: PathPoint): PathPoint {
  const psi = p.psi0 + p.kappa * t;
  if (p.kappa === 0) {
    out.x = p.x0 + t * dsin(p.psi0);
    out.z = p.z0 + t * dcos(p.psi0);
  } else {
    out.x = p.x0 + (dcos(p.psi0) - dcos(psi)) / p.kappa;
    out.z = p.z0 + (-dsin(p.psi0) + dsin(psi)) / p.kappa;
  }
  out.psi = psi;
  out.kappa = p.kappa;
  return out;
}

/** Evaluates a path (its primitives in order) at arc length s, clamped to [0, length], into `out`. */
export function evalPath(prims: readonly PathPrim[], s: number, out: PathPoint): PathPoint {
  let k = 0;
  while (k < prims.length - 1 && s > prims[k]!.s0 + prims[k]!.len) k++;
  const p = prims[k]!;
  const t = s - p.s0;
  return evalPrim(p, t < 0 ? 0 : t > p.len ? p.len : t, out);
}

export function pathLength(prims: readonly PathPrim[]): number {
  const last = prims[prims.length - 1]!;
  return last.s0 + last.len;
}

/** A straight path of one segment from (x0, z0) to (x1, z1). */
export function segmentPath(x0: number, z0: number, x1: number, z1: number, psi: number): PathPrim[] {
  return [{ s0: 0, len: Math.hypot(x1 - x0, z1 - z0), x0, z0, psi0: psi, kappa: 0 }];
}

/** Distance below which a straight lead-in or lead-out is dropped from a turn path, m. */
const MIN_PRIM_M = 1e-6;

/**
 * A turn path from pose (x0, z0, ψ0) to the point (x1, z1) reached with heading ψ1 (a quarter turn either
 * way): straight lead-in, arc, straight lead-out. The two straight lines meet at the corner C; the arc radius
 * R = min(|C − P₀|, |P₁ − C|) makes the arc tangent to both (the longer side keeps a straight part), so the
 * path is tangent-continuous by construction. Returns null if the lines are parallel.
 */
export function turnPath(x0: number, z0: number, psi0: number, x1: number, z1: number, psi1: number): PathPrim[] | null {
  const f0x = dsin(psi0), f0z = dcos(psi0), f1x = dsin(psi1), f1z = dcos(psi1);
  // C = P0 + t0 f0 = P1 − t1 f1
  const den = f0x * f1z - f0z * f1x;
  if (Math.abs(den) < 1e-9) return null;
  const dx = x1 - x0, dz = z1 - z0;
  const t0 = (dx * f1z - dz * f1x) / den;
  const t1 = (f0x * dz - f0z * dx) / den;
  if (t0 <= 0 || t1 <= 0) return null;
  const r = Math.min(t0, t1);
  // signed turn angle ψ1 − ψ0 wrapped to (−π, π]
  let dpsi = psi1 - psi0;
  while (dpsi > Math.PI) dpsi -= 2 * Math.PI;
  while (dpsi <= -Math.PI) dpsi += 2 * Math.PI;
  const kappa = Math.sign(dpsi) / r;
  const prims: PathPrim[] = [];
  let s = 0;
  const lead = t0 - r;
  if (lead > MIN_PRIM_M) {
    prims.push({ s0: 0, len: lead, x0, z0, psi0, kappa: 0 });
    s = lead;
  }
  const ax = x0 + lead * f0x, az = z0 + lead * f0z;
  const arcLen = r * Math.abs(dpsi);
  prims.push({ s0: s, len: arcLen, x0: ax, z0: az, psi0, kappa });
  s += arcLen;
  const out = t1 - r;
  if (out > MIN_PRIM_M) prims.push({ s0: s, len: out, x0: x1 - out * f1x, z0: z1 - out * f1z, psi0: psi1, kappa: 0 });
  return prims;
}

/** Forward unit vector of heading ψ (x, z). */
export function forwardOf(psi: number): [number, number] {
  return [dsin(psi), dcos(psi)];
}
