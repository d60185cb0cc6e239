/**
 * Angle-dependent collision coefficients (docs/physics.md "Collision response").
 *
 * Knight & Bernard (Figs 4 and §"Kinetic Energy Loss Method", eq 36): θ = angle of attack between
 * the car's CG velocity and the barrier surface (0 = grazing, π/2 = head-on), cosine-shaped:
 *   e(θ) = 0.05 + 0.25·cos θ,   μ(θ) = 0.3·cos θ,   P(θ) = 0.04 + 0.88·cos θ.
 * Wu §5.2: α = angle between the relative velocity and the collision normal (0 = head-on):
 *   e(α) = 0.175 − 0.125·cos 2α (eq 5-39),  μ(α) ramps linearly 0 → μmax = 0.3 over 0…10° (Fig 5-5).
 */
import { dasin, dcos } from '../../../../terrain/dmath';
export const knightE = (theta: number): number => 0.05 + 0.25 * dcos(theta);
export const knightMu = (theta: number): number => 0.3 * dcos(theta);
export const knightP = (theta: number): number => 0.04 + 0.88 * dcos(theta);

export const WU_MU_MAX = 0.3;
export const WU_RAMP_RAD = (10 * Math.PI) / 180;
export const wuE = (alpha: number): number => 0.175 - 0.125 * dcos(2 * alpha);
export const wuMu = (alpha: number): number => WU_MU_MAX * Math.min(Math.max(alpha, 0) / WU_RAMP_RAD, 1);
/**
 * Wu §5.2.2 gives "a negative value" for a minor (glancing) collision without a number: we use −0.5, i.e. the
 * cars keep half their approach speed at the contact point and slide on past each other.
 */
export const WU_MINOR_E = -0.5;

/** Angle in [0, π/2] between a 2D vector (x, z) and a surface with unit normal (nx, nz): asin(|v·n| / |v|). */
export function angleToSurface(vx: number, vz: number, nx: number, nz: number): number {
  const s = Math.sqrt(vx * vx + vz * vz);
  if (s === 0) return Math.PI / 2;
  return dasin(Math.min(1, Math.abs(vx * nx + vz * nz) / s));
}

/** Angle in [0, π/2] between a 2D vector and a normal: acos(|v·n| / |v|) (Wu's α). */
export function angleToNormal(vx: number, vz: number, nx: number, nz: number): number {
  return Math.PI / 2 - angleToSurface(vx, vz, nx, nz);
}
