import { afterEach, describe, expect, it, vi } from 'vitest';
import { crushMain } from '../../src/cli/car-crush';

afterEach(() => vi.restoreAllMocks());

describe('car CLI crush sub-commands', () => {
  it('crush-params prints the identification and its checks', () => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    expect(crushMain(['crush-params', 'rally-awd', '--json'])).toBe(0);
    const rep = JSON.parse(out[0]!);
    expect(rep.bumper.dead_length_m).toBe(0.15);
    expect(Math.abs(rep.bumper.x_max_5mph_m - 0.15)).toBeLessThan(1e-4);
    expect(rep.checks.barrier_5mph.body_crush_m).toBe(0);
    expect(rep.body.front.preload_distance_m).toBeCloseTo(rep.bumper.F0_n / rep.body.front.k_c_n_per_m, 12);
  });
  it('crash-test: two cars end at the momentum-conserving common speed', () => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    expect(crushMain(['crash-test', 'rally-awd', 'hatch-gti', '--v1', '18', '--v2', '2', '--json'])).toBe(0);
    const r = JSON.parse(out[0]!);
    expect(r.v1_m_s).toBeCloseTo(r.momentum_common_speed_m_s, 9);
    expect(r.v2_m_s).toBeCloseTo(r.momentum_common_speed_m_s, 9);
  });
  it('bad arguments: exit code 2 and a message naming the flag', () => {
    const err: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((s: string) => void err.push(s));
    expect(crushMain(['crash-test', 'rally-awd', '--barrier', '--v1', 'fast'])).toBe(2);
    expect(err.join('\n')).toMatch(/--v1: expected a number, found "fast"/);
    expect(crushMain(['crash-test', 'rally-awd'])).toBe(2);
    expect(crushMain(['crush-params', 'no-such-car.toml'])).toBe(2);
  });
});
