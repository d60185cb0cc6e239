/** Synthetic roads for the pace-note tests: straights and constant-radius arcs, 2 m apart, with a height profile. */
import type { PaceNote } from '../../terrain/pacenotes/types';

/** A piece of road: `radiusM` > 0 turns left, < 0 right, Infinity is straight. */
export interface Piece {
  lengthM: number;
  radiusM: number;
}

export const STEP_M = 2;

/**
 * Centreline xyz of the pieces end to end from the origin heading +Z. Each 2 m step is a chord of its arc, so the
 * points lie exactly on the circles; `heightAt(s)` gives y at distance s along the road.
 */
export function buildRoad(pieces: readonly Piece[], heightAt: (s: number) => number = () => 0): Float64Array {
  const xyz: number[] = [0, heightAt(0), 0];
  let x = 0, z = 0, heading = 0, s = 0;
  for (const p of pieces) {
    const steps = Math.round(p.lengthM / STEP_M);
    const ds = p.lengthM / steps;
    for (let k = 0; k < steps; k++) {
      const dTheta = Number.isFinite(p.radiusM) ? ds / p.radiusM : 0;
      const chord = dTheta === 0 ? ds : 2 * Math.abs(p.radiusM) * Math.sin(Math.abs(dTheta) / 2);
      const mid = heading + dTheta / 2;
      x += chord * Math.sin(mid);
      z += chord * Math.cos(mid);
      heading += dTheta;
      s += ds;
      xyz.push(x, heightAt(s), z);
    }
  }
  return Float64Array.from(xyz);
}

/** An arc of `radiusM` turning `deg` degrees (sign of radius = direction). */
export function arc(radiusM: number, deg: number): Piece {
  return { lengthM: (Math.abs(radiusM) * deg * Math.PI) / 180, radiusM };
}

export function straight(lengthM: number): Piece {
  return { lengthM, radiusM: Infinity };
}

export const corners = (notes: readonly PaceNote[]): PaceNote[] => notes.filter((n) => n.kind === 'corner');

/**
 * The road a set of notes describes, added up as a driver counts it: from the start to the first note, then each
 * note's new road (past everything called before it), then the called distance to the next note, or the actual
 * gap where the notes are linked (`into` / `and`, no distance called).
 */
export function countedLengthM(notes: readonly PaceNote[], startM: number): number {
  let total = notes.length ? notes[0]!.atM - startM : 0;
  let cursor = startM;
  notes.forEach((n, i) => {
    total += Math.max(0, n.endM - Math.max(cursor, n.atM));
    cursor = Math.max(cursor, n.endM);
    const next = notes[i + 1];
    if (next) total += n.distanceToNextM ?? Math.max(0, next.atM - cursor);
  });
  return total;
}
