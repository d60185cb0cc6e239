/**
 * Pace notes → calls. A call is what the co-driver says in one breath: one note, or a chain of notes linked
 * by `into` / `and` (a co-driver never pauses inside a link: the driver needs both corners before the first).
 * Its duration is the sum of its clips plus the gaps between them, so the planner knows when the voice is free.
 */
import type { PaceNote } from '../../../../terrain/pacenotes/types';

/** Silence between two words of one note, s (eSpeak's clips are trimmed: this is the natural word gap). */
export const WORD_GAP_S = 0.06;
/** Silence between two notes chained in one call, s (a short breath after "into" / "and"). */
export const NOTE_GAP_S = 0.12;

export interface Call {
  /** Index of the call's first note in the stage's note list. */
  first: number;
  /** Index after its last note. */
  end: number;
  /** Road distance of the first note's entry, m: the call must be over before the car gets there. */
  entryM: number;
  /** Spoken tokens in order (clip ids), one list per note. */
  words: string[][];
  /** Clips + gaps, s. */
  durationS: number;
}

/** The spoken tokens of a note (terrain/pacenotes/words.ts `noteWords`; injected so tests can drive it). */
export type WordsOf = (note: PaceNote) => string[];
/** Length of one token's clip, s (the voice sprite map). */
export type ClipSeconds = (token: string) => number;

/** Seconds the voice needs for these notes' words: clips, word gaps inside notes, note gaps between them. */
export function spokenSeconds(words: readonly (readonly string[])[], clipS: ClipSeconds): number {
  let t = 0;
  let notes = 0;
  for (const w of words) {
    if (w.length === 0) continue;
    if (notes++ > 0) t += NOTE_GAP_S;
    for (let i = 0; i < w.length; i++) t += clipS(w[i]!) + (i > 0 ? WORD_GAP_S : 0);
  }
  return t;
}

/** Groups notes (road order) into calls: a note whose link is `into` or `and` pulls the next note into its call. */
export function buildCalls(notes: readonly PaceNote[], wordsOf: WordsOf, clipS: ClipSeconds): Call[] {
  const calls: Call[] = [];
  let i = 0;
  while (i < notes.length) {
    const first = i;
    const words: string[][] = [wordsOf(notes[i]!)];
    while (i + 1 < notes.length && notes[i]!.link !== null) words.push(wordsOf(notes[++i]!));
    i++;
    calls.push({ first, end: i, entryM: notes[first]!.atM, words, durationS: spokenSeconds(words, clipS) });
  }
  return calls;
}
