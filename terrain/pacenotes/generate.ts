/**
 * The pace-note generator (terrain/README.md, "Pace notes"): from a road centreline, its widths, its elevation
 * profile, the surface under it and the obstacles beside it, the notes a co-driver reads, in road order. Pure and
 * deterministic: the same input gives the same notes (and the same file text, file.ts).
 */
import { Road } from '../road';
import type { SurfaceId } from '../surface';
import { addCautions, cornerNote, findCornerSpans, raiseCaution, type CornerSpan } from './corners';
import { dropCaution, outsideDropM, type SideHeightSampler } from './dropaway';
import { narrowsNotes, surfaceNotes, verticalNotes } from './features';
import { linkNotes } from './links';
import { roadProfile, type RoadProfile } from './profile';
import { bumpyNotes } from './roughness';
import { DONT_CUT_MARGIN_M } from './table';
import type { PaceNote } from './types';

/** Something solid beside the road (a tree, a rock): a corner with one close to its inside edge is `don't cut`. */
export interface RoadObstacle {
  x: number;
  z: number;
  radiusM: number;
}

export interface PaceNoteRoadInput {
  /** Centreline xyz triples (y up), in driving order, ~2 m apart. */
  points: ArrayLike<number>;
  /** Road width at each point (or one width for all), m. */
  widths: ArrayLike<number> | number;
  /** Surface under each centreline point (omitted: no surface notes). */
  surfaces?: readonly SurfaceId[];
  obstacles?: readonly RoadObstacle[];
  /** Ground height beside the road (the stage's B-spline surface); omitted: no cautions for a road that drops away. */
  sideHeightAt?: SideHeightSampler;
  /** Stage start and finish along the centreline, m (default: the whole road). */
  startM?: number;
  finishM?: number;
}

/** What the generator reads from a loaded Stage (terrain/stage.ts); a Stage is one. */
export interface PaceNoteStageView {
  lengthM: number;
  road: { points: Float64Array; widths: Float32Array };
  surfaceMap: { surfaceIdAt(x: number, z: number): SurfaceId };
  bspline: { heightMacro(x: number, z: number): number };
  scenery: readonly { kind: string; x: number; z: number; radius: number }[];
  config: { road: { start_distance_m: number } };
}

/** Scenery kinds that make cutting a corner's inside dangerous. */
const SOLID_KINDS: ReadonlySet<string> = new Set(['tree', 'rock']);

/** Per corner span: is a solid obstacle within DONT_CUT_MARGIN_M of its inside edge? */
function insideHazards(input: PaceNoteRoadInput, p: RoadProfile, spans: readonly CornerSpan[]): boolean[] {
  const flags = spans.map(() => false);
  if (!input.obstacles?.length || !spans.length) return flags;
  const road = new Road(Float64Array.from(input.points), Float32Array.from(p.width));
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  for (const o of input.obstacles) {
    road.project(o.x, o.z, proj);
    const k = proj.index;
    const clearance = Math.abs(proj.lateralM) - o.radiusM - p.width[k]! / 2;
    if (clearance > DONT_CUT_MARGIN_M) continue;
    spans.forEach((c, i) => {
      // left positive for both the lateral offset and the turn sign: the inside is the turn's side
      if (k >= c.first && k <= c.last && Math.sign(proj.lateralM) === c.sign) flags[i] = true;
    });
  }
  return flags;
}

/** Notes inside [startM, finishM]: a note that began before the start is called from the start. */
function clipToStage(notes: PaceNote[], startM: number, finishM: number): PaceNote[] {
  const kept = notes.filter((n) => n.endM >= startM && n.atM < finishM);
  for (const n of kept) {
    n.atM = Math.max(n.atM, startM);
    n.endM = Math.min(n.endM, finishM);
  }
  return kept;
}

/** Distances in the file and the calls are to 0.1 m: the notes are exact to what is stored. */
function roundPositions(notes: PaceNote[]): void {
  for (const n of notes) {
    n.atM = Math.round(n.atM * 10) / 10;
    n.endM = Math.round(n.endM * 10) / 10;
  }
}

/** The notes of a road given as plain arrays (synthetic roads in the tests, or a stage's road). */
export function generatePaceNotesFromRoad(input: PaceNoteRoadInput): PaceNote[] {
  const p = roadProfile(input.points, input.widths);
  if (p.n < 3) return [];
  const startM = input.startM ?? 0;
  const finishM = input.finishM ?? p.s[p.n - 1]!;
  const spans = findCornerSpans(p);
  const hazards = insideHazards(input, p, spans);
  const sideHeightAt = input.sideHeightAt;
  const all = spans.map((c, i) => {
    const note = cornerNote(p, c, hazards[i]!);
    if (sideHeightAt) raiseCaution(note, dropCaution(outsideDropM(p, input.points, c, sideHeightAt)));
    return note;
  });
  const corners = clipToStage(all, startM, finishM);
  addCautions(corners, startM);
  const features = clipToStage([...verticalNotes(p), ...bumpyNotes(p), ...narrowsNotes(p), ...(input.surfaces ? surfaceNotes(p, input.surfaces) : [])], startM, finishM);
  const finish: PaceNote = { atM: finishM, kind: 'feature', feature: 'finish', modifiers: [], link: null, distanceToNextM: null, endM: finishM, origin: 'generated' };
  const notes = [...corners, ...features.filter((f) => f.atM < finishM), finish];
  roundPositions(notes);
  return linkNotes(notes);
}

/** The notes of a loaded stage: its road, surfaces under the centreline, trees and rocks, the ground beside the
 * road (its B-spline surface, as under the road), start to finish. */
export function generatePaceNotes(stage: PaceNoteStageView): PaceNote[] {
  const pts = stage.road.points;
  const surfaces: SurfaceId[] = [];
  for (let k = 0; k < pts.length / 3; k++) surfaces.push(stage.surfaceMap.surfaceIdAt(pts[3 * k]!, pts[3 * k + 2]!));
  const obstacles = stage.scenery.filter((o) => SOLID_KINDS.has(o.kind)).map((o) => ({ x: o.x, z: o.z, radiusM: o.radius }));
  const startM = stage.config.road.start_distance_m;
  const sideHeightAt = (x: number, z: number): number => stage.bspline.heightMacro(x, z);
  return generatePaceNotesFromRoad({ points: pts, widths: stage.road.widths, surfaces, obstacles, sideHeightAt, startM, finishM: startM + stage.lengthM });
}
