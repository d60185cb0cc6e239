/**
 * Lane changes (Félez §6.3.1): a driver held below its objective speed by a slower vehicle ahead looks at the
 * adjacent lanes of its street (left first, to overtake) and changes only when the minimum safety distance is
 * free both ways: the gap to the vehicle that would be ahead ≥ g*(u_i) and the gap to the one that would be
 * behind ≥ g*(u_j) of that driver (the gap law of references.ts). Never near a junction access (§6.3.2):
 * the change must be done LANE_CHANGE_CLEAR_M before the stop line. The vehicle stays listed on the lane it
 * left (`ghost`) until it is across, so the drivers behind it there keep seeing it.
 */
import { EXTERNAL } from './buckets';
import { desiredGap } from './references';
import { choosePathAfter } from './route';
import type { Leader } from './leader';
import type { TrafficSim } from './sim';

/** No lane change within this distance of the stop line, nor in the first metres of a lane, m. */
const LANE_CHANGE_CLEAR_M = 70;
const LANE_START_M = 15;
/** Time between two lane changes of one driver, s; speed deficit that makes one worth it, m/s. */
const LANE_CHANGE_COOLDOWN_S = 6;
const SPEED_DEFICIT_MS = 2;
/** Only a leader this close makes the driver look for another lane, m. */
const LEADER_CLOSE_M = 40;
/** Lateral offset below which the change is complete (the ghost entry is dropped), m. */
export const ACROSS_M = 0.6;

function lengthOf(sim: TrafficSim, j: number): number {
  return j === EXTERNAL ? sim.player!.lengthM : sim.typeOf(j).lengthM;
}

/** True when lane q has the minimum safety distance free around vehicle k's arc length. */
function laneFree(sim: TrafficSim, k: number, q: number, leaderU: number): boolean {
  const st = sim.state, b = sim.buckets;
  const s = st.s[k]!, lk = sim.typeOf(k).lengthM;
  const ia = b.firstAhead(q, s, k);
  if (ia >= 0) {
    const j = b.items[ia]!;
    const uJ = j === EXTERNAL ? sim.player!.u : st.u[j]!;
    if (b.itemS[ia]! - s - (lk + lengthOf(sim, j)) / 2 < desiredGap(st.u[k]!, st.headwayS[k]!) || uJ <= leaderU + 1) return false;
  }
  const ib = b.lastBehind(q, s, k);
  if (ib >= 0) {
    const j = b.items[ib]!;
    const uJ = j === EXTERNAL ? sim.player!.u : st.u[j]!;
    const tJ = j === EXTERNAL ? 1.5 : st.headwayS[j]!;
    if (s - b.itemS[ib]! - (lk + lengthOf(sim, j)) / 2 < desiredGap(uJ, tJ)) return false;
  }
  return true;
}

/** Moves vehicle k to an adjacent lane when it is worth it and safe. */
export function considerLaneChange(sim: TrafficSim, k: number, leader: Leader): void {
  const st = sim.state;
  const p = sim.town.paths[st.path[k]!]!;
  if (p.kind !== 'lane' || st.ghost[k]! >= 0 || st.laneChangeS[k]! < LANE_CHANGE_COOLDOWN_S) return;
  const s = st.s[k]!;
  if (s < LANE_START_M || p.length - s < LANE_CHANGE_CLEAR_M || st.held[k]! >= 0) return;
  if (leader.gap > LEADER_CLOSE_M || leader.u > st.uObj[k]! - SPEED_DEFICIT_MS) return;
  for (const q of [p.leftLane, p.rightLane]) {
    if (q < 0 || !laneFree(sim, k, q, leader.u)) continue;
    st.ghost[k] = p.id;
    st.path[k] = q;
    st.next1[k] = choosePathAfter(sim, q);
    st.next2[k] = choosePathAfter(sim, st.next1[k]!);
    st.laneChangeS[k] = 0;
    sim.stats.laneChanges++;
    return;
  }
}
