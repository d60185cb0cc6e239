/**
 * Rallycross race progress as a pipeline pass (pass 10b, src/run/pipeline.ts): each car with a RaceProgress
 * component (src/ecs/components/race-progress.ts) is located on the circuit of the world's `raceCourse` after
 * the tick, and its fields advance by the race rules (src/run/race-rules.ts, the one place of those rules: the
 * common racing tick through `advanceQuietRacing`, which touches only the fields that change, any other tick
 * through `advanceRace` on the whole state read out of the component and written back). What
 * happened goes to `world.events` as `race-start`, `race-jump-start`, `race-lap` { lap }, `race-joker`,
 * `race-joker-penalty`, `race-recover`, `race-finish`, each with `car`, `timeS` and `penaltyS`; the race
 * (src/run/race.ts) and the autopilot on a circuit (src/run/autopilot.ts) read them after the tick. On a
 * `race-recover` the run's owner puts the car back (`recoverOnPath`, then `resetRaceLocation`); the penalty is
 * already counted.
 */
import { hasComponent } from 'bitecs';
import { Button } from '../ecs/controls';
import {
  NO_PATH_INDEX, NO_TICK, RACE_PHASE_COUNTDOWN, RACE_PHASE_FINISHED, RACE_PHASE_RACING,
} from '../ecs/components';
import { attach, emitEvent } from '../ecs/world';
import type { SimEvent, SimWorld } from '../ecs/world-types';
import { entitiesWith } from '../ecs/queries';
import type { AiPath, PathLocation } from '../systems/sim/ai/path';
import {
  advanceQuietRacing, advanceRace, initialRaceState, type QuietRacingState, type RaceEvent, type RacePhaseOfCar, type RaceRules, type RaceRunState, type RaceTick,
} from './race-rules';

/** The circuit a world's cars race on: its closed path, the start line on it, and the rules. */
export interface RaceCourse extends RaceRules {
  path: AiPath;
  /** Arc length of the start line on `path`, m. */
  startS: number;
}

declare module '../ecs/world-types' {
  interface WorldRuntime {
    /** The circuit the RaceProgress pass races cars on (src/run/race-progress.ts). */
    raceCourse?: RaceCourse;
  }
}

const PHASES: readonly RacePhaseOfCar[] = ['countdown', 'racing', 'finished'];
/** A phase's component code (comparisons: a lookup keyed by the phase's string reads slower, per car per tick). */
const phaseCode = (phase: RacePhaseOfCar): number =>
  phase === 'racing' ? RACE_PHASE_RACING : phase === 'countdown' ? RACE_PHASE_COUNTDOWN : RACE_PHASE_FINISHED;

/** The world event kind of each race event. */
export const RACE_EVENT_KIND: Record<RaceEvent, string> = {
  start: 'race-start', 'jump-start': 'race-jump-start', lap: 'race-lap', joker: 'race-joker',
  'joker-penalty': 'race-joker-penalty', recover: 'race-recover', finish: 'race-finish',
};
const RACE_EVENT_OF = new Map<string, RaceEvent>(Object.entries(RACE_EVENT_KIND).map(([k, v]) => [v, k as RaceEvent]));

/** The world's cars race on `course` (set before attaching RaceProgress). */
export function setRaceCourse(world: SimWorld, course: RaceCourse): void {
  if (!course.path.closed) throw new Error('race course: the path is not a closed circuit');
  world.runtime.raceCourse = course;
}

/** The car races from the grid where it stands now (the world's raceCourse must be set). */
export function attachRaceProgress(world: SimWorld, eid: number): void {
  const course = world.runtime.raceCourse;
  if (!course) throw new Error('attachRaceProgress: the world has no race course');
  const b = world.c.RigidBody;
  const loc = course.path.locate(b.px[eid]!, b.pz[eid]!);
  attach(world, eid, world.c.RaceProgress);
  writeRaceRun(world, eid, initialRaceState(course, course.startS, loc.s));
  world.c.RaceProgress.pathIndex[eid] = loc.index;
  world.c.RaceProgress.lateralM[eid] = loc.lateral;
}

export function hasRaceProgress(world: SimWorld, eid: number): boolean {
  return hasComponent(world, eid, world.c.RaceProgress);
}

export function readRaceRun(world: SimWorld, eid: number, out: RaceRunState): RaceRunState {
  const p = world.c.RaceProgress;
  out.phase = PHASES[p.phase[eid]!]!;
  out.countdownLeftS = p.countdownLeftS[eid]!;
  out.timeS = p.timeS[eid]!;
  out.progressM = p.progressM[eid]!;
  out.gridProgressM = p.gridProgressM[eid]!;
  out.lap = p.lap[eid]!;
  out.pathS = p.pathS[eid]!;
  out.jokers = p.jokers[eid]!;
  out.jokerLap = p.jokerLap[eid]! < 0 ? null : p.jokerLap[eid]!;
  out.inJokerGate = p.inJokerGate[eid] === 1;
  out.jumpStart = p.jumpStart[eid] === 1;
  out.penaltyS = p.penaltyS[eid]!;
  out.recoveries = p.recoveries[eid]!;
  out.recoverHeld = p.recoverHeld[eid] === 1;
  out.finishTimeS = p.finishTick[eid] === NO_TICK ? null : p.finishTimeS[eid]!;
  return out;
}

