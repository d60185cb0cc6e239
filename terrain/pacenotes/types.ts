/**
 * A pace note: what a rally co-driver reads out for one feature of the road, in standard rally notation
 * (issue #17). Produced by the generator in this folder from a stage's road, stored per stage in
 * `pacenotes.toml`, read by the co-driver (calls, voice) and the HUD strip. Pure data: no ECS, no Babylon.
 */

/** Corner severity on the 1–6 scale (6 = fastest kink … 1 = slowest), or the two named slow corners. */
export type Severity = 1 | 2 | 3 | 4 | 5 | 6 | 'hairpin' | 'square';

export type Direction = 'left' | 'right';

/** Words that modify a corner note, in the order a co-driver says them after the corner. */
export type CornerModifier = 'long' | 'very long' | 'tightens' | 'opens' | 'tightens late' | "don't cut";

/** Hazards and road features, said before (caution) or as a note of their own. */
export type Caution = 'caution' | 'double caution';

export type RoadFeature = 'crest' | 'over crest' | 'jump' | 'dip' | 'narrows' | 'bumpy' | 'onto tarmac' | 'onto gravel' | 'onto snow' | 'finish';

/** How a note is linked to the next one: `into` (< ~30 m apart), `and` (close), or by a spoken distance. */
export type Link = 'into' | 'and' | null;

export interface PaceNote {
  /** Distance along the road centreline (m from the road's first point) where the feature begins. */
  atM: number;
  /** A corner (direction + severity) or a road feature note. */
  kind: 'corner' | 'feature';
  direction?: Direction;
  severity?: Severity;
  modifiers: CornerModifier[];
  caution?: Caution;
  feature?: RoadFeature;
  /** Link to the next note, or null when a distance is called. */
  link: Link;
  /** Spoken distance to the next note, rounded like a co-driver (30, 50, 70, 100, 150, 200 …), or null. */
  distanceToNextM: number | null;
  /** Corner's minimum radius along the driven line, m (corners only; for the HUD and tests). */
  minRadiusM?: number;
  /** Where the corner ends (m along the road); equal to atM for point features. */
  endM: number;
  /** 'generated' notes are replaced on regeneration; 'edited' (hand-changed) notes win over regeneration. */
  origin: 'generated' | 'edited';
}
