import { describe, expect, it } from 'vitest';
import { FixedStepScheduler } from '../../src/ecs/scheduler';
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
