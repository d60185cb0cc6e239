/**
 * Fixed-step scheduler for the render loop: accumulates real time, runs whole ticks and exposes the
 * interpolation factor alpha = leftover / dt for the views.
 *
 * Frame pacing: a frame may run `maxTicksPerFrame` ticks, or more when a clock is given: the scheduler
 * measures what a tick costs (wall seconds, smoothed) and raises the cap so that up to `simShare` of the
 * frame's time goes to simulation. The simulation then keeps real time at any frame rate while a tick costs
 * less than simShare · dt; only beyond that is the backlog dropped (the game slows down, `slowedFraction`).
 * The sim's share of the wall time stays ≤ simShare, so a slow frame cannot spiral.
 */
export interface FixedStepOptions {
  dt: number;
  /** Ticks a frame may always run; the measured cost can raise it. Default: 0.1 s of simulation. */
  maxTicksPerFrame?: number;
  /** Wall clock in seconds (the game: performance.now() / 1000); without it the cap stays fixed. */
  clock?: () => number;
  /** Largest share of a frame's wall time the simulation may take, 0..1 (default 0.5). */
  simShare?: number;
}

/**
 * A frame longer than this is a stall (hidden tab, debugger), not slow rendering: it counts as this long for
 * the tick budget and the rest of its time is dropped, s. (A loaded software renderer runs at 0.5 fps.)
 */
export const STALL_FRAME_S = 5;
/** Weight of the newest frame in the smoothed tick time and tick count (exponential moving averages). */
const COST_SMOOTHING = 0.2;
/** The slowdown is reported over windows of this much wall time, s. */
export const SLOWDOWN_WINDOW_S = 1;

export class FixedStepScheduler {
  readonly dt: number;
  readonly maxTicksPerFrame: number;
  readonly simShare: number;
  accumulator = 0;
  paused = false;
  /** Ticks dropped because of the cap, since creation. */
  droppedTicks = 0;
  /** Smoothed wall seconds per tick (0 until measured). */
  costPerTickS = 0;
  /** Tick cap of the last advance(). */
  tickCap: number;
  /** Share of real time the simulation lost (dropped backlog) over the last full window, 0..1. */
  slowedFraction = 0;
  private pendingSingleSteps = 0;
  private avgTickTimeS = 0;
  private avgTicks = 0;
  private windowRealS = 0;
  private windowDropped = 0;
  private readonly clock: (() => number) | null;

  constructor(
    opts: FixedStepOptions,
    private readonly tick: () => void,
  ) {
    if (!(opts.dt > 0)) throw new Error(`scheduler: dt must be > 0, found ${opts.dt}`);
    this.dt = opts.dt;
    this.maxTicksPerFrame = opts.maxTicksPerFrame ?? Math.ceil(0.1 / opts.dt);
    this.tickCap = this.maxTicksPerFrame;
    this.simShare = opts.simShare ?? 0.5;
    if (!(this.simShare > 0 && this.simShare <= 1)) throw new Error(`scheduler: simShare must be in (0, 1], found ${this.simShare}`);
    this.clock = opts.clock ?? null;
  }

  /** The cap for a frame of `realSeconds`: the fixed one, raised to simShare of the frame at the measured cost. */
  capFor(realSeconds: number): number {
    if (this.costPerTickS <= 0) return this.maxTicksPerFrame;
    const budgetS = this.simShare * Math.min(realSeconds, STALL_FRAME_S);
    return Math.max(this.maxTicksPerFrame, Math.floor(budgetS / this.costPerTickS));
  }

  /** Advance by `realSeconds` of wall time; returns how many ticks ran. */
  advance(realSeconds: number): number {
    if (this.paused) return this.runSingleSteps();
    const real = Math.max(0, realSeconds);
    this.accumulator += real;
    this.tickCap = this.capFor(real);
    const t0 = this.clock?.() ?? 0;
    // A relative epsilon so that time fed in exact multiples of dt is not lost to binary round-off.
    const due = this.dt * (1 - 1e-9);
    let ran = 0;
    while (this.accumulator >= due && ran < this.tickCap) {
      this.tick();
      this.accumulator = Math.max(0, this.accumulator - this.dt);
      ran++;
    }
    if (this.clock && ran > 0) this.noteCost(this.clock() - t0, ran);
    let drop = 0;
    if (this.accumulator >= this.dt) {
      drop = Math.floor(this.accumulator / this.dt);
      this.droppedTicks += drop;
      this.accumulator -= drop * this.dt;
    }
    this.noteSlowdown(real, drop);
    return ran;
  }

  private runSingleSteps(): number {
    let ran = 0;
    while (this.pendingSingleSteps > 0) {
      this.tick();
      this.pendingSingleSteps--;
      ran++;
    }
    return ran;
  }

  /**
   * Cost per tick = smoothed time / smoothed ticks (not a mean of per-frame ratios): a frame of a few ticks
   * that the OS preempted weighs by its ticks, so it cannot lower the next frame's cap much.
   */
  private noteCost(elapsedS: number, ran: number): void {
    const first = this.avgTicks === 0;
    this.avgTickTimeS += first ? elapsedS : COST_SMOOTHING * (elapsedS - this.avgTickTimeS);
    this.avgTicks += first ? ran : COST_SMOOTHING * (ran - this.avgTicks);
    this.costPerTickS = this.avgTickTimeS / this.avgTicks;
  }

  private noteSlowdown(realS: number, dropped: number): void {
    this.windowRealS += realS;
    this.windowDropped += dropped;
    if (this.windowRealS < SLOWDOWN_WINDOW_S) return;
    this.slowedFraction = Math.min(1, (this.windowDropped * this.dt) / this.windowRealS);
    this.windowRealS = 0;
    this.windowDropped = 0;
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
