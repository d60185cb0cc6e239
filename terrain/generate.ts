/**
 * Deterministic stage generator (terrain/README.md, "Generator"). Same options → same bytes.
 *  1. terrain: fBm and ridged simplex noise (simplex-noise, permutation from the seeded PRNG);
 *  2. road: a curvature-profile random walk (straights, fast sweepers, medium corners, hairpins) with linear
 *     curvature ramps (clothoid transitions), kept inside the map and away from itself (backtracking);
 *  3. elevation profile: terrain height along the road, smoothed and grade-limited (forward/backward passes);
 *  4. carving: every node near the road is blended from the natural terrain to the road cross-section
 *     (width, crown camber, superelevation in corners, shoulders, smooth falloff);
 *  5. surface map painted (road / shoulder / background, ice patches on snow), checkpoints, scenery.
 */
import { createNoise2D, type NoiseFunction2D } from 'simplex-noise';
import { Heightfield, isPow2Plus1 } from './heightfield';
import { createRng, randRange, type Rng } from './prng';
import { Road } from './road';
import { loadStage, stageTomlToString, type Stage, type StageFiles, type StageToml } from './stage';
import { surfaceCode, SurfaceMap, type SurfaceId } from './surface';
import { TerrainError } from './errors';
import { formatPaceNotes } from './pacenotes/file';
import { datan2, dcos, dsin } from './dmath';
import { createClearingNoise, edgePosts, scatterForest, type ForestProfile, type PostRule, type RockRule } from './forest';
import { DEFAULT_DITCH, DITCH_DEPTH_RANGE_M, DITCH_WIDTH_RANGE_M, ditchOuterM, ditchSideFactor, type DitchProfile } from './ditch';
import { carveDitches } from './ditch-carve';

export type StageStyle = 'gravel' | 'tarmac' | 'snow';
export const STAGE_STYLES: readonly StageStyle[] = ['gravel', 'tarmac', 'snow'];

/**
 * Version of the generator's output: raise it whenever the same options would give different bytes, so that
 * caches keyed by (version, options) miss and a stage's `[generator]` table says which generator made it.
 */
export const GENERATOR_VERSION = 3;

/** The generator's phases in order, with the share of the run time each takes (measured on a 5 km stage). */
export const GENERATOR_PHASES = [
  ['terrain', 0.3],
  ['road', 0.15],
  ['profile', 0.05],
  ['carve', 0.15],
  ['surface', 0.15],
  ['scenery', 0.1],
  ['files', 0.1],
] as const satisfies readonly (readonly [string, number])[];
export type GeneratorPhase = (typeof GENERATOR_PHASES)[number][0];

/** Progress of a generation: the phase running and the fraction (0–1) of the whole run done. */
export type GeneratorProgress = (phase: GeneratorPhase, fraction: number) => void;

/** Road sections (each `SURFACE_MIX_SECTION_M` long) laid in a second surface, chosen with probability `fraction`. */
export interface SurfaceMix {
  surface: SurfaceId;
  fraction: number;
}

export interface GenerateOptions {
  seed: number;
  lengthKm: number;
  surface: StageStyle;
  id?: string;
  name?: string;
  /** Heightmap samples per side, 2ⁿ+1 (default 1025). */
  size?: number;
  /** Heightmap cell size, m (default 2). */
  cellSize?: number;
  /** Multiplier on the terrain relief (default 1; small values give flat-ish test stages). */
  relief?: number;
  /** Surface map nodes per heightmap cell (default 2 → 1 m cells at 2 m heightmap cells). */
  surfaceRefine?: number;
  /** Checkpoint distances from the start, m (default: evenly spaced, one per ~1.5 km). */
  checkpointsM?: number[];
  /** Place scenery (default true). */
  scenery?: boolean;
  /** Part of the road in a second surface (default none). */
  surfaceMix?: SurfaceMix;
  /**
   * Drainage ditches beside the road on gravel and snow stages (terrain/ditch.ts; default DEFAULT_DITCH, false for
   * none). Tarmac stages (and tarmac sections of a surface mix) have none.
   */
  ditch?: DitchProfile | false;
  /** Write the options into stage.toml's `[generator]` table (default true; the shipped stages predate it). */
  recordParams?: boolean;
  /** Called as the phases run (the progress bar of the in-game generator). */
  onProgress?: GeneratorProgress;
}

/** Road design limits per style (checked by the tests on the generated macro surface). */
export interface RoadLimits {
  maxGrade: number;
  hairpinGrade: number;
  crown: number;
  maxBank: number;
  /** Stated limits the drivable surface must meet (tests): */
  statedMaxGrade: number;
  statedMaxCrossSlope: number;
}

interface Style {
  width: number;
  shoulder: number;
  falloff: number;
  clearance: number;
  window: number;
  limits: RoadLimits;
  roadCode: SurfaceId;
  shoulderCode: SurfaceId;
  backgroundCode: SurfaceId;
  amplitude: number;
  wavelength: number;
  ridged: number;
  /** Corner mix: probabilities of [straight, sweeper, medium, tight, hairpin]. */
  mix: [number, number, number, number, number];
  /** Tree density across the road (terrain/forest.ts). */
  forest: ForestProfile;
  rocks: RockRule;
  /** Whether the style's roads have drainage ditches (forest roads) or not (tarmac: kerbs and banks). */
  ditches: boolean;
  name: string;
}

