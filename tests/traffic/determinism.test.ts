/**
 * Determinism: the same seed and inputs give the same state hash in one process (two runs) and in two
 * separate processes (the CLI spawned twice), and a different seed gives a different one.
 */
import { describe, expect, it } from 'vitest';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { TownRun } from '../../src/run/town';
import { spawnCli } from '../cli/spawn';

const cars = ['rally-awd', 'hatch-gti', 'classic-rwd'].map((id) => loadBuiltinCar(id));

function hashAfter(seed: number, seconds: number): string {
  const run = new TownRun({ seed, cars: 60, player: cars[1]!, trafficCars: cars });
  run.run(seconds);
  return run.stateHash();
}

describe('town traffic determinism', () => {
  it('same seed → same hash in one process; another seed → another hash', () => {
    const a = hashAfter(5, 8);
    expect(hashAfter(5, 8)).toBe(a);
    expect(hashAfter(6, 8)).not.toBe(a);
  }, 60_000);

  it('same seed → same hash in two processes (npm run traffic --json)', async () => {
    const args = ['--seed', '9', '--cars', '80', '--minutes', '0.25', '--json'];
    const [r1, r2] = await Promise.all([spawnCli('src/cli/traffic.ts', args), spawnCli('src/cli/traffic.ts', args)]);
    expect(r1.code).toBe(0);
    expect(r2.code).toBe(0);
    const h1 = JSON.parse(r1.stdout) as { state_hash: string; vehicles_simulated: number };
    const h2 = JSON.parse(r2.stdout) as { state_hash: string };
    expect(h1.state_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(h2.state_hash).toBe(h1.state_hash);
    expect(h1.vehicles_simulated).toBeGreaterThanOrEqual(80);
  }, 120_000);
});
