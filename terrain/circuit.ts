/**
 * Rallycross circuit generator (issue 8): a closed, wide, mixed-surface loop written in the ordinary stage
 * format (stage.toml + 16-bit heightmap + surface map), so loadStage, the views and the vehicle code treat it
 * like any stage. Same options → same bytes.
 *
 *  1. centreline: a star-shaped closed curve r(θ) = R₀ (1 + Σ_k a_k cos(kθ + φ_k)), k = 2..4, random a_k, φ_k
 *     (Σ a_k k² < 1 keeps it convex-ish and free of self-intersections and hairpins tighter than the limit);
 *  2. control points every ~12 m; the road repeats the first three control points at the end so that the
 *     centripetal Catmull-Rom of terrain/road.ts closes smoothly; start and finish are the two occurrences of
 *     the start point: finish − start = one lap;
 *  3. terrain: gentle fBm (simplex-noise, seeded) carved to a smoothed, grade-limited road profile along the
 *     loop with a flat cross-section and smooth shoulders;
 *  4. surfaces: alternating tarmac / gravel sections along the lap (rallycross mixes both), grass verges;
 *  5. checkpoints at thirds of the lap, an arch over the start line, tyre-wall markers, trees outside;
 *  6. the joker branch (`planJoker`, before step 3's carving): a 9 m gravel road beside a straight-ish section,
 *     carved on the main road's elevation profile, written as the stage's `[joker]` table.
 */
import { createNoise2D } from 'simplex-noise';
import { TerrainError } from './errors';
import { formatPaceNotes } from './pacenotes/file';
import { Heightfield, isPow2Plus1 } from './heightfield';
import { createRng, randRange } from './prng';
import { Road } from './road';
import { loadStage, stageTomlToString, type Stage, type StageFiles, type StageToml } from './stage';
import { surfaceCode, SurfaceMap, type SurfaceId } from './surface';
import { dcos, dsin } from './dmath';

export interface CircuitOptions {
  seed: number;
  id?: string;
  name?: string;
  /** Mean radius R₀ of the loop, m (default 140 → a lap of ≈ 0.9 km). */
  radiusM?: number;
  /** Road width, m (default 13: room for a two-abreast grid and overtaking). */
  widthM?: number;
  /** Heightmap samples per side, 2ⁿ+1 (default 257) and cell size (default 2 m). */
  size?: number;
  cellSize?: number;
  /** Terrain relief amplitude, m (default 6). */
  reliefM?: number;
  /** Fraction of the lap that is tarmac (default 0.55); the rest is gravel, in alternating sections. */
  tarmacFraction?: number;
  /** Number of surface changes per lap (even, default 4). */
  surfaceSections?: number;
  scenery?: boolean;
  /** Joker branch (default on): width, m (default 9), span along the main road (default 120 m), largest
   * distance from the main centreline (default 16 m). `false` builds a circuit without one. */
  joker?: false | { widthM?: number; spanM?: number; offsetM?: number };
}

/** The joker branch chosen by `planJoker` (polyline distances along the generator's road). */
export interface JokerPlan {
  leaveD: number;
  rejoinD: number;
  /** +1 = left of the direction of travel, −1 = right. */
  side: number;
  /** Centreline control points from the leave point to the rejoin point. */
  ctrl: [number, number][];
  /** Extra length over the main road between leave and rejoin, m. */
  extraM: number;
}

export interface GeneratedCircuit {
  files: StageFiles;
  names: { stageToml: string; heightPng: string; surfacePng: string };
  stage: Stage;
  /** Length of one lap, m (= stage.lengthM). */
  lapM: number;
  /** Surface of each section: [fromLapDistance_m, surface] ascending. */
  sections: [number, SurfaceId][];
  /** The joker branch (null when disabled). */
  joker: JokerPlan | null;
}

const smoothstep = (t: number): number => {
  const c = t < 0 ? 0 : t > 1 ? 1 : t;
  return c * c * (3 - 2 * c);
};
const r2 = (v: number): number => Math.round(v * 100) / 100;

/** Minimum centreline radius of curvature allowed by the generator, m. */
export const CIRCUIT_MIN_RADIUS_M = 22;

