/**
 * The rallycross race rules (src/run/race-rules.ts), each from its definition, fed positions directly (no
 * physics): laps counted on crossing the line forwards only, jumps across the circuit ignored, the jump start,
 * the joker gate counted once per pass, the missed (or doubled) joker penalty at the flag, recoveries on the
 * press, race order with penalties, and on the shipped circuit a joker lap adding the branch's extra distance.
 */
import { describe, expect, it } from 'vitest';
import type { AiPath } from '../../src/systems/sim/ai/path';
import { circlePath } from './circle-path';
import {
  advanceRace, DEFAULT_RACE_RULES, initialRaceState, JOKER_PENALTY_S, JUMP_START_PENALTY_S, MAX_LAP_STEP_M,
  racePositions, raceResultS, type RaceEvent, type RaceRules, type RaceRunState,
} from '../../src/run/race-rules';
import { RECOVER_PENALTY_S } from '../../src/systems/sim/vehicle/recovery';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { stagePath } from '../../src/systems/sim/ai/stage-path';
import { jokerRoute } from '../../src/systems/sim/ai/joker';

const DT = 0.002;


function rulesFor(path: AiPath, laps: number, joker: RaceRules['joker'] = null): RaceRules {
  return { ...DEFAULT_RACE_RULES, countdownS: 10 * DT, laps, lapLengthM: path.lengthM, joker };
}

/** Runs the countdown with the car standing at `pathS`. */
function pastLights(s: RaceRunState, rules: RaceRules, pathS: number): RaceEvent[] {
  const ev: RaceEvent[] = [];
  while (s.phase === 'countdown') advanceRace(s, rules, { dt: DT, pathS, x: 1e6, z: 1e6, recover: false }, ev);
  return ev;
}

/** One tick at arc length `pathS` (position far from any gate unless given). */
function step(s: RaceRunState, rules: RaceRules, pathS: number, at: { x?: number; z?: number; recover?: boolean } = {}): RaceEvent[] {
  const ev: RaceEvent[] = [];
  advanceRace(s, rules, { dt: DT, pathS, x: at.x ?? 1e6, z: at.z ?? 1e6, recover: at.recover ?? false }, ev);
  return ev;
}

