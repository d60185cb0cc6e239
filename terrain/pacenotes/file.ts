/**
 * `pacenotes.toml`: a stage's pace notes, beside its stage.toml (terrain/README.md, "Pace notes"). One `[[note]]`
 * table per note, in road order, readable and editable by hand; `origin = "edited"` marks a note a person changed,
 * which regeneration keeps (`mergeRegenerated`). Parsed with the project's capped TOML reader and a zod schema:
 * every problem is a ContentError line naming the file, the key, what was expected and what was found.
 */
import { z } from 'zod';
import { ContentError, parseTomlFile, validate } from '../../src/validate/errors';
import { inRange } from '../../src/validate/ranges';
import { STAGE_LIMITS } from '../stage-limits';
import { compareNotes, linkNotes } from './links';
import { CALL_DISTANCES_M } from './table';
import type { CornerModifier, PaceNote, RoadFeature } from './types';
import { noteWords } from './words';

export const PACE_NOTES_FORMAT = 1;
/** Most notes one file may hold (a 50 km stage at one note every 10 m). */
export const MAX_PACE_NOTES = 5000;
/**
 * Regeneration: an edited note replaces the fresh note of its kind starting nearest to it within this distance, m
 * (a corner the generator now starts a few metres away is the same corner).
 */
export const EDITED_MATCH_WINDOW_M = 15;

const MODIFIERS = ['long', 'very long', 'tightens', 'opens', 'tightens late', "don't cut"] as const satisfies readonly CornerModifier[];
const FEATURES = ['crest', 'over crest', 'jump', 'dip', 'narrows', 'bumpy', 'onto tarmac', 'onto gravel', 'onto snow', 'finish'] as const satisfies readonly RoadFeature[];
const position = inRange(0, STAGE_LIMITS.distanceM, 'm');

const NoteSchema = z.strictObject({
  at_m: position,
  end_m: position,
  kind: z.enum(['corner', 'feature']),
  direction: z.enum(['left', 'right']).optional(),
  severity: z.union([z.literal([1, 2, 3, 4, 5, 6]), z.enum(['hairpin', 'square'])], { error: 'expected 1 … 6, "hairpin" or "square"' }).optional(),
  modifiers: z.array(z.enum(MODIFIERS)).max(MODIFIERS.length).default([]),
  caution: z.enum(['caution', 'double caution']).optional(),
  feature: z.enum(FEATURES).optional(),
  link: z.enum(['into', 'and']).optional(),
  distance_m: z.literal(CALL_DISTANCES_M as number[]).optional(),
  min_radius_m: inRange(0, STAGE_LIMITS.distanceM, 'm').optional(),
  origin: z.enum(['generated', 'edited']),
});
type NoteToml = z.infer<typeof NoteSchema>;

/** The rules one note's keys must keep together (a corner has a direction and a severity, …). */
function checkNote(n: NoteToml, ctx: z.RefinementCtx, k: number): void {
  const issue = (key: string, message: string, input: unknown): void => ctx.addIssue({ code: 'custom', path: ['note', k, key], message, input });
  if (n.end_m < n.at_m) issue('end_m', `expected at least at_m (${n.at_m})`, n.end_m);
  if (n.kind === 'corner') {
    if (n.direction === undefined) issue('direction', 'expected "left" or "right" on a corner', undefined);
    if (n.severity === undefined) issue('severity', 'expected 1 … 6, "hairpin" or "square" on a corner', undefined);
    if (n.feature !== undefined) issue('feature', 'expected no feature on a corner (a feature is a note of its own)', n.feature);
  } else {
    if (n.feature === undefined) issue('feature', `expected one of ${FEATURES.join(', ')} on a feature note`, undefined);
    for (const key of ['direction', 'severity'] as const) if (n[key] !== undefined) issue(key, 'expected nothing on a feature note', n[key]);
    if (n.modifiers.length) issue('modifiers', 'expected no corner modifiers on a feature note', n.modifiers);
  }
  if (n.link !== undefined && n.distance_m !== undefined) issue('distance_m', `expected either link or distance_m (link = "${n.link}")`, n.distance_m);
  if (new Set(n.modifiers).size !== n.modifiers.length) issue('modifiers', 'expected each modifier at most once', n.modifiers);
}

const FileSchema = z
  .strictObject({
    format: z.literal(PACE_NOTES_FORMAT),
    stage: z.string().max(STAGE_LIMITS.idChars),
    note: z.array(NoteSchema).max(MAX_PACE_NOTES).default([]),
  })
  .superRefine((f, ctx) => {
    f.note.forEach((n, k) => {
      checkNote(n, ctx, k);
      const prev = f.note[k - 1];
      if (prev && n.at_m < prev.at_m) ctx.addIssue({ code: 'custom', path: ['note', k, 'at_m'], message: `expected notes in road order: at least the previous note's at_m (${prev.at_m})`, input: n.at_m });
    });
  });