/** The closed curve of step 1 as a function (exported for the tests). */
export function circuitCurve(seed: number, radiusM: number): { at: (theta: number) => [number, number]; amps: number[] } {
  const rng = createRng((seed ^ 0x4c0de) >>> 0);
  for (let attempt = 0; attempt < 200; attempt++) {
    const amps = [randRange(rng, 0.06, 0.16), randRange(rng, 0.02, 0.08), randRange(rng, 0.0, 0.04)];
    const phases = [rng() * 2 * Math.PI, rng() * 2 * Math.PI, rng() * 2 * Math.PI];
    const at = (t: number): [number, number] => {
      let r = 1;
      for (let k = 0; k < 3; k++) r += amps[k]! * dcos((k + 2) * t + phases[k]!);
      r *= radiusM;
      return [r * dsin(t), r * dcos(t)];
    };
    // check the minimum radius of curvature numerically (Menger curvature over 1° steps)
    let ok = true;
    const N = 720;
    for (let i = 0; i < N && ok; i++) {
      const a = at(((i - 1) * 2 * Math.PI) / N), b = at((i * 2 * Math.PI) / N), c = at(((i + 1) * 2 * Math.PI) / N);
      const abx = b[0] - a[0], abz = b[1] - a[1], bcx = c[0] - b[0], bcz = c[1] - b[1];
      const cross = Math.abs(abz * bcx - abx * bcz);
      const den = Math.hypot(abx, abz) * Math.hypot(bcx, bcz) * Math.hypot(c[0] - a[0], c[1] - a[1]);
      if (den > 0 && (2 * cross) / den > 1 / CIRCUIT_MIN_RADIUS_M) ok = false;
    }
    if (ok) return { at, amps };
  }
  throw new TerrainError('<circuit generator>', 'radiusM', `a radius giving corners ≥ ${CIRCUIT_MIN_RADIUS_M} m`, String(radiusM));
}

/** sin²(πσ): 0 with zero slope at both ends, 1 at the middle. */
const bump = (t: number): number => (t <= 0 || t >= 1 ? 0 : dsin(Math.PI * t) ** 2);

/** Largest distance from a road's centreline that the carving touches (edge + shoulder + falloff), m. */
const carveReach = (halfW: number): number => halfW + 2 + 10;

/** The largest heading change per metre (rad/m) over `span` m of road from `leaveD`, sampled every 4 m. */
function sectionCurvature(road: Road, leaveD: number, span: number, pose: { x: number; y: number; z: number; heading: number; width: number }): number {
  let curv = 0;
  let h0 = NaN;
  for (let d = 0; d <= span; d += 4) {
    road.poseAt(leaveD + d, pose);
    if (!Number.isNaN(h0)) {
      let dh = pose.heading - h0;
      dh -= 2 * Math.PI * Math.round(dh / (2 * Math.PI));
      curv = Math.max(curv, Math.abs(dh) / 4);
    }
    h0 = pose.heading;
  }
  return curv;
}

/**
 * Picks the joker branch before the terrain is carved: a section 30–80 % of the lap after the start (clear of
 * the checkpoints) where a branch `offset(σ) = offsetM · sin²(πσ)` to one side of the main centreline, over
 * `spanM` of main road, is ≥ 5 m longer than the main line (the outside of a bend, never a shortcut), stays in
 * the map, and whose carved corridor (its edge + shoulder + falloff) is nearer to this section of the main road
 * than to any other. Among those, the straightest main section with the least cut and fill wins.
 * Deterministic; pure.
 */
