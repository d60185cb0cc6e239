/**
 * Yaw-plane impulse response, one contact, one or two bodies (the second may be static: 1/m = 1/I = 0).
 *
 * Coordinates are the world horizontal plane (x, z); yaw rate r = ω_y (world +Y up). For an offset ρ = (ρx, ρz)
 * from the CG, the velocity of the point is v + r·(ρz, −ρx) and the angular impulse of J is
 * ρ ×_y J = ρz·Jx − ρx·Jz (the y component of ρ × J); both use `cy` below.
 *
 * Impulse on body 1: J = jn·(n + μ·t), with n the unit contact normal pointing into body 1 (away from body 2 or
 * the barrier) and t the unit tangent opposite the tangential relative velocity of body 1's contact point
 * (friction opposes sliding, docs/physics.md; Knight eq 5/36, Wu eq 5-14). Body 2 gets −J (Wu eq 5-11).
 *
 * Restitution (Knight eqs 3, 9–17; Wu eqs 5-32…5-38): the normal relative velocity p = n·(v1p − v2p) becomes
 * −e·p. Linear in jn: p' = p + jn·K with
 *   K = 1/m1 + 1/m2 + c1n(c1n + μ c1t)/I1 + c2n(c2n + μ c2t)/I2,   cin = ρi ×_y n, cit = ρi ×_y t,
 * so jn = −(1 + e)·p / K. For a barrier (m2 = ∞) this is Knight eq 17 with h = 1/m + y²/I (eq 15) and
 * k = xy/I (eq 16) (c1n = ±y, c1t = ±x), and Wu eq 5-40; for two cars it is Wu eq 5-38 (M1 + M2 = K).
 * Coulomb friction with kinematic restitution can add energy in rare geometries (Kane's example); when the
 * result would raise the yaw-plane energy (or K ≤ 0) we re-solve with μ = 0, which cannot (ΔE = −½(1−e²)p²/K),
 * and flag `frictionDropped`.
 *
 * Kinetic energy method (Knight eqs 18–35), barrier only: the impulse magnitude j = F0·Δt along the fixed unit
 * direction d = (n + μt)/|n + μt| (eq 19) gives yaw-plane energy 2E2 = A j² + B j + 2E1 (eq 31) with
 *   A = |d|²/m + (ρ ×_y d)²/I (eq 33),  B = 2(d·v1 + r1·(ρ ×_y d)) (eq 34),  C = 2E1 − 2E2 = 2E1(1 − P) (eq 35);
 * j = (−B + √(B² − 4AC)) / 2A, the larger root (eq 32, "prevents going through the barrier"). No real root, or a
 * larger root ≤ 0, falls back to the restitution method (`method = 'energy-fallback'`, docs/physics.md).
 */

/** √(a² + b²) without Math.hypot's varargs cost (hot paths). */
export const sqrt2 = (a: number, b: number): number => Math.sqrt(a * a + b * b);

/** One body as the impulse solver sees it, in the yaw plane. invMass = invIzz = 0 for a static barrier. */
export interface YawBody {
  invMass: number;
  /** 1 / yaw inertia about the vertical axis through the CG (kg⁻¹·m⁻²). */
  invI: number;
  vx: number;
  vz: number;
  /** Yaw rate ω_y (rad/s). */
  r: number;
}

export type ResponseMethod = 'restitution' | 'energy' | 'energy-fallback';

export interface ImpulseResult {
  /** Impulse on body 1 (N·s), world x and z; body 2 receives −(jx, jz). */
  jx: number;
  jz: number;
  /** Normal component jn ≥ 0 (for e > −1) (N·s). */
  jn: number;
  mu: number;
  e: number;
  /** Normal relative velocity at the contact before and after (m/s); < 0 = approaching. */
  pBefore: number;
  pAfter: number;
  /** Yaw-plane kinetic energy of both bodies before and after (J). */
  energyBefore: number;
  energyAfter: number;
  method: ResponseMethod;
  frictionDropped: boolean;
}

export const newImpulseResult = (): ImpulseResult => ({
  jx: 0, jz: 0, jn: 0, mu: 0, e: 0, pBefore: 0, pAfter: 0, energyBefore: 0, energyAfter: 0,
  method: 'restitution', frictionDropped: false,
});

/** y component of a × b for horizontal vectors a = (ax, 0, az), b = (bx, 0, bz). */
export const cy = (ax: number, az: number, bx: number, bz: number): number => az * bx - ax * bz;

/** Yaw-plane kinetic energy ½m|v|² + ½I r² of one body (0 for a static one). */
export function yawEnergy(b: YawBody): number {
  if (b.invMass === 0) return 0;
  return 0.5 * (b.vx * b.vx + b.vz * b.vz) / b.invMass + (b.invI > 0 ? (0.5 * b.r * b.r) / b.invI : 0);
}

function energyAfterImpulse(b: YawBody, jx: number, jz: number, ang: number): number {
  if (b.invMass === 0) return 0;
  const vx = b.vx + jx * b.invMass;
  const vz = b.vz + jz * b.invMass;
  const r = b.r + ang * b.invI;
  return 0.5 * (vx * vx + vz * vz) / b.invMass + (b.invI > 0 ? (0.5 * r * r) / b.invI : 0);
}

/** Relative velocity of body 1's contact point with respect to body 2's (world x, z) into `out`. */
export function relativePointVelocity(
  b1: YawBody, r1x: number, r1z: number, b2: YawBody, r2x: number, r2z: number, out: { x: number; z: number },
): void {
  out.x = b1.vx + b1.r * r1z - (b2.vx + b2.r * r2z);
  out.z = b1.vz - b1.r * r1x - (b2.vz - b2.r * r2x);
}

const rel = { x: 0, z: 0 };

