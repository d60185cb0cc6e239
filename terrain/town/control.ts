/**
 * Signs and signals of a town (Félez §2 "Signals and signs", §6.3.3): traffic lights, stop and give-way signs
 * and pedestrian crossings. A signalised junction has one master light (the paper's "light regulation model"):
 * entries along X share phase A, entries along Z phase B; the cycle is A green → A yellow → all red → B green →
 * B yellow → all red, shifted by a per-junction offset. Light state is a pure function of time, so it needs no
 * saved state and a replay sees the same lights.
 */
import type { Rng } from '../prng';
import { armCount, lineLanes, type Network, type TownNode } from './network';

export type ArmControl = 'none' | 'light' | 'stop' | 'giveway';

export interface TrafficLight {
  node: number;
  /** Green time of phase A (entries along X) and B (along Z), s. */
  greenAS: number;
  greenBS: number;
  yellowS: number;
  allRedS: number;
  offsetS: number;
}

/** 0 green, 1 yellow, 2 red. */
export type LightColour = 0 | 1 | 2;

export const LIGHT_YELLOW_S = 4;
export const LIGHT_ALL_RED_S = 2;

export const lightCycleS = (l: TrafficLight): number => l.greenAS + l.greenBS + 2 * (l.yellowS + l.allRedS);

/** Colour shown at time t to entries along `axis` (0: X, 1: Z) of a master light. */
export function lightColour(l: TrafficLight, axis: 0 | 1, tS: number): LightColour {
  const c = lightCycleS(l);
  let t = (tS + l.offsetS) % c;
  if (t < 0) t += c;
  // phase B's window starts after A's green, yellow and all-red
  const bStart = l.greenAS + l.yellowS + l.allRedS;
  const local = axis === 0 ? t : t - bStart;
  const green = axis === 0 ? l.greenAS : l.greenBS;
  if (local < 0 || local >= green + l.yellowS) return 2;
  return local < green ? 0 : 1;
}

/** A zebra crossing across street piece `edge` at distance `atM` from its node `a`, with its pedestrians. */
export interface PedestrianCrossing {
  edge: number;
  atM: number;
  widthM: number;
  /** Pedestrians step onto it every periodS seconds (from offsetS) and take walkS seconds to cross. */
  periodS: number;
  walkS: number;
  offsetS: number;
}

export const CROSSING_WIDTH_M = 3;

/** True when a pedestrian is on the crossing at time t. */
export function crossingOccupied(c: PedestrianCrossing, tS: number): boolean {
  let t = (tS + c.offsetS) % c.periodS;
  if (t < 0) t += c.periodS;
  return t < c.walkS;
}

/** Seconds until the next pedestrian steps on (0 while one is on it). */
export function crossingFreeForS(c: PedestrianCrossing, tS: number): number {
  let t = (tS + c.offsetS) % c.periodS;
  if (t < 0) t += c.periodS;
  return t < c.walkS ? 0 : c.periodS - t;
}

export interface TownControl {
  /** Control of each node's arms [node][arm]. */
  arms: ArmControl[][];
  /** Light per node (null where none). */
  lights: (TrafficLight | null)[];
  crossings: PedestrianCrossing[];
}

/** Share of 4-arm junctions with lights, and of long street pieces with a mid-block zebra crossing. */
const LIGHT_FRACTION = 0.55;
const CROSSING_FRACTION = 0.35;
const CROSSING_MIN_EDGE_M = 70;

function signFor(rng: Rng): ArmControl {
  return rng() < 0.5 ? 'stop' : 'giveway';
}

function controlNode(net: Network, n: TownNode, rng: Rng): { arms: ArmControl[]; light: TrafficLight | null } {
  const arms: ArmControl[] = ['none', 'none', 'none', 'none'];
  const k = armCount(n);
  if (k === 4 && rng() < LIGHT_FRACTION) {
    for (let d = 0; d < 4; d++) arms[d] = 'light';
    const greenAS = 16 + Math.round(12 * rng()), greenBS = 16 + Math.round(12 * rng());
    const light = { node: n.id, greenAS, greenBS, yellowS: LIGHT_YELLOW_S, allRedS: LIGHT_ALL_RED_S, offsetS: 0 };
    light.offsetS = Math.floor(rng() * lightCycleS(light));
    return { arms, light };
  }
  if (k === 4) {
    // the street line with fewer lanes yields (a coin decides a tie)
    const lx = lineLanes(net, n, 0), lz = lineLanes(net, n, 1);
    const minor: 0 | 1 = lx < lz ? 0 : lz < lx ? 1 : rng() < 0.5 ? 0 : 1;
    const s = signFor(rng);
    for (const d of minor === 0 ? [0, 2] : [1, 3]) arms[d] = s;
  } else if (k === 3) {
    // the stem of the T (the arm whose opposite is missing) yields
    for (let d = 0; d < 4; d++) if (n.arms[d]! >= 0 && n.arms[(d + 2) % 4]! < 0) arms[d] = signFor(rng);
  }
  return { arms, light: null };
}

export function generateControl(net: Network, rng: Rng): TownControl {
  const arms: ArmControl[][] = [];
  const lights: (TrafficLight | null)[] = [];
  for (const n of net.nodes) {
    const c = controlNode(net, n, rng);
    arms.push(c.arms);
    lights.push(c.light);
  }
  const crossings: PedestrianCrossing[] = [];
  for (const e of net.edges) {
    const a = net.nodes[e.a]!, b = net.nodes[e.b]!;
    const len = Math.abs(b.x - a.x) + Math.abs(b.z - a.z);
    if (len < CROSSING_MIN_EDGE_M || rng() >= CROSSING_FRACTION) continue;
    const periodS = 40 + Math.round(40 * rng());
    crossings.push({ edge: e.id, atM: len / 2, widthM: CROSSING_WIDTH_M, periodS, walkS: 6 + Math.round(4 * rng()), offsetS: Math.floor(rng() * periodS) });
  }
  return { arms, lights, crossings };
}
