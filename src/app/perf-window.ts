/** The perf overlay's figures from one averaging window of frames (a stage session, a town session). */
import type { FixedStepScheduler } from '../ecs/scheduler';
import type { RenderStats } from '../systems/view/render-stats';
import type { PerfFrame } from '../systems/view/hud';

/** What the perf overlay shows (and the test hook's `perf`): the HUD's frame figures and the real time lost. */
export interface PerfNumbers extends PerfFrame {
  /** Share of real time the simulation lost (dropped backlog), 0..1. */
  slowed: number;
}

/** Sums over a window of frames: sim/view/render ms, ticks, frames and the wall time they took (s). */
export interface PerfWindow {
  sim: number;
  view: number;
  render: number;
  ticks: number;
  frames: number;
  t: number;
}

/** Per-frame means of the window, Babylon's counters of the last frame and the scheduler's state. */
export function perfFromWindow(pa: PerfWindow, stats: RenderStats, scheduler: FixedStepScheduler): PerfNumbers {
  return {
    simMs: pa.sim / pa.frames,
    viewMs: pa.view / pa.frames,
    renderMs: pa.render / pa.frames,
    ticks: pa.ticks / pa.frames,
    triangles: stats.activeTriangles(),
    fps: pa.frames / pa.t,
    frameMs: (1000 * pa.t) / pa.frames,
    drawCalls: stats.drawCalls(),
    tickCap: scheduler.tickCap,
    slowed: scheduler.slowedFraction,
  };
}