const STYLES: Record<StageStyle, Style> = {
  gravel: {
    width: 7, shoulder: 1, falloff: 12, clearance: 40, window: 90,
    limits: { maxGrade: 0.11, hairpinGrade: 0.06, crown: 0.03, maxBank: 0.04, statedMaxGrade: 0.15, statedMaxCrossSlope: 0.1 },
    roadCode: 'gravel', shoulderCode: 'grass', backgroundCode: 'grass',
    amplitude: 70, wavelength: 700, ridged: 0.15, mix: [0.3, 0.25, 0.3, 0.15, 0],
    forest: { clearM: 3.5, wallM: 12, wallDensity: 1 / 36, farDensity: 1 / 400, decayM: 15, bandM: 70 },
    rocks: { edgeBandM: 4, edgeProb: 0.05, woodsProb: 0.01 }, ditches: true, name: 'Forest gravel',
  },
  tarmac: {
    width: 7.5, shoulder: 1, falloff: 6.5, clearance: 22, window: 80,
    limits: { maxGrade: 0.1, hairpinGrade: 0.05, crown: 0.025, maxBank: 0.04, statedMaxGrade: 0.15, statedMaxCrossSlope: 0.1 },
    roadCode: 'tarmac', shoulderCode: 'gravel', backgroundCode: 'grass',
    amplitude: 160, wavelength: 1300, ridged: 0.7, mix: [0.28, 0.12, 0.25, 0.12, 0.23],
    forest: { clearM: 3.5, wallM: 8, wallDensity: 1 / 90, farDensity: 1 / 700, decayM: 12, bandM: 50 },
    rocks: { edgeBandM: 4, edgeProb: 0.3, woodsProb: 0.12 }, ditches: false, name: 'Mountain tarmac',
  },
  snow: {
    width: 7, shoulder: 1, falloff: 10, clearance: 36, window: 90,
    limits: { maxGrade: 0.1, hairpinGrade: 0.05, crown: 0.02, maxBank: 0.04, statedMaxGrade: 0.15, statedMaxCrossSlope: 0.1 },
    roadCode: 'snow', shoulderCode: 'snow', backgroundCode: 'snow',
    amplitude: 90, wavelength: 900, ridged: 0.3, mix: [0.3, 0.35, 0.25, 0.1, 0],
    forest: { clearM: 3.5, wallM: 10, wallDensity: 1 / 45, farDensity: 1 / 450, decayM: 15, bandM: 60 },
    rocks: { edgeBandM: 4, edgeProb: 0.04, woodsProb: 0.01 }, ditches: true, name: 'Snow',
  },
};

export function roadLimits(style: StageStyle): RoadLimits {
  return STYLES[style].limits;
}

export interface GeneratedStage {
  files: StageFiles;
  /** File names as referenced from stage.toml. */
  names: { stageToml: string; heightPng: string; surfacePng: string };
  stage: Stage;
}

// ---------------------------------------------------------------- terrain noise

function fbm(n: NoiseFunction2D, x: number, z: number, octaves: number): number {
  let sum = 0, amp = 1, freq = 1, norm = 0;
  for (let o = 0; o < octaves; o++) {
    sum += amp * n(x * freq, z * freq);
    norm += amp;
    amp *= 0.5;
    freq *= 2.03;
  }
  return sum / norm;
}

function ridged(n: NoiseFunction2D, x: number, z: number, octaves: number): number {
  let sum = 0, amp = 1, freq = 1, norm = 0, weight = 1;
  for (let o = 0; o < octaves; o++) {
    const sig = (1 - Math.abs(n(x * freq, z * freq))) ** 2 * weight;
    weight = Math.min(1, Math.max(0, sig * 2));
    sum += amp * sig;
    norm += amp;
    amp *= 0.5;
    freq *= 2.1;
  }
  return sum / norm;
}

// ---------------------------------------------------------------- road walk

interface Walk {
  xs: number[];
  zs: number[];
}

function wrapAngle(a: number): number {
  while (a > Math.PI) a -= 2 * Math.PI;
  while (a < -Math.PI) a += 2 * Math.PI;
  return a;
}

/** The map area the walk must stay in (m) and the spatial hash grid over it (cell = the style's clearance). */
interface WalkArea {
  x0: number;
  z0: number;
  side: number;
  lo: number;
  hi: number;
  loZ: number;
  hiZ: number;
  cx: number;
  cz: number;
  cell: number;
  gw: number;
}

/** A candidate segment: its points (1 m apart), curvature at each (1/m), end pose and grade score. */
interface Segment {
  score: number;
  nx: number[];
  nz: number[];
  nk: number[];
  sx: number;
  sz: number;
  sth: number;
}

/** The walk so far: points, curvature, the current pose (x, z, heading th, curvature k) and a spatial hash. */
class WalkState {
  readonly xs: number[] = [];
  readonly zs: number[] = [];
  readonly ks: number[] = [];
  x: number;
  z: number;
  th: number;
  k = 0;
  private readonly hash = new Map<number, number[]>();

  constructor(
    readonly area: WalkArea,
    rng: Rng,
  ) {
    // start near an edge, heading roughly to the centre
    const { cx, cz, side } = area;
    const a0 = rng() * 2 * Math.PI;
    this.x = cx + dsin(a0) * side * 0.36;
    this.z = cz + dcos(a0) * side * 0.36;
    this.th = datan2(cx - this.x, cz - this.z) + randRange(rng, -0.6, 0.6);
    this.xs.push(this.x);
    this.zs.push(this.z);
    this.ks.push(0);
    this.hashAdd(0);
  }

  hashAdd(idx: number): void {
    const { x0, z0, cell, gw } = this.area;
    const key = Math.floor((this.xs[idx]! - x0) / cell) * gw + Math.floor((this.zs[idx]! - z0) / cell);
    const b = this.hash.get(key);
    if (b) b.push(idx);
    else this.hash.set(key, [idx]);
  }

  rebuild(): void {
    this.hash.clear();
    for (let i = 0; i < this.xs.length; i++) this.hashAdd(i);
  }

  /** Whether (sx, sz), the walk's point `idx`, comes within the clearance of a point more than `window` back. */
  crowds(sx: number, sz: number, idx: number, st: Style): boolean {
    const { x0, z0, cell, gw } = this.area;
    const gi = Math.floor((sx - x0) / cell), gj = Math.floor((sz - z0) / cell);
    for (let a = -1; a <= 1; a++) {
      for (let b = -1; b <= 1; b++) {
        const bucket = this.hash.get((gi + a) * gw + gj + b);
        if (!bucket) continue;
        for (const q of bucket) {
          if (q > idx - st.window) continue;
          if (Math.hypot(this.xs[q]! - sx, this.zs[q]! - sz) < st.clearance) return true;
        }
      }
    }
    return false;
  }
}

