/**
 * Stage files: `stage.toml` (schema below, validated with zod) + a 16-bit heightmap PNG + an 8-bit surface
 * code PNG. The format is documented in terrain/README.md. `loadStage` is pure (no fs): the caller passes
 * the file contents; `terrain/node.ts` reads them from a directory.
 */
import { z } from 'zod';
import { parseTomlFile } from '../src/validate/errors';
import { inRange, intInRange } from '../src/validate/ranges';
import { BSplineSurface, DetailLayer } from './bspline';
import { TerrainError } from './errors';
import { DITCH_DEPTH_RANGE_M, DITCH_WIDTH_RANGE_M } from './ditch';
import { Heightfield, HEIGHTMAP_MAX_SIDE } from './heightfield';
import { checkStageToml, checkInsideHeightmap } from './stage-checks';
import { STAGE_LIMITS } from './stage-limits';
import { createRng } from './prng';
import { Road, type RoadProjection } from './road';
import { SURFACE_IDS, SurfaceMap, type SurfaceId } from './surface';
import { checkPaceNotesOnStage, parsePaceNotes } from './pacenotes/file';
import { generatePaceNotes } from './pacenotes/generate';
import type { PaceNote } from './pacenotes/types';

export const SCENERY_KINDS = ['tree', 'rock', 'fence', 'marker', 'arch', 'bush', 'post'] as const;
export type SceneryKind = (typeof SCENERY_KINDS)[number];

const S = STAGE_LIMITS;
const coord = inRange(-S.coordM, S.coordM, 'm');
const xz = z.tuple([coord, coord]);
const cellSize = inRange(S.cellSizeM[0], S.cellSizeM[1], 'm');
const roadWidth = inRange(S.roadWidthM[0], S.roadWidthM[1], 'm');
const distance = inRange(0, S.distanceM, 'm');
const seed = intInRange(-(2 ** 31), 2 ** 32 - 1);
/** A PNG beside stage.toml: a plain file name, never a path (nothing outside the stage folder is read). */
const pngName = z.string().max(S.fileChars).regex(/^[^/\\:]+\.png$/i, 'a PNG file name in the stage folder (no path)');

