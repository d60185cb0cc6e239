/**
 * A car's stage run as the room sees it (issue #22, results with the server's times): the room only has the car's
 * own state packets, one every `ticksPerPacket` sim ticks, so it walks the sim ticks between two consecutive
 * packets with the CG position interpolated linearly and feeds each tick to the same StageRun rules the car's
 * StageProgress pass uses (src/run/stage-run.ts: progress only near the road and in steps under
 * MAX_PROGRESS_STEP_M, checkpoints in order, the finish line). The finish tick is the sim tick whose position
 * first reaches the finish; with a packet every tick it is the car's own StageProgress finish tick, exactly.
 *
 * In a networked drive the room's countdown runs before 'go' (every client starts sim tick 0 at 'go'), so the
 * course has no countdown of its own: NetCar and this tracker both time on `netStageCourse`.
 */
import type { Stage } from '../../terrain/stage';
import type { StageCourse } from '../ecs/components/progress';
import { stageCourseOf, stageTickAt } from '../run/stage-progress';
import { advanceStageRun, initialStageRunState, type RunEvent, type StageRunState, type TickInfo } from '../run/stage-run';

/** A networked stage's own countdown, s: none (the room counted down before 'go'; the lights go out in tick 1). */
export const NET_STAGE_COUNTDOWN_S = 0;

/** The course a networked drive is timed on: the stage's, without a countdown. */
export function netStageCourse(stage: Stage): StageCourse {
  return { ...stageCourseOf(stage), countdownS: NET_STAGE_COUNTDOWN_S };
}

/** What the tracker reads of a state packet: the sim tick it is after, the CG position and velocity. */
export interface TrackedState {
  tick: number;
  px: number;
  pz: number;
  vx: number;
  vz: number;
}

/** The stage time of a finish at sim tick `finishTick`, s: ticks since 'go' (tick 0) × the sim step. */
export const stageTimeOfTick = (finishTick: number, dt: number): number => finishTick * dt;

export class StageFinishTracker {
  private readonly run: StageRunState;
  private last: TrackedState;
  private readonly tickIn: TickInfo = { dt: 0, distanceM: 0, lateralM: 0, roadHalfWidthM: 0, speedMS: 0, throttle: 0 };
  private readonly events: RunEvent[] = [];
  /** The sim tick the car reached the finish in, null before. */
  finishTick: number | null = null;

  /** A car starting (sim tick 0, at rest) at `start` on `course`, stepped at `dt`. */
  constructor(
    private readonly course: StageCourse,
    private readonly dt: number,
    start: { x: number; z: number },
  ) {
    this.run = initialStageRunState(course);
    this.last = { tick: 0, px: start.x, pz: start.z, vx: 0, vz: 0 };
  }

  /** Furthest distance along the road the car has reached, m (from the road's origin). */
  get progressM(): number {
    return this.run.progressM;
  }

  /** Checkpoints passed. */
  get checkpoints(): number {
    return this.run.nextCheckpoint;
  }

  /** The state the next one is interpolated from. */
  get lastState(): Readonly<TrackedState> {
    return this.last;
  }

  /**
   * Walks the sim ticks from the last state to `s` (a later tick) on the straight line between them; returns the
   * finish tick when the car reached the finish in them, else null. States at or before the last one are ignored.
   */
  advanceTo(s: TrackedState): number | null {
    const a = this.last;
    const n = s.tick - a.tick;
    if (n <= 0 || this.finishTick !== null) return null;
    for (let k = 1; k <= n; k++) {
      const f = k / n;
      // the end point is the packet's own position (a + (b − a)·1 need not round to b)
      const x = k === n ? s.px : a.px + (s.px - a.px) * f;
      const z = k === n ? s.pz : a.pz + (s.pz - a.pz) * f;
      const speed = Math.hypot(a.vx + (s.vx - a.vx) * f, a.vz + (s.vz - a.vz) * f);
      // the packets do not carry the throttle; it only feeds the stuck timer, which does not time the run
      stageTickAt(this.course, x, z, speed, 0, this.dt, this.tickIn);
      this.events.length = 0;
      advanceStageRun(this.run, this.course, this.tickIn, this.events);
      if (this.run.phase === 'finished') {
        this.finishTick = a.tick + k;
        break;
      }
    }
    this.last = s;
    return this.finishTick;
  }

  /** Continue from `s` without walking the ticks before it (a state the room would not interpolate to). */
  restartFrom(s: TrackedState): void {
    if (s.tick > this.last.tick) this.last = s;
  }
}
