/**
 * The spoken form of a pace note: its tokens in call order, each one entry of VOCABULARY (the voice clip set is
 * generated from that list, one clip per token). Order, as a co-driver reads: caution, then the corner
 * ("left 4", "hairpin left", "square right") or the feature ("over crest"), its modifiers, then the link to the
 * next note ("into", "and") or the distance to it ("100").
 */
import { CALL_DISTANCES_M } from './table';
import type { Caution, CornerModifier, Direction, PaceNote, RoadFeature } from './types';

const CAUTIONS: readonly Caution[] = ['caution', 'double caution'];
const DIRECTIONS: readonly Direction[] = ['left', 'right'];
const SEVERITY_WORDS = ['1', '2', '3', '4', '5', '6', 'hairpin', 'square'] as const;
const MODIFIERS: readonly CornerModifier[] = ['long', 'very long', 'tightens', 'opens', 'tightens late', "don't cut"];
const FEATURES: readonly RoadFeature[] = ['crest', 'over crest', 'jump', 'dip', 'narrows', 'bumpy', 'onto tarmac', 'onto gravel', 'onto snow', 'finish'];
const LINKS = ['into', 'and'] as const;

/** Every token a note can produce, in a fixed order (clip ids are these strings). */
export const VOCABULARY: readonly string[] = [
  ...CAUTIONS,
  ...DIRECTIONS,
  ...SEVERITY_WORDS,
  ...MODIFIERS,
  ...FEATURES,
  ...LINKS,
  ...CALL_DISTANCES_M.map(String),
];

/** The tokens of one note in call order; every token is in VOCABULARY. */
export function noteWords(note: PaceNote): string[] {
  const words: string[] = [];
  if (note.caution) words.push(note.caution);
  if (note.kind === 'corner' && note.direction !== undefined && note.severity !== undefined) {
    const named = note.severity === 'hairpin' || note.severity === 'square';
    if (named) words.push(String(note.severity), note.direction);
    else words.push(note.direction, String(note.severity));
    words.push(...note.modifiers);
  } else if (note.feature !== undefined) {
    words.push(note.feature);
  }
  if (note.link !== null) words.push(note.link);
  else if (note.distanceToNextM !== null) words.push(String(note.distanceToNextM));
  return words;
}
