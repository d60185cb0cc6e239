/**
 * Crush sub-commands of the car CLI (collision issue; hooked from src/cli/car.ts, also runnable alone):
 *   npm run car -- crush-params <car.toml | built-in id> [--json]
 *     Tongue §6 identification from the car's mass and the crash tests of its `[crash]` table (defaults for
 *     missing ends, docs/collisions.md): bumper k_b, C_b, γ, preload F_0, capacity; body k_c and preload
 *     distance δ = F_0/k_c per end; checks: 5 mph → no body crush, each crash test re-run time-resolved
 *     reproduces its residual crush within CRUSH_REPRODUCE_TOL.
 *   npm run car -- crash-test <car A> [<car B> | --barrier] [--v1 20] [--v2 0] [--gap 0.55] [--h 1e-5]
 *                 [--trace out.csv] [--json]
 *     Time-resolved 1D crash test (§5.3, §7–8): car A's front into car B's rear (or a rigid barrier); prints
 *     the contact times, final speeds, crush, peak force; --trace writes t, v1, v2, F, x_b1, x_c1, x_b2, x_c2.
 * Exit code 2 on bad arguments or a bad car file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadCarConfig, type CarConfig } from '../content/car-schema';
import { ContentError } from '../content/errors';
import { BUILTIN_CARS, readBuiltin } from '../content/cars/index';
import { DEFAULT_TESTS, MPH5, identifyCrush, type CrushParams, type CrushTest } from '../systems/sim/collision/crush';
import { runCrashTest, type CrashCar } from '../systems/sim/collision/crash-test';

function loadCar(arg: string): CarConfig {
  const builtin = BUILTIN_CARS.find((c) => c.id === arg || c.file === arg);
  if (builtin && !existsSync(arg)) return loadCarConfig(builtin.text, builtin.file, readBuiltin);
  const file = resolve(arg);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ContentError(arg, [`cannot read file: ${(e as Error).message}`]);
  }
  const dir = dirname(file);
  return loadCarConfig(text, arg, (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : readBuiltin(name)));
}

function usage(): number {
  console.error('usage: npm run car -- crush-params <car.toml | built-in id> [--json]');
  console.error('       npm run car -- crash-test <car A> [<car B> | --barrier] [--v1 m/s] [--v2 m/s] [--gap m] [--h s] [--trace out.csv] [--json]');
  return 2;
}

const VALUE_FLAGS = new Set(['--v1', '--v2', '--gap', '--h', '--trace']);

function num(argv: string[], name: string, dflt: number): number {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(argv[i + 1]);
  if (!Number.isFinite(v)) throw new Error(`${name}: expected a number, found "${argv[i + 1] ?? ''}"`);
  return v;
}

/** Relative tolerance within which the time-resolved barrier test must reproduce each file's residual crush. */
export const CRUSH_REPRODUCE_TOL = 0.1;

/** The car's crash tests: the file's `[crash]` table per end, else the documented defaults. */
export function crashTestsOf(cfg: CarConfig): Record<'front' | 'rear' | 'side', CrushTest & { from: string }> {
  const t = cfg.collision?.crushTests ?? {};
  const src = cfg.collision?.source || 'car file [crash]';
  const pick = (e: 'front' | 'rear' | 'side') => (t[e] ? { ...t[e], from: src } : { ...DEFAULT_TESTS[e], from: 'default (crush.ts DEFAULT_TESTS)' });
  return { front: pick('front'), rear: pick('rear'), side: pick('side') };
}

function paramsReport(cfg: CarConfig, p: CrushParams): Record<string, unknown> {
  const m = cfg.body.massKg;
  const b = p.bumper;
  const tests = crashTestsOf(cfg);
  const ends = { front: p.kcF, rear: p.kcR, side: p.kcS };
  const check5 = runCrashTest({ mass: m, v0: MPH5, bumper: b, kc: p.kcF }, null, { gap: 0.05, after: 0 });
  // Each end's crash test re-run time-resolved (§5.3, §8.2) against a rigid barrier with the identified
  // parameters: its residual body crush must come back within CRUSH_REPRODUCE_TOL of the file's figure
  const reproduce = Object.fromEntries(
    Object.entries(ends).map(([k, kc]) => {
      const t = tests[k as keyof typeof tests];
      const r = runCrashTest({ mass: m, v0: t.speed_m_s, bumper: b, kc }, null, { gap: 0.05, after: 0 });
      const err = (r.crush1 - t.residual_crush_m) / t.residual_crush_m;
      return [k, { speed_km_h: t.speed_m_s * 3.6, test_crush_m: t.residual_crush_m, body_crush_m: r.crush1, relative_error: err, within_tolerance: Math.abs(err) <= CRUSH_REPRODUCE_TOL, peak_force_n: r.peakForce }];
    }),
  );
  return {
    car: cfg.id,
    mass_kg: m,
    crash_data: cfg.collision?.source || (Object.keys(cfg.collision?.crushTests ?? {}).length ? 'car file [crash]' : 'none in the car file: defaults'),
    bumper: { dead_length_m: 0.15, k_b_n_per_m: b.kb, C_b_n: b.Cb, gamma_m2_per_s2: b.gamma, x_max_5mph_m: b.xmax, F0_n: b.F0, capacity_j: b.cap },
    body: Object.fromEntries(
      Object.entries(ends).map(([k, kc]) => [k, { k_c_n_per_m: kc, preload_distance_m: b.F0 / kc, test: tests[k as keyof typeof tests] }]),
    ),
    checks: {
      barrier_5mph: { body_crush_m: check5.crush1, peak_force_n: check5.peakForce },
      reproduce_crash_tests: { tolerance: CRUSH_REPRODUCE_TOL, ...reproduce },
    },
  };
}