export function planJoker(
  road: Road,
  startD: number,
  lapM: number,
  natAt: (x: number, z: number) => number,
  roadH: (lapD: number) => number,
  bounds: { x0: number; z0: number; x1: number; z1: number },
  opts: { widthM: number; spanM: number; offsetM: number; avoidLapD: number[] },
): JokerPlan {
  const { spanM: span, offsetM: D } = opts;
  const reach = carveReach(opts.widthM / 2);
  const pose = { x: 0, y: 0, z: 0, heading: 0, width: 0 };
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  const lapOf = (d: number): number => ((((d - startD) % lapM) + lapM) % lapM);
  /** Main-road point at polyline distance d, offset o to the left. */
  const at = (d: number, o: number, out: number[]): void => {
    road.poseAt(d, pose);
    out[0] = pose.x + o * dcos(pose.heading);
    out[1] = pose.z - o * dsin(pose.heading);
  };
  const q = [0, 0];
  let best: { leaveD: number; side: number; score: number } | null = null;
  for (let f = 0.3; f <= 0.8 + 1e-9; f += 10 / lapM) {
    const leaveD = Math.round((startD + f * lapM) * 10) / 10;
    const lapA = lapOf(leaveD);
    if (opts.avoidLapD.some((c) => c > lapA - 15 && c < lapA + span + 15)) continue;
    for (const side of [1, -1]) {
      let ok = true;
      let blen = 0;
      let cut = 0;
      const prev = [NaN, NaN];
      for (let d = 0; d <= span && ok; d += 2) {
        const o = side * D * bump(d / span);
        at(leaveD + d, o, q);
        if (d > 0) blen += Math.hypot(q[0]! - prev[0]!, q[1]! - prev[1]!);
        prev[0] = q[0]!;
        prev[1] = q[1]!;
        cut += Math.abs(natAt(q[0]!, q[1]!) - roadH(lapOf(leaveD + d)));
        // the whole carved corridor across the branch: in the map, nearest to this section of the main road
        for (const k of [-reach, 0, reach]) {
          at(leaveD + d, o + side * k, q);
          if (q[0]! < bounds.x0 || q[0]! > bounds.x1 || q[1]! < bounds.z0 || q[1]! > bounds.z1) {
            ok = false;
            break;
          }
          road.project(q[0]!, q[1]!, proj);
          let ds = lapOf(proj.distanceM) - lapOf(leaveD + d);
          ds -= lapM * Math.round(ds / lapM);
          if (Math.abs(ds) > 40) {
            ok = false;
            break;
          }
        }
      }
      if (!ok || blen - span < 5) continue;
      // a branch off a straight-ish section (off a corner it would be a shortcut or a hairpin)
      const curv = sectionCurvature(road, leaveD, span, pose);
      const score = 2 * curv + (0.01 * cut) / (span / 2 + 1);
      if (!best || score < best.score - 1e-12) best = { leaveD, side, score };
    }
  }
  if (!best) throw new TerrainError('<circuit generator>', 'joker', 'room beside the loop for a joker branch', 'none (try another seed or a smaller radius)');
  const { leaveD, side } = best;
  const n = 14;
  const ctrl: [number, number][] = [];
  let len = 0;
  for (let k = 0; k <= n; k++) {
    at(leaveD + (k * span) / n, side * D * bump(k / n), q);
    const p: [number, number] = [r2(q[0]!), r2(q[1]!)];
    if (k > 0) len += Math.hypot(p[0] - ctrl[k - 1]![0], p[1] - ctrl[k - 1]![1]);
    ctrl.push(p);
  }
  return { leaveD, rejoinD: leaveD + span, side, ctrl, extraM: len - span };
}

/** What the circuit's steps share: the grid (samples, cell m, origin m), the loop road and its lap. */
interface Loop {
  opts: CircuitOptions;
  size: number;
  cell: number;
  ox: number;
  oz: number;
  side: number;
  halfW: number;
  road0: Road;
  startD: number;
  lapM: number;
  /** Lap distance (m from the start line) of polyline distance d. */
  lapIdx: (d: number) => number;
}

/** The joker road as the carving and scenery see it: half width (m) and distance from its centreline (m). */
interface JokerShape {
  jHalf: number;
  jokerDist: (x: number, z: number) => number;
}

const CIRCUIT_SHOULDER_M = 2;
const CIRCUIT_FALLOFF_M = 10;