function generateWalk(rng: Rng, st: Style, totalM: number, x0: number, z0: number, side: number, natAt: (x: number, z: number) => number): Walk {
  const margin = 60;
  const area: WalkArea = {
    x0,
    z0,
    side,
    lo: x0 + margin,
    hi: x0 + side - margin,
    loZ: z0 + margin,
    hiZ: z0 + side - margin,
    cx: x0 + side / 2,
    cz: z0 + side / 2,
    cell: st.clearance,
    gw: Math.ceil(side / st.clearance) + 2,
  };
  for (let attempt = 0; attempt < 50; attempt++) {
    const w = new WalkState(area, rng);
    if (walkOnce(w, rng, st, totalM, natAt)) return { xs: w.xs, zs: w.zs };
  }
  throw new TerrainError('<generator>', 'lengthKm', 'a road length that fits in the map', `${totalM} m did not fit after 50 attempts`);
}

/** Adds segments (backtracking when none fits) until the walk is `totalM` long; false after 400 backtracks. */
function walkOnce(w: WalkState, rng: Rng, st: Style, totalM: number, natAt: (x: number, z: number) => number): boolean {
  const stack: { n: number; x: number; z: number; th: number; k: number }[] = [];
  let pops = 0;
  while (w.xs.length < totalM && pops < 400) {
    const b = chooseSegment(w, rng, st, natAt);
    if (b) {
      stack.push({ n: w.xs.length, x: w.x, z: w.z, th: w.th, k: w.k });
      for (let s = 0; s < b.nx.length; s++) {
        w.xs.push(b.nx[s]!); w.zs.push(b.nz[s]!); w.ks.push(b.nk[s]!);
        w.hashAdd(w.xs.length - 1);
      }
      w.x = b.sx; w.z = b.sz; w.th = b.sth; w.k = b.nk.length ? b.nk[b.nk.length - 1]! : w.k;
    } else {
      // backtrack one or two segments
      const nb = 1 + (pops % 3 === 2 ? 1 : 0);
      for (let i = 0; i < nb && stack.length; i++) {
        const top = stack.pop()!;
        w.xs.length = top.n; w.zs.length = top.n; w.ks.length = top.n;
        w.x = top.x; w.z = top.z; w.th = top.th; w.k = top.k;
      }
      w.rebuild();
      pops++;
    }
  }
  return w.xs.length >= totalM;
}

/** Up to 16 random segments; of the first 5 that fit, the one that climbs least beyond the allowed grade. */
function chooseSegment(w: WalkState, rng: Rng, st: Style, natAt: (x: number, z: number) => number): Segment | null {
  let best: Segment | null = null;
  let found = 0;
  for (let tries = 0; tries < 16; tries++) {
    const { kc, hold, ramp } = pickSegment(w, rng, st, tries);
    const seg = traceSegment(w, st, kc, hold, ramp);
    if (!seg) continue;
    // grade-aware choice (roads follow contours): metres of climb beyond the allowed grade
    const { nx, nz } = seg;
    const L = nx.length;
    const dh = Math.abs(natAt(nx[L - 1]!, nz[L - 1]!) - natAt(w.x, w.z));
    let worst = 0;
    for (let q = 20; q < L; q += 10) worst = Math.max(worst, Math.abs(natAt(nx[q]!, nz[q]!) - natAt(nx[q - 20]!, nz[q - 20]!)) - 40 * st.limits.maxGrade);
    seg.score = Math.max(0, dh - st.limits.maxGrade * 0.8 * L) + worst + 2 * rng();
    if (!best || seg.score < best.score) best = seg;
    if (++found >= 5) break;
  }
  return best;
}

/**
 * A random segment type from the style's mix (straight, sweeper, corner, hairpin, switchback), turning
 * toward the map centre more often the further out the walk is: target curvature kc (1/m), hold and ramp (m).
 */
function pickSegment(w: WalkState, rng: Rng, st: Style, tries: number): { kc: number; hold: number; ramp: number } {
  const { cx, cz, side } = w.area;
  const r = rng();
  let acc = 0, type = 0;
  for (; type < 4; type++) {
    acc += st.mix[type]!;
    if (r < acc) break;
  }
  const phi = wrapAngle(datan2(cx - w.x, cz - w.z) - w.th);
  const dist = Math.hypot(cx - w.x, cz - w.z);
  const pToward = 0.5 + 0.45 * Math.min(1, dist / (0.3 * side));
  let dir = (rng() < pToward ? Math.sign(phi) : -Math.sign(phi)) || 1;
  if (type === 0) return { kc: 0, hold: randRange(rng, 40, 180), ramp: Math.abs(w.k) > 0.03 ? 12 : 30 };
  let R: number, ang: number, ramp: number;
  if (type === 1) { R = randRange(rng, 120, 350); ang = randRange(rng, 0.3, 1.0); ramp = 40; }
  else if (type === 2) { R = randRange(rng, 35, 80); ang = randRange(rng, 0.6, 1.6); ramp = 22; }
  else if (type === 3) { R = randRange(rng, 16, 28); ang = randRange(rng, 1.2, 1.8); ramp = 12; }
  else { R = randRange(rng, 12, 16); ang = randRange(rng, 2.9, 3.1); ramp = 9; }
  if (type === 4 && tries % 2 === 1) dir = -dir;
  const kc = dir / R;
  // hold so that the total turn ≈ ang (ramps contribute half their length each)
  return { kc, hold: Math.max(2, (ang - Math.abs(kc) * ramp) / Math.abs(kc)), ramp };
}

/**
 * Drives the segment 1 m at a time (curvature ramped from the walk's to kc over `ramp`, then held); null when
 * it leaves the map or comes within the clearance of the road already laid (or of itself on long arcs).
 */
