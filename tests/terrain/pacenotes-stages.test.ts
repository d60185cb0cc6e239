/**
 * Pace notes of real stages (issue #17 "Must show"): every shipped stage and a freshly generated one. Every corner
 * with a minimum radius under 150 m has a note, the notes are in road order, and the distances add up to the stage
 * length within 2 %. Corners are found here independently of the generator: the circle through three centreline
 * points ±6 m apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateStage } from '../../terrain/generate';
import { loadStageFromDir } from '../../terrain/node';
import { SHIPPED_STAGES } from '../../terrain/shipped';
import { formatPaceNotes } from '../../terrain/pacenotes/file';
import { generatePaceNotes } from '../../terrain/pacenotes/generate';
import { CORNER_MIN_DEFLECTION_RAD, DRIVEN_LINE_WINDOW_M } from '../../terrain/pacenotes/table';
import type { PaceNote } from '../../terrain/pacenotes/types';
import type { Stage } from '../../terrain/stage';
import { corners, countedLengthM } from './pacenote-roads';

const STAGES_DIR = 'src/content/stages';
const loaded = new Map<string, Stage>();
/** Each shipped stage is loaded once for the whole file (a load decodes and splines its heightmap). */
const shippedStage = (id: string): Stage => loaded.get(id) ?? loaded.set(id, loadStageFromDir(join(STAGES_DIR, id))).get(id)!;
const NOTE_MAX_RADIUS_M = 150;
/** Three-point circle: points this many indices (~2 m each) either side. */
const CHORD_STEPS = 3;

interface Bend {
  /** Distance of its tightest point, m. */
  apexM: number;
  radiusM: number;
  direction: 'left' | 'right';
}

/** Signed radius of the circle through points a, b, c (xz), positive when turning left; Infinity when straight. */
function circleRadius(p: Float64Array, a: number, b: number, c: number): number {
  const ax = p[3 * a]!, az = p[3 * a + 2]!, bx = p[3 * b]!, bz = p[3 * b + 2]!, cx = p[3 * c]!, cz = p[3 * c + 2]!;
  // cross of (b − a) × (c − b) in the x-z plane; heading θ = atan2(dx, dz) grows to the left
  const cross = (bz - az) * (cx - bx) - (bx - ax) * (cz - bz);
  const abc = Math.hypot(bx - ax, bz - az) * Math.hypot(cx - bx, cz - bz) * Math.hypot(cx - ax, cz - az);
  return cross === 0 ? Infinity : abc / (2 * cross);
}

/** Runs of the stage's centreline tighter than 150 m that turn at least the table's corner deflection. */
function bendsUnder150(stage: Stage, startM: number, finishM: number): Bend[] {
  const p = stage.road.points, d = stage.road.distances, n = d.length;
  const bends: Bend[] = [];
  let run: { first: number; apex: number; r: number; sign: number } | null = null;
  const close = (last: number): void => {
    if (!run) return;
    const ha = Math.atan2(p[3 * run.first + 3]! - p[3 * run.first]!, p[3 * run.first + 5]! - p[3 * run.first + 2]!);
    const hb = Math.atan2(p[3 * last]! - p[3 * last - 3]!, p[3 * last + 2]! - p[3 * last - 1]!);
    const turn = Math.abs(Math.atan2(Math.sin(hb - ha), Math.cos(hb - ha)));
    const apexM = d[run.apex]!;
    if (turn >= CORNER_MIN_DEFLECTION_RAD && apexM >= startM && apexM <= finishM) bends.push({ apexM, radiusM: run.r, direction: run.sign > 0 ? 'left' : 'right' });
    run = null;
  };
  for (let k = CHORD_STEPS; k < n - CHORD_STEPS; k++) {
    const r = circleRadius(p, k - CHORD_STEPS, k, k + CHORD_STEPS);
    const sign = Math.sign(r);
    if (Math.abs(r) >= NOTE_MAX_RADIUS_M || (run && sign !== run.sign)) close(k - 1);
    if (Math.abs(r) >= NOTE_MAX_RADIUS_M) continue;
    if (!run) run = { first: k, apex: k, r: Math.abs(r), sign };
    else if (Math.abs(r) < run.r) Object.assign(run, { apex: k, r: Math.abs(r) });
  }
  close(n - 1);
  return bends;
}

