/**
 * Property tests of the car loader (fast-check, seeded): well-typed mutations of the shipped car files (values
 * scaled by 1e-9 … 1e20, negated, zeroed, NaN / ∞, strings, dropped keys, unknown keys, deep nesting, `extends`
 * of a mutated base with an override) are either refused with a ContentError whose every line names a key (or a
 * position), or the car spawns and drives a few hundred ticks on flat ground with finite, bounded state.
 * A second, exhaustive pass sets every numeric key of every base car to each end of its physical range.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, stringify } from 'smol-toml';
import { CarFileSchema, type CarConfig } from '../../src/content/car-schema';
import { loadCarConfig } from '../../src/content/car-load';
import { CAR_RANGES, rangeKeyOf } from '../../src/content/car-ranges';
import { ContentError } from '../../src/validate/errors';
import type { IntegratorKind } from '../../src/ecs/world';
import { BASE_CARS, buildCase, caseArb, leafPaths, type Tree } from './car-mutations';
import { driveProblem } from './car-drive';

/** Ticks per accepted case (0.5 s at 500 Hz): the issue's NaNs appeared within 25–325 ticks. */
const TICKS = 250;
/** Ticks per accepted range-end case (the exhaustive pass has ~640 cases). */
const EDGE_TICKS = 150;
const RUNS = 1000;
const SEED = 20261125;
const INTEGRATORS: IntegratorKind[] = ['midpoint', 'euler', 'rk4'];

const TOP_KEYS = new Set([...Object.keys(CarFileSchema.shape)]);
/** Where an issue line may point: a key path of the file, the whole car / file, or a line and column. */
const LOCATION = /^(\(whole car\)|\(whole file\)|\(top level\)|line \d+, column \d+|TOML syntax error at line \d+, column \d+.*|([a-z_]+)((\.[a-z0-9_]+)|(\."[^"]+")|(\[\d+\]))*)$/;

/** Every issue names a location, and a key path starts with a real top-level key. */
function namesAKey(e: ContentError): string | null {
  for (const issue of e.issues) {
    const at = /^(.*?): /.exec(issue)?.[1] ?? issue;
    const m = LOCATION.exec(at);
    if (!m) return issue;
    if (m[2] && !TOP_KEYS.has(m[2])) return issue;
  }
  return null;
}

type Outcome = { kind: 'refused' } | { kind: 'ran' } | { kind: 'bad'; why: string };

function judge(text: string, file: string, files: Record<string, string>, integrator: IntegratorKind, ticks = TICKS): Outcome {
  let cfg: CarConfig;
  try {
    cfg = loadCarConfig(text, file, (n) => {
      const t = files[n];
      if (t === undefined) throw new Error(`no file "${n}"`);
      return t;
    });
  } catch (e) {
    if (!(e instanceof ContentError)) return { kind: 'bad', why: `threw ${(e as Error).name}: ${(e as Error).message}` };
    const unnamed = namesAKey(e);
    return unnamed === null ? { kind: 'refused' } : { kind: 'bad', why: `issue without a key: ${unnamed}` };
  }
  let why: string | null;
  try {
    why = driveProblem(cfg, ticks, integrator);
  } catch (e) {
    why = `spawn/run threw: ${(e as Error).message}`;
  }
  return why === null ? { kind: 'ran' } : { kind: 'bad', why };
}

describe('car files: any well-typed mutation is refused cleanly or runs finitely', () => {
  it(`${RUNS} seeded mutations of the shipped cars (${TICKS} ticks each when accepted)`, () => {
    let ran = 0,
      refusedN = 0,
      i = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const built = buildCase(c);
        if (!built) return true; // smol-toml could not write the mutated tree: nothing to load
        const o = judge(built.text, built.file, built.files, INTEGRATORS[i++ % 3]!);
        if (o.kind === 'bad') throw new Error(`${o.why}\n--- ${built.file}\n${built.text.slice(0, 400)}`);
        if (o.kind === 'ran') ran++;
        else refusedN++;
        return true;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator must exercise both sides of the property (measured with this seed: ~25 % accepted).
    expect(ran).toBeGreaterThan(RUNS / 10);
    expect(refusedN).toBeGreaterThan(RUNS / 10);
  });

  it('every numeric key at each end of its physical range: refused by a cross-field check, or runs finitely', () => {
    let ran = 0,
      n = 0;
    for (const base of BASE_CARS) {
      const tree = parse(base.text) as Tree;
      for (const path of leafPaths(tree)) {
        if (path[0] === 'setup' || path.some((s) => typeof s === 'number')) continue;
        const key = path.join('.');
        const k = CAR_RANGES[rangeKeyOf(key)];
        if (!k) continue;
        for (const v of [k.min, k.max]) {
          const t = parse(base.text) as Tree;
          let cur = t;
          for (const s of path.slice(0, -1)) cur = cur[s as string] as Tree;
          cur[path[path.length - 1] as string] = v;
          t['setup'] = {}; // a setup range may not contain the new value; that refusal is tested elsewhere
          const o = judge(stringify(t), 'edge.toml', {}, INTEGRATORS[n++ % 3]!, EDGE_TICKS);
          if (o.kind === 'bad') throw new Error(`${base.file} ${key} = ${v}: ${o.why}`);
          if (o.kind === 'ran') ran++;
        }
      }
    }
    expect(n).toBeGreaterThan(400);
    expect(ran).toBeGreaterThan(n / 2);
  });
});