describe('rallycross race rules', () => {
  it('laps: one per crossing of the start line forwards; backing over the line and crossing again is not a lap; finish after N laps', () => {
    const path = circlePath(100);
    const L = path.lengthM;
    const rules = rulesFor(path, 2);
    // grid 5 m behind a start line at s = 10
    const s = initialRaceState(rules, 10, 5);
    expect(s.progressM).toBeCloseTo(-5, 12);
    expect(pastLights(s, rules, 5)).toEqual(['start']);
    let at = 5;
    const lapTicks: number[] = [];
    // 1 m per tick to 3 m past the line (one lap = L + 5 m from the grid)
    const ticksToPast = Math.ceil(L + 5) + 3;
    for (let k = 1; k <= ticksToPast; k++) {
      at = (at + 1) % L;
      if (step(s, rules, at).includes('lap')) lapTicks.push(k);
    }
    expect(lapTicks).toEqual([Math.ceil(L + 5)]);
    expect(s.lap).toBe(1);
    // back 6 m over the line and forwards again: progress falls below L and rises again, the lap count does not move
    for (let k = 0; k < 6; k++) expect(step(s, rules, (at = (at - 1 + L) % L))).toEqual([]);
    expect(s.progressM).toBeLessThan(L);
    expect(s.lap).toBe(1);
    for (let k = 0; k < 6; k++) expect(step(s, rules, (at = (at + 1) % L))).toEqual([]);
    // the second crossing forwards is the finish (2 laps); the clock stops there
    let ev: RaceEvent[] = [];
    while (s.phase !== 'finished') {
      ev = step(s, rules, (at = (at + 1) % L));
    }
    expect(ev).toEqual(['lap', 'finish']);
    expect(s.progressM).toBeGreaterThanOrEqual(2 * L);
    expect(s.progressM - 2 * L).toBeLessThan(1);
    expect(s.finishTimeS).toBe(s.timeS);
    const t = s.timeS;
    step(s, rules, (at + 1) % L);
    expect(s.timeS).toBe(t);
  });

  it(`progress: a step of ${MAX_LAP_STEP_M} m or more in a tick (a jump across the circuit, a bad projection) does not count`, () => {
    const path = circlePath(100);
    const rules = rulesFor(path, 1);
    const s = initialRaceState(rules, 0, 0);
    pastLights(s, rules, 0);
    step(s, rules, MAX_LAP_STEP_M - 0.01);
    expect(s.progressM).toBeCloseTo(MAX_LAP_STEP_M - 0.01, 9);
    step(s, rules, 2 * MAX_LAP_STEP_M);
    expect(s.progressM).toBeCloseTo(MAX_LAP_STEP_M - 0.01, 9);
  });

  it(`jump start: rolling more than ${DEFAULT_RACE_RULES.jumpStartToleranceM} m before the lights → +${JUMP_START_PENALTY_S} s once; within the tolerance → none`, () => {
    const path = circlePath(100);
    const rules = rulesFor(path, 1);
    const s = initialRaceState(rules, 20, 10);
    expect(step(s, rules, 10 + 0.9 * rules.jumpStartToleranceM)).toEqual([]);
    expect(step(s, rules, 10 + 1.1 * rules.jumpStartToleranceM)).toEqual(['jump-start']);
    expect(step(s, rules, 12)).toEqual([]);
    expect(s.penaltyS).toBe(JUMP_START_PENALTY_S);
    expect(s.jumpStart).toBe(true);
    // the penalty counts in the result, not in the race clock
    expect(s.timeS).toBe(0);
  });

  it(`joker: the gate counts once per pass; taken once → no penalty, missed → +${JOKER_PENALTY_S} s at the flag, twice → +${JOKER_PENALTY_S} s`, () => {
    const path = circlePath(100);
    const L = path.lengthM;
    const gate = { gateX: 0, gateZ: 0, gateRadiusM: 4 };
    const rules = rulesFor(path, 1, gate);
    /** A lap from the line; the car passes the gate `passes` times (lingering 5 ticks inside each time). */
    const lapWith = (passes: number): { s: RaceRunState; finishEvents: RaceEvent[] } => {
      const s = initialRaceState(rules, 0, 0);
      pastLights(s, rules, 0);
      let at = 0, finishEvents: RaceEvent[] = [];
      for (let k = 1; s.phase !== 'finished'; k++) {
        at = (at + 1) % L;
        const inGate = k % 100 < 5 && Math.floor(k / 100) < passes;
        // leaving the gate to more than 3 radii re-arms it; between 1 and 3 radii it does not
        const x = inGate ? 1 : k % 100 < 10 ? 2 * gate.gateRadiusM : 1e6;
        // the loop ends on the finish: the last tick's events are the finish's
        finishEvents = step(s, rules, at, { x, z: 0 });
      }
      return { s, finishEvents };
    };
    const once = lapWith(1);
    expect(once.s.jokers).toBe(1);
    expect(once.s.jokerLap).toBe(0);
    expect(once.s.penaltyS).toBe(0);
    expect(once.finishEvents).toEqual(['lap', 'finish']);
    const missed = lapWith(0);
    expect(missed.s.jokers).toBe(0);
    expect(missed.s.penaltyS).toBe(JOKER_PENALTY_S);
    expect(missed.finishEvents).toEqual(['lap', 'joker-penalty', 'finish']);
    expect(raceResultS(missed.s)).toBe(missed.s.finishTimeS! + JOKER_PENALTY_S);
    const twice = lapWith(2);
    expect(twice.s.jokers).toBe(2);
    expect(twice.s.penaltyS).toBe(JOKER_PENALTY_S);
  });

  it(`recovery: +${RECOVER_PENALTY_S} s on the press of Recover, not again while it is held, again on the next press`, () => {
    const path = circlePath(100);
    const rules = rulesFor(path, 1);
    const s = initialRaceState(rules, 0, 0);
    pastLights(s, rules, 0);
    expect(step(s, rules, 1, { recover: true })).toEqual(['recover']);
    expect(step(s, rules, 1, { recover: true })).toEqual([]);
    expect(step(s, rules, 1)).toEqual([]);
    expect(step(s, rules, 1, { recover: true })).toEqual(['recover']);
    expect(s.penaltyS).toBe(2 * RECOVER_PENALTY_S);
    expect(s.recoveries).toBe(2);
  });

  it('race order: finished cars by time plus penalties, then the rest by progress, ties to the lower index', () => {
    const cars = [
      { finishTimeS: null, penaltyS: 0, progressM: 300 },
      { finishTimeS: null, penaltyS: 0, progressM: 400 },
      { finishTimeS: 50, penaltyS: 5, progressM: 900 },
      { finishTimeS: 54, penaltyS: 0, progressM: 900 },
      { finishTimeS: 55, penaltyS: 0, progressM: 900 },
    ];
    // 54 s first; 50 + 5 s and 55 s tie at 55 s: the lower index first
    expect(racePositions(cars)).toEqual([3, 2, 4, 1, 0]);
  });

  it('on the shipped circuit, a joker lap adds the joker distance: one lap counted, the joker once, no penalty, the lap driven in L + the route’s extra length', () => {
    const stage = loadStageFromDir('src/content/stages/rallycross-bitring');
    const car = loadBuiltinCar('rally-awd');
    const main = stagePath(stage, car);
    const J = jokerRoute(stage, main, () => 1)!;
    const startS = main.locate(stage.start.x, stage.start.z).s;
    const rules: RaceRules = { ...DEFAULT_RACE_RULES, countdownS: DT, laps: 1, lapLengthM: main.lengthM, joker: J };
    const L = main.lengthM;
    // the route: the main path from the start line to the branch's hand-over, the joker path, the main path on
    const pts: [number, number][] = [];
    const pt = [0, 0];
    const addAlong = (p: AiPath, from: number, to: number): void => {
      for (let d = from; d < to; d += 0.5) {
        p.pointAt(p.closed ? p.wrapS(d) : d, pt);
        pts.push([pt[0]!, pt[1]!]);
      }
    };
    const handOver = (J.entryS - J.leadM - startS + L) % L;
    const rejoin = (J.exitS + J.leadM - startS + L) % L;
    addAlong(main, startS, startS + handOver);
    addAlong(J.path, 0, J.path.lengthM);
    addAlong(main, startS + rejoin, startS + L + 20);
    const s = initialRaceState(rules, startS, startS);
    pastLights(s, rules, startS);
    let hint = -1, drivenM = 0, lapAtM = -1;
    const loc = { index: 0, s: 0, lateral: 0 };
    for (let i = 0; i < pts.length && s.phase !== 'finished'; i++) {
      const [x, z] = pts[i]!;
      if (i > 0) drivenM += Math.hypot(x - pts[i - 1]![0], z - pts[i - 1]![1]);
      main.locate(x, z, hint, loc);
      hint = loc.index;
      if (step(s, rules, loc.s, { x, z }).includes('lap')) lapAtM = drivenM;
    }
    expect(s.phase).toBe('finished');
    expect(s.jokers).toBe(1);
    expect(s.penaltyS).toBe(0);
    expect(s.lap).toBe(1);
    // progress is counted along the main line, so the lap completes after L plus the joker route's extra length
    // over the stretch of main line it replaces (hand-over to rejoin); tolerance 1 m: the 0.5 m sampling at the
    // two joins and the lap tick's overshoot
    const jokerExtraM = J.path.lengthM - (rejoin - handOver);
    expect(jokerExtraM).toBeGreaterThan(0);
    expect(Math.abs(lapAtM - L - jokerExtraM)).toBeLessThan(1);
  });
});
