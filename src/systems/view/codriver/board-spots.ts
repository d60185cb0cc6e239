/**
 * Where the corner arrow boards (chevrons) stand: one at each slow corner (severity ≤ 2, hairpin, square), on
 * the outside of the bend just past its entry (12 m, or a third of a shorter corner) — where a driver braking on
 * the entry line looks, before the bend hides it — facing the car coming in (the road's heading at the entry). Pure: the view (boards.ts) draws them.
 */
import type { PaceNote } from '../../../../terrain/pacenotes/types';
import type { StageRoad } from '../../../../terrain/stage';

/** Gap between the road edge and the board, m (off the driven line, inside the verge). */
export const BOARD_EDGE_GAP_M = 2.5;
/** How far into the corner the board stands: this far, m, or this share of a shorter corner. */
const INTO_CORNER_M = 12;
const INTO_CORNER_SHARE = 0.35;

export interface BoardSpot {
  x: number;
  z: number;
  /** Heading the board faces away from (the road's heading at the corner's entry), rad. */
  heading: number;
  direction: 'left' | 'right';
}

/** A corner that gets a board: slow enough that missing it ends the run. */
export function wantsBoard(n: PaceNote): boolean {
  if (n.kind !== 'corner' || n.direction === undefined || n.severity === undefined) return false;
  return n.severity === 'hairpin' || n.severity === 'square' || n.severity <= 2;
}

export function boardSpots(notes: readonly PaceNote[], road: StageRoad): BoardSpot[] {
  const spots: BoardSpot[] = [];
  for (const n of notes) {
    if (!wantsBoard(n)) continue;
    const entry = road.poseAt(n.atM);
    const at = road.poseAt(n.atM + Math.min(INTO_CORNER_M, INTO_CORNER_SHARE * Math.max(0, n.endM - n.atM)));
    // left of travel = (cos θ, −sin θ); the outside of a right-hander is on the left
    const side = n.direction === 'right' ? 1 : -1;
    const off = at.width / 2 + BOARD_EDGE_GAP_M;
    spots.push({ x: at.x + side * off * Math.cos(at.heading), z: at.z - side * off * Math.sin(at.heading), heading: entry.heading, direction: n.direction! });
  }
  return spots;
}