export function generateCircuit(opts: CircuitOptions): GeneratedCircuit {
  const size = opts.size ?? 257;
  if (!isPow2Plus1(size)) throw new TerrainError('<circuit generator>', 'size', '2ⁿ+1 samples (e.g. 257, 513)', String(size));
  const cell = opts.cellSize ?? 2;
  const R0 = opts.radiusM ?? 140;
  const width = opts.widthM ?? 13;
  const id = opts.id ?? `rallycross-${opts.seed}`;
  const name = opts.name ?? `Rallycross ${opts.seed}`;
  const side = (size - 1) * cell;
  const ox = -side / 2, oz = -side / 2;
  if (R0 * 1.3 + width + 30 > side / 2) {
    throw new TerrainError('<circuit generator>', 'radiusM', `at most ${((side / 2 - width - 30) / 1.3).toFixed(0)} m for a ${side} m map`, String(R0));
  }
  // 1–2. control points
  const { loop, ctrl } = loopControlPoints(circuitCurve(opts.seed, R0), R0);
  // 3. terrain, road, lap
  const nat = circuitTerrain(opts.seed, size, cell, ox, oz, opts.reliefM ?? 6);
  const natAt = (x: number, z: number): number => {
    const u = Math.min(size - 1.0001, Math.max(0, (x - ox) / cell));
    const v = Math.min(size - 1.0001, Math.max(0, (z - oz) / cell));
    const i = Math.floor(u), j = Math.floor(v), a = u - i, b = v - j;
    return (1 - b) * ((1 - a) * nat[j * size + i]! + a * nat[j * size + i + 1]!) + b * ((1 - a) * nat[(j + 1) * size + i]! + a * nat[(j + 1) * size + i + 1]!);
  };
  const road0 = Road.fromControlPoints(ctrl, width, natAt);
  // start / finish: the two occurrences of control point 1 (first half / second half of the polyline)
  const half = road0.lengthM / 2;
  const startD = nearestOnPolyline(road0, loop[1]![0], loop[1]![1], 0, half);
  const finishD = nearestOnPolyline(road0, loop[1]![0], loop[1]![1], half, road0.lengthM);
  const lapM = finishD - startD;
  const lapIdx = (d: number): number => ((((d - startD) % lapM) + lapM) % lapM);
  const c: Loop = { opts, size, cell, ox, oz, side, halfW: width / 2, road0, startD, lapM, lapIdx };
  const roadH = lapHeightProfile(road0, startD, lapM, natAt);
  // 3b. the joker branch, planned before carving so that it is carved like the main road
  const jokerOpts = opts.joker === false ? null : { widthM: opts.joker?.widthM ?? 9, spanM: opts.joker?.spanM ?? 120, offsetM: opts.joker?.offsetM ?? 16 };
  const joker = jokerOpts
    ? planJoker(road0, startD, lapM, natAt, roadH, { x0: ox + 10, z0: oz + 10, x1: ox + side - 10, z1: oz + side - 10 }, { ...jokerOpts, avoidLapD: [1, 2].map((k) => (k * lapM) / 3) })
    : null;
  const js = jokerShape(joker, (jokerOpts?.widthM ?? 0) / 2);
  const hf = carveCircuit(c, nat, roadH, js);
  // 4. surfaces: sections along the lap
  const sections = surfaceSections(opts, lapM);
  const refine = 2;
  const smap = circuitSurfaceMap(c, sections, js, refine);
  // 5. checkpoints, scenery
  const scen = opts.scenery ?? true ? circuitScenery(c, js) : [];

  const hpng = hf.toPng();
  const names = { stageToml: 'stage.toml', heightPng: 'height.png', surfacePng: 'surface.png' };
  const jHalf = js.jHalf;
  const toml: StageToml = {
    format: 1,
    id,
    name,
    surface: 'tarmac',
    seed: opts.seed,
    heightmap: { file: names.heightPng, size, cell_size_m: cell, height_scale_m: hpng.heightScale, height_offset_m: hpng.heightOffset, origin_x_m: ox, origin_z_m: oz },
    surface_map: { file: names.surfacePng, cell_size_m: cell / refine, origin_x_m: ox, origin_z_m: oz },
    detail: { enabled: true, seed: (opts.seed % 100000) + 1, cell_size_m: 0.35, scale: 0.5 },
    road: { width_m: width, points: ctrl, start_distance_m: Math.round(startD * 10) / 10, finish_distance_m: Math.round(finishD * 10) / 10 },
    checkpoints: [1, 2].map((k) => ({ distance_m: Math.round((startD + (k * lapM) / 3) * 10) / 10 })),
    ...(joker ? { joker: { width_m: 2 * jHalf, surface: 'gravel' as const, leave_distance_m: joker.leaveD, rejoin_distance_m: Math.round(joker.rejoinD * 10) / 10, gate_radius_m: 5, points: joker.ctrl } } : {}),
    scenery: scen,
  };
  const files: StageFiles = { stageToml: stageTomlToString(toml), heightPng: hpng.bytes, surfacePng: smap.toPng() };
  const stage = loadStage(files, `${id}/stage.toml`);
  files.paceNotesToml = formatPaceNotes(stage.paceNotes, { stageId: stage.id });
  return { files, names, stage, lapM: stage.lengthM, sections, joker };
}

