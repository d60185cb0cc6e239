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
/**
 * A chain of linked notes is split into calls of at most this long, s: a co-driver reads the next corner or
 * two, not the whole next kilometre (a 10-note chain would take 20 s, and the car's speed over 20 s is anyone's
 * guess). A single note is never split.
 */
export const MAX_CALL_S = 3.2;

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
  /** Read on the start line, before the car moves (planner.ts ON_LINE_READ_M). */
  onLine?: boolean;
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

/**
 * Groups notes (road order) into calls: a note whose link is `into` or `and` pulls the next note into its call,
 * as long as the call stays within `maxCallS`.
 */
export function buildCalls(notes: readonly PaceNote[], wordsOf: WordsOf, clipS: ClipSeconds, maxCallS = MAX_CALL_S): Call[] {
  const calls: Call[] = [];
  let i = 0;
  while (i < notes.length) {
    const first = i;
    const words: string[][] = [wordsOf(notes[i]!)];
    while (i + 1 < notes.length && notes[i]!.link !== null) {
      const next = wordsOf(notes[i + 1]!);
      if (spokenSeconds([...words, next], clipS) > maxCallS) break;
      words.push(next);
      i++;
    }
    i++;
    calls.push({ first, end: i, entryM: notes[first]!.atM, words, durationS: spokenSeconds(words, clipS) });
  }
  return calls;
}

/** One call made of consecutive calls (the notes read on the start line), timed as one. */
export function mergeCalls(calls: readonly Call[], clipS: ClipSeconds): Call {
  const words = calls.flatMap((c) => c.words);
  return { first: calls[0]!.first, end: calls[calls.length - 1]!.end, entryM: calls[0]!.entryM, words, durationS: spokenSeconds(words, clipS) };
}