function traceSegment(w: WalkState, st: Style, kc: number, hold: number, ramp: number): Segment | null {
  const { lo, hi, loZ, hiZ } = w.area;
  const k = w.k;
  const n0 = w.xs.length;
  let sx = w.x, sz = w.z, sth = w.th;
  const nx: number[] = [], nz: number[] = [], nk: number[] = [];
  const steps = Math.round(ramp + hold);
  for (let s = 1; s <= steps; s++) {
    const kk = s <= ramp ? k + ((kc - k) * s) / ramp : kc;
    sth += kk;
    sx += dsin(sth);
    sz += dcos(sth);
    if (sx < lo || sx > hi || sz < loZ || sz > hiZ) return null;
    if (w.crowds(sx, sz, n0 + s - 1, st)) return null;
    // self-proximity within this segment (long arcs)
    if (s > st.window) {
      for (let q = 0; q < s - st.window; q += 2) {
        if (Math.hypot(nx[q]! - sx, nz[q]! - sz) < st.clearance) return null;
      }
    }
    nx.push(sx); nz.push(sz); nk.push(kk);
  }
  return { score: 0, nx, nz, nk, sx, sz, sth };
}

// ---------------------------------------------------------------- helpers

function boxSmooth(a: Float64Array, radius: number, passes: number): Float64Array {
  let src = a;
  const n = a.length;
  for (let p = 0; p < passes; p++) {
    const dst = new Float64Array(n);
    const pre = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) pre[i + 1] = pre[i]! + src[i]!;
    for (let i = 0; i < n; i++) {
      const l = Math.max(0, i - radius), r = Math.min(n - 1, i + radius);
      dst[i] = (pre[r + 1]! - pre[l]!) / (r - l + 1);
    }
    src = dst;
  }
  return src;
}

function smoothstep(t: number): number {
  const c = t < 0 ? 0 : t > 1 ? 1 : t;
  return c * c * (3 - 2 * c);
}

function r1(v: number): number {
  return Math.round(v * 10) / 10;
}

// ---------------------------------------------------------------- main

/** What every step of generateStage shares: the style, the grid (samples, cell m, origin m) and the road. */
interface Ctx {
  opts: GenerateOptions;
  style: StageStyle;
  st: Style;
  size: number;
  cell: number;
  ox: number;
  oz: number;
  side: number;
  halfW: number;
  /** The ditch beside the road, null where the style or the options have none. */
  ditch: DitchProfile | null;
}

/** The road's shape: resampled points, heading (rad) and smoothed curvature (1/m) at each. */
interface RoadShape {
  road: Road;
  P: Float64Array;
  n: number;
  heading: Float64Array;
  kappa: Float64Array;
}

export function generateStage(opts: GenerateOptions): GeneratedStage {
  const c = generatorContext(opts);
  const progress = phaseReporter(opts.onProgress);
  const rng = createRng(opts.seed);
  const lengthM = opts.lengthKm * 1000;
  // 1. natural terrain
  progress('terrain', 0);
  const nat = naturalTerrain(c, opts.relief ?? 1, (f) => progress('terrain', f));
  const natAt = bilinear(nat, c.size, c.cell, c.ox, c.oz);
  // 2. road
  progress('road', 0);
  const walk = generateWalk(rng, c.st, lengthM + 2 * ROAD_LEAD_M + 10, c.ox, c.oz, c.side, natAt);
  const ctrl = controlPoints(walk);
  const shape = roadShape(Road.fromControlPoints(ctrl, c.st.width, natAt));
  // 3. elevation profile, 4. carve
  progress('profile', 0);
  const { hr, bank } = elevationProfile(shape, c.st.limits);
  // start / finish / checkpoints (distances along the resampled road)
  const startD = ROAD_LEAD_M;
  const finishD = Math.min(shape.road.lengthM - 5, ROAD_LEAD_M + lengthM);
  const cps = opts.checkpointsM ?? evenCheckpoints(finishD - startD);
  progress('carve', 0);
  const stations = [0, startD, finishD, ...cps.map((cp) => startD + cp), shape.road.lengthM];
  const hf = carve(c, shape, nat, hr, bank, stations);
  // 5. surface map
  progress('surface', 0);
  const smap = surfaceMap(c, shape, opts.surfaceRefine ?? 2);
  // 7. scenery
  progress('scenery', 0);
  const scen = opts.scenery ?? true ? scenery(c, shape, startD, finishD, cps) : [];
  // 8. files
  progress('files', 0);
  const hpng = hf.toPng();
  const toml = stageTomlFor(c, { ctrl, startD, finishD, cps, scenery: scen, heightScale: hpng.heightScale, heightOffset: hpng.heightOffset });
  const files: StageFiles = { stageToml: stageTomlToString(toml), heightPng: hpng.bytes, surfacePng: smap.toPng() };
  const stage = loadStage(files, `${toml.id}/stage.toml`);
  files.paceNotesToml = formatPaceNotes(stage.paceNotes, { stageId: stage.id });
  progress('files', 1);
  return { files, names: STAGE_FILE_NAMES, stage };
}

/** Road before the start line (and after the finish), m. */
const ROAD_LEAD_M = 20;
const STAGE_FILE_NAMES = { stageToml: 'stage.toml', heightPng: 'height.png', surfacePng: 'surface.png' } as const;

/** The options checked and the grid laid out (centred on the origin). */
function generatorContext(opts: GenerateOptions): Ctx {
  const style = opts.surface;
  const st = STYLES[style];
  if (!st) throw new TerrainError('<generator>', 'surface', 'gravel, tarmac or snow', String(style));
  const size = opts.size ?? 1025;
  if (!isPow2Plus1(size)) throw new TerrainError('<generator>', 'size', '2ⁿ+1 samples (e.g. 257, 513, 1025)', String(size));
  const cell = opts.cellSize ?? 2;
  if (!(opts.lengthKm * 1000 > 50)) throw new TerrainError('<generator>', 'lengthKm', 'a length > 0.05 km', String(opts.lengthKm));
  const mix = opts.surfaceMix;
  if (mix && !(mix.fraction >= 0 && mix.fraction <= 1)) throw new TerrainError('<generator>', 'surfaceMix.fraction', '0 … 1', String(mix.fraction));
  const side = (size - 1) * cell;
  return { opts, style, st, size, cell, ox: -side / 2, oz: -side / 2, side, halfW: st.width / 2, ditch: ditchOption(opts, st) };
}

