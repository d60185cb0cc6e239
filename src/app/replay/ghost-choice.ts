/**
 * Which replay the next run races against: an explicit choice from the library (any replay on that stage,
 * imported ones included), else the personal best (fastest finished replay on the stage with the same car).
 * Kept in localStorage (`bitrally.ghost.v1`); a malformed value is ignored with a warning.
 */
import type { ReplayEntry } from './library';

const KEY = 'bitrally.ghost.v1';

export interface GhostChoice {
  entryId: string;
  stageId: string;
}

let mem: GhostChoice | null = null;

export function ghostChoice(): GhostChoice | null {
  try {
    const v = globalThis.localStorage?.getItem(KEY);
    if (v === null || v === undefined) return mem;
    const o = JSON.parse(v) as unknown;
    if (o && typeof o === 'object' && typeof (o as GhostChoice).entryId === 'string' && typeof (o as GhostChoice).stageId === 'string') return o as GhostChoice;
    console.warn(`${KEY}: expected {entryId, stageId}, found ${v} (ignored)`);
  } catch {
    /* storage unavailable or bad JSON: fall back to memory */
  }
  return mem;
}

export function setGhostChoice(c: GhostChoice | null): void {
  mem = c;
  try {
    if (c) globalThis.localStorage?.setItem(KEY, JSON.stringify(c));
    else globalThis.localStorage?.removeItem(KEY);
  } catch {
    /* memory only */
  }
}

/** The replay to race on `stageId` with `carId`: the explicit choice for that stage, else the fastest finished run. */
export function pickGhost(entries: readonly ReplayEntry[], stageId: string, carId: string): ReplayEntry | null {
  const c = ghostChoice();
  if (c && c.stageId === stageId) {
    const e = entries.find((x) => x.id === c.entryId);
    if (e) return e;
  }
  let best: ReplayEntry | null = null;
  for (const e of entries) {
    if (e.stageId !== stageId || e.timeS === null || e.carIds[0] !== carId) continue;
    if (!best || e.timeS < best.timeS!) best = e;
  }
  return best;
}
