/**
 * What the New stage screen shows of a stage before it is driven: the road from start to finish sampled every
 * PREVIEW_STEP_M (position, height, surface under the centreline), its length, climb and number of corners (the
 * co-driver's corner calls). Computed where the stage is loaded (the worker, a package import); pure.
 */
import type { Stage } from '../../../terrain/stage';
import type { SurfaceId } from '../../../terrain/surface';

/** Spacing of the preview's road samples, m (a 15 km stage gives 1,500). */
export const PREVIEW_STEP_M = 10;

export interface StagePreview {
  lengthM: number;
  corners: number;
  /** Total ascent start → finish, m. */
  climbM: number;
  /** Road samples from start to finish: x, z (m), height y (m) and the surface at the centreline. */
  x: number[];
  z: number[];
  y: number[];
  surface: SurfaceId[];
}

export function stagePreview(stage: Stage): StagePreview {
  const p: StagePreview = { lengthM: stage.lengthM, corners: stage.paceNotes.filter((n) => n.kind === 'corner').length, climbM: 0, x: [], z: [], y: [], surface: [] };
  const d0 = stage.start.distanceM;
  const samples = Math.max(1, Math.round(stage.lengthM / PREVIEW_STEP_M));
  for (let i = 0; i <= samples; i++) {
    const pose = stage.road.poseAt(d0 + (stage.lengthM * i) / samples);
    p.x.push(pose.x);
    p.z.push(pose.z);
    p.y.push(pose.y);
    p.surface.push(stage.surfaceMap.surfaceIdAt(pose.x, pose.z));
    if (i > 0) p.climbM += Math.max(0, pose.y - p.y[i - 1]!);
  }
  return p;
}
