/**
 * One driver-and-vehicle step of an automatic vehicle: sense (where am I on my path), steer (eqs 6–8),
 * choose the most restrictive speed reference (eq 9 over the references of references.ts, junction.ts and the
 * zebra crossings), turn it into pedals (eqs 10–13), and step the bicycle model (eqs 1–5).
 */
import { dcos, dsin } from '../../../../terrain/dmath';
import { crossingFreeForS, crossingOccupied, evalPath, lightColour, pathPoint } from '../../../../terrain/town/index';
import { arcSteerAngle, brakePedal, fullThrottleAcceleration, G, lookAheadDistance, pdSteer, throttlePedal } from '../ai/driver-model';
import { resistanceDecel, stepBicycle, TRAFFIC_MU } from './bicycle';
import { curveSpeed, leaderRef, MAX_DECEL_MS2, stopRef, targetRef } from './references';
import { junctionStop, release, HALT_SPEED_MS } from './junction';
import { findLeader, type Leader } from './leader';
import { considerLaneChange, ACROSS_M } from './lane-change';
import { choosePathAfter, routePoint } from './route';
import { APPROACH_FREE, INCIDENT_NONE, INCIDENT_WRECKED } from './state';
import type { TrafficSim } from './sim';
import type { TrafficVehicleType } from './vehicle-types';

/**
 * Look-ahead (eq 6): t_s from 0.5 s (passive) to 0.35 s (aggressive), d_0 = 2.5 m: short enough that a car
 * taking a 6–9 m junction turn at 4–5 m/s cuts it by a few decimetres, not into the next lane.
 */
const LOOKAHEAD_T_PASSIVE_S = 0.35;
const LOOKAHEAD_T_SPREAD_S = 0.1;
const LOOKAHEAD_D0_M = 1.5;
/** Steering PD derivative gain c_dδ (eq 8): 0.04 s passive … 0.1 s aggressive. */
const STEER_CD_S = 0.04;
const STEER_CD_SPREAD_S = 0.06;
/** Throttle derivative gain c_d (eq 10), s. */
const THROTTLE_CD_S = 0.05;
/** Mean acceleration a_m of the driver type (eqs 11–12): 1.2 (passive) … 2.5 m/s² (aggressive). */
const A_MEAN_MS2 = 1.2;
const A_MEAN_SPREAD_MS2 = 1.3;
/** Lateral acceleration taken in turns: 1.8 … 3.0 m/s² (≤ 0.31 g, the bicycle model's linear range). */
const A_LAT_MS2 = 1.8;
const A_LAT_SPREAD_MS2 = 1.2;
/**
 * Where a driver stops before a stop line or crossing edge, m: far enough back that a car turning into its
 * street past it (the exit lane starts level with the stop line) clears its front corner.
 */
const STOP_MARGIN_M = 3;
/** A pedestrian about to step on within this time counts as on the crossing, s. */
const PEDESTRIAN_LEAD_S = 3;
/** Passive drivers slow to this share of their objective speed at a zebra crossing. */
const PASSIVE_CROSSING_SPEED = 0.7;
/** Speed kept while waiting (the brakes hold below it), m/s. */
const HOLD_SPEED_MS = 0.05;

const pt = pathPoint();
const leader: Leader = { gap: Infinity, u: 0, slot: -1 };

/** Moves vehicle k onto the next path of its route (counts red-light crossings at a stop line). */
function advancePath(sim: TrafficSim, k: number): void {
  const st = sim.state, town = sim.town;
  const from = town.paths[st.path[k]!]!;
  const to = st.next1[k]!;
  st.s[k] = st.s[k]! - from.length;
  if (from.kind === 'lane') {
    const c = town.paths[to]!;
    const light = town.control.lights[c.node];
    const red = light && town.control.arms[c.node]![c.arm] === 'light' && lightColour(light, c.arm % 2 === 0 ? 0 : 1, st.timeS) === 2;
    // an instructed or wrecked vehicle breaks the rules by design: counted apart
    if (red && st.incident[k] === INCIDENT_NONE) sim.stats.redLightCrossings++;
    else if (red) sim.stats.instructedRedCrossings++;
    if (st.held[k] !== to) {
      // drove on without a grant (could not stop): it occupies the connector all the same
      release(sim, k);
      st.held[k] = to;
      sim.granted[to]!++;
    }
    sim.haltedAtLight[k] = 0;
  }
  st.approach[k] = APPROACH_FREE;
  st.path[k] = to;
  st.next1[k] = st.next2[k]!;
  st.next2[k] = choosePathAfter(sim, st.next1[k]!);
}

