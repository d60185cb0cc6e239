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
import { writeFileSync } from 'node:fs';
import type { CarConfig } from '../content/car-schema';
import { DEFAULT_TESTS, MPH5, identifyCrush, type CrushParams, type CrushTest } from '../systems/sim/collision/crush';
import { runCrashTest, type CrashCar } from '../systems/sim/collision/crash-test';
import { parseCommand, selectCommand, type CommandSpec } from './args';
import { exitWith, runCommand } from './errors';
import { builtinCarIds, loadCarArg } from './inputs';

const carHelp = (which: string): string => `${which}: a car file (.toml) or a built-in id: ${builtinCarIds().join(', ')}`;

const CRUSH_PARAMS = {
  usage: 'npm run car -- crush-params',
  summary: "Identifies the crush model (Tongue et al. §6) from the car's mass and the crash tests of its [crash] table.",
  details: ['Prints bumper k_b, C_b, γ, preload F_0, capacity; body k_c and preload distance per end; checks.'],
  positionals: [{ name: 'car', help: carHelp('the car') }],
  options: { json: { type: 'boolean', help: 'print one JSON line' } },
  examples: ['npm run car -- crush-params rally-awd'],
} as const satisfies CommandSpec;

const CRASH_TEST = {
  usage: 'npm run car -- crash-test',
  summary: "Time-resolved 1D crash test (Tongue et al. §5.3, §7–8): car A's front into car B's rear or a rigid barrier.",
  details: ['Prints the contact times, final speeds, crush and peak force.'],
  positionals: [
    { name: 'car A', help: carHelp('the striking car') },
    { name: 'car B', help: `${carHelp('the struck car')} (or --barrier)`, optional: true },
  ],
  options: {
    barrier: { type: 'boolean', help: 'crash car A into a rigid barrier instead of car B' },
    v1: { type: 'number', value: 'm/s', default: 20, help: "car A's speed" },
    v2: { type: 'number', value: 'm/s', default: 0, help: "car B's speed" },
    gap: { type: 'number', value: 'm', default: 0.55, min: 0, help: 'distance between the bumpers at the start' },
    h: { type: 'number', value: 's', default: 1e-5, above: 0, max: 1e-3, help: 'integration step' },
    trace: { type: 'string', value: 'out.csv', help: 'write t, v1, v2, F, x_b1, x_c1, x_b2, x_c2 to this CSV file' },
    json: { type: 'boolean', help: 'print one JSON line' },
  },
  examples: ['npm run car -- crash-test rally-awd rally-awd --v1 20 --v2 0 --trace /tmp/crash.csv', 'npm run car -- crash-test hatch-gti --barrier --v1 2.2352'],
} as const satisfies CommandSpec;

/** The crush sub-commands of the car CLI (src/cli/car.ts lists them with its own). */
export const CRUSH_COMMANDS = { 'crush-params': CRUSH_PARAMS, 'crash-test': CRASH_TEST } as const;

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

function crushParams(argv: string[]): number {
  const { options, args } = parseCommand(CRUSH_PARAMS, argv);
  const cfg = loadCarArg(args.car);
  const rep = paramsReport(cfg, identifyCrush(cfg.body.massKg, cfg.collision?.crushTests));
  console.log(options.json ? JSON.stringify(rep) : JSON.stringify(rep, null, 2));
  return 0;
}

function crashTest(argv: string[]): number {
  const { options: o, args, fail } = parseCommand(CRASH_TEST, argv);
  if (o.barrier === (args['car B'] !== undefined)) fail('give either a second car or --barrier');
  const a = loadCarArg(args['car A']);
  const pa = identifyCrush(a.body.massKg, a.collision?.crushTests);
  const carA: CrashCar = { mass: a.body.massKg, v0: o.v1, bumper: pa.bumper, kc: pa.kcF };
  let carB: CrashCar | null = null;
  if (args['car B'] !== undefined) {
    const b = loadCarArg(args['car B']);
    const pb = identifyCrush(b.body.massKg, b.collision?.crushTests);
    carB = { mass: b.body.massKg, v0: o.v2, bumper: pb.bumper, kc: pb.kcR };
  }
  const r = runCrashTest(carA, carB, { gap: o.gap, h: o.h, sampleEvery: 5e-4 });
  if (o.trace !== undefined) {
    const rows = ['t,v1,v2,F,xb1,xc1,xb2,xc2', ...r.samples.map((s) => [s.t, s.v1, s.v2, s.F, s.xb1, s.xc1, s.xb2, s.xc2].join(','))];
    writeFileSync(o.trace, rows.join('\n') + '\n');
  }
  const m1 = carA.mass, m2 = carB?.mass ?? Infinity;
  const summary = {
    mode: carB ? 'two cars' : 'barrier',
    contact_start_s: r.contactStart, contact_end_s: r.contactEnd, severity: r.severity,
    v1_m_s: r.v1, v2_m_s: r.v2,
    momentum_common_speed_m_s: carB ? (m1 * carA.v0 + m2 * carB.v0) / (m1 + m2) : 0,
    crush1_m: r.crush1, crush2_m: r.crush2, peak_force_n: r.peakForce,
    // bumpers first (stroke to the dead length), then the body (null: did not happen)
    bumper_stroke_end_s: [r.strokeEnd1, carB ? r.strokeEnd2 : NaN].map((t) => (Number.isNaN(t) ? null : t)),
    body_yield_start_s: Number.isNaN(r.yieldStart) ? null : r.yieldStart,
    samples: r.samples.length,
  };
  console.log(o.json ? JSON.stringify(summary) : JSON.stringify(summary, null, 2));
  return 0;
}

/** Runs one crush sub-command (`argv[0]` is its name); returns the exit code. */
export function crushCommand(name: keyof typeof CRUSH_COMMANDS, rest: string[]): number {
  return name === 'crush-params' ? crushParams(rest) : crashTest(rest);
}

/** `crush-params …` or `crash-test …`; returns the exit code (2 on bad arguments or a bad car file). */
export function crushMain(argv: string[]): number {
  return runCommand(() => {
    const { name, rest } = selectCommand({ usage: 'npm run car --', summary: 'Crush identification and crash tests.', commands: CRUSH_COMMANDS }, argv);
    return crushCommand(name, rest);
  });
}

if (process.argv[1]?.endsWith('car-crush.ts')) exitWith(crushMain(process.argv.slice(2)));