export const StageTomlSchema = z
  .strictObject({
    format: z.literal(1),
    id: z.string().max(S.idChars).regex(/^[a-z0-9][a-z0-9-]*$/, 'a lowercase id like "forest-gravel"'),
    name: z.string().min(1).max(S.nameChars),
    surface: z.enum(SURFACE_IDS as [SurfaceId, ...SurfaceId[]]),
    seed: seed.optional(),
    heightmap: z.strictObject({
      file: pngName,
      size: intInRange(2, HEIGHTMAP_MAX_SIDE, 'samples').optional(),
      cell_size_m: cellSize,
      height_scale_m: inRange(0, S.heightScaleM, 'm'),
      height_offset_m: inRange(-S.heightOffsetM, S.heightOffsetM, 'm'),
      origin_x_m: coord.default(0),
      origin_z_m: coord.default(0),
    }),
    surface_map: z.strictObject({
      file: pngName,
      cell_size_m: cellSize,
      origin_x_m: coord.default(0),
      origin_z_m: coord.default(0),
    }),
    detail: z
      .strictObject({
        enabled: z.boolean().default(true),
        seed: seed.default(1),
        cell_size_m: inRange(S.detailCellM[0], S.detailCellM[1], 'm').default(0.35),
        scale: inRange(0, S.detailScale).default(1),
      })
      .optional(),
    road: z.strictObject({
      width_m: roadWidth,
      widths_m: z.array(roadWidth).max(S.roadPoints).optional(),
      points: z.array(xz).min(2).max(S.roadPoints),
      start_distance_m: distance.default(0),
      finish_distance_m: inRange(1e-3, S.distanceM, 'm').optional(),
    }),
    checkpoints: z
      .array(z.strictObject({ distance_m: distance, width_m: inRange(S.gateWidthM[0], S.gateWidthM[1], 'm').optional() }))
      .max(S.checkpoints)
      .default([]),
    /** Rallycross joker branch (closed circuits): a second, surfaced road that leaves the main road at
     * `leave_distance_m` and rejoins it at `rejoin_distance_m` (distances along the road, like checkpoints). */
    joker: z
      .strictObject({
        width_m: roadWidth,
        surface: z.enum(SURFACE_IDS as [SurfaceId, ...SurfaceId[]]).default('gravel'),
        leave_distance_m: distance,
        rejoin_distance_m: distance,
        /** A car takes the joker when its centre passes within this distance of the branch's middle. */
        gate_radius_m: inRange(S.jokerGateRadiusM[0], S.jokerGateRadiusM[1], 'm').default(5),
        /** Centreline control points [x_m, z_m] from the leave point to the rejoin point (Catmull-Rom, 2 m). */
        points: z.array(xz).min(4).max(S.jokerPoints),
      })
      .optional(),
    scenery: z
      .array(
        z.strictObject({
          kind: z.enum(SCENERY_KINDS),
          radius_m: inRange(S.sceneryRadiusM[0], S.sceneryRadiusM[1], 'm'),
          height_m: inRange(S.sceneryHeightM[0], S.sceneryHeightM[1], 'm'),
          /** [x, z, rot_y_deg, scale] */
          items: z.array(z.tuple([coord, coord, inRange(-S.angleDeg, S.angleDeg, '°'), inRange(S.sceneryScale[0], S.sceneryScale[1])])).max(S.sceneryItems),
        }),
      )
      .max(S.sceneryGroups)
      .default([]),
    /** How the stage generator made this stage (terrain/generate.ts): enough to regenerate it byte for byte. */
    generator: z
      .strictObject({
        version: intInRange(1, S.generatorVersion),
        seed,
        length_km: inRange(S.generatorLengthKm[0], S.generatorLengthKm[1], 'km'),
        style: z.enum(['gravel', 'tarmac', 'snow']),
        size: intInRange(2, HEIGHTMAP_MAX_SIDE, 'samples'),
        cell_size_m: cellSize,
        relief: inRange(0, S.generatorRelief),
        surface_refine: intInRange(1, S.generatorSurfaceRefine),
        scenery: z.boolean(),
        checkpoints_m: z.array(distance).max(S.checkpoints).optional(),
        mix_surface: z.enum(SURFACE_IDS as [SurfaceId, ...SurfaceId[]]).optional(),
        mix_fraction: inRange(0, 1).optional(),
        /** Ditch depth and width (terrain/ditch.ts; depth 0: no ditch; absent: the default). */
        ditch_depth_m: inRange(0, DITCH_DEPTH_RANGE_M[1], 'm').optional(),
        ditch_width_m: inRange(DITCH_WIDTH_RANGE_M[0], DITCH_WIDTH_RANGE_M[1], 'm').optional(),
      })
      .optional(),
  })
  // cross-field checks only once every key is valid (stage-checks.ts)
  .superRefine(checkStageToml, { when: (payload) => payload.issues.length === 0 });
export type StageToml = z.infer<typeof StageTomlSchema>;

export interface StagePose {
  distanceM: number;
  x: number;
  y: number;
  z: number;
  /** Rotation about +Y, forward = (sin θ, 0, cos θ). */
  heading: number;
  width: number;
}

export type Checkpoint = StagePose;

/** The joker branch of a rallycross circuit (stage.toml `[joker]`), the single source of its geometry. */
export interface StageJoker {
  /** Centreline (2 m spacing, y on the macro surface), from the leave point to the rejoin point. */
  road: Road;
  widthM: number;
  surface: SurfaceId;
  /** Main-road distances (same origin as start_distance_m) where the branch leaves and rejoins. */
  leaveDistanceM: number;
  rejoinDistanceM: number;
  /** Gate at the middle of the branch and its radius, m. */
  gateX: number;
  gateZ: number;
  gateRadiusM: number;
}

/** Largest distance between the joker's end control points and the main road centreline at leave/rejoin, m. */
export const JOKER_JOIN_TOLERANCE_M = 0.5;

