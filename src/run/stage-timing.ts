/**
 * Stage timing of one car, the one implementation the game, the replay player and verifier, the recorder and
 * the ghosts use: after each tick, the car's distance along the road and lateral offset (road projection),
 * its speed and consumed throttle feed the StageRun rules (src/run/stage-run.ts); a recovery adds its
 * penalty. Keeps the tick of each split and of the finish (timeline, ghost delta, `replay verify`).
 */
import type { Stage } from '../../terrain/stage';
import type { RoadProjection } from '../../terrain/road';
import { DEFAULT_RUN, StageRun, type RunEvent } from './stage-run';
import type { SimWorld } from '../ecs/world';

/** Road width assumed where the stage gives none, m. */
const FALLBACK_ROAD_WIDTH_M = 7;

/** Personal bests the split and finish deltas are taken against. */
export interface StageBests {
  bestSplitsS?: number[];
  bestTimeS?: number;
}

export class StageTiming {
  readonly run: StageRun;
  private readonly proj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
  /** Tick at which each checkpoint was passed, and the finish tick. */
  readonly splitTicks: number[] = [];
  finishTick: number | null = null;

  constructor(
    readonly stage: Stage,
    readonly carEid: number,
    bests: StageBests = {},
  ) {
    this.run = new StageRun({
      ...DEFAULT_RUN,
      checkpointsM: stage.checkpoints.map((c) => c.distanceM),
      finishM: stage.finish.distanceM,
      startM: stage.start.distanceM,
      ...bests,
    });
  }

  /** After each tick (world.tick = ticks completed): the events of this tick, in order. */
  tick(world: SimWorld): RunEvent[] {
    const b = world.c.RigidBody;
    const e = this.carEid;
    this.stage.road.project(b.px[e]!, b.pz[e]!, this.proj);
    const hw = (this.stage.road.widths[this.proj.index] ?? FALLBACK_ROAD_WIDTH_M) / 2;
    const speed = Math.hypot(b.vx[e]!, b.vy[e]!, b.vz[e]!);
    // the consumed (quantised) throttle, which a replay feeds back identically
    const throttle = world.c.Controls.throttle[e]!;
    const ev = this.run.tick({ dt: world.dt, distanceM: this.proj.distanceM, lateralM: this.proj.lateralM, roadHalfWidthM: hw, speedMS: speed, throttle });
    for (const k of ev) {
      if (k === 'checkpoint') this.splitTicks.push(world.tick);
      else if (k === 'finish') this.finishTick = world.tick;
    }
    return ev;
  }

  /** The car was put back on the road. */
  recovered(): void {
    this.run.recovered();
  }

  /** Progress along the road (m from the start line) as of the last tick. */
  get progressM(): number {
    return this.run.progressM - this.stage.start.distanceM;
  }
}
