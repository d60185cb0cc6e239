/**
 * Creating and removing vehicles (Félez §3): at the start the control zone is filled at random free places on
 * its lanes; then vehicles are created where the zone meets lanes running into it, as long as fewer than the
 * target are alive, and removed once they are out of the zone. Each new driver draws its vehicle type, its
 * aggressiveness (uniform in [0, 1]), and from those its objective speed (street limit × 0.85…1.1 × the
 * type's factor) and gap-law time headway (1.8 s passive … 1.1 s aggressive).
 */
import { evalPath, pathPoint } from '../../../../terrain/town/index';
import { release } from './junction';
import { choosePathAfter } from './route';
import { desiredGap } from './references';
import { APPROACH_FREE } from './state';
import type { TrafficSim } from './sim';

/** Town street speed limit, m/s (50 km/h). */
export const STREET_SPEED_MS = 50 / 3.6;
const SPEED_FACTOR_MIN = 0.85;
const SPEED_FACTOR_SPREAD = 0.25;
const HEADWAY_PASSIVE_S = 1.8;
const HEADWAY_SPREAD_S = 0.7;
/** Entry speed at the zone's edge (capped by the objective speed), m/s. */
const ENTRY_SPEED_MS = 8;
/** A spawn keeps this far from a lane's start and end, m. */
const SPAWN_LANE_START_M = 8;
const SPAWN_LANE_END_M = 40;
/** Removal margin outside the zone, m; spawn point inside its edge, m. */
const REMOVE_MARGIN_M = 5;
const ENTRY_INSIDE_M = 3;
const FILL_TRIES_PER_CAR = 100;
/** Clearance to any vehicle around a new one, m; near a lane's start, the connectors into it must be empty, m. */
const SPAWN_CLEAR_M = 3;
const SPAWN_FEEDER_CLEAR_M = 20;

const pt = pathPoint();

/** True when lane `path` has room for a vehicle of length `len` at arc length s, entering at speed u. */
function placeFree(sim: TrafficSim, path: number, s: number, len: number, u: number): boolean {
  const st = sim.state;
  const clear = (sj: number, lj: number): boolean => Math.abs(sj - s) - (len + lj) / 2 >= desiredGap(u, HEADWAY_PASSIVE_S) + 2;
  for (let k = 0; k < st.capacity; k++) {
    if (!st.alive[k] || (st.path[k] !== path && st.ghost[k] !== path)) continue;
    if (!clear(st.s[k]!, sim.typeOf(k).lengthM)) return false;
  }
  const pl = sim.player;
  if (pl && pl.path === path && !clear(pl.s, pl.lengthM)) return false;
  // nobody about to arrive from a connector into the lane, nobody nearby off the lane (in a junction)
  if (s < SPAWN_FEEDER_CLEAR_M) for (const c of sim.feeders[path]!) if (sim.occupancy(c) > 0) return false;
  evalPath(sim.town.paths[path]!.prims, s, pt);
  const x = pt.x, z = pt.z;
  for (let k = 0; k < st.capacity; k++) {
    if (st.alive[k] && Math.hypot(st.x[k]! - x, st.z[k]! - z) < (len + sim.typeOf(k).lengthM) / 2 + SPAWN_CLEAR_M) return false;
  }
  return !(pl && Math.hypot(pl.x - x, pl.z - z) < (len + pl.lengthM) / 2 + SPAWN_CLEAR_M);
}

