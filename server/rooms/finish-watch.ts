/**
 * A stage room's finish detection (docs/multiplayer.md "Finish"): a StageFinishTracker per car, started at its grid
 * pose at tick 0 and advanced by each of the car's own fresh states (accepted by the collider's checks and not
 * stale), so only the car's own packets can finish it. After a reconnect the car may be far from its last state:
 * when the move since is more than the speed limit allows, the tracker continues from the new state without
 * walking the ticks between (no progress for them).
 */
import type { CarProgress } from './race-results';
import type { Stage } from '../../terrain/stage';
import type { CarState } from '../../src/net/packets';
import { gridPose } from '../../src/net/grid';
import { netStageCourse, StageFinishTracker, stageTimeOfTick } from '../../src/net/stage-finish';
import type { RaceFinish } from '../../src/net/race-finish';
import type { StageCourse } from '../../src/ecs/components/progress';
import { movedTooFar } from './state-check';

/**
 * What a room's finish tracking does for it (FinishWatch on a stage, RaceFinishWatch on a circuit): start poses,
 * one tracker per seated car, each car's fresh states in, its finish out, and the pose a recovered car may restart
 * from (null: this room refuses recoveries).
 */
export interface CarFinishWatch {
  /** Where the collider requires the car's first state to be reachable from (null: no start check). */
  startOf(slot: number): { x: number; z: number } | null;
  watch(slot: number): void;
  forget(slot: number): void;
  follow(slot: number, st: CarState): RaceFinish | null;
  recoveryPose(slot: number, last: CarState): { x: number; z: number } | null;
  /** A race room's laps and distance of the car so far (live standings, laps in the results); null on a stage. */
  progressOf(slot: number): CarProgress | null;
}

export class FinishWatch implements CarFinishWatch {
  /** A stage has no laps: its results and the room send none. */
  progressOf(): null {
    return null;
  }

  private readonly trackers = new Map<number, StageFinishTracker>();
  private readonly course: StageCourse;

  constructor(
    private readonly stage: Stage,
    private readonly simDt: number,
  ) {
    this.course = netStageCourse(stage);
  }

  /** Where the car in `slot` stands at tick 0: its grid pose. */
  startOf(slot: number): { x: number; z: number } {
    return gridPose(this.stage, slot);
  }

  /** Tracks the car in `slot` from its grid pose (a new car, or one re-seated in that slot). */
  watch(slot: number): void {
    this.trackers.set(slot, new StageFinishTracker(this.course, this.simDt, gridPose(this.stage, slot)));
  }

  forget(slot: number): void {
    this.trackers.delete(slot);
  }

  /** The car's next fresh state; its finish when this state completed the stage (no penalties), else null. */
  follow(slot: number, st: CarState): RaceFinish | null {
    const t = this.trackers.get(slot);
    if (!t || t.finishTick !== null) return null;
    const last = t.lastState;
    if (st.tick > last.tick && movedTooFar({ tick: last.tick, px: last.px, py: st.py, pz: last.pz }, st, this.simDt)) {
      t.restartFrom(st);
      return null;
    }
    const tick = t.advanceTo(st);
    return tick === null ? null : { tick, timeS: stageTimeOfTick(tick, this.simDt), penaltyS: 0 };
  }

  /** Stage rooms take no recoveries (a put-back is a teleport the collider drops). */
  recoveryPose(): null {
    return null;
  }

  /** The tracker of a slot (tests). */
  trackerOf(slot: number): StageFinishTracker | undefined {
    return this.trackers.get(slot);
  }
}