/** The ditch the options ask for (checked against the stated ranges), or null without one. */
function ditchOption(opts: GenerateOptions, st: Style): DitchProfile | null {
  const d = opts.ditch ?? DEFAULT_DITCH;
  if (!st.ditches || d === false) return null;
  const [d0, d1] = DITCH_DEPTH_RANGE_M, [w0, w1] = DITCH_WIDTH_RANGE_M;
  if (!(d.depthM >= d0 && d.depthM <= d1)) throw new TerrainError('<generator>', 'ditch.depthM', `${d0} … ${d1} m`, String(d.depthM));
  if (!(d.widthM >= w0 && d.widthM <= w1)) throw new TerrainError('<generator>', 'ditch.widthM', `${w0} … ${w1} m`, String(d.widthM));
  return d;
}

/** Maps (phase, fraction of the phase) to the whole run's fraction, from GENERATOR_PHASES' shares. */
function phaseReporter(onProgress: GeneratorProgress | undefined): (phase: GeneratorPhase, f: number) => void {
  if (!onProgress) return () => {};
  const starts = new Map<GeneratorPhase, [number, number]>();
  let acc = 0;
  for (const [phase, share] of GENERATOR_PHASES) {
    starts.set(phase, [acc, share]);
    acc += share;
  }
  return (phase, f) => {
    const [start, share] = starts.get(phase)!;
    onProgress(phase, Math.min(1, (start + share * f) / acc));
  };
}

interface StageLayout {
  ctrl: [number, number][];
  startD: number;
  finishD: number;
  cps: number[];
  scenery: StageToml['scenery'];
  heightScale: number;
  heightOffset: number;
}

/** stage.toml of the generated stage (with the `[generator]` table unless the options say not to). */
function stageTomlFor(c: Ctx, l: StageLayout): StageToml {
  const { opts, st, size, cell } = c;
  const id = opts.id ?? `${c.style}-${opts.seed}`;
  return {
    format: 1,
    id,
    name: opts.name ?? `${st.name} ${opts.seed}`,
    surface: st.roadCode,
    seed: opts.seed,
    heightmap: { file: STAGE_FILE_NAMES.heightPng, size, cell_size_m: cell, height_scale_m: l.heightScale, height_offset_m: l.heightOffset, origin_x_m: c.ox, origin_z_m: c.oz },
    surface_map: { file: STAGE_FILE_NAMES.surfacePng, cell_size_m: cell / (opts.surfaceRefine ?? 2), origin_x_m: c.ox, origin_z_m: c.oz },
    detail: { enabled: true, seed: (opts.seed % 100000) + 1, cell_size_m: 0.35, scale: 1 },
    road: { width_m: st.width, points: l.ctrl, start_distance_m: Math.round(l.startD * 10) / 10, finish_distance_m: Math.floor(l.finishD * 10) / 10 },
    checkpoints: l.cps.map((cp) => ({ distance_m: Math.round((l.startD + cp) * 10) / 10 })),
    scenery: l.scenery,
    ...(opts.recordParams === false ? {} : { generator: generatorTable(opts) }),
  };
}

/** The options a server needs to regenerate the stage byte for byte (stage.toml `[generator]`). */
export function generatorTable(opts: GenerateOptions): NonNullable<StageToml['generator']> {
  return {
    version: GENERATOR_VERSION,
    seed: opts.seed,
    length_km: opts.lengthKm,
    style: opts.surface,
    size: opts.size ?? 1025,
    cell_size_m: opts.cellSize ?? 2,
    relief: opts.relief ?? 1,
    surface_refine: opts.surfaceRefine ?? 2,
    scenery: opts.scenery ?? true,
    ...(opts.checkpointsM ? { checkpoints_m: opts.checkpointsM } : {}),
    ...(opts.surfaceMix ? { mix_surface: opts.surfaceMix.surface, mix_fraction: opts.surfaceMix.fraction } : {}),
    ...(opts.ditch === false ? { ditch_depth_m: 0 } : opts.ditch ? { ditch_depth_m: opts.ditch.depthM, ditch_width_m: opts.ditch.widthM } : {}),
  };
}

/** Terrain rows between two progress reports. */
const PROGRESS_ROWS = 32;

/**
 * The options that regenerate a stage from its stage.toml `[generator]` table (with its id and name): the same
 * bytes when the table's version is this generator's (a server checks a player's generated stage this way).
 */
export function optionsFromGeneratorTable(toml: Pick<StageToml, 'id' | 'name' | 'generator'>): GenerateOptions {
  const g = toml.generator;
  if (!g) throw new TerrainError(`${toml.id}/stage.toml`, 'generator', 'a [generator] table (a generated stage)', 'none');
  if (g.version !== GENERATOR_VERSION) throw new TerrainError(`${toml.id}/stage.toml`, 'generator.version', `${GENERATOR_VERSION} (this generator)`, String(g.version));
  return {
    seed: g.seed,
    lengthKm: g.length_km,
    surface: g.style,
    id: toml.id,
    name: toml.name,
    size: g.size,
    cellSize: g.cell_size_m,
    relief: g.relief,
    surfaceRefine: g.surface_refine,
    scenery: g.scenery,
    ...(g.checkpoints_m ? { checkpointsM: g.checkpoints_m } : {}),
    ...(g.mix_surface !== undefined ? { surfaceMix: { surface: g.mix_surface, fraction: g.mix_fraction ?? 0 } } : {}),
    ...(g.ditch_depth_m === 0 ? { ditch: false as const } : g.ditch_depth_m !== undefined ? { ditch: { depthM: g.ditch_depth_m, widthM: g.ditch_width_m ?? DEFAULT_DITCH.widthM } } : {}),
  };
}

