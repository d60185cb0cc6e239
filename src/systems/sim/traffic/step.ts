/**
 * One traffic step (TRAFFIC_DT_S): move the control zone with the player, remove the vehicles that left it,
 * rebuild the per-path lists, drive every vehicle (slot order: junction grants go first come, first served in
 * a fixed order, so the run is deterministic), create vehicles at the zone's entries, count contacts.
 */
import { driveVehicle } from './drive';
import { checkContacts } from './collisions';
import { removeOutside, spawnAtEntries, fillZone } from './spawn';
import { TRAFFIC_DT_S, type TrafficSim } from './sim';

/** Steps between two spawn passes (0.5 s). */
const SPAWN_EVERY_STEPS = 25;

/** Fills the zone (call once, after the player's pose is set if there is one). */
export function startTraffic(sim: TrafficSim): void {
  if (sim.player) sim.zone.follow(sim.player.x, sim.player.z, sim.player.psi);
  fillZone(sim);
}

export function stepTraffic(sim: TrafficSim): void {
  const st = sim.state;
  if (sim.player) sim.zone.follow(sim.player.x, sim.player.z, sim.player.psi);
  removeOutside(sim);
  sim.buckets.rebuild(st, sim.player);
  for (let k = 0; k < st.capacity; k++) if (st.alive[k]) driveVehicle(sim, k, TRAFFIC_DT_S);
  if (st.steps % SPAWN_EVERY_STEPS === 0) spawnAtEntries(sim);
  checkContacts(sim);
  st.steps++;
  st.timeS = st.steps * TRAFFIC_DT_S;
}

/** Distance driven by every vehicle so far (removed ones included), m. */
export function distanceDrivenM(sim: TrafficSim): number {
  let d = sim.stats.distanceM;
  for (let k = 0; k < sim.state.capacity; k++) if (sim.state.alive[k]) d += sim.state.odometerM[k]!;
  return d;
}
