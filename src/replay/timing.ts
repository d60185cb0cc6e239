/**
 * Stage timing during playback / verification: the same StageRun rules the game applies (src/app/stage-run.ts,
 * pure), fed once per tick with the player car's distance along the road and lateral offset, exactly as
 * GameSession.tick does; recorded recoveries add their penalty. Gives the final stage time for
 * `replay verify`, the splits for the timeline and the ghost's progress for the live delta.
 */
import type { Stage } from '../../terrain/stage';
import type { RoadProjection } from '../../terrain/road';
import { DEFAULT_RUN, StageRun } from '../run/stage-run';
import type { SimWorld } from '../ecs/world';

export class ReplayTiming {
  readonly run: StageRun;
  private readonly proj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
  /** Tick at which each checkpoint was passed, and the finish tick. */
  readonly splitTicks: number[] = [];
  finishTick: number | null = null;

  constructor(
    readonly stage: Stage,
    readonly carEid: number,
  ) {
    this.run = new StageRun({
      ...DEFAULT_RUN,
      checkpointsM: stage.checkpoints.map((c) => c.distanceM),
      finishM: stage.finish.distanceM,
      startM: stage.start.distanceM,
    });
  }

  /** After each tick (world.tick = ticks completed). */
  tick(world: SimWorld): void {
    const b = world.c.RigidBody;
    const e = this.carEid;
    this.stage.road.project(b.px[e]!, b.pz[e]!, this.proj);
    const hw = (this.stage.road.widths[this.proj.index] ?? 7) / 2;
    const speed = Math.hypot(b.vx[e]!, b.vy[e]!, b.vz[e]!);
    const ev = this.run.tick({ dt: world.dt, distanceM: this.proj.distanceM, lateralM: this.proj.lateralM, roadHalfWidthM: hw, speedMS: speed, throttle: world.c.Controls.throttle[e]! });
    for (const k of ev) {
      if (k === 'checkpoint') this.splitTicks.push(world.tick);
      else if (k === 'finish') this.finishTick = world.tick;
    }
  }

  /** A recorded recovery happened. */
  recovered(): void {
    this.run.recovered();
  }

  /** Progress along the road (m from the start line) as of the last tick. */
  get progressM(): number {
    return this.run.progressM - this.stage.start.distanceM;
  }
}