function noteFromToml(n: NoteToml): PaceNote {
  const note: PaceNote = { atM: n.at_m, kind: n.kind, modifiers: [...n.modifiers], link: n.link ?? null, distanceToNextM: n.distance_m ?? null, endM: n.end_m, origin: n.origin };
  if (n.direction !== undefined) note.direction = n.direction;
  if (n.severity !== undefined) note.severity = n.severity;
  if (n.caution !== undefined) note.caution = n.caution;
  if (n.feature !== undefined) note.feature = n.feature;
  if (n.min_radius_m !== undefined) note.minRadiusM = n.min_radius_m;
  return note;
}

/** Parses pacenotes.toml text; with `stageId`, the file must say it belongs to that stage. */
export function parsePaceNotes(text: string, file: string, stageId?: string): PaceNote[] {
  const f = validate(FileSchema, parseTomlFile(text, file), file);
  if (stageId !== undefined && f.stage !== stageId) throw new ContentError(file, [`stage: expected "${stageId}" (the stage beside this file), found "${f.stage}"`]);
  return f.note.map(noteFromToml);
}

/** Refuses notes outside the stage's start … finish (a file written for a longer road). */
export function checkPaceNotesOnStage(notes: readonly PaceNote[], startM: number, finishM: number, file: string): void {
  const bad = notes.findIndex((n) => n.atM < startM - 1e-6 || n.endM > finishM + 1e-6);
  if (bad >= 0) {
    const n = notes[bad]!;
    const key = n.atM < startM - 1e-6 ? 'at_m' : 'end_m';
    throw new ContentError(file, [`note[${bad}].${key}: expected a distance within the stage, ${startM} … ${finishM.toFixed(1)} m, found number ${key === 'at_m' ? n.atM : n.endM}`]);
  }
}

const q = (s: string): string => JSON.stringify(s);
const m1 = (v: number): string => v.toFixed(1);

/** The `[[note]]` table of one note, under a comment with what the co-driver says. */
function noteLines(n: PaceNote): string[] {
  const L = ['', `# ${noteWords(n).join(' ')}`, '[[note]]', `at_m = ${m1(n.atM)}`, `end_m = ${m1(n.endM)}`, `kind = ${q(n.kind)}`];
  if (n.direction !== undefined) L.push(`direction = ${q(n.direction)}`);
  if (n.severity !== undefined) L.push(`severity = ${typeof n.severity === 'number' ? n.severity : q(n.severity)}`);
  if (n.modifiers.length) L.push(`modifiers = [${n.modifiers.map(q).join(', ')}]`);
  if (n.caution !== undefined) L.push(`caution = ${q(n.caution)}`);
  if (n.feature !== undefined) L.push(`feature = ${q(n.feature)}`);
  if (n.link !== null) L.push(`link = ${q(n.link)}`);
  if (n.distanceToNextM !== null) L.push(`distance_m = ${n.distanceToNextM}`);
  if (n.minRadiusM !== undefined) L.push(`min_radius_m = ${m1(n.minRadiusM)}`);
  L.push(`origin = ${q(n.origin)}`);
  return L;
}

/** pacenotes.toml text: fixed key order and number format, so the same notes give the same bytes. */
export function formatPaceNotes(notes: readonly PaceNote[], meta: { stageId: string }): string {
  const L = [
    `# BitRally pace notes for stage "${meta.stageId}" (format: terrain/README.md, "Pace notes").`,
    '# Distances are metres along the road centreline. Change a note, then set origin = "edited" on it:',
    '# `npm run stage -- pacenotes <stage-dir> --regenerate` keeps edited notes and regenerates the rest.',
    `format = ${PACE_NOTES_FORMAT}`,
    `stage = ${q(meta.stageId)}`,
  ];
  for (const n of notes) L.push(...noteLines(n));
  return L.join('\n') + '\n';
}

/** The fresh note an edited one stands for: same kind, the nearest start, within EDITED_MATCH_WINDOW_M; or -1. */
function matchOf(edited: PaceNote, fresh: readonly PaceNote[]): number {
  let best = -1;
  for (let i = 0; i < fresh.length; i++) {
    const f = fresh[i]!;
    const gap = Math.abs(f.atM - edited.atM);
    if (f.kind === edited.kind && f.feature === edited.feature && gap <= EDITED_MATCH_WINDOW_M && (best < 0 || gap < Math.abs(fresh[best]!.atM - edited.atM))) best = i;
  }
  return best;
}

/**
 * Regeneration that keeps hand edits: every edited note of `existing` stays as written and replaces the fresh note
 * it stands for (same kind — and same feature for feature notes — with the nearest start, within
 * EDITED_MATCH_WINDOW_M); generated notes of `existing` are replaced by `fresh`. Links and distances of the
 * generated notes are recomputed around the edited ones. Inputs are not changed.
 */
export function mergeRegenerated(existing: readonly PaceNote[], fresh: readonly PaceNote[]): PaceNote[] {
  const edited = existing.filter((n) => n.origin === 'edited').map((n) => ({ ...n, modifiers: [...n.modifiers] }));
  const replaced = new Set(edited.map((e) => matchOf(e, fresh)));
  const kept = fresh.filter((_, i) => !replaced.has(i)).map((n) => ({ ...n, modifiers: [...n.modifiers] }));
  return linkNotes([...edited, ...kept].sort(compareNotes), true);
}
