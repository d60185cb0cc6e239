/**
 * AiPath.locate's clearance stop (src/systems/sim/ai/path.ts, segmentClearances): the walk from a hint stops
 * a direction once the best segment's clearance proves every segment left in it farther. The proof says the
 * result is the one of the plain walk (4 segments past the best each way, ≤ 40 from the hint) bit for bit;
 * these tests check that against the plain walk written out here, on paths made to defeat a loose bound
 * (hairpins, a crossing loop, a loop shorter than the walk's reach), and that the stop is taken.
 */
import { describe, expect, it, vi } from 'vitest';
import { AiPath, type PathLocation } from '../../src/systems/sim/ai/path';

const WINDOW = 40;
const PAST_MIN = 4;
const FAR_M = 15;

/** Squared distance from (x, z) to segment k and the nearest fraction, as locate computes them. */
function segD2(p: AiPath, k: number, x: number, z: number): [number, number] {
  const k2 = k + 1 < p.n ? k + 1 : 0;
  const ax = p.x[k]!, az = p.z[k]!, ex = p.x[k2]! - ax, ez = p.z[k2]! - az;
  const l2 = ex * ex + ez * ez;
  let f = l2 > 0 ? ((x - ax) * ex + (z - az) * ez) / l2 : 0;
  f = f < 0 ? 0 : f > 1 ? 1 : f;
  const qx = ax + f * ex - x, qz = az + f * ez - z;
  return [qx * qx + qz * qz, f];
}

/** The plain walk: every segment until 4 past the best each way (or 40), the full scan when far or no hint. */
function plainLocate(p: AiPath, x: number, z: number, hint: number): PathLocation {
  const segs = p.closed ? p.n : p.n - 1;
  let best = Infinity, bestK = 0, bestF = 0;
  if (hint >= 0 && hint < segs) {
    [best, bestF] = segD2(p, hint, x, z);
    bestK = hint;
    for (let dir = 1; dir >= -1; dir -= 2) {
      let misses = 0;
      for (let d = 1; d <= WINDOW && misses < PAST_MIN; d++) {
        let k = hint + dir * d;
        if (p.closed) k = k < 0 ? k + segs : k >= segs ? k - segs : k;
        else if (k < 0 || k >= segs) break;
        const [d2, f] = segD2(p, k, x, z);
        if (d2 < best || (d2 === best && k < bestK)) [best, bestK, bestF, misses] = [d2, k, f, 0];
        else misses++;
      }
    }
  }
  if (hint < 0 || hint >= segs || best > FAR_M * FAR_M) {
    best = Infinity;
    for (let k = 0; k < segs; k++) {
      const [d2, f] = segD2(p, k, x, z);
      if (d2 < best) [best, bestK, bestF] = [d2, k, f];
    }
  }
  const k = bestK, k2 = k + 1 < p.n ? k + 1 : 0;
  const ex = p.x[k2]! - p.x[k]!, ez = p.z[k2]! - p.z[k]!;
  const len = Math.hypot(ex, ez) || 1;
  let s = p.s[k]! + bestF * len;
  if (p.closed && s >= p.lengthM) s -= p.lengthM;
  return { index: k, s, lateral: ((x - p.x[k]!) * ez - (z - p.z[k]!) * ex) / len };
}

/** A closed polyline through (x, z) = f(t), t ∈ [0, 1), n points. */
function loop(n: number, f: (t: number) => [number, number]): AiPath {
  const x = new Float64Array(n), z = new Float64Array(n);
  for (let i = 0; i < n; i++) [x[i], z[i]] = f(i / n);
  return new AiPath(x, z, new Float64Array(n).fill(1), new Float64Array(n), true);
}

