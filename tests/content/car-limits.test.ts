/**
 * Regression tests for the car-file cases of the robustness issue (each absurd but well-typed value that used to
 * be accepted and then gave NaN, hung, or threw at spawn), plus the physical ranges, the cross-field checks,
 * `extends` confinement, the format key, "did you mean", and the editor schema files.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'smol-toml';
import { CarFileSchema, carJsonSchema, type CarConfig } from '../../src/content/car-schema';
import { applySetup, loadCarConfig, MAX_EXTENDS_DEPTH } from '../../src/content/car-load';
import { CAR_RANGES, rangeText } from '../../src/content/car-ranges';
import { carStiffestRate, MAX_MODE_DT, REFERENCE_DT } from '../../src/content/car-plausibility';
import { ContentError } from '../../src/validate/errors';
import { BUILTIN_CARS, readBuiltin } from '../../src/content/cars/index';
import { checkCarDraft, setupSliders } from '../../src/app/garage/car-draft';
import { scanToml, TomlScanError } from '../../src/app/garage/toml-spans';
import { CRUSH_FIT_STEP_BUDGET, identifyCrush } from '../../src/systems/sim/collision/crush';
import { accelerationTest } from '../../src/run/car-test';
import { main as carCli } from '../../src/cli/car';
import { driveProblem } from './car-drive';
import { BASE_CARS } from './car-mutations';

afterEach(() => vi.restoreAllMocks());

type Tree = Record<string, Record<string, Record<string, unknown>>>;
const RALLY = readBuiltin('rally-awd');
const HATCH = readBuiltin('hatch-gti');

function refused(text: string, file = 'bad.toml', read: (n: string) => string = readBuiltin): ContentError {
  try {
    loadCarConfig(text, file, read);
  } catch (e) {
    if (e instanceof ContentError) return e;
    throw e;
  }
  throw new Error('the car loaded');
}

/** The shipped car text with one value changed (`section.key` or `section.sub.key`). */
function edited(text: string, path: string, f: (v: number) => number | unknown): string {
  const d = parse(text) as Tree;
  const p = path.split('.');
  let cur = d as unknown as Record<string, unknown>;
  for (const s of p.slice(0, -1)) cur = cur[s] as Record<string, unknown>;
  cur[p[p.length - 1]!] = f(cur[p[p.length - 1]!] as number);
  return stringify(d);
}

const TICKS = 400;