/** The terrain before the road: fBm noise, blended with ridged noise for the mountain styles, m. */
function naturalTerrain(c: Ctx, relief: number, progress: (f: number) => void): Float32Array {
  const { st, size, cell, ox, oz } = c;
  const noise = createNoise2D(createRng((c.opts.seed ^ 0x5bd1e995) >>> 0));
  const nat = new Float32Array(size * size);
  const inv = 1 / st.wavelength;
  for (let j = 0; j < size; j++) {
    if (j % PROGRESS_ROWS === 0) progress(j / size);
    for (let i = 0; i < size; i++) {
      const x = (ox + i * cell) * inv, z = (oz + j * cell) * inv;
      const f = fbm(noise, x, z, 6);
      const rg = st.ridged > 0 ? ridged(noise, x + 31.7, z - 17.3, 5) : 0;
      nat[j * size + i] = relief * st.amplitude * ((1 - st.ridged) * f + st.ridged * (2 * rg - 0.6));
    }
  }
  return nat;
}

/** Bilinear height lookup (m) in a size × size grid, clamped to the grid. */
function bilinear(nat: Float32Array, size: number, cell: number, ox: number, oz: number): (x: number, z: number) => number {
  return (x: number, z: number): number => {
    const u = Math.min(size - 1.0001, Math.max(0, (x - ox) / cell));
    const v = Math.min(size - 1.0001, Math.max(0, (z - oz) / cell));
    const i = Math.floor(u), j = Math.floor(v), a = u - i, b = v - j;
    const h00 = nat[j * size + i]!, h10 = nat[j * size + i + 1]!, h01 = nat[(j + 1) * size + i]!, h11 = nat[(j + 1) * size + i + 1]!;
    return (1 - b) * ((1 - a) * h00 + a * h10) + b * ((1 - a) * h01 + a * h11);
  };
}

/** Every 8th point of the walk (and its last), rounded to cm: the road's control points in stage.toml. */
function controlPoints(walk: Walk): [number, number][] {
  const ctrl: [number, number][] = [];
  for (let i = 0; i < walk.xs.length; i += 8) ctrl.push([Math.round(walk.xs[i]! * 100) / 100, Math.round(walk.zs[i]! * 100) / 100]);
  const last = walk.xs.length - 1;
  if (last % 8 !== 0) ctrl.push([Math.round(walk.xs[last]! * 100) / 100, Math.round(walk.zs[last]! * 100) / 100]);
  return ctrl;
}

/** Curvature at road points (heading change per metre), smoothed. */
function roadShape(road: Road): RoadShape {
  const n = road.count;
  const P = road.points;
  const heading = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const a = Math.max(0, k - 1), b = Math.min(n - 1, k + 1);
    heading[k] = datan2(P[3 * b]! - P[3 * a]!, P[3 * b + 2]! - P[3 * a + 2]!);
  }
  let kappa: Float64Array = new Float64Array(n);
  for (let k = 1; k < n - 1; k++) {
    kappa[k] = wrapAngle(heading[k + 1]! - heading[k - 1]!) / (road.distances[k + 1]! - road.distances[k - 1]!);
  }
  kappa = boxSmooth(kappa, 3, 2);
  return { road, P, n, heading, kappa };
}

/** Road height (m) along the road: smooth, limit the grade (steeper allowed in hairpins), smooth; and the bank. */
function elevationProfile(shape: RoadShape, lim: RoadLimits): { hr: Float64Array; bank: Float64Array } {
  const { road, P, n, kappa } = shape;
  let hr: Float64Array = new Float64Array(n);
  for (let k = 0; k < n; k++) hr[k] = P[3 * k + 1]!;
  hr = boxSmooth(hr, 20, 3);
  const gmax: Float64Array = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const R = 1 / Math.max(1e-6, Math.abs(kappa[k]!));
    gmax[k] = R < 30 ? lim.hairpinGrade : R < 60 ? 0.5 * (lim.hairpinGrade + lim.maxGrade) : lim.maxGrade;
  }
  const gm = boxSmooth(gmax, 15, 1);
  for (let k = 0; k < n; k++) gmax[k] = Math.min(gmax[k]!, gm[k]!) * 0.85; // margin for the final smoothing
  for (let pass = 0; pass < 4; pass++) {
    for (let k = 1; k < n; k++) {
      const ds = road.distances[k]! - road.distances[k - 1]!;
      const g = gmax[k]! * ds;
      hr[k] = Math.min(hr[k - 1]! + g, Math.max(hr[k - 1]! - g, hr[k]!));
    }
    for (let k = n - 2; k >= 0; k--) {
      const ds = road.distances[k + 1]! - road.distances[k]!;
      const g = gmax[k]! * ds;
      hr[k] = Math.min(hr[k + 1]! + g, Math.max(hr[k + 1]! - g, hr[k]!));
    }
  }
  hr = boxSmooth(hr, 3, 2);
  const bank = new Float64Array(n);
  for (let k = 0; k < n; k++) bank[k] = -Math.sign(kappa[k]!) * Math.min(lim.maxBank, 6 * Math.abs(kappa[k]!));
  return { hr, bank };
}

/**
 * For each grid sample within `radius` of the road polyline P (n points): squared distance to the nearest
 * segment (d2a), road parameter there (sa, segment index + fraction) and signed lateral offset (la, m).
 */
