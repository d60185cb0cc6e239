/**
 * absorbCrush (src/systems/sim/collision/crush.ts): the collision passes' crush split, which skips
 * absorbEnergy's bisection when the ends take the energy below their yield force. Its added crush must be
 * absorbEnergy's bit for bit: checked with fast-check over energies around the bumper capacities and the
 * yield energies, one end or two in series, fresh and already crushed ends.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { absorbCrush, absorbEnergy, endEnergy, identifyCrush, type CrushEnd } from '../../src/systems/sim/collision/crush';

const params = identifyCrush(1500);
const end = (kc: number, crush: number): CrushEnd => ({ cap: params.bumper.cap, F0: params.bumper.F0, kc, crush });

describe('absorbCrush', () => {
  it('gives absorbEnergy\'s added crush bit for bit (fast-check: energies about the yields, one or two ends)', () => {
    const kcs = [params.kcF, params.kcR, params.kcS];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.double({ min: 0, max: 0.4, noNaN: true }),
        fc.double({ min: 0, max: 0.4, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), fc.boolean(),
        fc.double({ min: -0.01, max: 0.01, noNaN: true }), fc.boolean(),
        (ia, ib, ca, cb, scale, pair, dF, nearYield) => {
          const a = end(kcs[ia]!, ca), b = pair ? end(kcs[ib]!, cb) : null;
          const fy = Math.min(a.F0 + a.kc * a.crush, b ? b.F0 + b.kc * b.crush : Infinity);
          const held = (F: number): number => endEnergy(a, F) + (b ? endEnergy(b, F) : 0);
          // ΔE: what the ends hold at a force within 1 % of the lower yield force (the shortcut's edge), or a
          // multiple 0 … 3 of what they hold at it (under, at, past the yield)
          const dE = nearYield ? held(fy * (1 + dF)) : scale * held(fy);
          const want: [number, number] = [NaN, NaN], got: [number, number] = [NaN, NaN];
          absorbEnergy(dE, a, b, want);
          absorbCrush(dE, a, b, got);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 2000, seed: 19 },
    );
  });

  it('an impact under the bumper capacity leaves no crush; one well past the yield crushes as absorbEnergy says', () => {
    const added: [number, number] = [NaN, NaN], want: [number, number] = [NaN, NaN];
    absorbCrush(0.5 * params.bumper.cap, end(params.kcF, 0), end(params.kcR, 0), added);
    expect(added).toEqual([0, 0]);
    absorbEnergy(50_000, end(params.kcF, 0.1), null, want);
    absorbCrush(50_000, end(params.kcF, 0.1), null, added);
    expect(want[0]).toBeGreaterThan(0);
    expect(added).toEqual(want);
  });
});