describe('issue cases: refused by the loader with file, key, range and value', () => {
  const cases: [string, string, (v: number) => number, RegExp][] = [
    ['wheel radius ×1000', 'tires.front.radius_m', (v) => v * 1000, /^bad\.toml: tires\.front\.radius_m: expected 0\.15 … 0\.8 m \(physical range\), found number 325$/m],
    ['unsprung mass ×1e-6', 'suspension.rear.unsprung_mass_kg', (v) => v * 1e-6, /^bad\.toml: suspension\.rear\.unsprung_mass_kg: expected 5 … 250 kg \(physical range\), found number 0\.0000449999/m],
    ['anti-roll 1e20', 'suspension.front.anti_roll_n_per_mm', () => 1e20, /suspension\.front\.anti_roll_n_per_mm: expected 0 … 500 N\/mm \(physical range\), found number 100000000000000000000/],
    ['damping 1e20', 'suspension.front.bump_damping_n_s_per_m', () => 1e20, /suspension\.front\.bump_damping_n_s_per_m: expected 1 … 50000 N·s\/m \(physical range\)/],
    ['track ×100', 'body.track_rear_m', (v) => v * 100, /body\.track_rear_m: expected 1 … 2\.4 m \(physical range\), found number 155/],
    ['CG 1e-9 m from the front axle', 'body.cg_to_front_m', () => 1e-9, /body\.cg_to_front_m: expected 0\.2 … 3\.8 m \(physical range\), found number 1e-9/],
    ['CG 1e-9 m from the rear axle', 'body.cg_to_front_m', () => 2.52 - 1e-9, /body\.cg_to_front_m: expected the CG between the axles, 0\.378 … 2\.142 m \(15 % … 85 % of wheelbase_m 2\.52\), found number 2\.519999999/],
    ['mass ×1e6', 'body.mass_kg', (v) => v * 1e6, /body\.mass_kg: expected 400 … 4000 kg \(physical range\), found number 1350000000/],
    ['mass 9e15', 'body.mass_kg', () => 9e15, /body\.mass_kg: expected 400 … 4000 kg/],
    ['mass 1e20', 'body.mass_kg', () => 1e20, /body\.mass_kg: expected 400 … 4000 kg/],
    ['a small crash-table speed', 'crash.front_barrier_speed_km_h', () => 1, /crash\.front_barrier_speed_km_h: expected 10 … 120 km\/h \(physical range\), found number 1$/m],
    ['a small crash-table crush', 'crash.rear_residual_crush_mm', () => 0.5, /crash\.rear_residual_crush_mm: expected 20 … 2000 mm \(physical range\), found number 0\.5$/m],
  ];
  for (const [name, path, f, msg] of cases) {
    it(name, () => expect(refused(edited(RALLY, path, f)).message).toMatch(msg));
  }

  it('a crash test that leaves the body no energy is refused by the loader, not at spawn', () => {
    // 12 km/h leaves less than F_0·x for a 1.5 m crush: the Tongue §6.2 fit has no positive k_c
    const text = edited(edited(RALLY, 'crash.front_barrier_speed_km_h', () => 12), 'crash.front_residual_crush_mm', () => 1500);
    expect(refused(text).message).toMatch(/^bad\.toml: crash\.front_residual_crush_mm: expected a crash test that leaves the body energy to crush \(crush\.front: a 3\.33+\d* m\/s test leaves/m);
  });

  it('NaN and infinities written in TOML are refused as numbers', () => {
    expect(refused(edited(RALLY, 'body.mass_kg', () => NaN)).message).toMatch(/body\.mass_kg: expected number, found number NaN/);
    expect(refused(edited(RALLY, 'engine.inertia_kg_m2', () => Infinity)).message).toMatch(/engine\.inertia_kg_m2: expected number, found number Infinity/);
  });
});

describe('the car test and the crush fit are bounded', () => {
  it('npm run car -- test with mass 9e15: exit code 2 and one line naming the key, before any simulation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'car-limits-'));
    try {
      const file = join(dir, 'heavy.toml');
      writeFileSync(file, 'extends = "rally-awd"\n[body]\nmass_kg = 9e15\n');
      const err: string[] = [];
      vi.spyOn(console, 'error').mockImplementation((s: string) => void err.push(s));
      vi.spyOn(console, 'log').mockImplementation(() => undefined);
      expect(carCli(['test', file])).toBe(2);
      expect(err.join('\n')).toMatch(/heavy\.toml: body\.mass_kg: expected 400 … 4000 kg \(physical range\), found number 9000000000000000/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('the crush fit gives up on an absurd mass within its step budget', () => {
    expect(() => identifyCrush(9e15)).toThrow(`did not converge within ${CRUSH_FIT_STEP_BUDGET} steps`);
    expect(() => identifyCrush(1e20)).toThrow(/crush: the bumper fit/);
  });

  it('the car test refuses a step below its minimum (its loops are tick counts derived from dt)', () => {
    expect(() => accelerationTest(loadCarConfig(RALLY, 'rally-awd.toml'), { dt: 1e-300 })).toThrow(/car test: dt must be ≥ 0\.0001 s, found 1e-300/);
  });
});

describe('extends', () => {
  it('a plain extends of every built-in car with an override loads and runs with finite state', () => {
    for (const c of BUILTIN_CARS) {
      for (const override of ['[body]\nmass_kg = 1400\n', '[suspension.front]\nspring_rate_n_per_mm = 45\n', '[tires.rear]\ngrip = 1.02\n', 'name = "Mine"\n']) {
        const cfg = loadCarConfig(`extends = "${c.id}"\n${override}`, 'mine.toml', readBuiltin);
        expect(driveProblem(cfg, TICKS)).toBeNull();
      }
    }
  });

  it('is resolved only to a plain name: no path leaves the cars folder, the reader is never asked', () => {
    const read = vi.fn(readBuiltin);
    for (const name of ['../../../../etc/passwd', '/etc/passwd', 'sub/dir.toml', '..\\..\\x.toml', '..', 'a..toml', '']) {
      expect(refused(`extends = ${JSON.stringify(name)}\nname = "x"\n`, 'bad.toml', read).message).toMatch(/^bad\.toml: extends: expected a car file name in the same folder or a built-in id/);
    }
    expect(read).not.toHaveBeenCalled();
  });

  it('an id and its file name are one file for the circular check; chains are capped', () => {
    expect(refused('extends = "rally-awd"\nname = "x"\n', 'rally-awd.toml').message).toMatch(/extends: circular chain rally-awd\.toml → rally-awd/);
    const files: Record<string, string> = { 'c0.toml': RALLY };
    for (let i = 1; i <= MAX_EXTENDS_DEPTH + 2; i++) files[`c${i}.toml`] = `extends = "c${i - 1}.toml"\n`;
    expect(refused(files[`c${MAX_EXTENDS_DEPTH + 2}.toml`]!, `c${MAX_EXTENDS_DEPTH + 2}.toml`, (n) => files[n]!).message).toMatch(/extends: expected a chain of at most 8 files/);
    expect(loadCarConfig(files[`c${MAX_EXTENDS_DEPTH}.toml`]!, `c${MAX_EXTENDS_DEPTH}.toml`, (n) => files[n]!).name).toBe('Rally AWD');
  });
});

describe('garage draft check: deep nesting is refused, not a stack overflow', () => {
  const deep = {
    arrays: `${HATCH}\nx = ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    tables: `${HATCH}\ny = ${'{a = '.repeat(10_000)}1${' }'.repeat(10_000)}\n`,
  };
  for (const [kind, text] of Object.entries(deep)) {
    it(`10,000-deep ${kind}`, () => {
      const r = checkCarDraft(text, 'deep.toml', readBuiltin);
      expect(r.ok).toBe(false);
      expect(r.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^line \d+, column \d+: expected brackets nested at most 64 deep, found deeper nesting$/)]);
      expect(setupSliders(text, readBuiltin)).toBeNull();
      expect(() => scanToml(text)).toThrow(TomlScanError);
    });
  }
});

describe('format key and did-you-mean', () => {
  it('format = 1 (or none) loads; any other version is refused', () => {
    expect(loadCarConfig(`format = 1\n${RALLY}`, 'v1.toml').source.format).toBe(1);
    expect(loadCarConfig(RALLY, 'v.toml').source.format).toBe(1);
    expect(refused(`format = 2\n${RALLY}`).message).toMatch(/^bad\.toml: format: expected one of 1, found number 2$/m);
  });

  it('unknown keys name the closest known key', () => {
    const e = refused(RALLY.replace('travel_mm = 150', 'travel_m = 150').replace('front_bias = 0.62', 'frnt_bias = 0.62'));
    expect(e.message).toContain('bad.toml: suspension.front: unknown key "travel_m" ("travel_m": did you mean "travel_mm"?)');
    expect(e.message).toContain('bad.toml: brakes: unknown key "frnt_bias" ("frnt_bias": did you mean "front_bias"?)');
    expect(refused(`${RALLY}\n[body2]\nx = 1\n`).message).toContain('(top level): unknown key "body2" ("body2": did you mean "body"?)');
    expect(refused(`zzzzzz = 1\n${RALLY}`).message).toContain('(top level): unknown key "zzzzzz" (check spelling and the unit suffix)');
    // 50,000 unknown keys: one short line naming the first ten
    const many = Array.from({ length: 50_000 }, (_, i) => `k${i} = 1`).join('\n');
    const e2 = refused(`${many}\n${RALLY}`);
    expect(e2.issues[0]).toMatch(/^\(top level\): unknown keys "k0", "k1", .*"k9" and 49990 more \(/);
    expect(e2.message.length).toBeLessThan(2000);
  });
});

describe('physical ranges and cross-field checks', () => {
  it('every shipped and fixture car loads, sits inside every range, and is stable at the reference step', () => {
    for (const b of BASE_CARS) {
      const cfg = loadCarConfig(b.text, b.file, readBuiltin);
      expect(carStiffestRate(cfg) * REFERENCE_DT).toBeLessThan(MAX_MODE_DT);
    }
  });

  it('every setup range end applies and passes the same checks (setup is checked after it is applied)', () => {
    for (const b of BASE_CARS) {
      const cfg: CarConfig = loadCarConfig(b.text, b.file, readBuiltin);
      for (const [key, r] of Object.entries(cfg.setup)) for (const v of [r.min, r.max]) expect(() => applySetup(cfg, { [key]: v })).not.toThrow();
    }
  });

  it('a setup range outside the physical range of its key is refused', () => {
    const e = refused(RALLY.replace('"brakes.front_bias" = { min = 0.5, max = 0.75, step = 0.01 }', '"brakes.front_bias" = { min = 0.5, max = 1.5, step = 0.01 }'));
    expect(e.message).toMatch(/setup\."brakes\.front_bias": expected min and max inside 0 … 1 \(physical range\), found \[0\.5, 1\.5\]/);
  });

  it('cross-field: limiter below redline, track wider than the body, travel beyond the wheel, unphysical inertia', () => {
    expect(refused(edited(RALLY, 'engine.limiter_rpm', () => 6900)).message).toMatch(/engine\.limiter_rpm: expected ≥ redline_rpm \(7000\), found number 6900/);
    expect(refused(edited(RALLY, 'body.track_front_m', () => 1.8)).message).toMatch(/body\.track_front_m: expected < body\.width_m \(1\.77 m: the wheels are inside the body\), found number 1\.8/);
    const smallWheel = edited(edited(RALLY, 'tires.rear.radius_m', () => 0.2), 'suspension.rear.travel_mm', () => 450);
    expect(refused(smallWheel).message).toMatch(/suspension\.rear\.travel_mm: expected ≤ 2 × tires\.rear\.radius_m \(400 mm\), found number 450/);
    expect(refused(edited(RALLY, 'body.inertia_kg_m2', () => [100, 2000, 600])).message).toMatch(/body\.inertia_kg_m2: expected principal moments with I_a \+ I_b ≥ I_c \(a rigid body\), found \[100, 2000, 600\]/);
  });

  it('a wheel of a tenth of its mass (in range, but too stiff for the step) is refused, naming the rate', () => {
    // 5 kg rally wheel: its rebound damper alone is c/m_u = 5800/5 = 1160 /s, 2.3 per 2 ms step (measured NaN before)
    const text = edited(edited(RALLY, 'suspension.front.unsprung_mass_kg', () => 5), 'suspension.rear.unsprung_mass_kg', () => 45);
    expect(refused(text).message).toMatch(
      /^bad\.toml: suspension\.front\.rebound_damping_n_s_per_m: expected the car's fastest mode below 600 rad\/s \(1\.2 per 2 ms step\), found 1160 rad\/s for the damper over the unsprung mass \(c\/m_u\) with number 5800$/m,
    );
  });

  it('docs/vehicle.md lists exactly these ranges', () => {
    const doc = readFileSync(new URL('../../docs/vehicle.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('### Physical ranges'), doc.indexOf('\n## ', doc.indexOf('### Physical ranges')));
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).toEqual(Object.entries(CAR_RANGES).map(([key, k]) => `| \`${key}\` | ${rangeText(k)} | ${k.typical} | ${k.meaning} |`));
  });

  it('every numeric key of the schema has a documented range (min, max, unit, meaning, typical)', () => {
    for (const [key, k] of Object.entries(CAR_RANGES)) {
      expect(k.min, key).toBeLessThanOrEqual(k.max);
      expect(Number.isFinite(k.min) && Number.isFinite(k.max), key).toBe(true);
      expect(k.meaning.length, key).toBeGreaterThan(5);
      expect(k.typical.length, key).toBeGreaterThan(0);
    }
  });
});

describe('editor files: JSON Schema, #:schema lines, taplo config', () => {
  const schema = carJsonSchema() as { properties: Record<string, unknown> };

  /** Every numeric leaf of the JSON Schema (tuples and arrays included). */
  function numberLeaves(s: unknown, at: string, out: [string, Record<string, unknown>][]): void {
    if (!s || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    if (o['type'] === 'number') out.push([at, o]);
    for (const [k, v] of Object.entries(o['properties'] ?? {})) numberLeaves(v, `${at}.${k}`, out);
    if (o['items']) numberLeaves(o['items'], `${at}[]`, out);
    for (const [i, v] of ((o['prefixItems'] as unknown[]) ?? []).entries()) numberLeaves(v, `${at}[${i}]`, out);
    if (o['additionalProperties']) numberLeaves(o['additionalProperties'], `${at}.*`, out);
  }

  it('every number carries a description with its unit and range, and minimum/maximum', () => {
    const leaves: [string, Record<string, unknown>][] = [];
    numberLeaves(schema, '', leaves);
    const ranged = leaves.filter(([p]) => !p.startsWith('.setup.') && p !== '.format'); // format is the constant 1
    expect(ranged.length).toBeGreaterThan(80);
    for (const [p, s] of ranged) {
      expect(typeof s['description'], p).toBe('string');
      expect(s['description'] as string, p).toMatch(/Range .+ … .+; typical /);
      expect(typeof s['minimum'], p).toBe('number');
      expect(typeof s['maximum'], p).toBe('number');
    }
  });

  it('every key of every table carries a description', () => {
    const missing: string[] = [];
    const walk = (o: Record<string, unknown>, at: string): void => {
      for (const [k, v] of Object.entries((o['properties'] as Record<string, Record<string, unknown>>) ?? {})) {
        if (typeof v['description'] !== 'string') missing.push(`${at}.${k}`);
        walk(v, `${at}.${k}`);
      }
      const extra = o['additionalProperties'];
      if (extra && typeof extra === 'object') walk(extra as Record<string, unknown>, `${at}.*`);
    };
    walk(schema as unknown as Record<string, unknown>, '');
    expect(missing).toEqual([]);
  });

  it('allows extends and format, and matches the zod schema keys', () => {
    expect(Object.keys(schema.properties)).toEqual(Object.keys(CarFileSchema.shape));
    expect(schema.properties['extends']).toMatchObject({ type: 'string' });
    expect(schema.properties['format']).toMatchObject({ const: 1, default: 1 });
  });

  it('shipped cars start with a #:schema line whose relative path reaches the committed schema; taplo points at it', () => {
    const carsDir = new URL('../../src/content/cars/', import.meta.url);
    for (const c of BUILTIN_CARS) {
      const first = c.text.split('\n')[0]!;
      expect(first, c.file).toBe('#:schema ../car.schema.json');
      expect(existsSync(new URL(first.slice('#:schema '.length), carsDir))).toBe(true);
    }
    const taplo = parse(readFileSync(new URL('../../.taplo.toml', import.meta.url), 'utf8')) as { rule: { include: string[]; schema: { path: string } }[] };
    const rule = taplo.rule.find((r) => r.include.includes('src/content/cars/*.toml'))!;
    expect(existsSync(new URL(rule.schema.path, new URL('../../', import.meta.url)))).toBe(true);
    expect(rule.schema.path).toBe('./src/content/car.schema.json');
  });
});
