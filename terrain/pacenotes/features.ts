/**
 * Feature notes: crests, jumps and dips from the elevation profile's curvature at the speed a car carries there,
 * `narrows` where the road width falls, and surface changes (`onto tarmac` …) where a new surface lasts.
 */
import type { SurfaceId } from '../surface';
import type { RoadProfile } from './profile';
import {
  BAND_GRAVITY_M_S2,
  cornerSpeed,
  CREST_MIN_G,
  DIP_MIN_G,
  FEATURE_SPEED_CAP_M_S,
  JUMP_MIN_G,
  NARROWS_RATIO,
  NARROWS_WITHIN_M,
  OVER_CREST_MIN_G,
  SURFACE_MIN_RUN_M,
  VERTICAL_FEATURE_SPACING_M,
} from './table';
import type { PaceNote, RoadFeature } from './types';

/** A generated feature note from `atM` to `endM`. */
export function featureNote(feature: RoadFeature, atM: number, endM = atM): PaceNote {
  return { atM, kind: 'feature', feature, modifiers: [], link: null, distanceToNextM: null, endM, origin: 'generated' };
}

/** Vertical load change at each point as a fraction of g, v²κ_v/g, at the speed the bend there allows (capped). */
function verticalG(p: RoadProfile): Float64Array {
  const a = new Float64Array(p.n);
  for (let k = 0; k < p.n; k++) {
    const r = 1 / Math.max(1e-9, Math.abs(p.kappa[k]!));
    const v = Math.min(FEATURE_SPEED_CAP_M_S, cornerSpeed(r));
    a[k] = (v * v * p.vertical[k]!) / BAND_GRAVITY_M_S2;
  }
  return a;
}

/** What a run of crest (negative) or dip (positive) load change is called, from its peak. */
function verticalFeature(peak: number): RoadFeature {
  if (peak > 0) return 'dip';
  if (-peak >= JUMP_MIN_G) return 'jump';
  return -peak >= OVER_CREST_MIN_G ? 'over crest' : 'crest';
}

/** One note per run of points past the crest or dip threshold (runs closer than the spacing are one). */
export function verticalNotes(p: RoadProfile): PaceNote[] {
  const a = verticalG(p);
  const notes: PaceNote[] = [];
  let first = -1;
  let peak = 0;
  const close = (last: number): void => {
    const prev = notes[notes.length - 1];
    const f = verticalFeature(peak);
    if (prev && prev.feature === f && p.s[first]! - prev.endM < VERTICAL_FEATURE_SPACING_M) prev.endM = p.s[last]!;
    else notes.push(featureNote(f, p.s[first]!, p.s[last]!));
    first = -1;
  };
  for (let k = 0; k < p.n; k++) {
    const v = a[k]!;
    const inRun = v <= -CREST_MIN_G || v >= DIP_MIN_G;
    if (first >= 0 && (!inRun || Math.sign(v) !== Math.sign(peak))) close(k - 1);
    if (!inRun) continue;
    if (first < 0) {
      first = k;
      peak = v;
    } else if (Math.abs(v) > Math.abs(peak)) peak = v;
  }
  if (first >= 0) close(p.n - 1);
  return notes;
}

/** `narrows` where the width falls to NARROWS_RATIO of the widest point within NARROWS_WITHIN_M behind. */
export function narrowsNotes(p: RoadProfile): PaceNote[] {
  const notes: PaceNote[] = [];
  let narrow = false;
  let back = 0;
  for (let k = 0; k < p.n; k++) {
    while (p.s[k]! - p.s[back]! > NARROWS_WITHIN_M) back++;
    let widest = 0;
    for (let j = back; j <= k; j++) widest = Math.max(widest, p.width[j]!);
    const now = p.width[k]! <= NARROWS_RATIO * widest;
    if (now && !narrow) notes.push(featureNote('narrows', p.s[k]!));
    narrow = now;
  }
  return notes;
}

const CALLED_SURFACES: Readonly<Partial<Record<SurfaceId, RoadFeature>>> = { tarmac: 'onto tarmac', gravel: 'onto gravel', snow: 'onto snow' };

/**
 * `onto <surface>` where the road's surface changes to another called one (tarmac, gravel, snow) for at least
 * SURFACE_MIN_RUN_M; ice patches and grass verges are not surface changes a co-driver calls.
 */
export function surfaceNotes(p: RoadProfile, surfaces: readonly SurfaceId[]): PaceNote[] {
  const notes: PaceNote[] = [];
  let current: SurfaceId | null = null;
  let runStart = -1;
  let runSurface: SurfaceId | null = null;
  for (let k = 0; k < p.n && k < surfaces.length; k++) {
    const sid = surfaces[k]!;
    if (CALLED_SURFACES[sid] === undefined) continue;
    if (current === null) current = sid;
    if (sid === current) {
      runSurface = null;
      continue;
    }
    if (sid !== runSurface) {
      runSurface = sid;
      runStart = k;
    }
    if (p.s[k]! - p.s[runStart]! >= SURFACE_MIN_RUN_M) {
      notes.push(featureNote(CALLED_SURFACES[sid]!, p.s[runStart]!));
      current = sid;
      runSurface = null;
    }
  }
  return notes;
}
