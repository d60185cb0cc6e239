import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScenario } from '../../src/content/scenario-schema';
import { scenarioRefusal } from './scenario-helpers';

const good = `dt = 0.002\nintegrator = "rk4"\nduration_s = 0.1\n[[bodies]]\nid = "a"\nmass_kg = 1\ninertia_kg_m2 = [1, 1, 1]\n`;

const errorOf = scenarioRefusal;

describe('bad scenario files', () => {
  it('accepts the good file', () => {
    expect(parseScenario(good, 'good.toml').bodies[0]!.mass_kg).toBe(1);
  });
  it('missing field names the field, expected type and found nothing', () => {
    const m = errorOf(good.replace('dt = 0.002\n', ''));
    expect(m).toBe('bad.toml: dt: expected number, found nothing (missing)');
  });
  it('wrong type names expected and found', () => {
    expect(errorOf(good.replace('dt = 0.002', 'dt = "fast"'))).toBe('bad.toml: dt: expected number, found "fast"');
  });
  it('unknown integrator lists the valid ones', () => {
    expect(errorOf(good.replace('"rk4"', '"verlet"'))).toBe(
      'bad.toml: integrator: expected one of "euler", "midpoint", "rk4", found "verlet"',
    );
  });
  it('negative dt names the range of dt', () => {
    expect(errorOf(good.replace('dt = 0.002', 'dt = -0.002'))).toBe('bad.toml: dt: expected 1e-5 … 0.05 s, found number -0.002');
  });
  it('a nested field error gives the key path and the range', () => {
    expect(errorOf(good.replace('mass_kg = 1', 'mass_kg = 0'))).toBe('bad.toml: bodies[0].mass_kg: expected 0.001 … 1e6 kg, found number 0');
  });
  it('a misspelt key is an error, not silently ignored', () => {
    expect(errorOf(good.replace('mass_kg', 'mass_lb'))).toContain('unknown key "mass_lb"');
  });
  it('TOML syntax errors give line and column', () => {
    expect(errorOf('dt = = 1')).toMatch(/^bad\.toml: TOML syntax error at line 1, column \d+/);
  });

  it.each([
    ['missing field', good.replace('duration_s = 0.1\n', ''), 'duration_s: expected number'],
    ['wrong type', good.replace('duration_s = 0.1', 'duration_s = true'), 'duration_s: expected number, found boolean true'],
    ['unknown integrator', good.replace('"rk4"', '"leapfrog"'), 'integrator: expected one of'],
    ['negative dt', good.replace('dt = 0.002', 'dt = -1'), 'dt: expected 1e-5 … 0.05 s, found number -1'],
    ['duration over the tick budget', good.replace('duration_s = 0.1', 'duration_s = 1e300'), 'duration_s: expected 0.001 … 1e6 s'],
  ])('the CLI exits non-zero with one clear line for a %s', (_name, text, msg) => {
    const dir = mkdtempSync(join(tmpdir(), 'bitrally-'));
    const f = join(dir, 'scenario.toml');
    writeFileSync(f, text);
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', f], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${f}: ${msg}`);
    expect(r.stdout).toBe('');
  });
});