/** Projects vehicle k onto its path (two Newton steps on s), moves it along its route, releases junctions. */
function sense(sim: TrafficSim, k: number): void {
  const st = sim.state, paths = sim.town.paths;
  for (let it = 0; it < 2; it++) {
    const p = paths[st.path[k]!]!;
    evalPath(p.prims, st.s[k]!, pt);
    const dx = st.x[k]! - pt.x, dz = st.z[k]! - pt.z;
    st.s[k] = st.s[k]! + dx * dsin(pt.psi) + dz * dcos(pt.psi);
    st.lateral[k] = dx * dcos(pt.psi) - dz * dsin(pt.psi);
    while (st.s[k]! > paths[st.path[k]!]!.length && st.next1[k]! >= 0) advancePath(sim, k);
  }
  const p = paths[st.path[k]!]!;
  // the junction is given back once the tail is out of it
  if (p.kind === 'lane' && st.held[k]! >= 0 && st.held[k] !== st.next1[k] && st.s[k]! > sim.typeOf(k).lengthM / 2 + 0.5) release(sim, k);
  if (st.ghost[k]! >= 0 && Math.abs(st.lateral[k]!) < ACROSS_M) st.ghost[k] = -1;
}

/** Eqs 6–8: look-ahead point on the route, arc steering angle from the rear axle, PD. */
function steer(sim: TrafficSim, k: number, dt: number): void {
  const st = sim.state, t = sim.typeOf(k);
  const aggr = st.aggr[k]!;
  const dS = lookAheadDistance(st.u[k]!, LOOKAHEAD_T_PASSIVE_S - LOOKAHEAD_T_SPREAD_S * aggr, LOOKAHEAD_D0_M);
  routePoint(sim, k, dS, pt);
  const sp = dsin(st.psi[k]!), cp = dcos(st.psi[k]!);
  const rx = st.x[k]!, rz = st.z[k]!;
  const dx = pt.x - rx, dz = pt.z - rz;
  const deltaP = arcSteerAngle(dx * sp + dz * cp, dx * cp - dz * sp, t.aM + t.bM);
  const d = pdSteer(deltaP, (deltaP - st.prevDeltaP[k]!) / dt, STEER_CD_S + STEER_CD_SPREAD_S * aggr);
  st.prevDeltaP[k] = deltaP;
  st.delta[k] = Math.max(-t.maxSteerRad, Math.min(t.maxSteerRad, d));
}

/** Curve speed of the turns on the route within reach. */
function curveRef(sim: TrafficSim, k: number): number {
  const st = sim.state, paths = sim.town.paths;
  const aLat = A_LAT_MS2 + A_LAT_SPREAD_MS2 * st.aggr[k]!;
  let a = Infinity;
  let offset = -st.s[k]!;
  for (const p of [st.path[k]!, st.next1[k]!, st.next2[k]!]) {
    if (p < 0) break;
    const path = paths[p]!;
    if (path.minRadiusM < Infinity) a = Math.min(a, targetRef(st.u[k]!, curveSpeed(path.minRadiusM, aLat), offset));
    offset += path.length;
  }
  return a;
}

/** Zebra crossings on the current lane: stop for a pedestrian (when still possible), passive drivers slow. */
function crossingRef(sim: TrafficSim, k: number): number {
  const st = sim.state;
  const list = sim.crossingsOn[st.path[k]!]!;
  let a = Infinity;
  const front = st.s[k]! + sim.typeOf(k).lengthM / 2, u = st.u[k]!;
  for (let i = 0; i < list.length; i += 2) {
    const c = sim.town.control.crossings[list[i + 1]!]!;
    const edge = list[i]! - c.widthM / 2;
    if (front > edge) continue;
    const d = edge - front - STOP_MARGIN_M;
    if (crossingFreeForS(c, st.timeS) < PEDESTRIAN_LEAD_S && d > (u * u) / (2 * MAX_DECEL_MS2) - STOP_MARGIN_M) a = Math.min(a, stopRef(u, d));
    else if (st.aggr[k]! < 1 / 3) a = Math.min(a, targetRef(u, PASSIVE_CROSSING_SPEED * st.uObj[k]!, d));
  }
  return a;
}

/** Counts a driver's front crossing onto a zebra crossing with a pedestrian on it. */
function checkCrossings(sim: TrafficSim, k: number, frontBefore: number): void {
  const st = sim.state;
  const list = sim.crossingsOn[st.path[k]!]!;
  const front = st.s[k]! + sim.typeOf(k).lengthM / 2;
  for (let i = 0; i < list.length; i += 2) {
    const c = sim.town.control.crossings[list[i + 1]!]!;
    const edge = list[i]! - c.widthM / 2;
    if (frontBefore <= edge && front > edge && crossingOccupied(c, st.timeS) && st.incident[k] === INCIDENT_NONE) sim.stats.crossingViolations++;
  }
}

