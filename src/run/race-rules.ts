/**
 * The rules of a rallycross race for one car, independent of rendering: countdown and jump start, laps counted
 * on the circuit's closed path, the joker lap, penalties (jump start, missed joker, recoveries) and the finish.
 * Driven once per simulation tick with the car's arc length on the circuit and its position (the RaceProgress
 * pass, src/run/race-progress.ts, holds the state in the car's component); pure functions over a
 * `RaceRunState`, tested from their definitions in tests/ai/race-rules.test.ts.
 */
import { RECOVER_PENALTY_S } from '../systems/sim/vehicle/recovery';
import { COUNTDOWN_EPS_S, MAX_PROGRESS_STEP_M } from './stage-run';

export type RacePhaseOfCar = 'countdown' | 'racing' | 'finished';

/** Time added for a jump start (moving off the grid before the lights go out), s. */
export const JUMP_START_PENALTY_S = 5;
/** Time added at the finish per joker lap missed (or taken more than once), s. */
export const JOKER_PENALTY_S = 30;
/** Distance a car may roll on the grid before the lights go out without a jump start, m. */
export const JUMP_START_TOLERANCE_M = 0.5;
/** Longest step of the progress in one tick, m: a bigger one is a jump onto another part of the circuit (the stage rule's). */
export const MAX_LAP_STEP_M = MAX_PROGRESS_STEP_M;
/** A car leaves the joker gate (and may count it again) beyond this many gate radii. */
const JOKER_GATE_EXIT_RADII = 3;

/** The joker gate: a car took the joker when it passed within `gateRadiusM` of (gateX, gateZ). */
export interface JokerGate {
  gateX: number;
  gateZ: number;
  gateRadiusM: number;
}

export interface RaceRules {
  laps: number;
  /** Length of one lap (the circuit path's length), m. */
  lapLengthM: number;
  countdownS: number;
  jumpStartToleranceM: number;
  jumpStartPenaltyS: number;
  /** Per joker missed or taken more than once, added at the finish, s. */
  jokerPenaltyS: number;
  recoverPenaltyS: number;
  /** The joker rule (null: off). */
  joker: JokerGate | null;
}

export const DEFAULT_RACE_RULES: Omit<RaceRules, 'laps' | 'lapLengthM' | 'joker'> = {
  countdownS: 3,
  jumpStartToleranceM: JUMP_START_TOLERANCE_M,
  jumpStartPenaltyS: JUMP_START_PENALTY_S,
  jokerPenaltyS: JOKER_PENALTY_S,
  recoverPenaltyS: RECOVER_PENALTY_S,
};

/** Everything a car's race carries from one tick to the next (the RaceProgress component's state). */
export interface RaceRunState {
  phase: RacePhaseOfCar;
  countdownLeftS: number;
  /** Race clock since the lights went out, s (stops at the finish). */
  timeS: number;
  /** Signed distance driven along the circuit since the start line, m. */
  progressM: number;
  gridProgressM: number;
  /** Completed laps: rises when the line is crossed forwards, never falls. */
  lap: number;
  /** Arc length on the circuit after the last tick, m. */
  pathS: number;
  jokers: number;
  /** Completed laps when the first joker was taken (null: none yet). */
  jokerLap: number | null;
  inJokerGate: boolean;
  jumpStart: boolean;
  penaltyS: number;
  recoveries: number;
  recoverHeld: boolean;
  finishTimeS: number | null;
}

/** What a tick of a car's race can report. */
export type RaceEvent = 'start' | 'jump-start' | 'lap' | 'joker' | 'joker-penalty' | 'recover' | 'finish';

export interface RaceTick {
  dt: number;
  /** The car's arc length on the circuit, m, and its position (the joker gate), m. */
  pathS: number;
  x: number;
  z: number;
  /** The Recover button is held this tick. */
  recover: boolean;
}

/** Signed step from arc length `a` to `b` on a closed path of length `L`, in (−L/2, L/2]. */
function wrappedStep(a: number, b: number, L: number): number {
  let d = b - a;
  if (d > L / 2) d -= L;
  else if (d < -L / 2) d += L;
  return d;
}