/** Creates a vehicle on lane `path` at arc length s with speed u; returns its slot or −1. */
function createVehicle(sim: TrafficSim, path: number, s: number, u0: number, typeDraw: number, aggr: number): number {
  const st = sim.state;
  const k = st.freeSlot();
  if (k < 0) return -1;
  const type = Math.min(sim.types.length - 1, Math.floor(typeDraw * sim.types.length));
  const t = sim.types[type]!;
  evalPath(sim.town.paths[path]!.prims, s, pt);
  st.alive[k] = 1;
  st.type[k] = type;
  st.serial[k] = st.nextSerial++;
  st.aggr[k] = aggr;
  st.uObj[k] = STREET_SPEED_MS * (SPEED_FACTOR_MIN + SPEED_FACTOR_SPREAD * aggr) * t.speedFactor;
  st.headwayS[k] = HEADWAY_PASSIVE_S - HEADWAY_SPREAD_S * aggr;
  [st.x[k], st.z[k], st.psi[k]] = [pt.x, pt.z, pt.psi];
  [st.u[k], st.v[k], st.r[k], st.delta[k], st.prevDeltaP[k], st.prevAr[k]] = [Math.min(u0, st.uObj[k]!), 0, 0, 0, 0, 0];
  [st.path[k], st.s[k], st.lateral[k], st.held[k], st.ghost[k]] = [path, s, 0, -1, -1];
  st.next1[k] = choosePathAfter(sim, path);
  st.next2[k] = choosePathAfter(sim, st.next1[k]!);
  [st.waitS[k], st.laneChangeS[k], st.odometerM[k], st.approach[k]] = [0, 0, 0, APPROACH_FREE];
  [st.eid[k], st.incident[k], st.throttle[k], st.brake[k]] = [-1, 0, 0, 0];
  sim.haltedAtLight[k] = 0;
  st.count++;
  sim.stats.spawned++;
  return k;
}

/** Fills the zone with `target` vehicles at rest at random free places on its lanes. */
export function fillZone(sim: TrafficSim): void {
  const lanes = sim.zone.lanesInZone();
  const st = sim.state;
  for (let tries = 0; st.count < sim.target && tries < FILL_TRIES_PER_CAR * sim.target; tries++) {
    const path = lanes[Math.floor(st.rng.next() * lanes.length)]!;
    const p = sim.town.paths[path]!;
    const s = SPAWN_LANE_START_M + st.rng.next() * (p.length - SPAWN_LANE_START_M - SPAWN_LANE_END_M);
    const typeDraw = st.rng.next(), aggr = st.rng.next();
    evalPath(p.prims, s, pt);
    if (s <= SPAWN_LANE_START_M || !sim.zone.contains(pt.x, pt.z)) continue;
    if (placeFree(sim, path, s, sim.types[Math.min(sim.types.length - 1, Math.floor(typeDraw * sim.types.length))]!.lengthM, 0)) createVehicle(sim, path, s, 0, typeDraw, aggr);
  }
}

/** A zebra crossing within SPAWN_LANE_END_M ahead of arc length s on lane `path` (no room to stop for it). */
function crossingAhead(sim: TrafficSim, path: number, s: number): boolean {
  const list = sim.crossingsOn[path]!;
  for (let i = 0; i < list.length; i += 2) if (list[i]! > s && list[i]! - s < SPAWN_LANE_END_M) return true;
  return false;
}

/** Creates vehicles at the zone's entry points while fewer than the target are alive. */
export function spawnAtEntries(sim: TrafficSim): void {
  const st = sim.state;
  if (st.count >= sim.target) return;
  const entries = sim.zone.entries(ENTRY_INSIDE_M);
  if (entries.length === 0) return;
  const first = Math.floor(st.rng.next() * entries.length);
  for (let i = 0; i < entries.length && st.count < sim.target; i++) {
    const e = entries[(first + i) % entries.length]!;
    const p = sim.town.paths[e.path]!;
    if (p.length - e.s < SPAWN_LANE_END_M || crossingAhead(sim, e.path, e.s)) continue;
    const typeDraw = st.rng.next(), aggr = st.rng.next();
    const len = sim.types[Math.min(sim.types.length - 1, Math.floor(typeDraw * sim.types.length))]!.lengthM;
    if (placeFree(sim, e.path, e.s, len, ENTRY_SPEED_MS)) createVehicle(sim, e.path, e.s, ENTRY_SPEED_MS, typeDraw, aggr);
  }
}

/** Removes the vehicles that left the zone (a promoted one is demoted first, by its runner's level of detail). */
export function removeOutside(sim: TrafficSim): void {
  const st = sim.state;
  for (let k = 0; k < st.capacity; k++) {
    if (!st.alive[k] || st.eid[k]! >= 0 || sim.zone.contains(st.x[k]!, st.z[k]!, REMOVE_MARGIN_M)) continue;
    release(sim, k);
    sim.stats.distanceM += st.odometerM[k]!;
    st.alive[k] = 0;
    st.count--;
    sim.stats.removed++;
  }
}