function rasterizeRoad(P: RoadShape['P'], n: number, gx0: number, gz0: number, gc: number, gw: number, radius: number, d2a: Float32Array, sa: Float32Array, la: Float32Array): void {
  for (let k = 0; k < n - 1; k++) {
    const ax = P[3 * k]!, az = P[3 * k + 2]!, bx = P[3 * k + 3]!, bz = P[3 * k + 5]!;
    const ex = bx - ax, ez = bz - az;
    const l2 = ex * ex + ez * ez;
    const len = Math.sqrt(l2) || 1;
    const i0 = Math.max(0, Math.floor((Math.min(ax, bx) - radius - gx0) / gc));
    const i1 = Math.min(gw - 1, Math.ceil((Math.max(ax, bx) + radius - gx0) / gc));
    const j0 = Math.max(0, Math.floor((Math.min(az, bz) - radius - gz0) / gc));
    const j1 = Math.min(gw - 1, Math.ceil((Math.max(az, bz) + radius - gz0) / gc));
    for (let j = j0; j <= j1; j++) {
      const z = gz0 + j * gc;
      for (let i = i0; i <= i1; i++) {
        const x = gx0 + i * gc;
        let f = l2 > 0 ? ((x - ax) * ex + (z - az) * ez) / l2 : 0;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        const qx = x - ax - f * ex, qz = z - az - f * ez;
        const d2 = qx * qx + qz * qz;
        const idx = j * gw + i;
        if (d2 < d2a[idx]!) {
          d2a[idx] = d2;
          sa[idx] = k + f;
          la[idx] = ((x - ax) * ez - (z - az) * ex) / len;
        }
      }
    }
  }
}

/** The road carved into the natural terrain: its cross-section (crown, bank, shoulder) blended out over the falloff. */
function carve(c: Ctx, shape: RoadShape, nat: Float32Array, hr: Float64Array, bank: Float64Array, stationsM: readonly number[]): Heightfield {
  const { st, size, cell, ox, oz, halfW } = c;
  const { P, n } = shape;
  const lim = st.limits;
  const rInf = halfW + st.shoulder + 3 * st.falloff;
  const N = size * size;
  const bestD2 = new Float32Array(N).fill(Infinity);
  const bestS = new Float32Array(N);
  const bestL = new Float32Array(N);
  rasterizeRoad(P, n, ox, oz, cell, size, rInf, bestD2, bestS, bestL);
  const lerpArr = (a: Float64Array, s: number): number => {
    const k = Math.min(n - 2, Math.floor(s)), f = s - k;
    return a[k]! + f * (a[k + 1]! - a[k]!);
  };
  const crossHeight = (s: number, lat: number): number => {
    const base = lerpArr(hr, s);
    const l = Math.max(-halfW, Math.min(halfW, lat));
    // crown camber + superelevation (bank < 0 lowers the left side when turning left)
    return base + lerpArr(bank, s) * l - lim.crown * Math.abs(l) - 0.05 * Math.max(0, Math.min(st.shoulder, Math.abs(lat) - halfW));
  };
  const heights = new Float32Array(N);
  for (let idx = 0; idx < N; idx++) {
    const d2 = bestD2[idx]!;
    if (d2 >= rInf * rInf) {
      heights[idx] = nat[idx]!;
      continue;
    }
    const s = bestS[idx]!, lat = bestL[idx]!;
    const target = crossHeight(s, lat);
    const dist = Math.sqrt(d2);
    // embankment/cut no steeper than ~1:1.2 where room allows (falloff grows with the height difference)
    const fall = Math.min(3 * st.falloff, Math.max(st.falloff, 1.2 * Math.abs(target - nat[idx]!)));
    const w = 1 - smoothstep((dist - halfW - st.shoulder - 1) / fall);
    heights[idx] = nat[idx]! + w * (target - nat[idx]!);
  }
  if (c.ditch) {
    const clearing = createClearingNoise(c.opts.seed);
    const tarmac = mixedSections(c, shape);
    const tarmacC = surfaceCode('tarmac');
    carveDitches({
      heights, nat, d2: bestD2, s: bestS, lat: bestL, profile: c.ditch, shoulderM: st.shoulder, halfWidthM: halfW, cellM: cell,
      distanceAt: (s) => lerpArr(shape.road.distances, s),
      edgeHeightAt: (s, side) => crossHeight(s, side * halfW),
      factorAt: (s, d, side) => (tarmac && tarmac(s) === tarmacC ? 0 : 1) * ditchSideFactor(clearing(d, side), d, stationsM),
    });
  }
  return Heightfield.fromFloat32(heights, size, size, { cellSize: cell, origin: { x: ox, z: oz } });
}

/** Road, shoulder and background codes on a grid `refine` times finer than the heights; ice patches on snow. */
function surfaceMap(c: Ctx, shape: RoadShape, refine: number): SurfaceMap {
  const { st, size, cell, ox, oz, halfW, style } = c;
  const sSize = (size - 1) * refine + 1;
  const sCell = cell / refine;
  const sD2 = new Float32Array(sSize * sSize).fill(Infinity);
  const sS = new Float32Array(sSize * sSize);
  const sL = new Float32Array(sSize * sSize);
  rasterizeRoad(shape.P, shape.n, ox, oz, sCell, sSize, halfW + st.shoulder + 1, sD2, sS, sL);
  const codes = new Uint8Array(sSize * sSize).fill(surfaceCode(st.backgroundCode));
  const iceNoise = createNoise2D(createRng((c.opts.seed ^ 0x1ce) >>> 0));
  const roadC = surfaceCode(st.roadCode), shoulderC = surfaceCode(st.shoulderCode), iceC = surfaceCode('ice');
  const sectionCode = mixedSections(c, shape);
  for (let idx = 0; idx < codes.length; idx++) {
    if (sD2[idx]! === Infinity) continue;
    const lat = Math.abs(sL[idx]!);
    const dist = Math.sqrt(sD2[idx]!);
    if (dist <= halfW && lat <= halfW) {
      let code = sectionCode ? sectionCode(sS[idx]!) : roadC;
      if (style === 'snow') {
        const s = sS[idx]!;
        if (iceNoise(s * 2 / 60, 0.5) > 0.55) code = iceC; // ice patches tens of metres long
      }
      codes[idx] = code;
    } else if (dist <= halfW + st.shoulder) codes[idx] = shoulderC;
  }
  return new SurfaceMap(sSize, sSize, sCell, { x: ox, z: oz }, codes);
}

/** Length of a road section that takes one surface in a surface mix, m. */
const SURFACE_MIX_SECTION_M = 250;