/** Seeded uniform numbers in [0, 1) (a 32-bit LCG: tests stay reproducible). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const PATHS: Record<string, AiPath> = {
  // a figure eight (the path crosses itself) with 2 m segments
  'figure eight': loop(600, (t) => [120 * Math.sin(2 * Math.PI * t), 60 * Math.sin(4 * Math.PI * t)]),
  // hairpins: a meander whose switchbacks run 3 m apart, closer than the walk's reach
  hairpins: loop(900, (t) => {
    const a = 2 * Math.PI * t;
    return [(150 + 1.5 * Math.sin(40 * a)) * Math.cos(a), (150 + 1.5 * Math.sin(40 * a)) * Math.sin(a) + 20 * Math.sin(40 * a)];
  }),
  // a loop of 30 segments: the walk's 2 × 40 reach wraps round it
  'short loop': loop(30, (t) => [10 * Math.cos(2 * Math.PI * t), 10 * Math.sin(2 * Math.PI * t)]),
  // a random walk: segments 0.5–3 m, turns up to ±170° (knots, near-misses just ahead of and behind segments)
  'random knots': (() => {
    const n = 1500, x = new Float64Array(n), z = new Float64Array(n), rnd = lcg(3);
    let h = 0;
    for (let i = 1; i < n; i++) {
      h += (rnd() - 0.5) * 2 * 2.97;
      const l = 0.5 + 2.5 * rnd();
      x[i] = x[i - 1]! + l * Math.sin(h);
      z[i] = z[i - 1]! + l * Math.cos(h);
    }
    return new AiPath(x, z, new Float64Array(n).fill(1), new Float64Array(n), false);
  })(),
  // an open zig-zag with kinks at every point
  'open zig-zag': (() => {
    const n = 400, x = new Float64Array(n), z = new Float64Array(n);
    for (let i = 0; i < n; i++) [x[i], z[i]] = [2 * i, i % 2 === 0 ? 0 : 1.2];
    return new AiPath(x, z, new Float64Array(n).fill(1), new Float64Array(n), false);
  })(),
};

describe('AiPath.locate clearance stop', () => {
  for (const [name, p] of Object.entries(PATHS)) {
    it(`${name}: every location equals the plain walk's bit for bit (hints near and stale, points on and off)`, () => {
      const rnd = lcg(7);
      const segs = p.closed ? p.n : p.n - 1;
      const out: PathLocation = { index: 0, s: 0, lateral: 0 };
      for (let q = 0; q < 20000; q++) {
        const k = Math.floor(rnd() * segs), k2 = k + 1 < p.n ? k + 1 : 0, f = rnd();
        // a point near segment k: up to 20 m off (past LOCATE_FAR_M for some), hint up to ±12 segments off
        const off = 20 * rnd() ** 3, a = 2 * Math.PI * rnd();
        const x = p.x[k]! + f * (p.x[k2]! - p.x[k]!) + off * Math.cos(a);
        const z = p.z[k]! + f * (p.z[k2]! - p.z[k]!) + off * Math.sin(a);
        let hint = q % 7 === 0 ? -1 : k + Math.round((rnd() - 0.5) * 24);
        if (p.closed) hint = ((hint % segs) + segs) % segs;
        else hint = Math.min(segs - 1, Math.max(-1, hint));
        const want = plainLocate(p, x, z, hint);
        p.locate(x, z, hint, out);
        expect([out.index, out.s, out.lateral]).toEqual([want.index, want.s, want.lateral]);
      }
    });
  }

  it('lead and lag are tight: a segment two ahead (behind) crossing 0.5 m past the end is found when it is nearer', () => {
    // segment 2 runs (0,0) → (0,2); segment 4 crosses in front of its end, 0.5 m ahead, at z = 2.5
    const pts: [number, number][] = [[0, -4], [0, -2], [0, 0], [0, 2], [2, 2.5], [-3, 2.5], [-3, 6], [-3, 8]];
    const build = (p: [number, number][]): AiPath => new AiPath(
      Float64Array.from(p, (q) => q[0]), Float64Array.from(p, (q) => q[1]), new Float64Array(p.length).fill(1),
      new Float64Array(p.length), false);
    const fwd = build(pts), back = build([...pts].reverse());
    const n = pts.length;
    // (−0.6, 1.99): 0.6 m beside segment 2, not past its end, 0.51 m from segment 4 (the nearest: the lead,
    // 0.5 m, is under 0.6 m, so no stop); (−0.3, 2.3): past the end (no lead stop), 0.2 m from segment 4
    for (const [x, z] of [[-0.6, 1.99], [-0.3, 2.3]] as const) {
      expect(fwd.locate(x, z, 2).index).toBe(4);
      expect(fwd.locate(x, z, 2)).toEqual(plainLocate(fwd, x, z, 2));
      // reversed, segment n − 4 runs (0,2) → (0,0) and the crossing one lies two behind it: the lag
      expect(back.locate(x, z, n - 4).index).toBe(n - 6);
      expect(back.locate(x, z, n - 4)).toEqual(plainLocate(back, x, z, n - 4));
    }
  });

  it('a car 0.5 m off a straight, hinted at its own segment, tests 3 segments instead of the plain walk\'s 9', () => {
    const n = 200, x = new Float64Array(n), z = new Float64Array(n);
    for (let i = 0; i < n; i++) z[i] = 2 * i;
    const p = new AiPath(x, z, new Float64Array(n).fill(1), new Float64Array(n), false);
    const spy = vi.spyOn(p as unknown as { segmentDistance2: () => number }, 'segmentDistance2');
    // the point projects onto segment 100 (1 m in): hint, one ahead, one behind; the next ones are 2 m
    // of clearance away (C = 2 m > 2 × 0.5 m)
    p.locate(0.5, 201, 100);
    expect(spy).toHaveBeenCalledTimes(3);
    spy.mockRestore();
  });
});