/** Control points every ~12 m of arc, closed by repeating the first three. */
function loopControlPoints(curve: ReturnType<typeof circuitCurve>, R0: number): { loop: [number, number][]; ctrl: [number, number][] } {
  const approxLen = 2 * Math.PI * R0;
  const m = Math.max(24, Math.round(approxLen / 12));
  const loop: [number, number][] = [];
  for (let i = 0; i < m; i++) {
    const p = curve.at((2 * Math.PI * i) / m);
    loop.push([r2(p[0]), r2(p[1])]);
  }
  return { loop, ctrl: [...loop, loop[0]!, loop[1]!, loop[2]!] };
}

/** Gentle rolling terrain: two octaves of noise, `relief` m. */
function circuitTerrain(seed: number, size: number, cell: number, ox: number, oz: number, relief: number): Float32Array {
  const noise = createNoise2D(createRng((seed ^ 0x51a7) >>> 0));
  const nat = new Float32Array(size * size);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const x = ox + i * cell, z = oz + j * cell;
      nat[j * size + i] = relief * (0.7 * noise(x / 260, z / 260) + 0.3 * noise(x / 90 + 7.1, z / 90 - 3.3));
    }
  }
  return nat;
}

/** Polyline distance of the nearest point to (x, z) on the road's segments whose start lies in [from, to]. */
function nearestOnPolyline(road0: Road, x: number, z: number, from: number, to: number): number {
  let best = Infinity, bd = 0;
  const p = road0.points;
  for (let k = 0; k < road0.count - 1; k++) {
    const d0 = road0.distances[k]!;
    if (d0 < from || d0 > to) continue;
    const ax = p[3 * k]!, az = p[3 * k + 2]!, ex = p[3 * k + 3]! - ax, ez = p[3 * k + 5]! - az;
    const l2 = ex * ex + ez * ez;
    const f = l2 > 0 ? Math.min(1, Math.max(0, ((x - ax) * ex + (z - az) * ez) / l2)) : 0;
    const q = Math.hypot(ax + f * ex - x, az + f * ez - z);
    if (q < best) {
      best = q;
      bd = d0 + f * (road0.distances[k + 1]! - d0);
    }
  }
  return bd;
}

/** Moving average over a circular array (radius r samples). */
function circSmooth(a: Float64Array, r: number): Float64Array {
  const o = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) {
    let s = 0;
    for (let d = -r; d <= r; d++) s += a[(i + d + a.length) % a.length]!;
    o[i] = s / (2 * r + 1);
  }
  return o;
}

/** Road height (m) at a lap distance: natural height, smoothed (circular), grade-limited to 6 %. */
function lapHeightProfile(road0: Road, startD: number, lapM: number, natAt: (x: number, z: number) => number): (lapD: number) => number {
  const NB = Math.max(64, Math.round(lapM / 2));
  const prof = new Float64Array(NB);
  const tmp = { x: 0, y: 0, z: 0, heading: 0, width: 0 };
  for (let b = 0; b < NB; b++) {
    road0.poseAt(startD + (b * lapM) / NB, tmp);
    prof[b] = natAt(tmp.x, tmp.z);
  }
  let hr = circSmooth(circSmooth(prof, 20), 20);
  const ds = lapM / NB;
  for (let pass = 0; pass < 6; pass++) {
    for (let b = 0; b < 2 * NB; b++) {
      const i = b % NB, k = (b + 1) % NB;
      hr[k] = Math.min(hr[i]! + 0.06 * ds, Math.max(hr[i]! - 0.06 * ds, hr[k]!));
    }
    for (let b = 2 * NB; b > 0; b--) {
      const i = b % NB, k = (b - 1) % NB;
      hr[k] = Math.min(hr[i]! + 0.06 * ds, Math.max(hr[i]! - 0.06 * ds, hr[k]!));
    }
  }
  hr = circSmooth(hr, 3);
  return (lapD: number): number => {
    const f = (lapD / lapM) * NB;
    const i = Math.floor(f) % NB, k = (i + 1) % NB, t = f - Math.floor(f);
    return hr[i]! + t * (hr[k]! - hr[i]!);
  };
}

