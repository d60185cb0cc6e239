/**
 * Links and called distances between notes. The distance after a note runs from the end of everything called so
 * far to the start of the next note. Short gaps are links (`into`, `and`); longer ones are rounded down or up to a
 * neighbouring call distance (table.ts), whichever keeps the running total of called distances closest to the
 * road, so the driver's count never drifts by more than one step over a whole stage.
 */
import { AND_MAX_GAP_M, CALL_DISTANCES_M, INTO_MAX_GAP_M } from './table';
import type { PaceNote } from './types';

/** Road order: by start, corners before features starting at the same point, then by end. */
export function compareNotes(a: PaceNote, b: PaceNote): number {
  return a.atM - b.atM || (a.kind === b.kind ? 0 : a.kind === 'corner' ? -1 : 1) || a.endM - b.endM;
}

/** The call distances just below and above `m` (equal at the ends of the list). */
function bracket(m: number): [number, number] {
  let lo = CALL_DISTANCES_M[0]!;
  for (const c of CALL_DISTANCES_M) {
    if (c >= m) return [lo, c];
    lo = c;
  }
  return [lo, lo];
}

/** Of the two call distances around `gapM`, the one leaving the smaller running error (`carryM`: road − called). */
export function roundCallDistance(gapM: number, carryM: number): number {
  const [lo, hi] = bracket(gapM);
  return Math.abs(carryM + gapM - lo) <= Math.abs(carryM + gapM - hi) ? lo : hi;
}

/**
 * Sets `link` and `distanceToNextM` on notes in road order (sorted in place). With `keepEdited`, hand-edited notes
 * keep theirs (their called distance still counts in the running total).
 */
export function linkNotes(notes: PaceNote[], keepEdited = false): PaceNote[] {
  notes.sort(compareNotes);
  let cursor = -Infinity;
  let carry = 0;
  for (let i = 0; i < notes.length; i++) {
    const note = notes[i]!;
    cursor = Math.max(cursor, note.endM);
    const next = notes[i + 1];
    const gap = next ? next.atM - cursor : 0;
    if (!(keepEdited && note.origin === 'edited')) {
      note.link = !next ? null : gap < INTO_MAX_GAP_M ? 'into' : gap < AND_MAX_GAP_M ? 'and' : null;
      note.distanceToNextM = next && note.link === null ? roundCallDistance(gap, carry) : null;
    }
    if (note.distanceToNextM !== null) carry += gap - note.distanceToNextM;
  }
  return notes;
}
