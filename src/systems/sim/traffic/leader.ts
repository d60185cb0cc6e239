/**
 * The vehicle ahead (Félez §6.3.1: a driver is influenced by the vehicles preceding it in its lane): the
 * nearest vehicle ahead along the driver's route (current path, then the next two), from the per-path lists.
 * Vehicles just past the stop line on a sibling connector of the same lane are still physically ahead, so the
 * connectors leaving the driver's lane are searched too.
 */
import { EXTERNAL } from './buckets';
import type { TrafficSim } from './sim';

/** Largest distance searched ahead, m. */
const LEADER_RANGE_M = 120;

export interface Leader {
  /** Bumper-to-bumper gap, m (Infinity = none in range). */
  gap: number;
  u: number;
  slot: number;
}

function lengthOf(sim: TrafficSim, j: number): number {
  return j === EXTERNAL ? sim.player!.lengthM : sim.typeOf(j).lengthM;
}

function speedOf(sim: TrafficSim, j: number): number {
  return j === EXTERNAL ? sim.player!.u : sim.state.u[j]!;
}

/** Considers the first item on path p beyond arc length `from` at route offset `offset`. */
function consider(sim: TrafficSim, k: number, p: number, from: number, offset: number, out: Leader): void {
  const b = sim.buckets;
  const i = b.firstAhead(p, from, k);
  if (i < 0) return;
  const j = b.items[i]!;
  const gap = offset + b.itemS[i]! - (sim.typeOf(k).lengthM + lengthOf(sim, j)) / 2;
  if (gap < out.gap) {
    out.gap = gap;
    out.u = speedOf(sim, j);
    out.slot = j;
  }
}

export function findLeader(sim: TrafficSim, k: number, out: Leader): Leader {
  const st = sim.state, paths = sim.town.paths;
  out.gap = Infinity;
  out.u = 0;
  out.slot = -1;
  const p = st.path[k]!;
  consider(sim, k, p, st.s[k]!, -st.s[k]!, out);
  if (out.gap < Infinity) return out;
  let offset = paths[p]!.length - st.s[k]!;
  const n1 = st.next1[k]!;
  if (n1 < 0 || offset > LEADER_RANGE_M) return out;
  if (paths[p]!.kind === 'lane') for (const c of paths[p]!.next) consider(sim, k, c, -1, offset, out);
  else consider(sim, k, n1, -1, offset, out);
  offset += paths[n1]!.length;
  const n2 = st.next2[k]!;
  if (n2 < 0 || offset > LEADER_RANGE_M || out.gap < Infinity) return out;
  if (paths[n1]!.kind === 'lane') for (const c of paths[n1]!.next) consider(sim, k, c, -1, offset, out);
  else consider(sim, k, n2, -1, offset, out);
  return out;
}

/** The traffic vehicle ahead of the player's car along its route (its path, then the next one). */
export function findPlayerLeader(sim: TrafficSim, next2: number, out: Leader): Leader {
  out.gap = Infinity;
  out.u = 0;
  out.slot = -1;
  const pl = sim.player;
  if (!pl || pl.path < 0) return out;
  const b = sim.buckets;
  let offset = -pl.s;
  let from = pl.s;
  for (const p of [pl.path, pl.next1, next2]) {
    if (p < 0) break;
    const i = b.firstAhead(p, from, EXTERNAL);
    if (i >= 0) {
      const j = b.items[i]!;
      out.gap = offset + b.itemS[i]! - (pl.lengthM + sim.typeOf(j).lengthM) / 2;
      out.u = sim.state.u[j]!;
      out.slot = j;
      return out;
    }
    offset += sim.town.paths[p]!.length;
    from = -1;
  }
  return out;
}
