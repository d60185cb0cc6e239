/**
 * AiPath.indexNear / pointNear (src/systems/sim/ai/path.ts): a look-up walked from a remembered index must give
 * the binary search's index (`indexAt`) and `pointAt`'s point bit for bit, from any hint: in range or not, near
 * or far, on open and closed paths, with repeated points (zero-length segments), at sample points exactly, past
 * either end, across the lap line and for NaN. The AI driver's decisions read the path through them, so any
 * difference would change the simulation.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { AiPath } from '../../src/systems/sim/ai/path';

/** A path from random steps (some zero: repeated points), on a closed loop or open. */
function pathFrom(steps: readonly [number, number][], closed: boolean): AiPath {
  const n = steps.length + 1;
  const x = new Float64Array(n), z = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    x[i] = x[i - 1]! + steps[i - 1]![0];
    z[i] = z[i - 1]! + steps[i - 1]![1];
  }
  return new AiPath(x, z, new Float64Array(n).fill(1), new Float64Array(n), closed);
}

const stepArb = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })) },
  { weight: 1, arbitrary: fc.constant<[number, number]>([0, 0]) },
);

/** Arc lengths to query: any real in a few laps around the path, the samples themselves, the ends, NaN. */
function queryArb(p: AiPath): fc.Arbitrary<number> {
  const L = p.lengthM;
  return fc.oneof(
    fc.double({ min: -2 * L - 1, max: 3 * L + 1, noNaN: true }),
    fc.integer({ min: 0, max: p.n - 1 }).map((i) => p.s[i]!),
    fc.integer({ min: 0, max: p.n - 1 }).map((i) => p.s[i]! + L),
    fc.constantFrom(0, -0, L, p.s[p.n - 1]!, -1e-300, Number.NaN),
  );
}

/** A random path and queries on it: arc length, a hint anywhere (or out of range), and an offset of a few points. */
function casesArb(maxSteps: number, maxQueries: number): fc.Arbitrary<[AiPath, [number, number, number][]]> {
  return fc.tuple(fc.array(stepArb, { minLength: 2, maxLength: maxSteps }), fc.boolean()).chain(([steps, closed]) => {
    const p = pathFrom(steps, closed);
    const query = fc.tuple(queryArb(p), fc.integer({ min: -3, max: p.n + 3 }), fc.integer({ min: -3, max: 3 }));
    return fc.tuple(fc.constant(p), fc.array(query, { minLength: 1, maxLength: maxQueries }));
  });
}

describe('AiPath.indexNear: the binary search index from any hint', () => {
  it('equals indexAt on random paths, queries and hints (near the answer, anywhere, out of range)', () => {
    fc.assert(
      fc.property(casesArb(120, 30), ([p, queries]) => {
        for (const [s, hint, near] of queries) {
          const want = p.indexAt(s);
          expect(p.indexNear(s, hint)).toBe(want);
          // a hint a few points from the answer (the driver's case: its look-ahead moved a little)
          expect(p.indexNear(s, want + near)).toBe(want);
        }
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it('walks from a hint near the answer instead of bisecting, and bisects after a jump', () => {
    const steps = Array.from({ length: 400 }, (_, i): [number, number] => [Math.sin(i / 20) * 2, 2]);
    const p = pathFrom(steps, true);
    const spy = vi.spyOn(p, 'indexAt');
    const s = p.s[200]! + 0.3;
    expect(p.indexNear(s, 195)).toBe(200);
    expect(p.indexNear(s, 210)).toBe(200);
    expect(spy).not.toHaveBeenCalled();
    // 200 points away: farther than the walk goes, the search answers
    expect(p.indexNear(s, 0)).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe('AiPath.pointNear: pointAt from a hint', () => {
  it('gives pointAt’s point bit for bit and the index of the arc length it interpolates on', () => {
    fc.assert(
      fc.property(casesArb(80, 20), ([p, queries]) => {
        const a = new Float64Array(2), b = new Float64Array(2);
        for (const [s, hint] of queries) {
          p.pointAt(s, a);
          const i = p.pointNear(s, hint, b);
          expect(Object.is(b[0], a[0]) && Object.is(b[1], a[1])).toBe(true);
          expect(i).toBe(p.indexAt(p.wrapS(s)));
        }
      }),
      { numRuns: 200, seed: 23 },
    );
  });

  it('headingOf(indexAt(s)) is headingAt(s)', () => {
    const p = pathFrom(Array.from({ length: 60 }, (_, i): [number, number] => [Math.cos(i / 7), 1.5]), false);
    for (let s = -5; s < p.lengthM + 5; s += 0.37) expect(p.headingOf(p.indexAt(s))).toBe(p.headingAt(s));
  });
});