/** A car placed on the grid at arc length `pathS`; the start line is at `startS`. */
export function initialRaceState(rules: RaceRules, startS: number, pathS: number): RaceRunState {
  const progress = wrappedStep(startS, pathS, rules.lapLengthM);
  return {
    phase: 'countdown', countdownLeftS: rules.countdownS, timeS: 0, progressM: progress, gridProgressM: progress,
    lap: 0, pathS, jokers: 0, jokerLap: null, inJokerGate: false, jumpStart: false, penaltyS: 0, recoveries: 0,
    recoverHeld: false, finishTimeS: null,
  };
}

/**
 * V8 gives an object field the representation of the first value it holds: a field created from 0 or null that
 * later takes a fraction or a number (a car's first penalty, joker or finish, mid-race) changes the shape of every
 * race state and deoptimises each function that had read one. One state, made when this module loads, takes each
 * kind of value its fields will hold, so the shape is final before any of that code runs.
 */
function widenRaceStateShape(): void {
  const s = initialRaceState({ ...DEFAULT_RACE_RULES, laps: 1, lapLengthM: 1, joker: null }, 0, 0);
  s.countdownLeftS = s.timeS = s.progressM = s.gridProgressM = s.pathS = s.penaltyS = 0.5;
  s.jokerLap = 0;
  s.finishTimeS = 0.5;
}
widenRaceStateShape();

/** Progress follows the car along the circuit; a step longer than MAX_LAP_STEP_M (a jump across) does not count. */
function followCircuit(s: RaceRunState, rules: RaceRules, pathS: number): void {
  const ds = wrappedStep(s.pathS, pathS, rules.lapLengthM);
  s.pathS = pathS;
  if (Math.abs(ds) < MAX_LAP_STEP_M) s.progressM += ds;
}

function runCountdown(s: RaceRunState, rules: RaceRules, t: RaceTick, ev: RaceEvent[]): void {
  followCircuit(s, rules, t.pathS);
  if (!s.jumpStart && s.progressM - s.gridProgressM > rules.jumpStartToleranceM) {
    s.jumpStart = true;
    s.penaltyS += rules.jumpStartPenaltyS;
    ev.push('jump-start');
  }
  s.countdownLeftS -= t.dt;
  if (s.countdownLeftS <= COUNTDOWN_EPS_S) {
    s.countdownLeftS = 0;
    s.phase = 'racing';
    ev.push('start');
  }
}

/** A car's place against the joker gate after a tick: outside it, inside it, or just entered (the count). */
const GATE_OUT = 0, GATE_IN = 1, GATE_ENTERED = 2;

/** Where the car at (x, z) stands against the gate, given whether it was inside after the last tick. */
function jokerGateAfter(inGate: boolean, gate: JokerGate, x: number, z: number): number {
  // squared distances against squared radii: no root per car per tick
  const dx = x - gate.gateX, dz = z - gate.gateZ;
  const d2 = dx * dx + dz * dz, r = gate.gateRadiusM, rExit = JOKER_GATE_EXIT_RADII * r;
  if (d2 < r * r && !inGate) return GATE_ENTERED;
  if (d2 > rExit * rExit) return GATE_OUT;
  return inGate ? GATE_IN : GATE_OUT;
}

/** The joker gate at the middle of the branch: one count per pass through it. */
function passJokerGate(s: RaceRunState, gate: JokerGate, t: RaceTick, ev: RaceEvent[]): void {
  const g = jokerGateAfter(s.inJokerGate, gate, t.x, t.z);
  if (g === GATE_ENTERED) {
    s.inJokerGate = true;
    s.jokers++;
    s.jokerLap ??= s.lap;
    ev.push('joker');
  } else s.inJokerGate = g === GATE_IN;
}

