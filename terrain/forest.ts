/**
 * Road-edge dressing of a generated stage (terrain/README.md, "Generator: scenery"): a forest whose density
 * follows the road edge like a real forest stage (a tree wall a few metres off the edge, thinning with distance,
 * clearings along the road and gaps at the start, finish and checkpoints), rocks on the verge and in the woods,
 * and white marker posts at a fixed spacing on both sides. Everything here is simulation scenery: stage.toml
 * items that become static colliders (src/systems/sim/collision/scene.ts `fromScenery`). Deterministic: seeded
 * PRNG and noise only.
 */
import { createNoise2D } from 'simplex-noise';
import { createRng } from './prng';
import type { Road, RoadProjection } from './road';
import { dcos, dexp, dsin } from './dmath';

/** Tree density across the road (trees per m²) as a function of the distance from the road edge. */
export interface ForestProfile {
  /** Nothing grows closer to the road edge than this (the verge a car can use), m. */
  clearM: number;
  /** Width of the dense tree wall that starts at clearM, m. */
  wallM: number;
  /** Trees per m² in the wall. */
  wallDensity: number;
  /** Trees per m² far from the road (the density decays toward it past the wall). */
  farDensity: number;
  /** e-folding distance of the decay from the wall's density to the far density, m. */
  decayM: number;
  /** No trees further than this from the road edge, m. */
  bandM: number;
}

/** Rocks: chance per candidate point on the verge (within `edgeBandM` past the clear strip) and in the woods. */
export interface RockRule {
  edgeBandM: number;
  edgeProb: number;
  woodsProb: number;
}

/** Length of a clearing's noise wavelength along the road, m: clearings and fields tens to a hundred metres long. */
const CLEARING_WAVELENGTH_M = 140;
/** Noise value above which one side of the road is a clearing (≈ 25 % of the road length per side). */
export const CLEARING_THRESHOLD = 0.3;
/** Share of the forest density left in a clearing (a few lone trees in a field). */
const CLEARING_KEEP = 0.08;
/** Wavelength of the patchiness noise over the map, m. */
const PATCH_WAVELENGTH_M = 150;
/** Patchiness: the density is multiplied by PATCH_MIN … 1. */
const PATCH_MIN = 0.6;
/** No trees or rocks within this distance along the road of the start, the finish or a checkpoint, m. */
export const STATION_GAP_M = 20;
/** Share of the grid cell the candidate point is jittered over (keeps neighbours apart). */
const JITTER = 0.9;

/**
 * Trees per m² at `edgeM` metres from the road edge: 0 on the verge, the wall's density across the wall, then an
 * exponential decay toward the far density, 0 past the band.
 */
export function forestDensity(edgeM: number, p: ForestProfile): number {
  if (edgeM < p.clearM || edgeM > p.bandM) return 0;
  const past = edgeM - p.clearM - p.wallM;
  if (past <= 0) return p.wallDensity;
  return p.farDensity + (p.wallDensity - p.farDensity) * dexp(-past / p.decayM);
}

/** Candidate grid spacing, m: one candidate per cell at the wall's density (acceptance ≤ 1 everywhere). */
export function forestGridM(p: ForestProfile): number {
  return 1 / Math.sqrt(p.wallDensity);
}

export type SceneryItems = [number, number, number, number][];

export interface ForestInput {
  seed: number;
  road: Road;
  /** Half the road width, m (distances from the edge are |lateral| − halfWidthM). */
  halfWidthM: number;
  /** The square map: origin (x, z) and side, m. */
  ox: number;
  oz: number;
  side: number;
  /** Distances along the road of the start, the finish and the checkpoints, m (gaps around them). */
  stationsM: readonly number[];
  profile: ForestProfile;
  rocks: RockRule;
}

/** Rounds to 0.1 m (stage.toml precision). */
function r1(v: number): number {
  return Math.round(v * 10) / 10;
}

/** Grid nodes within `radius` of any road point (a cheap pre-filter before the exact projection). */
function nearRoadMask(road: Road, ox: number, oz: number, S: number, nx: number, radius: number): Uint8Array {
  const mask = new Uint8Array(nx * nx);
  const P = road.points;
  const rc = Math.ceil(radius / S);
  for (let k = 0; k < road.count; k++) {
    const ci = Math.floor((P[3 * k]! - ox) / S), cj = Math.floor((P[3 * k + 2]! - oz) / S);
    for (let j = Math.max(0, cj - rc); j <= Math.min(nx - 1, cj + rc); j++)
      for (let i = Math.max(0, ci - rc); i <= Math.min(nx - 1, ci + rc); i++) mask[j * nx + i] = 1;
  }
  return mask;
}

/**
 * Trees and rocks on a jittered grid (forestGridM): each candidate is kept with probability density × cell area,
 * times the clearing factor of its side of the road (noise along the road) and a patchiness noise over the map.
 */
