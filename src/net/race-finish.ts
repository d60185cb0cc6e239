/**
 * A car's rallycross race as a race room sees it (issue #22, results with the server's times): the room only has
 * the car's own state packets, one every `ticksPerPacket` sim ticks, so it walks the sim ticks between two
 * consecutive packets with the CG position interpolated linearly (as StageFinishTracker does on a stage) and feeds
 * each tick to the offline race's rules (src/run/race-rules.ts `advanceRace`: laps on the circuit's closed path,
 * the joker gate, the recovery penalty, the finish after N laps and the joker penalty there). The circuit path is
 * the one every party plans (src/net/grid.ts `netCircuitPath`), so the client's grid and the room's laps agree.
 *
 * The room counted down before 'go' (every client starts sim tick 0 at 'go'), so the rules run without a countdown
 * of their own: tick 1 is the lights-out tick (its jump-start check sees the car still on its grid), the race
 * clock runs from tick 2. Recoveries: a client puts its car back only between two packets, at the pose
 * `netRecoveryPose` gives for its last packet's position, and counts it in the state packet's `recoveries`; the
 * room's walk of that interval starts from that pose, at rest, with the Recover press in its first tick.
 */
import type { Stage } from '../../terrain/stage';
import type { AiPath, PathLocation } from '../systems/sim/ai/path';
import { RECOVER_BACK_M } from '../systems/sim/vehicle/recovery';
import {
  advanceRace, DEFAULT_RACE_RULES, initialRaceState, raceResultS, type RaceEvent, type RaceRules, type RaceRunState,
  type RaceTick,
} from '../run/race-rules';
import { netCircuitPath, type GridPose } from './grid';
import type { TrackedState } from './stage-finish';

/** A networked race's own countdown, s: none (the room counted down before 'go'). */
export const NET_RACE_COUNTDOWN_S = 0;

/** The circuit a networked race is timed on: the shared path, its start line and the offline race's rules. */
export interface NetRaceCourse {
  path: AiPath;
  startS: number;
  rules: RaceRules;
}

/** The course of a race room on circuit `stage` over `laps` laps (the joker rule on when the circuit has one). */
export function netRaceCourse(stage: Stage, laps: number): NetRaceCourse {
  const { path, startS } = netCircuitPath(stage);
  const j = stage.joker;
  const joker = j ? { gateX: j.gateX, gateZ: j.gateZ, gateRadiusM: j.gateRadiusM } : null;
  return { path, startS, rules: { ...DEFAULT_RACE_RULES, countdownS: NET_RACE_COUNTDOWN_S, laps, lapLengthM: path.lengthM, joker } };
}

/**
 * Where a car recovered right after its state at (x, z) stands: at rest RECOVER_BACK_M behind its arc length on
 * the circuit path, facing along it (the offline race's recoverOnPath placing, from the shared path).
 */
export function netRecoveryPose(course: NetRaceCourse, x: number, z: number): GridPose {
  const s = course.path.wrapS(course.path.locate(x, z).s - RECOVER_BACK_M);
  const pt = [0, 0];
  course.path.pointAt(s, pt);
  return { x: pt[0]!, z: pt[1]!, heading: course.path.headingAt(s) };
}

/** A tracked state that also says how many times the car was recovered (the state packet's counter). */
export interface RaceTrackedState extends TrackedState {
  recoveries: number;
}

/** The finish the tracker found: its sim tick, and the rules' race time with the penalties, s. */
export interface RaceFinish {
  tick: number;
  /** The race clock at the flag plus every penalty (raceResultS), s. */
  timeS: number;
  penaltyS: number;
}

/** Whether tick k (1, 2, … of an interval) presses Recover for `presses` recoveries: ticks 1, 3, 5… (a press is an edge). */
function pressesRecover(k: number, presses: number): boolean {
  return k % 2 === 1 && k < 2 * presses;
}