function writeRaceRun(world: SimWorld, eid: number, s: RaceRunState): void {
  const p = world.c.RaceProgress;
  p.phase[eid] = phaseCode(s.phase);
  p.countdownLeftS[eid] = s.countdownLeftS;
  p.timeS[eid] = s.timeS;
  p.progressM[eid] = s.progressM;
  p.gridProgressM[eid] = s.gridProgressM;
  p.lap[eid] = s.lap;
  p.pathS[eid] = s.pathS;
  p.jokers[eid] = s.jokers;
  p.jokerLap[eid] = s.jokerLap ?? -1;
  p.inJokerGate[eid] = s.inJokerGate ? 1 : 0;
  p.jumpStart[eid] = s.jumpStart ? 1 : 0;
  p.penaltyS[eid] = s.penaltyS;
  p.recoveries[eid] = s.recoveries;
  p.recoverHeld[eid] = s.recoverHeld ? 1 : 0;
  p.finishTimeS[eid] = s.finishTimeS ?? 0;
  if (s.finishTimeS === null) p.finishTick[eid] = NO_TICK;
}

/** Rules that only give a RaceRunState its shape (scratch and fresh read targets). */
const SHAPE_RULES: RaceRules = { laps: 1, lapLengthM: 1, countdownS: 0, jumpStartToleranceM: 0, jumpStartPenaltyS: 0, jokerPenaltyS: 0, recoverPenaltyS: 0, joker: null };

/** A car's race read into a fresh object (views, results, tests). */
export function raceRunOf(world: SimWorld, eid: number): RaceRunState {
  return readRaceRun(world, eid, initialRaceState(SHAPE_RULES, 0, 0));
}

const scratchState: RaceRunState = initialRaceState(SHAPE_RULES, 0, 0);
const scratchLoc: PathLocation = { index: 0, s: 0, lateral: 0 };
const scratchEvents: RaceEvent[] = [];
/** The rules' input for one car, rewritten per car (an object literal per car per tick is garbage). */
const scratchTick: RaceTick = { dt: 0, pathS: 0, x: 0, z: 0, recover: false };

const scratchQuiet: QuietRacingState = { timeS: 0.5, progressM: 0.5, pathS: 0.5, lap: 0, inJokerGate: false };

/**
 * The common tick of a racing car with the Recover button up now and last tick (most cars, most ticks): only the
 * fields that change go through `advanceQuietRacing`; false (nothing written) when the tick raises an event.
 */
function advanceQuietCar(world: SimWorld, eid: number, course: RaceCourse, t: RaceTick): boolean {
  const p = world.c.RaceProgress;
  const q = scratchQuiet;
  q.timeS = p.timeS[eid]!;
  q.progressM = p.progressM[eid]!;
  q.pathS = p.pathS[eid]!;
  q.lap = p.lap[eid]!;
  q.inJokerGate = p.inJokerGate[eid] === 1;
  if (!advanceQuietRacing(q, course, t)) return false;
  p.timeS[eid] = q.timeS;
  p.progressM[eid] = q.progressM;
  p.pathS[eid] = q.pathS;
  p.inJokerGate[eid] = q.inJokerGate ? 1 : 0;
  return true;
}

/** Any other tick of a car's race: the whole state through the race rules, its events to `world.events`. */
function advanceCar(world: SimWorld, eid: number, course: RaceCourse, t: RaceTick): void {
  const p = world.c.RaceProgress;
  const s = readRaceRun(world, eid, scratchState);
  scratchEvents.length = 0;
  advanceRace(s, course, t, scratchEvents);
  writeRaceRun(world, eid, s);
  for (const k of scratchEvents) {
    // the tick of the finish is the tick this pass runs in (world.tick + 1 = ticks completed after it)
    if (k === 'finish') p.finishTick[eid] = world.tick + 1;
    const data: Record<string, unknown> = { car: eid, timeS: s.timeS, penaltyS: s.penaltyS };
    if (k === 'lap') data.lap = s.lap;
    emitEvent(world, RACE_EVENT_KIND[k], data);
  }
}

/** Pass 10b: every racing car's place on the circuit feeds the race rules; their events go to `world.events`. */
export function updateRaceProgress(world: SimWorld): void {
  const course = world.runtime.raceCourse;
  if (!course) return;
  const p = world.c.RaceProgress;
  const b = world.c.RigidBody;
  const buttons = world.c.Controls.buttons;
  const t = scratchTick;
  t.dt = world.dt;
  for (const eid of entitiesWith(world, p)) {
    const x = b.px[eid]!, z = b.pz[eid]!;
    course.path.locate(x, z, p.pathIndex[eid]!, scratchLoc);
    p.pathIndex[eid] = scratchLoc.index;
    p.lateralM[eid] = scratchLoc.lateral;
    t.pathS = scratchLoc.s;
    t.x = x;
    t.z = z;
    t.recover = (buttons[eid]! & Button.Recover) !== 0;
    const quiet = p.phase[eid] === RACE_PHASE_RACING && !t.recover && p.recoverHeld[eid] === 0;
    if (!quiet || !advanceQuietCar(world, eid, course, t)) advanceCar(world, eid, course, t);
  }
}

/** The race event a world event kind names (undefined: not a race event). */
export function raceEventOf(kind: string): RaceEvent | undefined {
  return RACE_EVENT_OF.get(kind);
}

/** The race events of car `eid` among a tick's world events, in order. */
export function raceEventsOf(events: readonly SimEvent[], eid: number): RaceEvent[] {
  const out: RaceEvent[] = [];
  for (const ev of events) {
    const k = RACE_EVENT_OF.get(ev.kind);
    if (k !== undefined && ev.car === eid) out.push(k);
  }
  return out;
}

/** After the car was put back (a recovery, between two ticks): its next location searches the whole circuit. */
export function resetRaceLocation(world: SimWorld, eid: number): void {
  if (hasRaceProgress(world, eid)) world.c.RaceProgress.pathIndex[eid] = NO_PATH_INDEX;
}
