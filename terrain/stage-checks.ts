/**
 * Cross-field checks of stage.toml (after every key is in its range, stage-limits.ts): array lengths that must
 * agree, the road's control polygon (spacing and length), the scenery totals; and, once the heightmap is decoded,
 * that every point lies on it.
 */
import type { z } from 'zod';
import { TerrainError } from './errors';
import { STAGE_LIMITS as S } from './stage-limits';

type XZ = readonly [number, number];

/** What the checks read of stage.toml (the schema's output, structurally). */
interface StageShape {
  road: { points: readonly XZ[]; widths_m?: readonly number[] | undefined };
  joker?: { points: readonly XZ[] } | undefined;
  scenery: readonly { radius_m: number; items: readonly (readonly [number, number, number, number])[] }[];
}

/** Smallest spacing of consecutive control points, m (Road.fromControlPoints' Catmull-Rom needs distinct points). */
export const MIN_CONTROL_SPACING_M = 0.5;
/** Padding of each scenery item's footprint: one broad-phase cell, m. */
const FOOTPRINT_PAD_M = 4;

function fail(ctx: z.RefinementCtx, path: (string | number)[], message: string, input: unknown): void {
  ctx.addIssue({ code: 'custom', path, message, input });
}

/** Consecutive points ≥ MIN_CONTROL_SPACING_M apart; returns the polygon length. */
function checkPolygon(points: readonly XZ[], path: string[], ctx: z.RefinementCtx): number {
  let len = 0;
  for (let k = 1; k < points.length; k++) {
    const d = Math.hypot(points[k]![0] - points[k - 1]![0], points[k]![1] - points[k - 1]![1]);
    if (d < MIN_CONTROL_SPACING_M) {
      fail(ctx, [...path, k], `expected control points at least ${MIN_CONTROL_SPACING_M} m from the previous one`, points[k]);
      return len;
    }
    len += d;
  }
  return len;
}

function checkScenery(s: StageShape, ctx: z.RefinementCtx): void {
  let items = 0;
  let footprint = 0;
  for (const g of s.scenery) {
    items += g.items.length;
    for (const it of g.items) footprint += (2 * g.radius_m * it[3] + FOOTPRINT_PAD_M) ** 2;
  }
  if (items > S.sceneryItems) fail(ctx, ['scenery'], `expected at most ${S.sceneryItems} scenery items in all`, items);
  if (footprint > S.sceneryFootprintM2) {
    fail(ctx, ['scenery'], `expected scenery footprints Σ(2·radius_m·scale + ${FOOTPRINT_PAD_M} m)² ≤ ${S.sceneryFootprintM2} m²`, footprint);
  }
}

/** zod superRefine of StageTomlSchema. */
export function checkStageToml(s: StageShape, ctx: z.RefinementCtx): void {
  const rd = s.road;
  if (rd.widths_m && rd.widths_m.length !== rd.points.length) {
    fail(ctx, ['road', 'widths_m'], `expected ${rd.points.length} widths (one per road point)`, rd.widths_m);
  }
  const len = checkPolygon(rd.points, ['road', 'points'], ctx);
  if (len > S.roadLengthM) fail(ctx, ['road', 'points'], `expected a road whose control points span at most ${S.roadLengthM} m`, len);
  if (s.joker) checkPolygon(s.joker.points, ['joker', 'points'], ctx);
  checkScenery(s, ctx);
}

/** Extent of the decoded heightmap, m. */
export interface HeightmapExtent {
  origin: { x: number; z: number };
  maxX: number;
  maxZ: number;
}

/** Every point inside the heightmap (the road's heights and the scenery's bases come from it). */
export function checkInsideHeightmap(points: Iterable<readonly number[]>, hf: HeightmapExtent, field: string, file: string): void {
  let k = 0;
  for (const p of points) {
    const [x, z] = p as [number, number];
    if (x < hf.origin.x || x > hf.maxX || z < hf.origin.z || z > hf.maxZ) {
      const found = JSON.stringify(p.length > 2 ? p.slice(0, 2) : p);
      throw new TerrainError(file, `${field}.${k}`, `a point inside the heightmap [${hf.origin.x}, ${hf.maxX}] × [${hf.origin.z}, ${hf.maxZ}]`, found);
    }
    k++;
  }
}
