/**
 * Where each car of a room starts. On a stage ("stage together"): a two-column grid along the stage's road, slot 0
 * on the start line, each next row one GRID_ROW_M further back (and, where the road has no room behind the start,
 * on ahead of it). On a closed circuit (a rallycross race room): the offline rallycross race's standing-start grid
 * (src/run/race.ts `gridSlots`), behind the start line. Every client computes the same poses from its slot, so the
 * room only has to hand out slots.
 */
import type { Stage } from '../../terrain/stage';
import { dcos, dsin } from '../../terrain/dmath';
import { gridSlots } from '../run/race';
import { isClosedStage, stagePath } from '../systems/sim/ai/stage-path';
import type { AiPath } from '../systems/sim/ai/path';
import { BUILTIN_CARS, loadBuiltinCar } from '../content/cars/index';

/** Distance between two grid rows along the road, m (a car is ~4.5 m long). */
export const GRID_ROW_M = 8;
/** Distance of each column from the road's centreline, m (cars ~1.8 m wide side by side with a gap). */
export const GRID_COLUMN_M = 1.6;
/** Clearance kept between a car's centre and the road edge, m. */
const EDGE_CLEARANCE_M = 1.2;

export interface GridPose {
  x: number;
  z: number;
  heading: number;
}

/** The start pose of the car in `slot` (0, 1, …) on `stage` (a circuit's rallycross grid, else the road grid). */
export function gridPose(stage: Stage, slot: number): GridPose {
  return isClosedStage(stage) ? circuitGridPose(stage, slot) : roadGridPose(stage, slot);
}

/** A circuit's grid path and the start line's distance along it, per stage (planning the path takes a while). */
const circuitPaths = new WeakMap<Stage, { path: AiPath; startS: number }>();

/**
 * A circuit's path as every party of a race room plans it (for the first built-in car, whatever each drives) and
 * the start line's arc length on it: the grid, the room's lap timing and the recovery pose all use this one.
 */
export function netCircuitPath(stage: Stage): { path: AiPath; startS: number } {
  let c = circuitPaths.get(stage);
  if (!c) {
    const path = stagePath(stage, loadBuiltinCar(BUILTIN_CARS[0]!.id));
    c = { path, startS: path.locate(stage.start.x, stage.start.z).s };
    circuitPaths.set(stage, c);
  }
  return c;
}

/**
 * The rallycross grid slot on a circuit. The AI path the grid is laid on depends on the car it is planned for (its
 * width sets the racing line's edge margin), so every client plans it for the first built-in car and gets the
 * same poses whatever it drives.
 */
function circuitGridPose(stage: Stage, slot: number): GridPose {
  const c = netCircuitPath(stage);
  const g = gridSlots(c.path, c.startS, slot + 1)[slot]!;
  return { x: g.x, z: g.z, heading: g.heading };
}

function roadGridPose(stage: Stage, slot: number): GridPose {
  const start = stage.config.road.start_distance_m;
  const row = Math.floor(slot / 2);
  const rowsBehind = Math.floor(start / GRID_ROW_M);
  const d = row <= rowsBehind ? start - row * GRID_ROW_M : start + (row - rowsBehind) * GRID_ROW_M;
  const p = stage.road.poseAt(d);
  const side = slot % 2 === 0 ? 1 : -1;
  const lateral = side * Math.max(0, Math.min(GRID_COLUMN_M, p.width / 2 - EDGE_CLEARANCE_M));
  // forward is (sin h, cos h) in (x, z); (cos h, −sin h) is across the road
  return { x: p.x + lateral * dcos(p.heading), z: p.z - lateral * dsin(p.heading), heading: p.heading };
}
