/**
 * Cautions where the road drops away: the terrain beside a corner's OUTSIDE edge (where a car that runs wide goes)
 * is probed a few metres beyond the edge; a drop below the road past the table's thresholds raises the corner's
 * caution (table.ts, DROP_* and *_DROP_M).
 */
import { dcos, dsin } from '../dmath';
import type { CornerSpan } from './corners';
import type { RoadProfile } from './profile';
import { CAUTION_DROP_M, DOUBLE_CAUTION_DROP_M, DROP_PROBE_OFFSETS_M } from './table';
import type { Caution } from './types';

/** Terrain height at a world position (x, z), m: a stage's B-spline surface, or any synthetic ground. */
export type SideHeightSampler = (x: number, z: number) => number;

/** Deepest drop of the ground below the road beside the span's outside edge, m (0 where the ground rises). */
export function outsideDropM(p: RoadProfile, points: ArrayLike<number>, c: CornerSpan, heightAt: SideHeightSampler): number {
  let deepest = 0;
  for (let k = c.first; k <= c.last; k++) {
    const h = p.heading[k]!;
    // heading h points along (sin h, cos h); the left normal is (cos h, −sin h); the outside is away from the turn
    const nx = -c.sign * dcos(h);
    const nz = c.sign * dsin(h);
    for (const off of DROP_PROBE_OFFSETS_M) {
      const lateral = p.width[k]! / 2 + off;
      const ground = heightAt(points[3 * k]! + nx * lateral, points[3 * k + 2]! + nz * lateral);
      deepest = Math.max(deepest, p.y[k]! - ground);
    }
  }
  return deepest;
}

/** The caution a drop of `dropM` beside the outside edge calls for, or undefined. */
export function dropCaution(dropM: number): Caution | undefined {
  if (dropM > DOUBLE_CAUTION_DROP_M) return 'double caution';
  return dropM > CAUTION_DROP_M ? 'caution' : undefined;
}