export function crushMain(argv: string[]): number {
  const cmd = argv[0];
  const json = argv.includes('--json');
  const positional = argv.slice(1).filter((a, i, arr) => !a.startsWith('--') && !VALUE_FLAGS.has(arr[i - 1] ?? ''));
  try {
    if (cmd === 'crush-params') {
      if (!positional[0]) return usage();
      const cfg = loadCar(positional[0]);
      const rep = paramsReport(cfg, identifyCrush(cfg.body.massKg, cfg.collision?.crushTests));
      console.log(json ? JSON.stringify(rep) : JSON.stringify(rep, null, 2));
      return 0;
    }
    if (cmd === 'crash-test') {
      if (!positional[0]) return usage();
      const barrier = argv.includes('--barrier');
      if (barrier === (positional.length > 1)) {
        console.error('crash-test: give either a second car or --barrier');
        return 2;
      }
      const a = loadCar(positional[0]);
      const pa = identifyCrush(a.body.massKg, a.collision?.crushTests);
      const carA: CrashCar = { mass: a.body.massKg, v0: num(argv, '--v1', 20), bumper: pa.bumper, kc: pa.kcF };
      let carB: CrashCar | null = null;
      if (!barrier) {
        const b = loadCar(positional[1]!);
        const pb = identifyCrush(b.body.massKg, b.collision?.crushTests);
        carB = { mass: b.body.massKg, v0: num(argv, '--v2', 0), bumper: pb.bumper, kc: pb.kcR };
      }
      const h = num(argv, '--h', 1e-5);
      if (!(h > 0 && h <= 1e-3)) throw new Error(`--h: expected a step in (0, 0.001] s, found ${h}`);
      const r = runCrashTest(carA, carB, { gap: num(argv, '--gap', 0.55), h, sampleEvery: 5e-4 });
      const traceIdx = argv.indexOf('--trace');
      if (traceIdx >= 0) {
        const out = argv[traceIdx + 1];
        if (!out) return usage();
        const rows = ['t,v1,v2,F,xb1,xc1,xb2,xc2', ...r.samples.map((s) => [s.t, s.v1, s.v2, s.F, s.xb1, s.xc1, s.xb2, s.xc2].join(','))];
        writeFileSync(out, rows.join('\n') + '\n');
      }
      const m1 = carA.mass, m2 = carB?.mass ?? Infinity;
      const summary = {
        mode: barrier ? 'barrier' : 'two cars',
        contact_start_s: r.contactStart, contact_end_s: r.contactEnd, severity: r.severity,
        v1_m_s: r.v1, v2_m_s: r.v2,
        momentum_common_speed_m_s: carB ? (m1 * carA.v0 + m2 * carB.v0) / (m1 + m2) : 0,
        crush1_m: r.crush1, crush2_m: r.crush2, peak_force_n: r.peakForce,
        // bumpers first (stroke to the dead length), then the body (null: did not happen)
        bumper_stroke_end_s: [r.strokeEnd1, carB ? r.strokeEnd2 : NaN].map((t) => (Number.isNaN(t) ? null : t)),
        body_yield_start_s: Number.isNaN(r.yieldStart) ? null : r.yieldStart,
        samples: r.samples.length,
      };
      console.log(json ? JSON.stringify(summary) : JSON.stringify(summary, null, 2));
      return 0;
    }
  } catch (e) {
    console.error(e instanceof ContentError ? e.message : `car ${cmd}: ${(e as Error).message}`);
    return 2;
  }
  return usage();
}

if (process.argv[1]?.endsWith('car-crush.ts')) process.exitCode = crushMain(process.argv.slice(2));
