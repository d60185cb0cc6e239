import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, runScenario } from '../../src/run/scenario';
import { stateHash } from '../../src/ecs/hash';

const file = 'src/content/scenarios/spin.toml';

function runInProcess(): string {
  const s = parseScenario(readFileSync(file, 'utf8'), file);
  return runScenario(buildScenario(s)).state_hash;
}

describe('determinism', () => {
  it('the same scenario run twice in one process gives the same state hash', () => {
    expect(runInProcess()).toBe(runInProcess());
  });

  it('a run in another process (the CLI) gives the same state hash', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', file, '--json'], {
      encoding: 'utf8',
    });
    const summary = JSON.parse(out) as { state_hash: string; ticks: number };
    expect(summary.ticks).toBe(10000);
    expect(summary.state_hash).toBe(runInProcess());
  });

  it('the hash changes when any state bit changes', () => {
    const run = buildScenario(parseScenario(readFileSync(file, 'utf8'), file));
    const before = stateHash(run.world);
    const b = run.world.c.RigidBody;
    const eid = run.entities[0]!.eid;
    const v = b.Lx[eid]!;
    b.Lx[eid] = v + Math.abs(v) * Number.EPSILON + Number.MIN_VALUE; // the next representable double
    expect(stateHash(run.world)).not.toBe(before);
    b.Lx[eid] = v;
    expect(stateHash(run.world)).toBe(before);
  });
});
