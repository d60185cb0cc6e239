/**
 * Surface friction table (src/content/surfaces.toml): loader + the built-in defaults the simulation uses
 * when no table is given. A test keeps DEFAULT_SURFACES equal to the shipped TOML file.
 */
import { z } from 'zod';
import { SURFACE_IDS, type SurfaceId } from '../../terrain/surface';
import { ContentError, parseTomlFile, validate } from '../validate/errors';
import { inRange } from '../validate/ranges';

export interface SurfaceFriction {
  id: SurfaceId;
  muStatic: number;
  muSliding: number;
  slidingSpeedRef: number;
  stiffnessScale: number;
  rollingResistance: number;
}

/**
 * Physical ranges: μ from wet ice (≈ 0.05) to racing slicks on tarmac (≈ 2, 3 allows a test surface); the sliding
 * reference speed in m/s of patch sliding (shipped 3–8); slip-stiffness scale from deep snow to grippy tarmac.
 */
const Entry = z.strictObject({
  mu_static: inRange(0.02, 3),
  mu_sliding: inRange(0.02, 3),
  sliding_speed_ref_m_s: inRange(0.1, 100, 'm/s'),
  stiffness_scale: inRange(0.05, 2),
  rolling_resistance: inRange(0, 0.5),
});

const SurfacesSchema = z.strictObject(Object.fromEntries(SURFACE_IDS.map((id) => [id, Entry])) as Record<SurfaceId, typeof Entry>);

/** Index = terrain surface code. */
export type SurfaceTable = SurfaceFriction[];

export function loadSurfaces(text: string, file: string): SurfaceTable {
  const raw = parseTomlFile(text, file);
  const d = validate(SurfacesSchema, raw, file) as Record<SurfaceId, z.output<typeof Entry>>;
  const issues: string[] = [];
  const out = SURFACE_IDS.map((id) => {
    const e = d[id];
    if (e.mu_sliding > e.mu_static) issues.push(`${id}.mu_sliding: expected ≤ mu_static (${e.mu_static}), found number ${e.mu_sliding}`);
    return {
      id,
      muStatic: e.mu_static,
      muSliding: e.mu_sliding,
      slidingSpeedRef: e.sliding_speed_ref_m_s,
      stiffnessScale: e.stiffness_scale,
      rollingResistance: e.rolling_resistance,
    };
  });
  if (issues.length) throw new ContentError(file, issues);
  return out;
}

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