function checkStageNotes(stage: Stage, notes: readonly PaceNote[]): void {
  const startM = stage.config.road.start_distance_m;
  const finishM = startM + stage.lengthM;
  // road order, inside the stage, ending with the finish
  notes.forEach((n, i) => {
    expect(n.atM).toBeGreaterThanOrEqual(i ? notes[i - 1]!.atM : startM);
    expect(n.endM).toBeGreaterThanOrEqual(n.atM);
    expect(n.endM).toBeLessThanOrEqual(finishM + 0.05);
  });
  expect(notes[notes.length - 1]!.feature).toBe('finish');
  // every bend under 150 m has a corner note covering its apex, same direction (the note's span is the driven
  // line's, up to half a smoothing window wider than the centreline's bend)
  const bends = bendsUnder150(stage, startM, finishM);
  expect(bends.length).toBeGreaterThan(0);
  for (const b of bends) {
    const covering = corners(notes).filter((c) => c.atM - DRIVEN_LINE_WINDOW_M <= b.apexM && b.apexM <= c.endM + DRIVEN_LINE_WINDOW_M && c.direction === b.direction);
    expect(covering, `${stage.id}: the ${b.direction} bend of radius ${b.radiusM.toFixed(1)} m at ${b.apexM.toFixed(0)} m`).not.toHaveLength(0);
  }
  // distances add up to the stage length within 2 %
  expect(Math.abs(countedLengthM(notes, startM) - stage.lengthM)).toBeLessThanOrEqual(0.02 * stage.lengthM);
}

describe('pace notes of real stages', () => {
  const shipped = readdirSync(STAGES_DIR).filter((id) => readdirSync(join(STAGES_DIR, id)).includes('stage.toml'));

  it('every shipped stage ships a pacenotes.toml, and the stage loads its notes from it', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(5);
    for (const id of shipped) {
      const dir = join(STAGES_DIR, id);
      const stage = shippedStage(id);
      // no hand edits yet: the shipped file is exactly what the generator writes today (regenerate after changes)
      expect(readFileSync(join(dir, 'pacenotes.toml'), 'utf8'), `${id}: npm run stage -- pacenotes ${id} --regenerate`).toBe(
        formatPaceNotes(generatePaceNotes(stage), { stageId: stage.id }),
      );
      expect(stage.paceNotes).toEqual(generatePaceNotes(stage));
    }
  });

  for (const id of ['forest-gravel', 'col-tarmac', 'snow-ridge', 'test-short', 'rallycross-bitring']) {
    it(`${id}: every corner under 150 m has a note, in road order, distances add up`, () => {
      const stage = shippedStage(id);
      checkStageNotes(stage, stage.paceNotes);
    });
  }

  it('build-shipped writes the shipped pacenotes.toml byte for byte (test-short)', () => {
    const g = generateStage(SHIPPED_STAGES.find((s) => s.id === 'test-short')!);
    expect(g.files.paceNotesToml).toBe(readFileSync(join(STAGES_DIR, 'test-short', 'pacenotes.toml'), 'utf8'));
  });

  it('a freshly generated stage gets its notes at generation time, and they pass the same checks', () => {
    const g = generateStage({ seed: 2026, lengthKm: 1.2, surface: 'tarmac', size: 257, relief: 0.3 });
    expect(g.files.paceNotesToml).toBe(formatPaceNotes(g.stage.paceNotes, { stageId: g.stage.id }));
    checkStageNotes(g.stage, g.stage.paceNotes);
  });
});