export interface SceneryItem {
  kind: SceneryKind;
  x: number;
  y: number;
  z: number;
  rotY: number;
  scale: number;
  /** Trees/rocks/markers: size; fences: half length; arches (start/finish gantries, placed on the road
   * centre): half the gantry span, road half-width + GANTRY_MARGIN_M, where its two posts stand. */
  radius: number;
  height: number;
}

/** A start/finish gantry's posts stand this far outside the road edge (drawn and collided the same). */
export const GANTRY_MARGIN_M = 1.5;

export interface StageRoad {
  /** Centreline xyz at ~2 m spacing. */
  points: Float64Array;
  widths: Float32Array;
  /** Cumulative distance at each point, m. */
  distances: Float64Array;
  lengthM: number;
  /** Nearest centreline point: distance along and signed lateral offset (left positive). */
  project(x: number, z: number, out?: RoadProjection): RoadProjection;
  poseAt(distanceM: number): StagePose;
  /** The underlying polyline object. */
  polyline: Road;
}

export interface Stage {
  id: string;
  name: string;
  surface: SurfaceId;
  /** Start-to-finish distance along the road, m. */
  lengthM: number;
  heightfield: Heightfield;
  surfaceMap: SurfaceMap;
  bspline: BSplineSurface;
  road: StageRoad;
  start: StagePose;
  finish: StagePose;
  checkpoints: Checkpoint[];
  /** The joker branch (`[joker]`), or null when the stage has none. */
  joker: StageJoker | null;
  scenery: SceneryItem[];
  /** The validated stage.toml contents. */
  config: StageToml;
  /** The co-driver's notes, start to finish in road order: from pacenotes.toml when the stage has one, else
   * generated from the road (terrain/pacenotes, on first use). */
  paceNotes: PaceNote[];
}

export interface StageFiles {
  stageToml: string;
  heightPng: Uint8Array;
  surfacePng: Uint8Array;
  /** `pacenotes.toml` beside stage.toml, when the stage has one. Not part of the stage's content hash (replays). */
  paceNotesToml?: string;
}

/** The file name of a stage's pace notes, beside its stage.toml. */
export const PACE_NOTES_FILE = 'pacenotes.toml';

function valueAt(obj: unknown, path: PropertyKey[]): unknown {
  let o: unknown = obj;
  for (const k of path) {
    if (o === null || typeof o !== 'object') return undefined;
    o = (o as Record<PropertyKey, unknown>)[k];
  }
  return o;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
}

/**
 * Parses and validates stage.toml text. Size and nesting are capped before parsing (parseTomlFile, a ContentError);
 * a schema problem is a TerrainError naming the first bad key.
 */
export function parseStageToml(text: string, fileName: string): StageToml {
  const raw = parseTomlFile(text, fileName);
  const r = StageTomlSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const expected = issue.message.replace(/^expected /, '');
    throw new TerrainError(fileName, issue.path.map(String).join('.') || '(root)', expected, show(valueAt(raw, issue.path)));
  }
  return r.data;
}

function dirOf(fileName: string): string {
  const k = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  return k >= 0 ? fileName.slice(0, k + 1) : '';
}

