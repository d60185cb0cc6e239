/**
 * A vehicle's route over the lane network (Félez §2: "at each connection point the cars are distributed
 * randomly toward each of the exit paths"): the path it is on and the next two. Arriving at a lane's end the
 * vehicle has already drawn one of the lane's connectors; a connector leads to its one exit lane.
 */
import { evalPath, type PathPoint } from '../../../../terrain/town/index';
import type { TrafficSim } from './sim';

/** Draws the path after `p` (uniform over a lane's connectors; a connector's exit lane). −1 if none. */
export function choosePathAfter(sim: TrafficSim, p: number): number {
  if (p < 0) return -1;
  const next = sim.town.paths[p]!.next;
  if (next.length === 0) return -1;
  if (next.length === 1) return next[0]!;
  return next[Math.min(next.length - 1, Math.floor(sim.state.rng.next() * next.length))]!;
}

/** Evaluates the route of vehicle k at arc length `ahead` past its current position (spilling into next paths). */
export function routePoint(sim: TrafficSim, k: number, ahead: number, out: PathPoint): PathPoint {
  const st = sim.state, paths = sim.town.paths;
  let s = st.s[k]! + ahead;
  let p = st.path[k]!;
  const route = [st.next1[k]!, st.next2[k]!];
  for (let i = 0; i < 2; i++) {
    const len = paths[p]!.length;
    if (s <= len || route[i]! < 0) break;
    s -= len;
    p = route[i]!;
  }
  return evalPath(paths[p]!.prims, s, out);
}
