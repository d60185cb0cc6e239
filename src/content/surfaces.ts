/**
 * Surface friction table files (src/content/surfaces.toml): the validating loader. The table type and the
 * built-in defaults are in surface-table.ts (no zod: the simulation and the car-test worker import only that).
 */
import { z } from 'zod';
import { SURFACE_IDS, type SurfaceId } from '../../terrain/surface';
import type { SurfaceTable } from './surface-table';
import { ContentError, parseTomlFile, validate } from '../validate/errors';
import { inRange } from '../validate/ranges';

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

export { DEFAULT_SURFACES, surfaceIndex, type SurfaceFriction, type SurfaceTable } from './surface-table';
