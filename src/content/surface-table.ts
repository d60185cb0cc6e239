/**
 * The surface friction table the simulation uses: one row per terrain surface code, and the built-in defaults
 * used when no table is given (the same numbers as src/content/surfaces.toml; tests/vehicle/config.test.ts
 * keeps them equal). Loading a table file is surfaces.ts.
 */
import { SURFACE_IDS, type SurfaceId } from '../../terrain/surface';

export interface SurfaceFriction {
  id: SurfaceId;
  muStatic: number;
  muSliding: number;
  slidingSpeedRef: number;
  stiffnessScale: number;
  rollingResistance: number;
}

/** Index = terrain surface code. */
export type SurfaceTable = SurfaceFriction[];

/** Same numbers as src/content/surfaces.toml (tests/vehicle/config.test.ts checks it). */
export const DEFAULT_SURFACES: SurfaceTable = [
  { id: 'tarmac', muStatic: 1.15, muSliding: 0.95, slidingSpeedRef: 8, stiffnessScale: 1, rollingResistance: 0 },
  { id: 'gravel', muStatic: 0.72, muSliding: 0.62, slidingSpeedRef: 5, stiffnessScale: 0.55, rollingResistance: 0.02 },
  { id: 'snow', muStatic: 0.38, muSliding: 0.3, slidingSpeedRef: 4, stiffnessScale: 0.45, rollingResistance: 0.025 },
  { id: 'ice', muStatic: 0.14, muSliding: 0.08, slidingSpeedRef: 2, stiffnessScale: 0.6, rollingResistance: 0 },
  { id: 'grass', muStatic: 0.55, muSliding: 0.42, slidingSpeedRef: 4, stiffnessScale: 0.5, rollingResistance: 0.03 },
];

/** Surface code for a name, or −1. */
export function surfaceIndex(name: string): number {
  return SURFACE_IDS.indexOf(name as SurfaceId);
}
