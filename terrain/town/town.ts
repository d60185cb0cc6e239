/**
 * The town generator (issue 23 item 1): deterministic from a seed. Street network (network.ts) → lane centre
 * paths and junction connectors (lanes.ts) → signs, lights and zebra crossings (control.ts) → pavements,
 * buildings and poles (scenery.ts) → a gentle B-spline ground under it all (the terrain pipeline's
 * Heightfield/BSplineSurface, so the stage renderer can draw it). Same seed and options → same town, bit for bit.
 */
import { createRng } from '../prng';
import { dcos, dsin } from '../dmath';
import { Heightfield } from '../heightfield';
import { BSplineSurface } from '../bspline';
import { crc32 } from '../crc32';
import { TerrainError } from '../errors';
import { generateNetwork, type Network, type NetworkOptions } from './network';
import { buildLaneGraph, LANE_WIDTH_M, STOP_LINE_SETBACK_M, type TownPath } from './lanes';
import { generateControl, type TownControl } from './control';
import { generateScenery, type TownScenery } from './scenery';

export interface TownOptions extends NetworkOptions {
  /** Amplitude of the ground's undulation, m. */
  groundReliefM: number;
}

export const DEFAULT_TOWN_OPTIONS: TownOptions = {
  blocksX: 6,
  blocksZ: 6,
  minPitchM: 90,
  maxPitchM: 140,
  removeFraction: 0.12,
  twoLaneFraction: 0.4,
  groundReliefM: 2,
};

/** Allowed ranges of the options (a town file or command line is untrusted). */
const OPTION_RANGES: Record<keyof TownOptions, [number, number]> = {
  blocksX: [2, 16],
  blocksZ: [2, 16],
  minPitchM: [60, 300],
  maxPitchM: [60, 300],
  removeFraction: [0, 0.3],
  twoLaneFraction: [0, 1],
  groundReliefM: [0, 10],
};

/** A zebra crossing as seen from one lane: its centre at arc length `s` of lane path `path`. */
export interface LaneCrossing {
  path: number;
  s: number;
  crossing: number;
}

export interface Town {
  seed: number;
  options: TownOptions;
  network: Network;
  paths: TownPath[];
  nodeConnectors: number[][];
  control: TownControl;
  laneCrossings: LaneCrossing[];
  scenery: TownScenery;
  ground: BSplineSurface;
  /** Extent of the street network (node centres), m. */
  bounds: { minX: number; maxX: number; minZ: number; maxZ: number };
}

function checkOptions(o: TownOptions): void {
  for (const [k, [lo, hi]] of Object.entries(OPTION_RANGES) as [keyof TownOptions, [number, number]][]) {
    const v = o[k];
    if (!(Number.isFinite(v) && v >= lo && v <= hi)) throw new TerrainError('town options', k, `a number in [${lo}, ${hi}]`, String(v));
  }
  if (o.maxPitchM < o.minPitchM) throw new TerrainError('town options', 'maxPitchM', `≥ minPitchM (${o.minPitchM})`, String(o.maxPitchM));
}

/** Samples per side of the ground (2⁷+1, what the geomipmap needs). */
const GROUND_SIDE = 129;
const GROUND_MARGIN_M = 150;

/** A smooth undulating ground: two crossed sine waves of wavelengths 700–1200 m (gentle: ≤ 2 % grade). */
function generateGround(bounds: Town['bounds'], reliefM: number, rng: () => number): BSplineSurface {
  const span = Math.max(bounds.maxX - bounds.minX, bounds.maxZ - bounds.minZ) + 2 * GROUND_MARGIN_M;
  const cell = Math.ceil(span / (GROUND_SIDE - 1));
  const ox = (bounds.minX + bounds.maxX) / 2 - ((GROUND_SIDE - 1) * cell) / 2;
  const oz = (bounds.minZ + bounds.maxZ) / 2 - ((GROUND_SIDE - 1) * cell) / 2;
  const k1 = (2 * Math.PI) / (700 + 500 * rng()), k2 = (2 * Math.PI) / (700 + 500 * rng());
  const p1 = 2 * Math.PI * rng(), p2 = 2 * Math.PI * rng();
  const h = new Float32Array(GROUND_SIDE * GROUND_SIDE);
  for (let j = 0; j < GROUND_SIDE; j++)
    for (let i = 0; i < GROUND_SIDE; i++) {
      const x = ox + i * cell, z = oz + j * cell;
      h[j * GROUND_SIDE + i] = reliefM * (0.6 * dsin(k1 * x + p1) * dcos(k2 * z + p2) + 0.4 * dsin(k2 * (x + z) * 0.7 + p2));
    }
  return new BSplineSurface(new Heightfield(GROUND_SIDE, GROUND_SIDE, cell, { x: ox, z: oz }, h));
}