/** The flag: the race clock stops; a joker missed (or taken more than once) costs jokerPenaltyS per lap of difference. */
function finishRace(s: RaceRunState, rules: RaceRules, ev: RaceEvent[]): void {
  s.phase = 'finished';
  s.finishTimeS = s.timeS;
  if (rules.joker && s.jokers !== 1) {
    s.penaltyS += rules.jokerPenaltyS * Math.max(1, Math.abs(s.jokers - 1));
    ev.push('joker-penalty');
  }
  ev.push('finish');
}

/** Advance a car's race by one simulation tick; the events of this tick are appended to `ev`, in order. */
export function advanceRace(s: RaceRunState, rules: RaceRules, t: RaceTick, ev: RaceEvent[]): void {
  if (s.phase === 'countdown') return runCountdown(s, rules, t, ev);
  const pressed = t.recover && !s.recoverHeld;
  s.recoverHeld = t.recover;
  if (s.phase === 'finished') {
    s.pathS = t.pathS;
    return;
  }
  s.timeS += t.dt;
  if (pressed) {
    // the run's owner puts the car back on the circuit (placeCarAtRest) after the tick
    s.penaltyS += rules.recoverPenaltyS;
    s.recoveries++;
    ev.push('recover');
  }
  if (rules.joker) passJokerGate(s, rules.joker, t, ev);
  followCircuit(s, rules, t.pathS);
  const lap = Math.floor(s.progressM / rules.lapLengthM);
  if (lap > s.lap) {
    s.lap = lap;
    ev.push('lap');
  }
  if (s.progressM >= rules.laps * rules.lapLengthM) finishRace(s, rules, ev);
}

/** The fields a racing tick changes when it raises no event (what `advanceQuietRacing` reads and writes). */
export interface QuietRacingState {
  timeS: number;
  progressM: number;
  pathS: number;
  lap: number;
  inJokerGate: boolean;
}

/**
 * The common tick of a racing car, for a car whose Recover button is up now and was up last tick: the clock,
 * the progress along the circuit and the joker gate's inside flag, exactly as `advanceRace` computes them. It
 * writes nothing and returns false when the tick raises an event (a lap, the finish, the joker): `advanceRace`
 * runs that tick on the whole state instead. The race pass calls it per car per tick (most ticks), so it does not
 * copy the whole state in and out of the component.
 */
export function advanceQuietRacing(s: QuietRacingState, rules: RaceRules, t: RaceTick): boolean {
  const gate = rules.joker ? jokerGateAfter(s.inJokerGate, rules.joker, t.x, t.z) : GATE_OUT;
  if (gate === GATE_ENTERED) return false;
  const L = rules.lapLengthM;
  const ds = wrappedStep(s.pathS, t.pathS, L);
  const progressM = Math.abs(ds) < MAX_LAP_STEP_M ? s.progressM + ds : s.progressM;
  if (Math.floor(progressM / L) > s.lap || progressM >= rules.laps * L) return false;
  s.timeS += t.dt;
  s.progressM = progressM;
  s.pathS = t.pathS;
  if (rules.joker) s.inJokerGate = gate === GATE_IN;
  return true;
}

/** Finish time with penalties (null before the finish). */
export function raceResultS(s: Pick<RaceRunState, 'finishTimeS' | 'penaltyS'>): number | null {
  return s.finishTimeS === null ? null : s.finishTimeS + s.penaltyS;
}

/** What race order is decided on. */
export type RaceStandingState = Pick<RaceRunState, 'finishTimeS' | 'penaltyS' | 'progressM'>;

/** Race order: finished cars by finish time plus penalties, then the rest by progress (ties: lower index first). */
export function racePositions(cars: readonly RaceStandingState[]): number[] {
  const idx = cars.map((_, i) => i);
  idx.sort((a, b) => {
    const A = cars[a]!, B = cars[b]!;
    if (A.finishTimeS !== null || B.finishTimeS !== null) {
      if (A.finishTimeS === null) return 1;
      if (B.finishTimeS === null) return -1;
      return A.finishTimeS + A.penaltyS - (B.finishTimeS + B.penaltyS) || a - b;
    }
    return B.progressM - A.progressM || a - b;
  });
  return idx;
}
