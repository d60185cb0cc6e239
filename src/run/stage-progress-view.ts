/**
 * The read side of a car's StageProgress (src/run/stage-progress.ts) for the game's HUD, results and the
 * replay tools: the StageRun fields as of the last tick, the course with the personal bests, and the split
 * list (with deltas to the bests) kept in step with the component by `sync()` after each tick.
 */
import type { SimWorld } from '../ecs/world-types';
import { NO_TICK } from '../ecs/components/progress';
import { finishDelta, initialStageRunState, splitAt, type RunConfig, type RunPhase, type Split, type StageRunState } from './stage-run';
import { hasStageProgress, readStageRun, type StageBests } from './stage-progress';

export class StageProgressView {
  readonly cfg: RunConfig;
  /** One per checkpoint passed; a checkpoint skipped over by a seek has time NaN (not observed). */
  readonly splits: Split[] = [];
  private readonly state: StageRunState;

  constructor(
    readonly world: SimWorld,
    readonly carEid: number,
    bests: StageBests = {},
  ) {
    const course = world.course;
    if (!course || !hasStageProgress(world, carEid)) throw new Error(`StageProgressView: car ${carEid} does not run a stage`);
    const { road: _road, ...rules } = course;
    this.cfg = { ...rules, checkpointsM: [...rules.checkpointsM], ...bests };
    this.state = initialStageRunState(course);
    this.sync();
  }

  /** Re-read the component (after each tick, a recovery or a seek); new splits are appended, undone ones dropped. */
  sync(): void {
    const s = readStageRun(this.world, this.carEid, this.state);
    if (this.splits.length > s.nextCheckpoint) this.splits.length = s.nextCheckpoint;
    const lastTick = this.world.c.StageProgress.lastSplitTick[this.carEid]!;
    while (this.splits.length < s.nextCheckpoint) {
      const i = this.splits.length;
      // the checkpoints passed this tick share its time; older ones passed during a seek were not observed
      const seen = i === s.nextCheckpoint - 1 || lastTick === this.world.tick;
      this.splits.push(splitAt(this.cfg, i, seen ? s.lastSplitS : Number.NaN));
    }
  }

  get phase(): RunPhase {
    return this.state.phase;
  }

  /** The car may only move once the lights are out. */
  get canDrive(): boolean {
    return this.state.phase !== 'countdown';
  }

  get timeS(): number {
    return this.state.timeS;
  }

  get countdownLeftS(): number {
    return this.state.countdownLeftS;
  }

  get penaltyS(): number {
    return this.state.penaltyS;
  }

  get recoveries(): number {
    return this.state.recoveries;
  }

  /** Furthest distance reached along the road, m (from the road's origin). */
  get progressM(): number {
    return this.state.progressM;
  }

  get finishTimeS(): number | null {
    return this.state.finishTimeS;
  }

  /** Tick at which the car finished (ticks completed), or null. */
  get finishTick(): number | null {
    const t = this.world.c.StageProgress.finishTick[this.carEid]!;
    return t === NO_TICK ? null : t;
  }

  get lastSplit(): Split | null {
    return this.splits[this.splits.length - 1] ?? null;
  }

  /** Finish delta to the personal best, s. */
  get finishDeltaS(): number | null {
    return finishDelta(this.cfg, this.state.finishTimeS);
  }
}