/**
 * With a surface mix: the road surface code at road parameter s (segment index + fraction), each
 * SURFACE_MIX_SECTION_M section drawn from its own seeded stream; null without one (the style's road surface).
 */
function mixedSections(c: Ctx, shape: RoadShape): ((s: number) => number) | null {
  const mix = c.opts.surfaceMix;
  if (!mix) return null;
  const d = shape.road.distances;
  const rng = createRng((c.opts.seed ^ 0x5ec7) >>> 0);
  const count = Math.ceil(shape.road.lengthM / SURFACE_MIX_SECTION_M) + 1;
  const roadC = surfaceCode(c.st.roadCode), mixC = surfaceCode(mix.surface);
  const codes = Array.from({ length: count }, () => (rng() < mix.fraction ? mixC : roadC));
  return (s) => codes[Math.floor(d[Math.min(shape.n - 1, Math.floor(s))]! / SURFACE_MIX_SECTION_M)]!;
}

/** One checkpoint per ~1.5 km, evenly spaced (distances from the start, m). */
function evenCheckpoints(stageLen: number): number[] {
  const count = Math.max(1, Math.floor(stageLen / 1500));
  return Array.from({ length: count }, (_, c) => (stageLen * (c + 1)) / (count + 1));
}

type Items = [number, number, number, number][];

/** Road-edge marker posts: every 50 m on both sides, 1.5 m off the edge, 1.1 m tall, 8 cm radius (a light post). */
const EDGE_POSTS: PostRule & { radiusM: number; heightM: number } = { spacingM: 50, offsetM: 1.5, keepClearM: 3, radiusM: 0.08, heightM: 1.1 };

/** Trees stand this far past a ditch's outer lip (a trunk's radius and its roots' bank), m. */
const TREE_DITCH_MARGIN_M = 0.5;
/** Beside a ditch the marker posts stand on the shoulder, this share of its width off the road edge. */
const POST_SHOULDER_SHARE = 0.8;

/** The forest and the marker posts moved clear of the ditch: trees beyond its outer lip, posts on the shoulder. */
function dressingBesideDitch(c: Ctx): { forest: ForestProfile; posts: PostRule } {
  const { st, ditch } = c;
  if (!ditch) return { forest: st.forest, posts: EDGE_POSTS };
  return {
    forest: { ...st.forest, clearM: Math.max(st.forest.clearM, ditchOuterM(st.shoulder, ditch) + TREE_DITCH_MARGIN_M) },
    posts: { ...EDGE_POSTS, offsetM: POST_SHOULDER_SHARE * st.shoulder },
  };
}

/** Trees, rocks, corner fences, checkpoint markers, edge marker posts and the start/finish arches. */
function scenery(c: Ctx, shape: RoadShape, startD: number, finishD: number, cps: number[]): StageToml['scenery'] {
  const { st, style } = c;
  const scen: StageToml['scenery'] = [];
  const stations = [startD, finishD, ...cps.map((cp) => startD + cp)];
  const { forest, posts: postRule } = dressingBesideDitch(c);
  const { trees, rocks } = scatterForest({ seed: c.opts.seed, road: shape.road, halfWidthM: c.halfW, ox: c.ox, oz: c.oz, side: c.side, stationsM: stations, profile: forest, rocks: st.rocks });
  const fences = cornerFences(c, shape, startD, finishD);
  const posts = edgePosts(shape.road, startD, finishD, postRule, stations, fences);
  const markers: Items = [];
  const arches: Items = [];
  const post = (d: number, kind: 'marker' | 'arch'): void => {
    const p = shape.road.poseAt(d);
    const lx = dcos(p.heading), lz = -dsin(p.heading);
    const deg = Math.round((p.heading * 180) / Math.PI);
    if (kind === 'arch') arches.push([r1(p.x), r1(p.z), deg, 1]);
    else {
      const off = p.width / 2 + st.shoulder + 1;
      markers.push([r1(p.x + off * lx), r1(p.z + off * lz), deg, 1], [r1(p.x - off * lx), r1(p.z - off * lz), deg, 1]);
    }
  };
  post(startD, 'arch');
  post(finishD, 'arch');
  for (const cp of cps) post(startD + cp, 'marker');
  if (trees.length) scen.push({ kind: 'tree', radius_m: 0.4, height_m: style === 'tarmac' ? 9 : 16, items: trees });
  if (rocks.length) scen.push({ kind: 'rock', radius_m: 1.2, height_m: 1.5, items: rocks });
  if (fences.length) scen.push({ kind: 'fence', radius_m: 2, height_m: 1.1, items: fences });
  scen.push({ kind: 'marker', radius_m: 0.3, height_m: 2, items: markers });
  if (posts.length) scen.push({ kind: 'post', radius_m: EDGE_POSTS.radiusM, height_m: EDGE_POSTS.heightM, items: posts });
  scen.push({ kind: 'arch', radius_m: 0.4, height_m: 5, items: arches });
  return scen;
}

/** Fences on the outside of tight corners and hairpins (tarmac) / fast sweepers (gravel, snow). */
function cornerFences(c: Ctx, shape: RoadShape, startD: number, finishD: number): Items {
  const { st, style, halfW } = c;
  const { road, P, n, heading, kappa } = shape;
  const fences: Items = [];
  for (let k = 0; k < n; k += 2) {
    const R = 1 / Math.max(1e-6, Math.abs(kappa[k]!));
    const want = style === 'tarmac' ? R < 30 : R > 100 && R < 250 && k % 40 < 20;
    const d = road.distances[k]!;
    if (!want || d < startD || d > finishD) continue;
    const side2 = -Math.sign(kappa[k]!) || 1; // outside of the turn: right when turning left
    const off = halfW + st.shoulder + 1.5;
    const hx = dsin(heading[k]!), hz = dcos(heading[k]!);
    const lx = hz, lz = -hx; // left
    fences.push([r1(P[3 * k]! + side2 * off * lx), r1(P[3 * k + 2]! + side2 * off * lz), Math.round((heading[k]! * 180) / Math.PI), 1]);
  }
  return fences;
}