/** The joker's centreline (what loadStage builds from the [joker] control points) and a bounded distance to it. */
function jokerShape(joker: JokerPlan | null, jHalf: number): JokerShape {
  const jokerRoad = joker ? Road.fromControlPoints(joker.ctrl, 2 * jHalf, () => 0) : null;
  const jBox = { x0: Infinity, z0: Infinity, x1: -Infinity, z1: -Infinity };
  if (jokerRoad) {
    const reach = carveReach(jHalf) + 2;
    for (let k = 0; k < jokerRoad.count; k++) {
      jBox.x0 = Math.min(jBox.x0, jokerRoad.points[3 * k]! - reach);
      jBox.x1 = Math.max(jBox.x1, jokerRoad.points[3 * k]! + reach);
      jBox.z0 = Math.min(jBox.z0, jokerRoad.points[3 * k + 2]! - reach);
      jBox.z1 = Math.max(jBox.z1, jokerRoad.points[3 * k + 2]! + reach);
    }
  }
  const jProj = { distanceM: 0, lateralM: 0, index: 0 };
  const jPose = { x: 0, y: 0, z: 0, heading: 0, width: 0 };
  /** Distance from (x, z) to the joker's centreline (Euclidean: the branch is an open curve), ∞ far away. */
  const jokerDist = (x: number, z: number): number => {
    if (!jokerRoad || x < jBox.x0 || x > jBox.x1 || z < jBox.z0 || z > jBox.z1) return Infinity;
    jokerRoad.project(x, z, jProj);
    jokerRoad.poseAt(jProj.distanceM, jPose);
    return Math.hypot(x - jPose.x, z - jPose.z);
  };
  return { jHalf, jokerDist };
}

function carveCircuit(c: Loop, nat: Float32Array, roadH: (lapD: number) => number, js: JokerShape): Heightfield {
  const { size, cell, ox, oz, road0, halfW, lapIdx } = c;
  const shoulder = CIRCUIT_SHOULDER_M, falloff = CIRCUIT_FALLOFF_M;
  const heights = new Float32Array(size * size);
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const x = ox + i * cell, z = oz + j * cell;
      const idx = j * size + i;
      road0.project(x, z, proj);
      // distance outside the nearest road surface (main road or joker); both take their height from the main
      // road's profile at the nearest main-road point, so the joker joins without a step and the main road's
      // own surface is carved exactly as without a joker
      const e = Math.max(0, Math.min(Math.abs(proj.lateralM) - halfW, js.jokerDist(x, z) - js.jHalf));
      if (e > shoulder + 3 * falloff) {
        heights[idx] = nat[idx]!;
        continue;
      }
      const target = roadH(lapIdx(proj.distanceM)) - 0.04 * Math.min(shoulder, e);
      const w = 1 - smoothstep((e - shoulder) / falloff);
      heights[idx] = nat[idx]! + w * (target - nat[idx]!);
    }
  }
  return Heightfield.fromFloat32(heights, size, size, { cellSize: cell, origin: { x: ox, z: oz } });
}

/** Alternate tarmac / gravel sections (lap distance, surface), lengths jittered; the start straight is tarmac. */
function surfaceSections(opts: CircuitOptions, lapM: number): [number, SurfaceId][] {
  const nSec = Math.max(2, Math.round((opts.surfaceSections ?? 4) / 2) * 2);
  const tarmacFrac = opts.tarmacFraction ?? 0.55;
  const sections: [number, SurfaceId][] = [];
  const secRng = createRng((opts.seed ^ 0x5ec) >>> 0);
  const pairs = nSec / 2;
  let at = 0;
  for (let p = 0; p < pairs; p++) {
    const pairLen = lapM / pairs;
    const tl = pairLen * tarmacFrac * randRange(secRng, 0.85, 1.15);
    sections.push([r2(at), 'tarmac']);
    sections.push([r2(at + tl), 'gravel']);
    at += pairLen;
  }
  return sections;
}