/** The most restrictive reference acceleration (eq 9 over every reference). */
function referenceAcceleration(sim: TrafficSim, k: number): number {
  const st = sim.state, u = st.u[k]!;
  let a = targetRef(u, st.uObj[k]!, 0);
  a = Math.min(a, curveRef(sim, k));
  leader.gap = Infinity;
  // an instructed driver keeps its path and speed but no longer sees vehicles, lights, signs or crossings
  if (st.incident[k] !== INCIDENT_NONE) return a;
  findLeader(sim, k, leader);
  if (leader.gap < Infinity) a = Math.min(a, leaderRef(u, leader.u, leader.gap, st.headwayS[k]!));
  const p = sim.town.paths[st.path[k]!]!;
  if (p.kind === 'lane') {
    a = Math.min(a, crossingRef(sim, k));
    if (st.next1[k]! >= 0) {
      const d = junctionStop(sim, k);
      if (d < Infinity) {
        a = Math.min(a, stopRef(u, d - STOP_MARGIN_M));
        countLightStop(sim, k, p.node, st.next1[k]!);
      }
    }
  }
  return a;
}

/** Counts a vehicle coming to a halt before a red or yellow light (once per approach). */
function countLightStop(sim: TrafficSim, k: number, node: number, c: number): void {
  const st = sim.state;
  const light = sim.town.control.lights[node];
  if (!light || sim.haltedAtLight[k] || st.u[k]! > HALT_SPEED_MS) return;
  const arm = sim.town.paths[c]!.arm;
  if (lightColour(light, arm % 2 === 0 ? 0 : 1, st.timeS) === 0) return;
  sim.haltedAtLight[k] = 1;
  sim.stats.redLightStops++;
}

/**
 * Eqs 10–13: throttle or brake pedal for the reference acceleration a_r (and its rate), with the resistance
 * the driver knows its vehicle has added to what it asks of the engine or taken from what it asks of the
 * brakes. A standing vehicle with a_r ≤ 0 holds the brakes.
 */
export function pedalsFor(t: TrafficVehicleType, aggr: number, u: number, aR: number, dAr: number): [number, number] {
  if (u < HOLD_SPEED_MS && aR <= 0) return [0, 1];
  const res = resistanceDecel(t, u);
  if (aR + res >= 0) {
    const aM = A_MEAN_MS2 + A_MEAN_SPREAD_MS2 * aggr;
    const aCap = fullThrottleAcceleration(u, TRAFFIC_MU, t.drivenWeightFraction, t.powerW, t.massKg);
    return [throttlePedal(aR + res, dAr, aM, aCap, THROTTLE_CD_S), 0];
  }
  return [0, brakePedal(aR + res, TRAFFIC_MU * G)];
}

function pedals(sim: TrafficSim, k: number, aR: number, dt: number): [number, number] {
  const st = sim.state;
  const dAr = (aR - st.prevAr[k]!) / dt;
  st.prevAr[k] = aR;
  return pedalsFor(sim.typeOf(k), st.aggr[k]!, st.u[k]!, aR, dAr);
}

/** One step of automatic vehicle k. */
export function driveVehicle(sim: TrafficSim, k: number, dt: number): void {
  const st = sim.state;
  const pathBefore = st.path[k]!, frontBefore = st.s[k]! + sim.typeOf(k).lengthM / 2;
  sense(sim, k);
  if (st.path[k] === pathBefore) checkCrossings(sim, k, frontBefore);
  steer(sim, k, dt);
  const aR = referenceAcceleration(sim, k);
  if (leader.gap < Infinity) considerLaneChange(sim, k, leader);
  const [throttle, brake] = st.incident[k] === INCIDENT_WRECKED ? [0, 1] : pedals(sim, k, aR, dt);
  st.throttle[k] = throttle;
  st.brake[k] = brake;
  // a promoted vehicle is moved by the full car model (its runner reads the pose back before this step)
  if (st.eid[k]! < 0) stepBicycle(st, k, sim.typeOf(k), throttle, brake, dt);
  else st.odometerM[k] = st.odometerM[k]! + st.u[k]! * dt;
  st.waitS[k] = st.u[k]! < HALT_SPEED_MS ? st.waitS[k]! + dt : 0;
  st.laneChangeS[k] = st.laneChangeS[k]! + dt;
}
