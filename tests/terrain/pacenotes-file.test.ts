/**
 * pacenotes.toml: round trip, the file's errors (file, key, expected, found), caps, stage checks, and regeneration
 * that keeps hand-edited notes.
 */
import { describe, expect, it } from 'vitest';
import { loadStage } from '../../terrain/stage';
import { checkPaceNotesOnStage, EDITED_MATCH_WINDOW_M, formatPaceNotes, MAX_PACE_NOTES, mergeRegenerated, parsePaceNotes } from '../../terrain/pacenotes/file';
import { generatePaceNotesFromRoad } from '../../terrain/pacenotes/generate';
import type { PaceNote } from '../../terrain/pacenotes/types';
import { ContentError } from '../../src/validate/errors';
import { arc, buildRoad, corners, straight } from './pacenote-roads';
import { smallStageImages, smallStageToml } from './stage-helpers';

const FILE = 'x/pacenotes.toml';
const notes = (): PaceNote[] =>
  generatePaceNotesFromRoad({ points: buildRoad([straight(120), arc(30, 80), straight(60), arc(-9, 180), arc(70, 40), straight(300), arc(-200, 30), straight(120)]), widths: 7 });

/** The ContentError lines of parsing `text`. */
function errorsOf(text: string): string[] {
  try {
    parsePaceNotes(text, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(ContentError);
    return (e as ContentError).issues;
  }
  throw new Error('expected the file to be refused');
}

const HEAD = 'format = 1\nstage = "s"\n';
const NOTE = '[[note]]\nat_m = 10\nend_m = 30\nkind = "corner"\ndirection = "left"\nseverity = 3\norigin = "generated"\n';

describe('pacenotes.toml', () => {
  it('round-trips: formatted notes parse back to the same notes, and format to the same bytes', () => {
    const n = notes();
    expect(corners(n).map((c) => c.severity)).toContain('hairpin');
    const text = formatPaceNotes(n, { stageId: 's' });
    const back = parsePaceNotes(text, FILE, 's');
    expect(back).toEqual(n);
    expect(formatPaceNotes(back, { stageId: 's' })).toBe(text);
  });

  it('names the key, what was expected and what was found', () => {
    expect(errorsOf(HEAD + NOTE.replace('severity = 3', 'severity = 7'))).toEqual(['note[0].severity: expected 1 … 6, "hairpin" or "square", found number 7']);
    expect(errorsOf(HEAD + NOTE.replace('direction = "left"', 'direction = "up"'))).toEqual(['note[0].direction: expected one of "left", "right", found "up"']);
    expect(errorsOf(HEAD + NOTE.replace('end_m = 30', 'end_m = 5'))).toEqual(['note[0].end_m: expected at least at_m (10), found number 5']);
    expect(errorsOf(HEAD + NOTE.replace('severity = 3\n', ''))).toEqual(['note[0].severity: expected 1 … 6, "hairpin" or "square" on a corner, found nothing (missing)']);
    expect(errorsOf(HEAD + NOTE + 'distance_m = 120\n')[0]).toMatch(/^note\[0\]\.distance_m: expected one of 30, 50, .*found number 120$/);
    expect(errorsOf(HEAD + NOTE + NOTE.replace('at_m = 10', 'at_m = 5').replace('end_m = 30', 'end_m = 6'))).toEqual([
      "note[1].at_m: expected notes in road order: at least the previous note's at_m (10), found number 5",
    ]);
    expect(errorsOf(HEAD + NOTE.replace('origin', 'orign'))).toContain('note[0]: unknown key "orign" ("orign": did you mean "origin"?)');
    expect(errorsOf('format = 1\nstage = "s"\n[[note]\n')[0]).toMatch(/^TOML syntax error at line 3/);
    expect(() => parsePaceNotes(HEAD + NOTE, FILE, 'other')).toThrow('x/pacenotes.toml: stage: expected "other" (the stage beside this file), found "s"');
  });

  it(`refuses more than ${MAX_PACE_NOTES} notes, and notes outside the stage`, () => {
    const many = HEAD + Array.from({ length: MAX_PACE_NOTES + 1 }, () => NOTE).join('');
    expect(errorsOf(many)[0]).toBe(`note: expected at most ${MAX_PACE_NOTES} items, found array of ${MAX_PACE_NOTES + 1}`);
    const n = parsePaceNotes(HEAD + NOTE, FILE);
    expect(() => checkPaceNotesOnStage(n, 20, 500, FILE)).toThrow('note[0].at_m: expected a distance within the stage, 20 … 500.0 m, found number 10');
    expect(() => checkPaceNotesOnStage(n, 0, 25, FILE)).toThrow('note[0].end_m');
  });

  it('a stage loads its pacenotes.toml, refusing a bad one with the file named; without one it generates notes', () => {
    const img = smallStageImages();
    const files = { stageToml: smallStageToml(img), heightPng: img.heightPng, surfacePng: img.surfacePng };
    const generated = loadStage(files, 'my/stage.toml').paceNotes;
    expect(generated[generated.length - 1]!.feature).toBe('finish');
    const own = formatPaceNotes([{ ...generated[0]!, origin: 'edited', severity: 1 }], { stageId: 'my-stage' });
    expect(loadStage({ ...files, paceNotesToml: own }, 'my/stage.toml').paceNotes.map((n) => n.severity)).toEqual([1]);
    expect(() => loadStage({ ...files, paceNotesToml: own.replace('severity = 1', 'severity = "slow"') }, 'my/stage.toml')).toThrow(/^my\/pacenotes\.toml: note\[0\]\.severity/);
  });
});

describe('regeneration keeps hand edits', () => {
  it('an edited note replaces the fresh note it stands for; the rest are regenerated and relinked', () => {
    const fresh = notes();
    const hairpin = fresh.find((n) => n.severity === 'hairpin')!;
    const edited: PaceNote = { ...hairpin, atM: hairpin.atM + EDITED_MATCH_WINDOW_M / 2, severity: 1, modifiers: ["don't cut"], caution: 'double caution', origin: 'edited' };
    const existing = [...fresh.filter((n) => n !== hairpin), edited];
    const merged = mergeRegenerated(existing, fresh);
    expect(merged.filter((n) => n.origin === 'edited')).toEqual([edited]);
    expect(merged.some((n) => n.severity === 'hairpin')).toBe(false);
    expect(merged).toHaveLength(fresh.length);
    for (let i = 1; i < merged.length; i++) expect(merged[i]!.atM).toBeGreaterThanOrEqual(merged[i - 1]!.atM);
    // a generated note of the existing file is regenerated (its old, stale values go)
    const stale = fresh.map((n) => (n === hairpin ? { ...n, severity: 6 as const } : n));
    expect(mergeRegenerated(stale, fresh)).toEqual(fresh);
    // an edited note far from every fresh one is kept beside them (a corner the generator does not see)
    const extra: PaceNote = { atM: 2, endM: 3, kind: 'corner', direction: 'left', severity: 6, modifiers: [], link: null, distanceToNextM: null, origin: 'edited' };
    expect(mergeRegenerated([extra], fresh)).toHaveLength(fresh.length + 1);
  });
});