/** Unit tangent opposite the tangential relative velocity (or (0,0) when there is none). */
function frictionTangent(nx: number, nz: number, vx: number, vz: number, out: { x: number; z: number }): void {
  const vn = vx * nx + vz * nz;
  const tx = vx - vn * nx;
  const tz = vz - vn * nz;
  const s = sqrt2(tx, tz);
  if (s < 1e-12) {
    out.x = 0;
    out.z = 0;
  } else {
    out.x = -tx / s;
    out.z = -tz / s;
  }
}
const tan = { x: 0, z: 0 };

/**
 * Restitution impulse (see file comment). ρ1, ρ2 are the CG → contact offsets (x, z); (nx, nz) the unit
 * normal into body 1. Returns the solution in `out` (jn = 0 when the bodies are not approaching).
 */
export function solveRestitution(
  b1: YawBody, r1x: number, r1z: number, b2: YawBody, r2x: number, r2z: number,
  nx: number, nz: number, e: number, mu: number, out: ImpulseResult,
): ImpulseResult {
  relativePointVelocity(b1, r1x, r1z, b2, r2x, r2z, rel);
  const p = rel.x * nx + rel.z * nz;
  frictionTangent(nx, nz, rel.x, rel.z, tan);
  const e0 = yawEnergy(b1) + yawEnergy(b2);
  out.pBefore = p;
  out.energyBefore = e0;
  out.e = e;
  out.method = 'restitution';
  out.frictionDropped = false;
  if (!(p < 0)) {
    out.jn = out.jx = out.jz = 0;
    out.mu = mu;
    out.pAfter = p;
    out.energyAfter = e0;
    return out;
  }
  for (let pass = 0; pass < 2; pass++) {
    const m = pass === 0 ? mu : 0;
    const c1n = cy(r1x, r1z, nx, nz), c1t = cy(r1x, r1z, tan.x, tan.z);
    const c2n = cy(r2x, r2z, nx, nz), c2t = cy(r2x, r2z, tan.x, tan.z);
    const K = b1.invMass + b2.invMass + c1n * (c1n + m * c1t) * b1.invI + c2n * (c2n + m * c2t) * b2.invI;
    if (!(K > 1e-12 * (b1.invMass + b2.invMass)) && pass === 0) {
      out.frictionDropped = true;
      continue;
    }
    const jn = (-(1 + e) * p) / K;
    const jx = jn * (nx + m * tan.x);
    const jz = jn * (nz + m * tan.z);
    const e1 =
      energyAfterImpulse(b1, jx, jz, cy(r1x, r1z, jx, jz)) + energyAfterImpulse(b2, -jx, -jz, -cy(r2x, r2z, jx, jz));
    if (pass === 0 && m !== 0 && e >= 0 && e1 > e0) {
      out.frictionDropped = true;
      continue;
    }
    out.jn = jn;
    out.jx = jx;
    out.jz = jz;
    out.mu = m;
    out.pAfter = p + jn * K;
    out.energyAfter = e1;
    return out;
  }
  return out;
}

const STATIC: YawBody = { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 };

/**
 * Knight's kinetic-energy method against a rigid barrier (see file comment); `P` is the fraction of yaw-plane
 * energy kept (eq 24). Falls back to restitution with `eFallback` when eq 32 has no usable root.
 */
export function solveEnergy(
  b: YawBody, rx: number, rz: number, nx: number, nz: number, P: number, mu: number, eFallback: number,
  out: ImpulseResult,
): ImpulseResult {
  const px = b.vx + b.r * rz, pz = b.vz - b.r * rx;
  const p = px * nx + pz * nz;
  const E1 = yawEnergy(b);
  if (!(p < 0)) return solveRestitution(b, rx, rz, STATIC, 0, 0, nx, nz, eFallback, mu, out);
  frictionTangent(nx, nz, px, pz, tan);
  let dx = nx + mu * tan.x, dz = nz + mu * tan.z;
  const dl = sqrt2(dx, dz);
  dx /= dl;
  dz /= dl;
  const cd = cy(rx, rz, dx, dz);
  const A = b.invMass + cd * cd * b.invI; // eq 33 (Δt folded into j = F0·Δt, |d| = 1)
  const B = 2 * (dx * b.vx + dz * b.vz + b.r * cd); // eq 34
  const C = 2 * E1 * (1 - P); // eq 35 with E2 = P·E1 (eq 24)
  const disc = B * B - 4 * A * C;
  if (disc < 0 || !(E1 > 1e-12)) {
    solveRestitution(b, rx, rz, STATIC, 0, 0, nx, nz, eFallback, mu, out);
    out.method = 'energy-fallback';
    return out;
  }
  const j = (-B + Math.sqrt(disc)) / (2 * A); // eq 32, larger root
  if (!(j > 0)) {
    solveRestitution(b, rx, rz, STATIC, 0, 0, nx, nz, eFallback, mu, out);
    out.method = 'energy-fallback';
    return out;
  }
  out.jx = j * dx;
  out.jz = j * dz;
  out.jn = j * (dx * nx + dz * nz);
  out.mu = mu;
  out.e = NaN;
  out.pBefore = p;
  const ang = cy(rx, rz, out.jx, out.jz);
  const vx = b.vx + out.jx * b.invMass, vz = b.vz + out.jz * b.invMass, r = b.r + ang * b.invI;
  out.pAfter = (vx + r * rz) * nx + (vz - r * rx) * nz;
  out.e = -out.pAfter / p; // effective restitution, reported
  out.energyBefore = E1;
  out.energyAfter = energyAfterImpulse(b, out.jx, out.jz, ang);
  out.method = 'energy';
  out.frictionDropped = false;
  return out;
}

export const STATIC_BODY: Readonly<YawBody> = STATIC;