export class RaceFinishTracker {
  readonly run: RaceRunState;
  private last: RaceTrackedState;
  private readonly loc: PathLocation = { index: -1, s: 0, lateral: 0 };
  private readonly tickIn: RaceTick = { dt: 0, pathS: 0, x: 0, z: 0, recover: false };
  private readonly events: RaceEvent[] = [];
  /** Every race event so far, with the sim tick it happened in (tests, logs). */
  readonly log: { tick: number; event: RaceEvent }[] = [];
  finish: RaceFinish | null = null;

  /** A car starting (sim tick 0, at rest) at `start` on `course`, stepped at `dt`. */
  constructor(
    private readonly course: NetRaceCourse,
    dt: number,
    start: { x: number; z: number },
  ) {
    this.course.path.locate(start.x, start.z, -1, this.loc);
    this.run = initialRaceState(course.rules, course.startS, this.loc.s);
    this.last = { tick: 0, px: start.x, pz: start.z, vx: 0, vz: 0, recoveries: 0 };
    this.tickIn.dt = dt;
  }

  get lastState(): Readonly<RaceTrackedState> {
    return this.last;
  }

  /**
   * Walks the sim ticks from the last state to `s` (a later tick) on the straight line between them; returns the
   * finish when the car took the flag in them, else null. When `s` counts more recoveries, the walk starts from
   * the recovery pose of the last state, at rest, and Recover is pressed once per recovery (the rules add each
   * penalty; more than one only when the room missed states between, e.g. stale ones).
   */
  advanceTo(s: RaceTrackedState): RaceFinish | null {
    const n = s.tick - this.last.tick;
    if (n <= 0 || this.finish !== null) return null;
    const presses = s.recoveries - this.last.recoveries;
    const a = presses > 0 ? this.recoveryStart() : this.last;
    for (let k = 1; k <= n && this.finish === null; k++) {
      const f = k / n;
      // the end point is the packet's own position (a + (b − a)·1 need not round to b)
      this.stepAt(a.tick + k, k === n ? s.px : a.px + (s.px - a.px) * f, k === n ? s.pz : a.pz + (s.pz - a.pz) * f, pressesRecover(k, presses));
    }
    this.last = s;
    return this.finish;
  }

  /**
   * Continue from `s` without following the car to it (a state the room would not interpolate to): the ticks
   * between run the race clock with the car standing at `s`, and its arc length there counts no progress (each
   * recovery counted in `s` still presses Recover once).
   */
  restartFrom(s: RaceTrackedState): void {
    const n = s.tick - this.last.tick;
    if (n <= 0 || this.finish !== null) return;
    this.loc.index = -1;
    this.run.pathS = this.course.path.locate(s.px, s.pz, -1, this.loc).s;
    const presses = s.recoveries - this.last.recoveries;
    for (let k = 1; k <= n && this.finish === null; k++) this.stepAt(this.last.tick + k, s.px, s.pz, pressesRecover(k, presses));
    this.last = s;
  }

  /** The last state replaced by its recovery pose, at rest; the next location searches the whole circuit. */
  private recoveryStart(): RaceTrackedState {
    const p = netRecoveryPose(this.course, this.last.px, this.last.pz);
    this.loc.index = -1;
    return { tick: this.last.tick, px: p.x, pz: p.z, vx: 0, vz: 0, recoveries: this.last.recoveries };
  }

  private stepAt(tick: number, x: number, z: number, recover: boolean): void {
    this.course.path.locate(x, z, this.loc.index, this.loc);
    const t = this.tickIn;
    t.pathS = this.loc.s;
    t.x = x;
    t.z = z;
    t.recover = recover;
    this.events.length = 0;
    advanceRace(this.run, this.course.rules, t, this.events);
    for (const event of this.events) this.log.push({ tick, event });
    if (this.run.phase === 'finished') this.finish = { tick, timeS: raceResultS(this.run)!, penaltyS: this.run.penaltyS };
  }
}
