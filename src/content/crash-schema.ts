/**
 * The `[crash]` table of a car file (collision issue): the crash tests the Tongue §6 crush parameters are
 * identified from (src/systems/sim/collision/crush.ts `identifyCrush`). One rigid-barrier test per car end:
 * the impact speed and the residual (static) crush it left, units in the key names:
 *
 * ```toml
 * [crash]
 * source = "class figures: NHTSA NCAP 56 km/h full-width rigid barrier, compact hatch"
 * front_barrier_speed_km_h = 56
 * front_residual_crush_mm = 550
 * rear_barrier_speed_km_h = 48
 * rear_residual_crush_mm = 400
 * side_barrier_speed_km_h = 32
 * side_residual_crush_mm = 300
 * ```
 *
 * Every key is optional; a missing end uses `DEFAULT_TESTS` (crush.ts). Only the front test is a standard
 * full-width rigid-barrier test (NHTSA NCAP 35 mph = 56 km/h; Euro NCAP's full-width test is 50 km/h); rear and
 * side are given as equivalent barrier speeds (EBS) of the regulatory moving-barrier tests (docs/collisions.md
 * "Crash data"). Referenced from the car schema (src/content/car-schema.ts, owned by the vehicle issue) with a
 * one-line field; converted to SI here.
 */
import { z } from 'zod';
import { rangeOf, rangeText } from './car-ranges';

/** Physical ranges live with the other car keys (src/content/car-ranges.ts). */
function ranged(key: string) {
  const k = rangeOf(key);
  const expected = `expected ${rangeText(k)} (physical range)`;
  return z.number().min(k.min, { error: expected }).max(k.max, { error: expected }).meta({ description: `${k.meaning} (${k.unit}). Range ${rangeText(k)}; typical ${k.typical}.` });
}
const speed = ranged('crash.barrier_speed_km_h');
const crushMm = ranged('crash.residual_crush_mm');

export const CrashSchema = z
  .strictObject({
    /** Where the figures come from (free text, shown by `npm run car -- crush-params`). */
    source: z.string().max(500).default('').meta({ description: 'Where the crash figures come from (free text)' }),
    front_barrier_speed_km_h: speed.optional(),
    front_residual_crush_mm: crushMm.optional(),
    rear_barrier_speed_km_h: speed.optional(),
    rear_residual_crush_mm: crushMm.optional(),
    side_barrier_speed_km_h: speed.optional(),
    side_residual_crush_mm: crushMm.optional(),
  })
  .superRefine((c, ctx) => {
    for (const e of ['front', 'rear', 'side'] as const) {
      const v = `${e}_barrier_speed_km_h`, x = `${e}_residual_crush_mm`;
      const hasV = c[v as `${typeof e}_barrier_speed_km_h`] !== undefined, hasX = c[x as `${typeof e}_residual_crush_mm`] !== undefined;
      if (hasV !== hasX)
        ctx.addIssue({ code: 'custom', path: [hasV ? x : v], message: `expected ${v} and ${x} together (a test is a speed and the crush it left), found only ${hasV ? v : x}` });
    }
  })
  .optional();

export type CrashFile = z.output<typeof CrashSchema>;

/** One crash test of a car end: barrier impact speed and the residual crush it left (SI). */
export interface CrushTest {
  speed_m_s: number;
  residual_crush_m: number;
}

/** Crash data in SI: per end the test (speed m/s, residual crush m), and where the figures come from. */
export interface CrashConfig {
  source: string;
  crushTests: Partial<Record<'front' | 'rear' | 'side', CrushTest>>;
}

const KMH = 1 / 3.6;

/** File `[crash]` table → SI (km/h → m/s, mm → m). No table → no tests (the defaults apply). */
export function crashConfig(c: CrashFile): CrashConfig {
  const crushTests: CrashConfig['crushTests'] = {};
  if (c)
    for (const e of ['front', 'rear', 'side'] as const) {
      const v = c[`${e}_barrier_speed_km_h`], x = c[`${e}_residual_crush_mm`];
      if (v !== undefined && x !== undefined) crushTests[e] = { speed_m_s: v * KMH, residual_crush_m: x / 1000 };
    }
  return { source: c?.source ?? '', crushTests };
}
