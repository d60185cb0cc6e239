/**
 * A race room's lap timing (docs/multiplayer.md "Finish and results"): a RaceFinishTracker per car on the room's
 * circuit, started at its grid pose at tick 0 and advanced by each of the car's own fresh states, so only the
 * car's own packets can finish it, with the offline race's rules (laps, joker, recovery penalty, joker penalty).
 * A recovery (the state packet's counter one up) restarts the car at the recovery pose of its last state; the
 * collider checked the move from there (`recoveryPose`). After a reconnect, or a recovery inside a stretch of stale
 * states, the car may be far from where the tracker last saw it: the tracker continues from the new state without
 * walking the ticks between (no progress for them; a recovery still costs its penalty).
 */
import type { Stage } from '../../terrain/stage';
import type { CarState } from '../../src/net/packets';
import { gridPose } from '../../src/net/grid';
import { netRaceCourse, netRecoveryPose, RaceFinishTracker, type NetRaceCourse, type RaceFinish } from '../../src/net/race-finish';
import { movedTooFar } from './state-check';
import type { CarFinishWatch } from './finish-watch';
import type { CarProgress } from './race-results';

export class RaceFinishWatch implements CarFinishWatch {
  private readonly trackers = new Map<number, RaceFinishTracker>();
  readonly course: NetRaceCourse;

  constructor(
    private readonly stage: Stage,
    laps: number,
    private readonly simDt: number,
  ) {
    this.course = netRaceCourse(stage, laps);
  }

  /**
   * No start check in a race room: its clients may drive on their own ground (the head-on and fault tests, the
   * benchmark). The lap timing does not need one: a first state the tracker cannot reach from the car's grid pose
   * gets no progress (restartFrom), so claiming to start down the circuit gains nothing.
   */
  startOf(): null {
    return null;
  }

  watch(slot: number): void {
    this.trackers.set(slot, new RaceFinishTracker(this.course, this.simDt, gridPose(this.stage, slot)));
  }

  forget(slot: number): void {
    this.trackers.delete(slot);
  }

  /** Where a car recovered after its state `last` restarts: the recovery pose on the shared circuit path. */
  recoveryPose(_slot: number, last: CarState): { x: number; z: number } {
    return netRecoveryPose(this.course, last.px, last.pz);
  }

  /** The car's next fresh state; its finish (time with penalties) when this state took the flag, else null. */
  follow(slot: number, st: CarState): RaceFinish | null {
    const t = this.trackers.get(slot);
    if (!t || t.finish !== null || st.tick <= t.lastState.tick) return null;
    const last = t.lastState;
    const p = st.recoveries > last.recoveries ? netRecoveryPose(this.course, last.px, last.pz) : { x: last.px, z: last.pz };
    if (movedTooFar({ tick: last.tick, px: p.x, py: st.py, pz: p.z }, st, this.simDt)) {
      t.restartFrom(st);
      return null;
    }
    return t.advanceTo(st);
  }

  /** The laps the car completed and its distance along the circuit since the start line, m. */
  progressOf(slot: number): CarProgress | null {
    const run = this.trackers.get(slot)?.run;
    return run ? { laps: run.lap, progressM: run.progressM } : null;
  }

  /** The tracker of a slot (tests). */
  trackerOf(slot: number): RaceFinishTracker | undefined {
    return this.trackers.get(slot);
  }
}