/** Builds a Stage from the contents of its three files. `fileName` is the stage.toml path (for errors). */
export function loadStage(files: StageFiles, fileName: string): Stage {
  const cfg = parseStageToml(files.stageToml, fileName);
  const dir = dirOf(fileName);
  const hm = cfg.heightmap;
  const hf = Heightfield.fromPng(
    files.heightPng,
    { cellSize: hm.cell_size_m, heightScale: hm.height_scale_m, heightOffset: hm.height_offset_m, origin: { x: hm.origin_x_m, z: hm.origin_z_m }, size: hm.size },
    dir + hm.file,
  );
  const sm = cfg.surface_map;
  const surfaceMap = SurfaceMap.fromPng(files.surfacePng, { cellSize: sm.cell_size_m, origin: { x: sm.origin_x_m, z: sm.origin_z_m } }, dir + sm.file);
  let detail: DetailLayer | null = null;
  if (cfg.detail?.enabled && cfg.detail.scale > 0) {
    const d = cfg.detail;
    const weight = surfaceMap.field('detailAmplitudeM', hf.width);
    detail = DetailLayer.random(createRng(d.seed), { cellSize: d.cell_size_m, amplitude: d.scale, weight });
  }
  const bspline = new BSplineSurface(hf, detail);
  const rd = cfg.road;
  checkInsideHeightmap(rd.points, hf, 'road.points', fileName);
  cfg.scenery.forEach((g, k) => checkInsideHeightmap(g.items, hf, `scenery.${k}.items`, fileName));
  const poly = Road.fromControlPoints(rd.points, rd.widths_m ?? rd.width_m, (x, zz) => bspline.heightMacro(x, zz));
  const poseAt = (d: number): StagePose => {
    const p = poly.poseAt(d);
    return { distanceM: Math.max(0, Math.min(poly.lengthM, d)), x: p.x, y: p.y, z: p.z, heading: p.heading, width: p.width };
  };
  const finishD = rd.finish_distance_m ?? poly.lengthM;
  if (finishD > poly.lengthM + 1e-6) {
    throw new TerrainError(fileName, 'road.finish_distance_m', `at most the road length ${poly.lengthM.toFixed(1)} m`, String(finishD));
  }
  if (rd.start_distance_m >= finishD) {
    throw new TerrainError(fileName, 'road.start_distance_m', `less than the finish distance ${finishD} m`, String(rd.start_distance_m));
  }
  const checkpoints = cfg.checkpoints.map((c, k) => {
    if (c.distance_m <= rd.start_distance_m || c.distance_m >= finishD) {
      throw new TerrainError(fileName, `checkpoints.${k}.distance_m`, `a distance between start (${rd.start_distance_m}) and finish (${finishD.toFixed(1)})`, String(c.distance_m));
    }
    const p = poseAt(c.distance_m);
    if (c.width_m !== undefined) p.width = c.width_m;
    return p;
  });
  const joker = cfg.joker ? loadJoker(cfg.joker, fileName, rd.start_distance_m, finishD, hf, poseAt, (x, zz) => bspline.heightMacro(x, zz)) : null;
  const scenery = placeScenery(cfg.scenery, poly, (x, zz) => bspline.heightMacro(x, zz));
  const road: StageRoad = {
    points: poly.points,
    widths: poly.widths,
    distances: poly.distances,
    lengthM: poly.lengthM,
    project: (x, zz, out) => poly.project(x, zz, out),
    poseAt,
    polyline: poly,
  };
  const lengthM = finishD - rd.start_distance_m;
  let paceNotes = readPaceNotes(files, cfg, dir, finishD);
  const stage: Stage = {
    id: cfg.id,
    name: cfg.name,
    surface: cfg.surface,
    lengthM,
    heightfield: hf,
    surfaceMap,
    bspline,
    road,
    start: poseAt(rd.start_distance_m),
    finish: poseAt(finishD),
    checkpoints,
    joker,
    scenery,
    config: cfg,
    get paceNotes(): PaceNote[] {
      return (paceNotes ??= generatePaceNotes(stage));
    },
  };
  return stage;
}

/** Scenery items on the ground; an arch spans the road, its posts outside the road edges. */
function placeScenery(groups: StageToml['scenery'], poly: Road, heightAt: (x: number, z: number) => number): SceneryItem[] {
  const scenery: SceneryItem[] = [];
  for (const g of groups) {
    for (const [x, zz, rot, scale] of g.items) {
      // an arch spans the road: its posts go outside the road edges, not radius_m either side of the centre
      const radius = g.kind === 'arch' ? poly.poseAt(poly.project(x, zz).distanceM).width / 2 + GANTRY_MARGIN_M : g.radius_m * scale;
      scenery.push({ kind: g.kind, x, y: heightAt(x, zz), z: zz, rotY: (rot * Math.PI) / 180, scale, radius, height: g.height_m * scale });
    }
  }
  return scenery;
}

