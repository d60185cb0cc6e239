/**
 * Fixed-step scheduler for the render loop: accumulates real time, runs whole ticks (capped per frame so a
 * slow frame cannot spiral), and exposes the interpolation factor alpha = leftover / dt for the views.
 */
export interface FixedStepOptions {
  dt: number;
  /** At most this many ticks per advance(); the rest of the backlog is dropped (the game slows down). */
  maxTicksPerFrame?: number;
}

export class FixedStepScheduler {
  readonly dt: number;
  readonly maxTicksPerFrame: number;
  accumulator = 0;
  paused = false;
  /** Ticks dropped because of the cap, since creation. */
  droppedTicks = 0;
  private pendingSingleSteps = 0;

  constructor(
    opts: FixedStepOptions,
    private readonly tick: () => void,
  ) {
    if (!(opts.dt > 0)) throw new Error(`scheduler: dt must be > 0, found ${opts.dt}`);
    this.dt = opts.dt;
    this.maxTicksPerFrame = opts.maxTicksPerFrame ?? Math.ceil(0.1 / opts.dt);
  }

  /** Advance by `realSeconds` of wall time; returns how many ticks ran. */
  advance(realSeconds: number): number {
    let ran = 0;
    if (this.paused) {
      while (this.pendingSingleSteps > 0) {
        this.tick();
        this.pendingSingleSteps--;
        ran++;
      }
      return ran;
    }
    this.accumulator += Math.max(0, realSeconds);
    // A relative epsilon so that time fed in exact multiples of dt is not lost to binary round-off.
    const due = this.dt * (1 - 1e-9);
    while (this.accumulator >= due && ran < this.maxTicksPerFrame) {
      this.tick();
      this.accumulator = Math.max(0, this.accumulator - this.dt);
      ran++;
    }
    if (this.accumulator >= this.dt) {
      const drop = Math.floor(this.accumulator / this.dt);
      this.droppedTicks += drop;
      this.accumulator -= drop * this.dt;
    }
    return ran;
  }

  /** Render interpolation factor between the previous and the current tick, in [0, 1). */
  get alpha(): number {
    return this.paused ? 0 : this.accumulator / this.dt;
  }

  pause(): void {
    this.paused = true;
    this.accumulator = 0;
  }

  resume(): void {
    this.paused = false;
  }

  /** While paused: run exactly one tick at the next advance(). */
  singleStep(): void {
    if (this.paused) this.pendingSingleSteps++;
  }
}
