/**
 * Scenario files: physical ranges, cross-field checks and the tick budget (issue #16, "scenario files").
 * Each case the fuzz campaign found (dt = 1e-300, duration 1e300, a zero quaternion, velocity 1e308, mass 1e308,
 * obstacle coordinates ±1e20) is refused by the loader with a ContentError naming the key.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SCENARIO_TICKS, parseScenario, SCENARIO_LIMITS } from '../../src/content/scenario-schema';
import { ContentError } from '../../src/validate/errors';
import { buildScenario, checkTickBudget, runScenario } from '../../src/run/scenario';
import { scenarioRefusal } from './scenario-helpers';

const body = `[[bodies]]\nid = "a"\nmass_kg = 1\ninertia_kg_m2 = [1, 1, 1]\n`;
const good = `dt = 0.002\nduration_s = 0.1\n${body}`;

const refusal = scenarioRefusal;

describe('scenario ranges: the fuzz campaign cases', () => {
  it.each([
    ['dt = 1e-300', good.replace('dt = 0.002', 'dt = 1e-300'), 'bad.toml: dt: expected 1e-5 … 0.05 s, found number 1e-300'],
    ['duration 1e300', good.replace('duration_s = 0.1', 'duration_s = 1e300'), 'bad.toml: duration_s: expected 0.001 … 1e6 s, found number 1e+300'],
    ['a zero quaternion', good + 'orientation_quat = [0, 0, 0, 0]\n', 'bad.toml: bodies[0].orientation_quat: expected a quaternion of norm 0.001 … 1000'],
    ['velocity 1e308', good + 'velocity_m_s = [1e308, 0, 0]\n', 'bad.toml: bodies[0].velocity_m_s[0]: expected -1000 … 1000 m/s, found number 1e+308'],
    ['mass 1e308', good.replace('mass_kg = 1', 'mass_kg = 1e308'), 'bad.toml: bodies[0].mass_kg: expected 0.001 … 1e6 kg, found number 1e+308'],
    ['obstacle at +1e20', `${good}[[obstacles]]\nkind = "wall"\na = [1e20, 0]\nb = [0, 1]\nheight_m = 1\n`, 'bad.toml: obstacles[0].a[0]: expected -100000 … 100000 m, found number 100000000000000000000'],
    ['obstacle at -1e20', `${good}[[obstacles]]\nkind = "cylinder"\ncenter = [0, -1e20]\nradius = 1\nheight_m = 1\n`, 'bad.toml: obstacles[0].center[1]: expected -100000 … 100000 m, found number -100000000000000000000'],
  ])('%s is refused naming the key', (_name, text, msg) => {
    expect(refusal(text).split('\n')[0]).toContain(msg);
  });

  it('non-finite numbers (TOML inf, nan) are refused', () => {
    expect(refusal(good.replace('mass_kg = 1', 'mass_kg = inf'))).toContain('bodies[0].mass_kg: expected number, found number Infinity');
    expect(refusal(good + 'position_m = [0, nan, 0]\n')).toContain('bodies[0].position_m[1]: expected number, found number NaN');
  });
});

describe('scenario cross-field checks', () => {
  it('dt and duration each in range but duration / dt over the tick budget', () => {
    const m = refusal(good.replace('dt = 0.002', 'dt = 1e-5').replace('duration_s = 0.1', 'duration_s = 1000'));
    expect(m).toBe(`bad.toml: duration_s: expected duration_s / dt ≤ ${MAX_SCENARIO_TICKS} ticks (the scenario tick budget; dt = 0.00001 s), found number 100000000`);
  });
  it('principal moments violating the triangle inequality', () => {
    expect(refusal(good.replace('[1, 1, 1]', '[1, 1, 3]'))).toContain('bodies[0].inertia_kg_m2: expected principal moments with each ≤ the sum of the other two');
    // a thin plate (Izz = Ixx + Iyy) is the limit and loads
    expect(parseScenario(good.replace('[1, 1, 1]', '[1, 2, 3]'), 'ok.toml').bodies[0]!.inertia_kg_m2).toEqual([1, 2, 3]);
  });
  it('a force that would accelerate the body beyond 1000 g', () => {
    expect(refusal(good + 'force_n = [0, 2e4, 0]\n')).toContain('bodies[0].force_n: expected |force_n| / mass_kg ≤ 10000 m/s² (1000 g), found number 20000');
  });
  it('a torque beyond the angular-acceleration cap, including the force arm', () => {
    expect(refusal(good + 'force_n = [0, 2000, 0]\nforce_point_body_m = [100, 0, 0]\n')).toContain('bodies[0].torque_nm: expected (|torque_nm|');
  });
  it('wall ends that coincide (degenerate geometry) and a too-long wall', () => {
    expect(refusal(`${good}[[obstacles]]\nkind = "wall"\na = [0, 0]\nb = [0, 0]\nheight_m = 1\n`)).toContain('obstacles[0]: expected wall ends a and b 0.01 … 2000 m apart');
    expect(refusal(`${good}[[obstacles]]\nkind = "wall"\na = [0, 0]\nb = [3000, 0]\nheight_m = 1\n`)).toContain('found number 3000');
  });
  it('zero-size boxes and radii are refused', () => {
    expect(refusal(`${good}[[obstacles]]\nkind = "box"\ncenter = [0, 0]\nhalf_extents = [0, 1]\nheight_m = 1\n`)).toContain('obstacles[0].half_extents[0]: expected 0.005 … 1000 m, found number 0');
    expect(refusal(`${good}[[obstacles]]\nkind = "cylinder"\ncenter = [0, 0]\nradius = 0\nheight_m = 1\n`)).toContain('obstacles[0].radius: expected 0.005 … 1000 m');
  });
  it('obstacles whose bounding boxes cover too many broad-phase cells (memory ∝ cells)', () => {
    const big = `[[obstacles]]\nkind = "cylinder"\ncenter = [0, 0]\nradius = 1000\nheight_m = 1\n`;
    expect(parseScenario(good + big, 'ok.toml').obstacles).toHaveLength(1); // 501² cells
    expect(refusal(good + big.repeat(4))).toMatch(/obstacles: expected obstacles covering at most 1000000 broad-phase cells of 4 m .*found number 1004004/);
  });
  it('props spread wider than the Havok ground patch allows', () => {
    const p = (x: number): string => `[[props]]\nkind = "cone"\nposition_m = [${x}, 0]\n`;
    expect(refusal(good + p(0) + p(2000))).toContain('props: expected props within 1000 m of each other along x, found number 2000');
  });
  it('a trace that would hold more values than the cap', () => {
    const t = good.replace('duration_s = 0.1', 'duration_s = 9000') + '[trace]\nrate_hz = 500\nfields = ["a.x", "a.y", "a.z"]\n';
    expect(refusal(t)).toContain('trace: expected at most 10000000 traced values');
  });
  it('array caps: more cars than allowed', () => {
    const cars = Array.from({ length: SCENARIO_LIMITS.cars + 1 }, (_, i) => `[[cars]]\nid = "c${i}"\ncar = "rally-awd"\n`).join('');
    expect(refusal(good + cars)).toContain(`cars: expected at most ${SCENARIO_LIMITS.cars} items, found array of ${SCENARIO_LIMITS.cars + 1}`);
  });
});

describe('the runner refuses runs above the tick budget', () => {
  const s = parseScenario(good, 'ok.toml');
  it('before running a tick, naming the scenario and duration_s', () => {
    const run = buildScenario({ ...s, name: 'long', duration_s: 1e300 });
    expect(() => runScenario(run)).toThrow(ContentError);
    expect(() => runScenario(run)).toThrow(`scenario "long": duration_s: expected duration_s / dt ≤ ${MAX_SCENARIO_TICKS} ticks (the tick budget), found 1e+300 s / 0.002 s = 5e+302 ticks; not run`);
    expect(run.world.tick).toBe(0);
    expect(() => checkTickBudget({ ...s, dt: 1e-300 })).toThrow(/= 1e\+299 ticks; not run/);
  });
  it('with a caller-given budget, and the summary reports the budget it ran under', () => {
    expect(() => runScenario(buildScenario(s), { maxTicks: 49 })).toThrow(/≤ 49 ticks .* = 50 ticks; not run/);
    const sum = runScenario(buildScenario(s), { maxTicks: 50 });
    expect(sum.ticks).toBe(50);
    expect(sum.tick_budget).toBe(50);
    expect(runScenario(buildScenario(s)).tick_budget).toBe(MAX_SCENARIO_TICKS);
  });
});

describe('npm run sim', () => {
  it('reports the tick budget in its summary', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', 'src/content/scenarios/free-fall.toml', '--json'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const sum = JSON.parse(r.stdout) as { ticks: number; tick_budget: number };
    expect([sum.ticks, sum.tick_budget]).toEqual([1000, MAX_SCENARIO_TICKS]);
  });
});

describe('shipped scenarios', () => {
  const dir = join(__dirname, '../../src/content/scenarios');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.toml'))) {
    it(`${f} is within every range`, () => {
      expect(() => parseScenario(readFileSync(join(dir, f), 'utf8'), f)).not.toThrow();
    });
  }
});
