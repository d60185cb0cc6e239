/**
 * Tuning workflow (issue 9): the per-keystroke and per-slider costs of the garage, and the run comparison.
 *  - validate: checkCarDraft (TOML parse + extends + zod schema + semantic checks + error positions) of a
 *    built-in car — what the editor's lint runs after each pause in typing;
 *  - slider edit: scanToml + numberEdit + applyEdit (one surgical value change);
 *  - compare: compareRuns of two 6000-sample runs (a 5-minute stage at 20 Hz) on a 5 m grid.
 */
import { Bench } from 'tinybench';
import { BUILTIN_CARS, readBuiltin } from '../../src/content/cars/index';
import { checkCarDraft } from '../../src/app/garage/car-draft';
import { applyEdit, numberEdit } from '../../src/app/garage/toml-spans';
import { compareRuns } from '../../src/app/telemetry/compare';
import type { BenchResult, BenchSuite } from '../types';

/**
 * Why `--quick` only reports the validate row: a wall-clock figure ~5× under its goal on an idle machine, read
 * from a 150-ms sample, misses on the shared 2-core machine under load (19 ms at load 8); the full run asserts it.
 */
const LOADED_QUICK = 'wall-clock, ~5× under the goal when idle, its 150-ms quick sample misses under load (19 ms at load 8 on 2 cores)';

export const suite: BenchSuite = {
  name: 'tuning',
  async run({ quick }) {
    const car = BUILTIN_CARS.find((c) => c.id === 'rally-awd') ?? BUILTIN_CARS[0]!;
    const n = 6000;
    const mk = (v: (t: number) => number) => {
      const t = new Float64Array(n), dist = new Float64Array(n), speed = new Float64Array(n);
      let d = 0;
      for (let i = 0; i < n; i++) {
        t[i] = i * 0.05;
        speed[i] = v(t[i]!);
        d += speed[i]! * 0.05;
        dist[i] = d;
      }
      return { t, dist, channels: { speed } };
    };
    const A = mk((t) => 20 + 5 * Math.sin(t / 7));
    const B = mk((t) => 21 + 5 * Math.sin(t / 7 + 0.2));
    let v = 30;
    const bench = new Bench({ time: quick ? 150 : 1000, warmupTime: quick ? 50 : 200 });
    bench
      .add('validate', () => void checkCarDraft(car.text, car.file, readBuiltin))
      .add('slider edit', () => {
        v = v >= 80 ? 30 : v + 1;
        applyEdit(car.text, numberEdit(car.text, ['suspension', 'front', 'spring_rate_n_per_mm'], v, 1, 30));
      })
      .add('compare', () => void compareRuns(A, B, 5));
    await bench.run();
    const ms = (name: string): number => {
      const t = bench.tasks.find((x) => x.name === name)!;
      const r = t.result as { latency?: { mean: number }; mean?: number } | undefined;
      return r?.latency?.mean ?? r?.mean ?? NaN;
    };
    const out: BenchResult[] = [
      { suite: 'tuning', name: 'validate a car file (lint per keystroke pause)', value: ms('validate'), unit: 'ms', target: 16, lowerIsBetter: true, quickReportOnly: LOADED_QUICK, note: `${car.file}: parse + extends + zod + semantic + positions; target one 60 Hz frame` },
      { suite: 'tuning', name: 'slider → surgical text edit', value: ms('slider edit') * 1000, unit: 'µs', target: 1000, lowerIsBetter: true, note: 'scanToml + numberEdit + applyEdit on the whole file' },
      { suite: 'tuning', name: 'compare two 6000-sample runs (5 m grid)', value: ms('compare'), unit: 'ms', target: 50, lowerIsBetter: true, note: 'first-passage resampling + time delta + one overlaid channel' },
    ];
    return out;
  },
};