/** The notes of pacenotes.toml (checked against the stage's id and extent), or null when the stage has none. */
function readPaceNotes(files: StageFiles, cfg: StageToml, dir: string, finishD: number): PaceNote[] | null {
  if (files.paceNotesToml === undefined) return null;
  const file = dir + PACE_NOTES_FILE;
  const notes = parsePaceNotes(files.paceNotesToml, file, cfg.id);
  checkPaceNotesOnStage(notes, cfg.road.start_distance_m, finishD, file);
  return notes;
}

/** Validates `[joker]` against the main road and builds its centreline. */
function loadJoker(
  j: NonNullable<StageToml['joker']>,
  fileName: string,
  startD: number,
  finishD: number,
  hf: Heightfield,
  poseAt: (d: number) => StagePose,
  heightAt: (x: number, z: number) => number,
): StageJoker {
  if (j.leave_distance_m <= startD || j.leave_distance_m >= finishD) {
    throw new TerrainError(fileName, 'joker.leave_distance_m', `a distance between start (${startD}) and finish (${finishD.toFixed(1)})`, String(j.leave_distance_m));
  }
  if (j.rejoin_distance_m < j.leave_distance_m + 20 || j.rejoin_distance_m >= finishD) {
    throw new TerrainError(fileName, 'joker.rejoin_distance_m', `a distance ≥ leave_distance_m + 20 (${j.leave_distance_m + 20}) and before the finish (${finishD.toFixed(1)})`, String(j.rejoin_distance_m));
  }
  checkInsideHeightmap(j.points, hf, 'joker.points', fileName);
  const ends: [number, string, number][] = [
    [0, 'leave_distance_m', j.leave_distance_m],
    [j.points.length - 1, 'rejoin_distance_m', j.rejoin_distance_m],
  ];
  for (const [k, key, d] of ends) {
    const p = poseAt(d);
    const [x, zz] = j.points[k]!;
    const gap = Math.hypot(x - p.x, zz - p.z);
    if (gap > JOKER_JOIN_TOLERANCE_M) {
      throw new TerrainError(
        fileName,
        `joker.points.${k}`,
        `the road centreline at joker.${key} = ${d} m, (${p.x.toFixed(2)}, ${p.z.toFixed(2)}), within ${JOKER_JOIN_TOLERANCE_M} m`,
        `${show([x, zz])}, ${gap.toFixed(2)} m away`,
      );
    }
  }
  const road = Road.fromControlPoints(j.points, j.width_m, heightAt);
  const gate = road.poseAt(road.lengthM / 2);
  return {
    road,
    widthM: j.width_m,
    surface: j.surface,
    leaveDistanceM: j.leave_distance_m,
    rejoinDistanceM: j.rejoin_distance_m,
    gateX: gate.x,
    gateZ: gate.z,
    gateRadiusM: j.gate_radius_m,
  };
}

function f(v: number, digits = 2): string {
  const s = v.toFixed(digits);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '.0') : s;
}

