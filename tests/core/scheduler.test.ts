import { describe, expect, it } from 'vitest';
import { FixedStepScheduler, STALL_FRAME_S } from '../../src/ecs/scheduler';
import { Prng } from '../../terrain/prng';

describe('fixed-step scheduler', () => {
  it('runs whole ticks and keeps the leftover as alpha', () => {
    let ticks = 0;
    const s = new FixedStepScheduler({ dt: 0.002 }, () => ticks++);
    expect(s.advance(0.0055)).toBe(2);
    expect(ticks).toBe(2);
    expect(s.alpha).toBeCloseTo(0.75, 9);
    expect(s.advance(0.0005)).toBe(1);
    expect(s.alpha).toBeCloseTo(0, 9);
  });
  it('caps ticks per frame and drops the backlog (no spiral of death)', () => {
    let ticks = 0;
    const s = new FixedStepScheduler({ dt: 0.002, maxTicksPerFrame: 10 }, () => ticks++);
    expect(s.advance(1)).toBe(10);
    expect(s.droppedTicks).toBe(490);
    expect(s.alpha).toBeLessThan(1);
    expect(s.advance(0.002)).toBe(1);
  });
  it('pause stops time; single-step runs exactly one tick', () => {
    let ticks = 0;
    const s = new FixedStepScheduler({ dt: 0.002 }, () => ticks++);
    s.pause();
    expect(s.advance(0.1)).toBe(0);
    s.singleStep();
    expect(s.advance(0.1)).toBe(1);
    expect(s.advance(0.1)).toBe(0);
    s.resume();
    expect(s.advance(0.004)).toBe(2);
  });
});

/** A scheduler whose ticks each cost `costS` of an injected wall clock. */
function pacedScheduler(costS: number, simShare = 0.5): { s: FixedStepScheduler; ticks: () => number } {
  let clockS = 0;
  let ticks = 0;
  const s = new FixedStepScheduler({ dt: 0.002, maxTicksPerFrame: 50, simShare, clock: () => clockS }, () => {
    clockS += costS;
    ticks++;
  });
  return { s, ticks: () => ticks };
}

describe('frame pacing (measured tick cost raises the cap)', () => {
  const FRAME_S = 0.2; // 5 fps: 100 ticks due per frame, twice the fixed cap of 50
  it('keeps real time at 5 fps when a tick costs 0.1 dt: only the first, unmeasured frame drops', () => {
    const { s, ticks } = pacedScheduler(0.0002);
    expect(s.advance(FRAME_S)).toBe(50); // cost unknown: the fixed cap, 50 ticks dropped
    expect(s.costPerTickS).toBeCloseTo(0.0002, 12);
    // cap = simShare · frame / cost = 0.5 · 0.2 / 0.0002 = 500 ≥ 100 due
    expect(s.capFor(FRAME_S)).toBe(500);
    // 100 due each frame (± 1 where 0.2 s is not an exact multiple of dt in binary)
    for (let f = 1; f < 50; f++) expect(Math.abs(s.advance(FRAME_S) - 100)).toBeLessThanOrEqual(1);
    // only the first frame's backlog (0.1 s, less what binary round-off left in the accumulator) was dropped
    expect(s.droppedTicks).toBeGreaterThanOrEqual(49);
    expect(s.droppedTicks).toBeLessThanOrEqual(50);
    // wall time is conserved: simulated + dropped + pending = 50 frames · 0.2 s
    expect(Math.abs((ticks() + s.droppedTicks) * s.dt + s.accumulator - 10)).toBeLessThan(1e-9);
    expect(s.slowedFraction).toBe(0);
  });
  it('slows down only beyond simShare: a tick costing 0.8 dt runs floor(0.1 / 0.0016) = 62 of 100 due ticks', () => {
    const { s } = pacedScheduler(0.0016);
    for (let f = 0; f < 20; f++) s.advance(FRAME_S);
    expect(s.tickCap).toBe(62);
    // the simulation's share of each frame stays ≤ simShare: 62 · 1.6 ms = 99.2 ms ≤ 0.5 · 200 ms
    expect(s.tickCap * s.costPerTickS).toBeLessThanOrEqual(0.5 * FRAME_S);
    // lost share of real time = dropped / due = 38 / 100
    expect(s.slowedFraction).toBeCloseTo(0.38, 9);
  });
  it('never goes below the fixed cap, and a stall counts as STALL_FRAME_S', () => {
    const { s } = pacedScheduler(0.01); // 5 dt a tick: the budget allows 10 < 50
    s.advance(FRAME_S);
    expect(s.capFor(FRAME_S)).toBe(50);
    const fast = pacedScheduler(0.0001).s;
    fast.advance(FRAME_S);
    expect(fast.capFor(60)).toBe(fast.capFor(STALL_FRAME_S));
    expect(fast.capFor(STALL_FRAME_S)).toBe(Math.floor((0.5 * STALL_FRAME_S) / 0.0001));
  });
  it('weighs the measured cost by ticks: one preempted 2-tick frame (20 ms) does not make a 5-fps frame drop', () => {
    let clockS = 0;
    let stall = 0;
    const s = new FixedStepScheduler({ dt: 0.002, maxTicksPerFrame: 50, clock: () => clockS }, () => {
      clockS += 0.0002 + stall;
      stall = 0;
    });
    for (let f = 0; f < 10; f++) s.advance(0.2); // 100 ticks of 0.2 ms a frame
    stall = 0.02; // the OS takes 20 ms during the first tick of a short frame
    s.advance(0.004);
    // smoothed time / smoothed ticks ≈ (0.8 · 20 ms + 0.2 · 20.4 ms) / (0.8 · 100 + 0.2 · 2) ≈ 0.25 ms (ticks ran
    // 99–101 a frame); a mean of per-frame ratios would give 0.8 · 0.2 ms + 0.2 · 10.2 ms = 2.2 ms and a cap of 45
    expect(s.costPerTickS).toBeGreaterThan(0.0002);
    expect(s.costPerTickS).toBeLessThan(0.00026);
    const dropped = s.droppedTicks;
    expect(s.advance(0.2)).toBeGreaterThanOrEqual(99); // cap ⌊0.1 / 0.2498 ms⌋ = 400 ≥ 100 due
    expect(s.droppedTicks).toBe(dropped);
  });
  it('refuses a simShare outside (0, 1]', () => {
    expect(() => new FixedStepScheduler({ dt: 0.002, simShare: 0 }, () => {})).toThrow(/simShare/);
    expect(() => new FixedStepScheduler({ dt: 0.002, simShare: 1.5 }, () => {})).toThrow(/simShare/);
  });
});

describe('seeded PRNG', () => {
  it('is reproducible from the seed and differs between seeds', () => {
    const a = new Prng(42),
      b = new Prng(42),
      c = new Prng(43);
    const sa = Array.from({ length: 5 }, () => a.nextU32());
    expect(Array.from({ length: 5 }, () => b.nextU32())).toEqual(sa);
    expect(Array.from({ length: 5 }, () => c.nextU32())).not.toEqual(sa);
  });
  it('is roughly uniform (mean of 100k draws within 4σ of ½)', () => {
    const p = new Prng(7);
    let s = 0;
    const n = 100000;
    for (let i = 0; i < n; i++) s += p.next();
    // σ of the mean of U(0,1) = √(1/12n) ≈ 9.1e-4
    expect(Math.abs(s / n - 0.5)).toBeLessThan(4 * Math.sqrt(1 / (12 * n)));
  });
});
