import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN, StageRun, formatTime } from '../../src/run/stage-run';

const cfg = { ...DEFAULT_RUN, checkpointsM: [100, 200], finishM: 300, startM: 20, bestSplitsS: [10, 21], bestTimeS: 30 };
const tick = (r: StageRun, d: number, opts: Partial<{ lat: number; v: number; thr: number }> = {}) =>
  r.tick({ dt: 0.01, distanceM: d, lateralM: opts.lat ?? 0, roadHalfWidthM: 3.5, speedMS: opts.v ?? 20, throttle: opts.thr ?? 1 });

describe('StageRun', () => {
  it('counts down exactly countdownS of ticks, then times at dt per tick', () => {
    const r = new StageRun(cfg);
    let ticks = 0;
    while (r.phase === 'countdown') {
      tick(r, 20);
      ticks++;
    }
    expect(ticks).toBe(300); // 3 s / 0.01 s
    for (let i = 0; i < 50; i++) tick(r, 20);
    expect(r.timeS).toBeCloseTo(0.5, 12);
  });
  it('splits at checkpoints with deltas to the best, finish time, and a recovery penalty', () => {
    const r = new StageRun(cfg);
    while (r.phase === 'countdown') tick(r, 20);
    // drive at 10 m/s: distance = 20 + 10 t, sampled every tick
    let ev: string[] = [];
    let k = 0;
    while (r.phase === 'running' && k < 10000) {
      k++;
      if (k === 500) r.recovered();
      ev = ev.concat(tick(r, 20 + 10 * k * 0.01));
    }
    expect(ev.filter((e) => e === 'checkpoint').length).toBe(2);
    // CP1 at 100 m is reached at k = 800 ticks = 8 s driving + 5 s penalty (taken at k = 500) = 13 s;
    // CP2 (200 m) at 18 + 5 = 23 s; finish (300 m) at 28 + 5 = 33 s
    expect(r.splits[0]!.timeS).toBeCloseTo(13, 9);
    expect(r.splits[0]!.deltaS).toBeCloseTo(3, 9);
    expect(r.splits[1]!.timeS).toBeCloseTo(23, 9);
    expect(r.splits[1]!.deltaS).toBeCloseTo(2, 9);
    expect(r.finishTimeS).toBeCloseTo(33, 9);
    expect(r.finishDeltaS).toBeCloseTo(3, 9);
  });
  it('does not pass a checkpoint by cutting across off the road, and flags stuck after stuckAfterS', () => {
    const r = new StageRun(cfg);
    while (r.phase === 'countdown') tick(r, 20);
    tick(r, 150, { lat: 40 });
    expect(r.splits.length).toBe(0);
    // the off-road tick above already counted 0.01 s; stuck fires once 4 s have accumulated (400 ticks)
    let first = 0;
    for (let i = 1; i <= 450 && !first; i++) if (tick(r, 21, { v: 0, thr: 1 }).includes('stuck')) first = i + 1;
    expect(Math.abs(first - 400)).toBeLessThanOrEqual(1);
  });
  it('formats times', () => {
    expect(formatTime(62.3456)).toBe('1:02.346');
    expect(formatTime(5)).toBe('0:05.000');
  });
});
