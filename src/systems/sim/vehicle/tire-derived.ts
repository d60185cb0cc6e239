/**
 * Per-wheel tyre constants derived from the config once (registry.ts `refreshRuntime`), for the tyre pass
 * (tires.ts). A module of its own so that the registry does not import the tyre pass, which imports the registry.
 */
import type { TireConfig } from '../../../content/car-schema';

/** Damping ratio of the bristle dampers: ζ of the wheel-spin / corner-mass mode (tires.ts file comment). */
const ZETA = 0.7;

/**
 * Reciprocals of the relaxation lengths and the nominal load, the load-stiffness k = (1 − p)/p, and the
 * bristle dampers at the config's own stiffness, d₀ = 2ζ·√(C₀/σ·m) (× √(C(N)/C₀) at run time: one sqrt instead of two).
 */
export interface TireDerived {
  invRelaxLong: number;
  invRelaxLat: number;
  invNominalLoad: number;
  stiffK: number;
  /** 2ζ·√(C_x0/σ_x·I_w)/R (longitudinal damper as a force per m/s of u̇_x). */
  dampX: number;
  /** 2ζ·√(C_y0/σ_y·m_corner). */
  dampY: number;
}

export function tireDerived(tc: TireConfig, cornerMass: number): TireDerived {
  const invRelaxLong = 1 / tc.relaxLong,
    invRelaxLat = 1 / tc.relaxLat;
  return {
    invRelaxLong,
    invRelaxLat,
    invNominalLoad: 1 / tc.nominalLoad,
    stiffK: (1 - tc.stiffnessLoadExponent) / tc.stiffnessLoadExponent,
    dampX: (ZETA * 2 * Math.sqrt(tc.longStiffness * invRelaxLong * tc.inertia)) / tc.radius,
    dampY: ZETA * 2 * Math.sqrt(tc.corneringStiffness * invRelaxLat * cornerMass),
  };
}