export function scatterForest(f: ForestInput): { trees: SceneryItems; rocks: SceneryItems } {
  const { road, profile: pf, rocks: rr } = f;
  const trees: SceneryItems = [];
  const rocks: SceneryItems = [];
  const rng = createRng((f.seed ^ 0x7ee5) >>> 0);
  const patch = createNoise2D(createRng((f.seed ^ 0xde75) >>> 0));
  const clearing = createClearingNoise(f.seed);
  const S = forestGridM(pf);
  const nx = Math.floor(f.side / S);
  const mask = nearRoadMask(road, f.ox, f.oz, S, nx, f.halfWidthM + pf.bandM + 2 * S);
  const proj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
  for (let j = 0; j < nx; j++)
    for (let i = 0; i < nx; i++) {
      // five draws per cell whether or not it is used: a cell's draws never depend on the others'
      const x = f.ox + (i + 0.5 + (rng() - 0.5) * JITTER) * S;
      const z = f.oz + (j + 0.5 + (rng() - 0.5) * JITTER) * S;
      const rot = Math.round(rng() * 360);
      const sc = Math.round((0.75 + 0.5 * rng()) * 100) / 100;
      const pick = rng();
      if (!mask[j * nx + i]) continue;
      road.project(x, z, proj);
      const edge = Math.abs(proj.lateralM) - f.halfWidthM;
      if (edge < pf.clearM || edge > pf.bandM || nearStation(proj.distanceM, f.stationsM)) continue;
      const item: [number, number, number, number] = [r1(x), r1(z), rot, sc];
      const rockP = edge <= pf.clearM + rr.edgeBandM ? rr.edgeProb : rr.woodsProb;
      if (pick < rockP) {
        rocks.push(item);
        continue;
      }
      const side = proj.lateralM > 0 ? 1 : -1;
      const open = clearing(proj.distanceM, side) > CLEARING_THRESHOLD ? CLEARING_KEEP : 1;
      const patchy = PATCH_MIN + (1 - PATCH_MIN) * (0.5 + 0.5 * patch(x / PATCH_WAVELENGTH_M, z / PATCH_WAVELENGTH_M));
      const keep = forestDensity(edge, pf) * S * S * open * patchy;
      if ((pick - rockP) / (1 - rockP) < keep) trees.push(item);
    }
  return { trees, rocks };
}

/**
 * The clearing noise of a stage along its road: a side (1 left, −1 right) at a distance along the road (m) is a
 * clearing where the value exceeds CLEARING_THRESHOLD (the forest thins there and the ditch breaks off).
 */
export function createClearingNoise(seed: number): (distanceM: number, side: number) => number {
  const noise = createNoise2D(createRng((seed ^ 0xc1ea) >>> 0));
  return (distanceM, side) => noise(distanceM / CLEARING_WAVELENGTH_M, side * 5.3);
}

/** Whether a distance along the road is within STATION_GAP_M of a station. */
export function nearStation(d: number, stationsM: readonly number[]): boolean {
  for (const s of stationsM) if (Math.abs(d - s) < STATION_GAP_M) return true;
  return false;
}

/** Marker posts: spacing along the road and distance from the road edge, m. */
export interface PostRule {
  spacingM: number;
  offsetM: number;
  /** Posts closer than this to another item (a fence's hay bales) are left out, m. */
  keepClearM: number;
}

/**
 * White marker posts on both sides of the road every `spacingM` from the start to the finish, `offsetM` off the
 * edge, facing along the road; none near a station (gantries, banners), none closer than keepClearM to an item
 * in `avoid`, and none where another part of the road is nearer than the post's own (inside a hairpin).
 */
export function edgePosts(road: Road, startM: number, finishM: number, rule: PostRule, stationsM: readonly number[], avoid: SceneryItems): SceneryItems {
  const posts: SceneryItems = [];
  const proj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
  for (let d = startM + rule.spacingM; d < finishM; d += rule.spacingM) {
    if (nearStation(d, stationsM)) continue;
    const p = road.poseAt(d);
    const lx = dcos(p.heading), lz = -dsin(p.heading);
    const off = p.width / 2 + rule.offsetM;
    for (const side of [1, -1]) {
      const x = r1(p.x + side * off * lx), z = r1(p.z + side * off * lz);
      road.project(x, z, proj);
      if (Math.abs(Math.abs(proj.lateralM) - off) > 0.5 || Math.abs(proj.distanceM - d) > 2) continue;
      if (avoid.some((a) => (a[0] - x) ** 2 + (a[1] - z) ** 2 < rule.keepClearM ** 2)) continue;
      posts.push([x, z, Math.round((p.heading * 180) / Math.PI), 1]);
    }
  }
  return posts;
}
