/** Car and surface config files: every error names the file, the key path, what was expected and found. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { carJsonSchema, onStep, RPM } from '../../src/content/car-schema';
import { applySetup, loadCarConfig, reloadCarConfig } from '../../src/content/car-load';
import { ContentError } from '../../src/validate/errors';
import { BUILTIN_CARS, loadBuiltinCar, readBuiltin } from '../../src/content/cars/index';
import { DEFAULT_SURFACES, loadSurfaces } from '../../src/content/surfaces';
import { parseScenario } from '../../src/content/scenario-schema';

const gti = BUILTIN_CARS.find((c) => c.id === 'hatch-gti')!.text;

function errorOf(fn: () => unknown): ContentError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ContentError) return e;
    throw e;
  }
  throw new Error('expected a ContentError, got none');
}

describe('car config', () => {
  it('loads the three built-in cars in SI units', () => {
    for (const c of BUILTIN_CARS) {
      const cfg = loadBuiltinCar(c.id);
      expect(cfg.body.massKg).toBeGreaterThan(1000);
      expect(cfg.wheels).toHaveLength(4);
    }
    const cfg = loadBuiltinCar('hatch-gti');
    expect(cfg.engine.redline).toBeCloseTo(6500 * RPM, 12);
    expect(cfg.suspension.front.springRate).toBe(40_000); // 40 N/mm → N/m
    expect(cfg.suspension.front.travel).toBeCloseTo(0.17, 12); // 170 mm → m
    expect(cfg.steering.maxAngle).toBeCloseTo((34 * Math.PI) / 180, 12);
    expect(cfg.gearbox.ratios[0]).toBe(-3.2); // reverse first, negative
    // Static loads from the CG: N_f = m g b / L / 2.
    expect(cfg.tires.front.nominalLoad).toBeCloseTo((1420 * 9.81 * (2.63 - 1.03)) / 2.63 / 2, 9);
    expect(cfg.wheels.map((w) => w.driven)).toEqual([true, true, false, false]);
    expect(loadBuiltinCar('rally-awd').wheels.every((w) => w.driven)).toBe(true);
  });

  it('missing key', () => {
    const e = errorOf(() => loadCarConfig(gti.replace(/^mass_kg = .*$/m, ''), 'bad.toml'));
    expect(e.message).toMatch(/^bad\.toml: body\.mass_kg: expected number, found nothing \(missing\)/m);
  });

  it('wrong unit key', () => {
    const e = errorOf(() => loadCarConfig(gti.replace(/^mass_kg = .*$/m, 'mass_lb = 3130'), 'bad.toml'));
    expect(e.message).toContain('bad.toml: body: unknown key "mass_lb" ("mass_lb": did you mean "mass_kg"?)');
    expect(e.message).toContain('body.mass_kg: expected number, found nothing (missing)');
  });

  it('negative mass', () => {
    const e = errorOf(() => loadCarConfig(gti.replace(/^mass_kg = .*$/m, 'mass_kg = -1420'), 'bad.toml'));
    expect(e.message).toContain('bad.toml: body.mass_kg: expected 400 … 4000 kg (physical range), found number -1420');
  });

  it('unsprung mass out of range', () => {
    // 1420 kg car: a wheel may not weigh mass/8 = 177.5 kg or more; zero or negative is outside the physical range.
    const heavy = errorOf(() => loadCarConfig(gti.replace(/^unsprung_mass_kg = 38 .*$/m, 'unsprung_mass_kg = 200'), 'bad.toml'));
    expect(heavy.message).toContain('bad.toml: suspension.front.unsprung_mass_kg: expected < body.mass_kg / 8 (177.5 kg), found number 200');
    const zero = errorOf(() => loadCarConfig(gti.replace(/^unsprung_mass_kg = 32$/m, 'unsprung_mass_kg = 0'), 'bad.toml'));
    expect(zero.message).toContain('bad.toml: suspension.rear.unsprung_mass_kg: expected 5 … 250 kg (physical range), found number 0');
  });

  it('unsprung mass defaults to 3.5 % of the car per wheel', () => {
    const cfg = loadCarConfig(gti.replace(/^unsprung_mass_kg = .*\n/gm, ''), 'default.toml');
    expect(cfg.suspension.front.unsprungMass).toBeCloseTo(0.035 * 1420, 12);
    expect(cfg.suspension.rear.unsprungMass).toBeCloseTo(0.035 * 1420, 12);
  });

  it('non-monotonic torque table', () => {
    const e = errorOf(() => loadCarConfig(gti.replace('[4500, 350], [5500, 281]', '[5500, 350], [4500, 281]'), 'bad.toml'));
    expect(e.message).toContain('bad.toml: engine.torque_table_nm[3][0]: expected rpm increasing (> 5500), found number 4500');
  });

  it('circular extends', () => {
    const files: Record<string, string> = {
      'a.toml': 'extends = "b.toml"\nname = "A"\n',
      'b.toml': 'extends = "a.toml"\nname = "B"\n',
    };
    const e = errorOf(() => loadCarConfig(files['a.toml']!, 'a.toml', (n) => files[n]!));
    expect(e.message).toContain('extends: circular chain a.toml → b.toml → a.toml');
  });

  it('extends merges tables key by key', () => {
    const cfg = loadCarConfig('extends = "hatch-gti.toml"\nname = "Light GTI"\n[body]\nmass_kg = 1300\n', 'light.toml', readBuiltin);
    expect(cfg.body.massKg).toBe(1300);
    expect(cfg.body.wheelbaseM).toBe(2.63); // inherited
    expect(cfg.name).toBe('Light GTI');
  });

  it('TOML syntax errors name line and column', () => {
    const e = errorOf(() => loadCarConfig('name = "x"\n[body\n', 'syntax.toml'));
    expect(e.message).toMatch(/^syntax\.toml: TOML syntax error at line 2, column \d+/);
  });

  it('an invalid file never replaces a working car', () => {
    const good = loadBuiltinCar('hatch-gti');
    const r = reloadCarConfig(good, gti.replace(/^mass_kg = .*$/m, 'mass_kg = "heavy"'), 'hatch-gti.toml');
    expect(r.config).toBe(good);
    expect(r.error?.message).toContain('hatch-gti.toml: body.mass_kg: expected number, found "heavy"');
    const ok = reloadCarConfig(good, gti.replace(/^mass_kg = .*$/m, 'mass_kg = 1500'), 'hatch-gti.toml');
    expect(ok.error).toBeNull();
    expect(ok.config.body.massKg).toBe(1500);
  });

  it('setup ranges: values inside apply, outside are refused', () => {
    const cfg = loadBuiltinCar('hatch-gti');
    expect(applySetup(cfg, { 'brakes.front_bias': 0.6 }).brakes.frontBias).toBe(0.6);
    const e = errorOf(() => applySetup(cfg, { 'brakes.front_bias': 0.95 }));
    expect(e.message).toContain('setup."brakes.front_bias": expected a value within [0.55, 0.8], found number 0.95');
    const e2 = errorOf(() => loadCarConfig(gti.replace('[setup]\n', '[setup]\n"body.nope" = { min = 0, max = 1, step = 0.1 }\n'), 'bad.toml'));
    expect(e2.message).toContain('setup."body.nope": expected the key path of a numeric value in this file, found nothing');
  });

  it('setup ranges enforce step: values on min + k·step (float tolerance) pass, others name file, key, grid and value', () => {
    const cfg = loadBuiltinCar('hatch-gti');
    // 0.55 + 0.01·k: 0.61 + 0.01 accumulated in binary floating point (0.6200000000000001) is on the grid.
    expect(applySetup(cfg, { 'brakes.front_bias': 0.61 + 0.01 }).brakes.frontBias).toBeCloseTo(0.62, 12);
    expect(applySetup(cfg, { 'gearbox.final_drive': 3.2 + 17 * 0.05 }).gearbox.finalDrive).toBeCloseTo(4.05, 12);
    const e = errorOf(() => applySetup(cfg, { 'gearbox.final_drive': 4.07 }));
    expect(e.message).toContain(
      'hatch-gti.toml: setup."gearbox.final_drive": expected a value on min + k·step (min 3.2, step 0.05; nearest 4.05 or 4.1), found number 4.07',
    );
    const e1 = errorOf(() => applySetup(cfg, { 'suspension.front.spring_rate_n_per_mm': 45.5 }));
    expect(e1.message).toContain('setup."suspension.front.spring_rate_n_per_mm": expected a value on min + k·step (min 30, step 1; nearest 45 or 46), found number 45.5');
    // In the file: the value itself must lie on its range's grid, and so must max (a slider stepping up to max).
    const offGrid = gti.replace(/^"brakes\.front_bias" = .*$/m, '"brakes.front_bias" = { min = 0.55, max = 0.80, step = 0.04 }');
    const e2 = errorOf(() => loadCarConfig(offGrid, 'grid.toml'));
    expect(e2.message).toContain('grid.toml');
    expect(e2.message).toContain('setup."brakes.front_bias".max: expected min + k·step (min 0.55, step 0.04; nearest 0.79 or 0.83) (max on the step grid), found number 0.8');
    // The file's front_bias = 0.70 is 0.55 + 3.75·0.04: off that grid too.
    expect(e2.message).toContain('setup."brakes.front_bias": expected a value on min + k·step (min 0.55, step 0.04; nearest 0.67 or 0.71), found number 0.7');
    // Every shipped car's tunable values lie on their grids (the garage sliders step from min by step).
    for (const c of BUILTIN_CARS) {
      const car = loadBuiltinCar(c.id);
      for (const [key, r] of Object.entries(car.setup)) {
        expect(onStep(r.max, r.min, r.step), `${c.id} ${key} max`).toBe(true);
        for (let k = 0; r.min + k * r.step <= r.max + 1e-9; k++) expect(onStep(r.min + k * r.step, r.min, r.step)).toBe(true);
      }
    }
  });

  it('the shipped JSON Schema is the generated one', () => {
    const shipped = JSON.parse(readFileSync(new URL('../../src/content/car.schema.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(carJsonSchema())));
  });
});

describe('surfaces', () => {
  const text = readFileSync(new URL('../../src/content/surfaces.toml', import.meta.url), 'utf8');
  it('surfaces.toml equals the built-in defaults', () => {
    expect(loadSurfaces(text, 'surfaces.toml')).toEqual(DEFAULT_SURFACES);
  });
  it('unknown surface in surfaces.toml', () => {
    const e = errorOf(() => loadSurfaces(text + '\n[mud]\nmu_static = 0.5\n', 'surfaces.toml'));
    expect(e.message).toContain('surfaces.toml: (top level): unknown key "mud"');
  });
  it('unknown surface in a scenario', () => {
    const e = errorOf(() => parseScenario('dt = 0.002\nduration_s = 1\n[terrain]\nkind = "flat"\nsurface = "mud"\n', 'scn.toml'));
    expect(e.message).toContain('scn.toml: terrain.surface: expected one of "tarmac", "gravel", "snow", "ice", "grass", found "mud"');
  });
  it('values outside their physical range are refused, naming the key and the range', () => {
    const tiny = errorOf(() => loadSurfaces(text.replace('sliding_speed_ref_m_s = 8.0', 'sliding_speed_ref_m_s = 1e-300'), 'surfaces.toml'));
    expect(tiny.message).toMatch(/surfaces\.toml: tarmac\.sliding_speed_ref_m_s: expected 0\.1 … 100 m\/s.*found number 1e-300/);
    const ice = errorOf(() => loadSurfaces(text.replace('mu_static = 1.15', 'mu_static = 0.001'), 'surfaces.toml'));
    expect(ice.message).toMatch(/tarmac\.mu_static: expected 0\.02 … 3/);
  });
  it('sliding friction above static is refused', () => {
    const e = errorOf(() => loadSurfaces(text.replace('mu_sliding = 0.95', 'mu_sliding = 1.5'), 'surfaces.toml'));
    expect(e.message).toContain('surfaces.toml: tarmac.mu_sliding: expected ≤ mu_static (1.15), found number 1.5');
  });
});
