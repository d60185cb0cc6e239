/**
 * The race pass's common tick (src/run/race-rules.ts, advanceQuietRacing) against its definition, the full rules
 * (advanceRace): over racing states and ticks drawn by fast-check (steps along the circuit short and across it,
 * over the start line and the finish, a joker gate passed near, entered and left), the quiet tick declines exactly
 * the ticks that raise an event and leaves its state untouched then; every other tick ends in the same bits as
 * advanceRace's in each field, the rest of the state as advanceRace leaves it (unchanged).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  advanceQuietRacing, advanceRace, DEFAULT_RACE_RULES, MAX_LAP_STEP_M, type QuietRacingState, type RaceEvent,
  type RaceRules, type RaceRunState,
} from '../../src/run/race-rules';

const DT = 0.002;
const LAP_M = 400;
const GATE = { gateX: 10, gateZ: -5, gateRadiusM: 4 };

function racingState(lap: number, progressM: number, pathS: number, inJokerGate: boolean, timeS: number): RaceRunState {
  return {
    phase: 'racing', countdownLeftS: 0, timeS, progressM, gridProgressM: -3, lap, pathS, jokers: inJokerGate ? 1 : 0,
    jokerLap: inJokerGate ? lap : null, inJokerGate, jumpStart: false, penaltyS: 0, recoveries: 0, recoverHeld: false,
    finishTimeS: null,
  };
}

describe('advanceQuietRacing', () => {
  it('declines exactly the ticks with an event, and otherwise leaves the bits advanceRace leaves (fast-check)', () => {
    let quiet = 0, declined = 0;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2 }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      fc.double({ min: -2 * MAX_LAP_STEP_M, max: 2 * MAX_LAP_STEP_M, noNaN: true }), fc.boolean(), fc.boolean(),
      fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true }),
      fc.double({ min: 0, max: 300, noNaN: true }),
      (lap, frac, step, joker, inGate, dx, dz, timeS) => {
        const rules: RaceRules = { ...DEFAULT_RACE_RULES, laps: 3, lapLengthM: LAP_M, joker: joker ? GATE : null };
        // a car on lap `lap`, `frac` of the way round it (the last laps end at the flag: over it, the finish)
        const progressM = (lap + frac) * LAP_M;
        const pathS = progressM % LAP_M;
        const nextS = (((pathS + step) % LAP_M) + LAP_M) % LAP_M;
        const t = { dt: DT, pathS: nextS, x: GATE.gateX + dx, z: GATE.gateZ + dz, recover: false };
        const full = racingState(lap, progressM, pathS, joker && inGate, timeS);
        const q: QuietRacingState = { timeS, progressM, pathS, lap, inJokerGate: full.inJokerGate };
        const before = { ...q };
        const ev: RaceEvent[] = [];
        const after = { ...full };
        advanceRace(after, rules, t, ev);
        const took = advanceQuietRacing(q, rules, t);
        expect(took).toBe(ev.length === 0);
        if (!took) {
          declined++;
          expect(q).toEqual(before);
          return;
        }
        quiet++;
        expect(Object.is(q.timeS, after.timeS)).toBe(true);
        expect(Object.is(q.progressM, after.progressM)).toBe(true);
        expect(Object.is(q.pathS, after.pathS)).toBe(true);
        expect(q.inJokerGate).toBe(after.inJokerGate);
        expect(after.lap).toBe(full.lap);
        expect({ ...after, timeS: 0, progressM: 0, pathS: 0, inJokerGate: false }).toEqual(
          { ...full, timeS: 0, progressM: 0, pathS: 0, inJokerGate: false },
        );
      },
    ), { numRuns: 3000, seed: 19 });
    // both branches were exercised (the draws reach the line, the flag and the gate)
    expect(quiet).toBeGreaterThan(500);
    expect(declined).toBeGreaterThan(50);
  });
});