/** Each zebra crossing in the arc-length frame of the lanes that cross it. */
function crossingsOnLanes(net: Network, paths: TownPath[], control: TownControl): LaneCrossing[] {
  const out: LaneCrossing[] = [];
  control.crossings.forEach((c, k) => {
    const e = net.edges[c.edge]!;
    const len = Math.abs(net.nodes[e.b]!.x - net.nodes[e.a]!.x) + Math.abs(net.nodes[e.b]!.z - net.nodes[e.a]!.z);
    for (const p of paths) {
      if (p.kind !== 'lane' || p.edge !== c.edge) continue;
      const fromA = p.fromNode === e.a;
      const start = net.nodes[p.fromNode]!;
      // the lane starts at the stop-line distance of its start node (crossing street's half width + setback)
      const cross = e.axis === 0 ? net.colLanes[start.i]! : net.rowLanes[start.j]!;
      const d0 = cross * LANE_WIDTH_M + STOP_LINE_SETBACK_M;
      out.push({ path: p.id, s: (fromA ? c.atM : len - c.atM) - d0, crossing: k });
    }
  });
  return out;
}

export function generateTown(seed: number, options: Partial<TownOptions> = {}): Town {
  const opts: TownOptions = { ...DEFAULT_TOWN_OPTIONS, ...options };
  checkOptions(opts);
  const rng = createRng(seed);
  const network = generateNetwork(opts, rng);
  const { paths, nodeConnectors } = buildLaneGraph(network);
  const control = generateControl(network, rng);
  const scenery = generateScenery(network, control.arms, rng);
  const xs = network.nodes.map((n) => n.x), zs = network.nodes.map((n) => n.z);
  const bounds = { minX: Math.min(...xs), maxX: Math.max(...xs), minZ: Math.min(...zs), maxZ: Math.max(...zs) };
  const ground = generateGround(bounds, opts.groundReliefM, rng);
  return { seed, options: opts, network, paths, nodeConnectors, control, laneCrossings: crossingsOnLanes(network, paths, control), scenery, ground, bounds };
}

/** CRC-32 (as 8 hex digits) over every number that defines the town: paths, conflicts, control, scenery, ground. */
export function townHash(t: Town): string {
  const nums: number[] = [];
  for (const p of t.paths) {
    nums.push(p.id, p.next.length, ...p.next, ...p.conflicts);
    for (const q of p.prims) nums.push(q.s0, q.len, q.x0, q.z0, q.psi0, q.kappa);
  }
  t.control.arms.forEach((a) => a.forEach((c) => nums.push(['none', 'light', 'stop', 'giveway'].indexOf(c))));
  for (const l of t.control.lights) if (l) nums.push(l.node, l.greenAS, l.greenBS, l.offsetS);
  for (const c of t.control.crossings) nums.push(c.edge, c.atM, c.periodS, c.walkS, c.offsetS);
  for (const b of [...t.scenery.pavements, ...t.scenery.buildings]) nums.push(b.x, b.z, b.halfX, b.halfZ, b.heightM);
  const h = t.ground.heightfield.heights;
  for (let k = 0; k < h.length; k += 97) nums.push(h[k]!);
  return crc32(new Uint8Array(new Float64Array(nums).buffer)).toString(16).padStart(8, '0');
}
