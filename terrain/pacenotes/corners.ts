/**
 * Corner notes: runs of the driven line tighter than the severity-6 bound, merged when a same-direction bend
 * wobbles, graded by their minimum radius and deflection (table.ts), with length, tightens/opens, `don't cut`
 * and caution modifiers.
 */
import type { RoadProfile } from './profile';
import {
  APPROACH_ACCEL_M_S2,
  CAUTION_SPEED_RATIO,
  CORNER_MAX_RADIUS_M,
  CORNER_MERGE_GAP_M,
  CORNER_MIN_DEFLECTION_RAD,
  cornerSpeed,
  DOUBLE_CAUTION_SPEED_RATIO,
  FEATURE_SPEED_CAP_M_S,
  LONG_DEFLECTION_RAD,
  LONG_LENGTH_M,
  severityFor,
  TIGHTENS_LATE_FRACTION,
  TIGHTENS_RATIO,
  VERY_LONG_DEFLECTION_RAD,
  VERY_LONG_LENGTH_M,
} from './table';
import type { Caution, CornerModifier, PaceNote } from './types';

/** A corner as point indices [first, last] on the profile, turning left (+1) or right (−1). */
export interface CornerSpan {
  first: number;
  last: number;
  sign: 1 | -1;
}

/** Runs of points tighter than CORNER_MAX_RADIUS_M, same-direction runs closer than CORNER_MERGE_GAP_M joined. */
export function findCornerSpans(p: RoadProfile): CornerSpan[] {
  const spans: CornerSpan[] = [];
  const kMin = 1 / CORNER_MAX_RADIUS_M;
  let open: CornerSpan | null = null;
  for (let k = 0; k < p.n; k++) {
    const kap = p.kappa[k]!;
    const sign = kap >= kMin ? 1 : kap <= -kMin ? -1 : 0;
    if (open && sign === open.sign) open.last = k;
    else if (sign !== 0) {
      const prev = spans[spans.length - 1];
      if (!open && prev && prev.sign === sign && p.s[k]! - p.s[prev.last]! < CORNER_MERGE_GAP_M) open = prev;
      else {
        open = { first: k, last: k, sign };
        spans.push(open);
      }
      open.last = k;
    } else open = null;
  }
  return spans.filter((c) => Math.abs(p.heading[c.last]! - p.heading[c.first]!) >= CORNER_MIN_DEFLECTION_RAD);
}

/** Smallest driven-line radius over points [a, b], m. */
function minRadius(p: RoadProfile, a: number, b: number): number {
  let kMax = 0;
  for (let k = a; k <= b; k++) kMax = Math.max(kMax, Math.abs(p.kappa[k]!));
  return kMax > 0 ? 1 / kMax : Infinity;
}

/** `tightens`, `tightens late` or `opens`, comparing the minimum radius of the first and last thirds. */
function changeModifier(p: RoadProfile, c: CornerSpan): CornerModifier | null {
  const a = p.s[c.first]!, len = p.s[c.last]! - a;
  let third1 = c.first, third2 = c.last;
  while (third1 < c.last && p.s[third1 + 1]! - a <= len / 3) third1++;
  while (third2 > c.first && p.s[third2 - 1]! - a >= (2 * len) / 3) third2--;
  const rIn = minRadius(p, c.first, third1);
  const rOut = minRadius(p, third2, c.last);
  if (rOut <= TIGHTENS_RATIO * rIn) {
    let k = c.first;
    while (k < c.last && 1 / Math.abs(p.kappa[k]!) > TIGHTENS_RATIO * rIn) k++;
    return (p.s[k]! - a) / len >= TIGHTENS_LATE_FRACTION ? 'tightens late' : 'tightens';
  }
  return rIn <= TIGHTENS_RATIO * rOut ? 'opens' : null;
}

/** The corner note of a span (caution, link and distance are set later). */
export function cornerNote(p: RoadProfile, c: CornerSpan, insideHazard: boolean): PaceNote {
  const deflection = p.heading[c.last]! - p.heading[c.first]!;
  // graded on the radius as stored (0.1 m), so a file's min_radius_m and severity always agree
  const r = Math.round(minRadius(p, c.first, c.last) * 10) / 10;
  const severity = severityFor(r, deflection);
  const length = p.s[c.last]! - p.s[c.first]!;
  const modifiers: CornerModifier[] = [];
  if (severity !== 'hairpin' && severity !== 'square') {
    const d = Math.abs(deflection);
    if (d >= VERY_LONG_DEFLECTION_RAD || length >= VERY_LONG_LENGTH_M) modifiers.push('very long');
    else if (d >= LONG_DEFLECTION_RAD || length >= LONG_LENGTH_M) modifiers.push('long');
  }
  const change = changeModifier(p, c);
  if (change) modifiers.push(change);
  if (insideHazard) modifiers.push("don't cut");
  return {
    atM: p.s[c.first]!,
    kind: 'corner',
    direction: c.sign > 0 ? 'left' : 'right',
    severity,
    modifiers,
    link: null,
    distanceToNextM: null,
    minRadiusM: r,
    endM: p.s[c.last]!,
    origin: 'generated',
  };
}

const CAUTION_RANK: Readonly<Record<Caution, number>> = { caution: 1, 'double caution': 2 };

/** Sets the note's caution to `c` unless it already has a stronger one. */
export function raiseCaution(note: PaceNote, c: Caution | undefined): void {
  if (c && (!note.caution || CAUTION_RANK[c] > CAUTION_RANK[note.caution])) note.caution = c;
}

/**
 * Cautions by the speed to shed (table.ts): each corner's approach speed is the previous corner's speed (rest at
 * `startM`) plus what the car gains accelerating along the gap, capped; corners far slower than that get cautions.
 */
export function addCautions(corners: PaceNote[], startM: number): void {
  let vPrev = 0;
  let endPrev = startM;
  for (const c of corners) {
    const gap = Math.max(0, c.atM - endPrev);
    const vApproach = Math.min(FEATURE_SPEED_CAP_M_S, Math.sqrt(vPrev * vPrev + 2 * APPROACH_ACCEL_M_S2 * gap));
    const v = Math.min(FEATURE_SPEED_CAP_M_S, cornerSpeed(c.minRadiusM ?? Infinity));
    // raised, never lowered: a corner may already carry a caution where the road drops away (dropaway.ts)
    if (v < DOUBLE_CAUTION_SPEED_RATIO * vApproach) raiseCaution(c, 'double caution');
    else if (v < CAUTION_SPEED_RATIO * vApproach) raiseCaution(c, 'caution');
    vPrev = v;
    endPrev = c.endM;
  }
}
