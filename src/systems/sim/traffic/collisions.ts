/**
 * Contact check between traffic vehicles (and the player's car): oriented rectangles (length × width at the
 * CG, heading ψ) tested with the separating-axis theorem after a sweep over x. Each pair's first overlap
 * counts once. With no instructor accident the rules keep this at zero (docs/traffic.md); contacts of an
 * instructed or wrecked vehicle are accidents, resolved and logged on the full car model (src/run/town-accidents.ts).
 */
import { dcos, dsin } from '../../../../terrain/dmath';
import type { TrafficSim } from './sim';
import { INCIDENT_NONE } from './state';

/** Largest half diagonal of a vehicle: pairs further apart in x cannot touch, m. */
const REACH_M = 7;

interface Box {
  x: number;
  z: number;
  /** forward and left unit vectors */
  fx: number;
  fz: number;
  hl: number;
  hw: number;
}

const boxA: Box = { x: 0, z: 0, fx: 0, fz: 1, hl: 0, hw: 0 };
const boxB: Box = { x: 0, z: 0, fx: 0, fz: 1, hl: 0, hw: 0 };

function setBox(b: Box, x: number, z: number, psi: number, len: number, wid: number): Box {
  b.x = x;
  b.z = z;
  b.fx = dsin(psi);
  b.fz = dcos(psi);
  b.hl = len / 2;
  b.hw = wid / 2;
  return b;
}

/** Projected half extent of box b on unit axis (ax, az). */
function extent(b: Box, ax: number, az: number): number {
  // left = (fz, −fx)
  return b.hl * Math.abs(b.fx * ax + b.fz * az) + b.hw * Math.abs(b.fz * ax - b.fx * az);
}

/** Separating-axis test of two oriented rectangles. */
export function boxesOverlap(a: Box, b: Box): boolean {
  const dx = b.x - a.x, dz = b.z - a.z;
  const axes = [a.fx, a.fz, a.fz, -a.fx, b.fx, b.fz, b.fz, -b.fx];
  for (let i = 0; i < 8; i += 2) {
    const ax = axes[i]!, az = axes[i + 1]!;
    if (Math.abs(dx * ax + dz * az) > extent(a, ax, az) + extent(b, ax, az)) return false;
  }
  return true;
}

const order: number[] = [];

/** Most contacts kept in the log (the count goes on). */
const CONTACT_LOG_CAP = 1000;

function logContact(sim: TrafficSim, a: number, b: number): void {
  const st = sim.state;
  // an accident (an instructed or wrecked party) is logged by the collision response, not a broken rule
  if (st.incident[a] !== INCIDENT_NONE || st.incident[b] !== INCIDENT_NONE) {
    sim.stats.accidentContacts++;
    return;
  }
  sim.stats.collisions++;
  if (sim.contacts.length >= CONTACT_LOG_CAP) return;
  const rel = Math.hypot(st.u[a]! * dsin(st.psi[a]!) - st.u[b]! * dsin(st.psi[b]!), st.u[a]! * dcos(st.psi[a]!) - st.u[b]! * dcos(st.psi[b]!));
  sim.contacts.push({ timeS: st.timeS, a: st.serial[a]!, b: st.serial[b]!, pathA: st.path[a]!, pathB: st.path[b]!, x: st.x[a]!, z: st.z[a]!, closingMS: rel });
}

/** Counts new contacts this step (traffic–traffic and traffic–player). */
export function checkContacts(sim: TrafficSim): void {
  const st = sim.state;
  order.length = 0;
  for (let k = 0; k < st.capacity; k++) if (st.alive[k]) order.push(k);
  order.sort((a, b) => st.x[a]! - st.x[b]! || a - b);
  const now = new Set<number>();
  for (let i = 0; i < order.length; i++) {
    const a = order[i]!, ta = sim.typeOf(a);
    setBox(boxA, st.x[a]!, st.z[a]!, st.psi[a]!, ta.lengthM, ta.widthM);
    for (let j = i + 1; j < order.length && st.x[order[j]!]! - st.x[a]! < REACH_M; j++) {
      const b = order[j]!, tb = sim.typeOf(b);
      if (Math.abs(st.z[b]! - st.z[a]!) > REACH_M) continue;
      if (!boxesOverlap(boxA, setBox(boxB, st.x[b]!, st.z[b]!, st.psi[b]!, tb.lengthM, tb.widthM))) continue;
      const lo = Math.min(st.serial[a]!, st.serial[b]!), hi = Math.max(st.serial[a]!, st.serial[b]!);
      const key = lo * 4294967296 + hi;
      now.add(key);
      if (!sim.touching.has(key)) logContact(sim, a, b);
    }
    const pl = sim.player;
    if (pl && Math.abs(pl.x - st.x[a]!) < REACH_M && Math.abs(pl.z - st.z[a]!) < REACH_M && boxesOverlap(boxA, setBox(boxB, pl.x, pl.z, pl.psi, pl.lengthM, pl.widthM))) {
      const key = -st.serial[a]! - 1;
      now.add(key);
      if (!sim.touching.has(key)) sim.stats.playerContacts++;
    }
  }
  sim.touching = now;
}