/** Writes a StageToml deterministically (fixed key order and number formatting). */
export function stageTomlToString(c: StageToml): string {
  const L: string[] = [];
  const q = (s: string): string => JSON.stringify(s);
  L.push('# BitRally stage (format documented in terrain/README.md)');
  L.push(`format = ${c.format}`, `id = ${q(c.id)}`, `name = ${q(c.name)}`, `surface = ${q(c.surface)}`);
  if (c.seed !== undefined) L.push(`seed = ${c.seed}`);
  const hm = c.heightmap;
  L.push('', '[heightmap]', `file = ${q(hm.file)}`);
  if (hm.size !== undefined) L.push(`size = ${hm.size}`);
  L.push(`cell_size_m = ${f(hm.cell_size_m, 4)}`, `height_scale_m = ${f(hm.height_scale_m, 4)}`, `height_offset_m = ${f(hm.height_offset_m, 4)}`);
  L.push(`origin_x_m = ${f(hm.origin_x_m, 4)}`, `origin_z_m = ${f(hm.origin_z_m, 4)}`);
  const sm = c.surface_map;
  L.push('', '[surface_map]', `file = ${q(sm.file)}`, `cell_size_m = ${f(sm.cell_size_m, 4)}`, `origin_x_m = ${f(sm.origin_x_m, 4)}`, `origin_z_m = ${f(sm.origin_z_m, 4)}`);
  if (c.detail) {
    const d = c.detail;
    L.push('', '[detail]', `enabled = ${d.enabled}`, `seed = ${d.seed}`, `cell_size_m = ${f(d.cell_size_m, 4)}`, `scale = ${f(d.scale, 4)}`);
  }
  const r = c.road;
  L.push('', '[road]', `width_m = ${f(r.width_m)}`, `start_distance_m = ${f(r.start_distance_m, 1)}`);
  if (r.finish_distance_m !== undefined) L.push(`finish_distance_m = ${f(r.finish_distance_m, 1)}`);
  if (r.widths_m) L.push(`widths_m = [${r.widths_m.map((w) => f(w)).join(', ')}]`);
  L.push('# centreline control points [x_m, z_m] (centripetal Catmull-Rom, resampled every 2 m)');
  L.push('points = [');
  for (const [x, z] of r.points) L.push(`  [${f(x)}, ${f(z)}],`);
  L.push(']');
  for (const cp of c.checkpoints) {
    L.push('', '[[checkpoints]]', `distance_m = ${f(cp.distance_m, 1)}`);
    if (cp.width_m !== undefined) L.push(`width_m = ${f(cp.width_m)}`);
  }
  if (c.joker) {
    const j = c.joker;
    L.push('', '[joker]', `width_m = ${f(j.width_m)}`, `surface = ${q(j.surface)}`, `leave_distance_m = ${f(j.leave_distance_m, 1)}`, `rejoin_distance_m = ${f(j.rejoin_distance_m, 1)}`, `gate_radius_m = ${f(j.gate_radius_m)}`);
    L.push('# branch centreline control points [x_m, z_m], leave point to rejoin point', 'points = [');
    for (const [x, z] of j.points) L.push(`  [${f(x)}, ${f(z)}],`);
    L.push(']');
  }
  for (const g of c.scenery) {
    L.push('', '[[scenery]]', `kind = ${q(g.kind)}`, `radius_m = ${f(g.radius_m)}`, `height_m = ${f(g.height_m)}`);
    L.push('# [x_m, z_m, rot_y_deg, scale]', 'items = [');
    for (const [x, z, rot, s] of g.items) L.push(`  [${f(x, 1)}, ${f(z, 1)}, ${f(rot, 0)}, ${f(s)}],`);
    L.push(']');
  }
  if (c.generator) writeGeneratorTable(L, c.generator);
  return L.join('\n') + '\n';
}

function writeGeneratorTable(L: string[], g: NonNullable<StageToml['generator']>): void {
  L.push('', '# the generator and options that made this stage (regenerates it byte for byte)', '[generator]');
  L.push(`version = ${g.version}`, `seed = ${g.seed}`, `length_km = ${g.length_km}`, `style = ${JSON.stringify(g.style)}`, `size = ${g.size}`);
  L.push(`cell_size_m = ${g.cell_size_m}`, `relief = ${g.relief}`, `surface_refine = ${g.surface_refine}`, `scenery = ${g.scenery}`);
  if (g.checkpoints_m) L.push(`checkpoints_m = [${g.checkpoints_m.join(', ')}]`);
  if (g.mix_surface !== undefined) L.push(`mix_surface = ${JSON.stringify(g.mix_surface)}`);
  if (g.mix_fraction !== undefined) L.push(`mix_fraction = ${g.mix_fraction}`);
  if (g.ditch_depth_m !== undefined) L.push(`ditch_depth_m = ${g.ditch_depth_m}`);
  if (g.ditch_width_m !== undefined) L.push(`ditch_width_m = ${g.ditch_width_m}`);
}
