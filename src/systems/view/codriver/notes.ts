/**
 * The notes the co-driver reads on a stage: the stage's pace notes (its pacenotes.toml, or generated when it has
 * none), or none on a closed circuit — rallycross
 * is raced lap after lap without a co-driver, and a lap's notes would run past the start line's seam.
 */
import type { Stage } from '../../../../terrain/stage';
import type { PaceNote } from '../../../../terrain/pacenotes/types';
import { isClosedStage } from '../../../systems/sim/ai/stage-path';
import { DEFAULT_SURFACES } from '../../../content/surfaces';
import { STANDARD_GRAVITY_M_S2 } from '../../../content/world-constants';
import type { SlowZone } from './motion';

export function codriverNotes(stage: Stage): PaceNote[] {
  return isClosedStage(stage) ? [] : stage.paceNotes;
}

/**
 * Each corner as a stretch the car slows down for, at its grip-limit speed √(μ g R) on the surface at its apex
 * (μ static of src/content/surfaces.ts: snow corners are taken at half the speed of tarmac ones).
 */
export function slowZones(stage: Stage, notes: readonly PaceNote[]): SlowZone[] {
  const zones: SlowZone[] = [];
  for (const n of notes) {
    if (n.kind !== 'corner' || n.minRadiusM === undefined) continue;
    const apexM = (n.atM + n.endM) / 2;
    const apex = stage.road.poseAt(apexM);
    const mu = DEFAULT_SURFACES[stage.surfaceMap.surfaceAt(apex.x, apex.z)]?.muStatic ?? 1;
    zones.push({ fromM: n.atM, apexM, speedMS: Math.sqrt(mu * STANDARD_GRAVITY_M_S2 * n.minRadiusM) });
  }
  return zones;
}
