import { f64, i32, u8, type ComponentSpec } from './spec';

/** `RaceProgress.phase` values (the StageProgress codes: countdown, racing, finished). */
export { STAGE_PHASE_COUNTDOWN as RACE_PHASE_COUNTDOWN, STAGE_PHASE_RUNNING as RACE_PHASE_RACING, STAGE_PHASE_FINISHED as RACE_PHASE_FINISHED } from './progress';

/** `RaceProgress.pathIndex` when the next location searches the whole circuit (after a recovery). */
export const NO_PATH_INDEX = -1;

/**
 * A car's race on a closed circuit (src/run/race-progress.ts, pass 10b of the pipeline; the rules are
 * src/run/race-rules.ts): countdown, jump start, laps, the joker, penalties and the finish. Everything a tick
 * leaves for the next one is state, so the state hash, snapshots and keyframes carry the race with the car.
 */
export const RaceProgressSpec = {
  fields: {
    phase: u8,
    /** Countdown left before the lights go out, s. */
    countdownLeftS: f64,
    /** Race clock since the lights went out, s (stops at the car's finish; penalties apart). */
    timeS: f64,
    /** Signed distance driven along the circuit since the start line (negative on the grid), m. */
    progressM: f64,
    /** Progress on the grid when the car was placed, m (the jump-start reference). */
    gridProgressM: f64,
    /** Completed laps. */
    lap: i32,
    /** The car's arc length on the circuit's path after the last tick, m, and the path segment (search hint). */
    pathS: f64,
    pathIndex: i32,
    /** Joker branches taken, the completed laps at the first (−1: none yet), inside the gate (1/0). */
    jokers: i32,
    jokerLap: i32,
    inJokerGate: u8,
    /** Moved off the grid before the lights went out (1/0). */
    jumpStart: u8,
    /** Penalties so far (jump start, joker, recoveries), s. */
    penaltyS: f64,
    recoveries: i32,
    /** The Recover button was held last tick (1/0): a recovery is asked on the press, not while held. */
    recoverHeld: u8,
    /** Race clock at the finish, s, and the tick it happened (NO_TICK before). */
    finishTimeS: f64,
    finishTick: i32,
    /** Distance from the path after the last tick, m (+ = left). */
    lateralM: f64,
  },
  state: [
    'phase', 'countdownLeftS', 'timeS', 'progressM', 'gridProgressM', 'lap', 'pathS', 'pathIndex', 'jokers',
    'jokerLap', 'inJokerGate', 'jumpStart', 'penaltyS', 'recoveries', 'recoverHeld', 'finishTimeS', 'finishTick',
  ],
} satisfies ComponentSpec;