/** The loop's sections, the gravel joker and a gravel run-off strip on grass, `refine` × finer than heights. */
function circuitSurfaceMap(c: Loop, sections: [number, SurfaceId][], js: JokerShape, refine: number): SurfaceMap {
  const { size, cell, ox, oz, road0, halfW, lapIdx } = c;
  const { jHalf, jokerDist } = js;
  const surfaceAt = (lapD: number): SurfaceId => {
    let s: SurfaceId = sections[0]![1];
    for (const [d, id2] of sections) if (lapD >= d) s = id2;
    return s;
  };
  const sSize = (size - 1) * refine + 1;
  const sCell = cell / refine;
  const codes = new Uint8Array(sSize * sSize).fill(surfaceCode('grass'));
  const gravelC = surfaceCode('gravel');
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  for (let j = 0; j < sSize; j++) {
    for (let i = 0; i < sSize; i++) {
      const x = ox + i * sCell, z = oz + j * sCell;
      road0.project(x, z, proj);
      const dist = Math.abs(proj.lateralM);
      const dj = jokerDist(x, z);
      if (dist <= halfW) codes[j * sSize + i] = surfaceCode(surfaceAt(lapIdx(proj.distanceM)));
      else if (dj <= jHalf) codes[j * sSize + i] = gravelC; // the joker road
      else if (dist <= halfW + 0.8 || dj <= jHalf + 0.8) codes[j * sSize + i] = gravelC; // run-off strip
    }
  }
  return new SurfaceMap(sSize, sSize, sCell, { x: ox, z: oz }, codes);
}

/** Markers both sides every 10 m (none on the joker), the start arch, and trees clear of both roads. */
function circuitScenery(c: Loop, js: JokerShape): StageToml['scenery'] {
  const { ox, oz, side, road0, halfW, startD, lapM } = c;
  const { jHalf, jokerDist } = js;
  const shoulder = CIRCUIT_SHOULDER_M;
  const scen: StageToml['scenery'] = [];
  const markers: [number, number, number, number][] = [];
  const trees: [number, number, number, number][] = [];
  const arches: [number, number, number, number][] = [];
  const pose = { x: 0, y: 0, z: 0, heading: 0, width: 0 };
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  for (let d = 0; d < lapM; d += 10) {
    road0.poseAt(startD + d, pose);
    const lx = dcos(pose.heading), lz = -dsin(pose.heading);
    const off = halfW + shoulder + 2;
    const deg = Math.round((pose.heading * 180) / Math.PI);
    for (const sgn of [1, -1]) {
      const mx = pose.x + sgn * off * lx, mz = pose.z + sgn * off * lz;
      // none on (or right beside) the joker road
      if (jokerDist(mx, mz) < jHalf + 1.5) continue;
      markers.push([Math.round(mx * 10) / 10, Math.round(mz * 10) / 10, deg, 1]);
    }
  }
  road0.poseAt(startD, pose);
  arches.push([Math.round(pose.x * 10) / 10, Math.round(pose.z * 10) / 10, Math.round((pose.heading * 180) / Math.PI), 1]);
  const trng = createRng((c.opts.seed ^ 0x7ee) >>> 0);
  for (let k = 0; k < 400; k++) {
    const x = ox + 20 + trng() * (side - 40), z = oz + 20 + trng() * (side - 40);
    road0.project(x, z, proj);
    if (Math.abs(proj.lateralM) < halfW + shoulder + 14 || jokerDist(x, z) < jHalf + shoulder + 6) continue;
    trees.push([Math.round(x * 10) / 10, Math.round(z * 10) / 10, Math.round(trng() * 360), Math.round((0.8 + 0.4 * trng()) * 100) / 100]);
  }
  scen.push({ kind: 'marker', radius_m: 0.3, height_m: 1, items: markers });
  scen.push({ kind: 'arch', radius_m: 0.4, height_m: 6, items: arches });
  if (trees.length) scen.push({ kind: 'tree', radius_m: 0.4, height_m: 12, items: trees });
  return scen;
}

/** True when a stage is a closed circuit: its finish pose coincides with its start pose (within 1 m). */
export function isCircuit(stage: Stage): boolean {
  return Math.hypot(stage.finish.x - stage.start.x, stage.finish.z - stage.start.z) < 1 && stage.lengthM > 50;
}

/** The shipped rallycross circuit (src/content/stages/rallycross-bitring/). */
export const SHIPPED_CIRCUITS: readonly (CircuitOptions & { id: string })[] = [
  { id: 'rallycross-bitring', name: 'BitRing rallycross (tarmac + gravel)', seed: 808 },
];
