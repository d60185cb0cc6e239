/**
 * Property tests of scenario files (issue #16): well-typed mutations of every shipped scenario are either refused
 * with a ContentError naming a key, or the scenario builds and runs RUN_TICKS ticks with finite state; any byte
 * string given to the loader gives a Scenario or a ContentError, nothing else. Seeded: the same cases every run.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml, stringify } from 'smol-toml';
import { parseScenario, SCENARIO_LIMITS, type Scenario } from '../../src/content/scenario-schema';
import { ContentError } from '../../src/validate/errors';
import { MAX_TOML_BYTES } from '../../src/validate/bounded-parse';
import { buildScenario, runScenario } from '../../src/run/scenario';
import { loadBuiltinCar } from '../../src/content/cars/index';
import type { CarConfig } from '../../src/content/car-schema';
import { loadStageFromDir } from '../../terrain/node';
import type { Stage } from '../../terrain/stage';
import { applyMutation, byteStringArb, mutationsArb, namesAKey } from './mutate';

// The AI path of a stage for a car is a pure function of both (~3 s on this machine): computed once per pair.
vi.mock('../../src/systems/sim/ai/stage-path', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/systems/sim/ai/stage-path')>();
  const memo = new Map<unknown, Map<unknown, ReturnType<typeof mod.stagePath>>>();
  const stagePath: typeof mod.stagePath = (stage, car, opts) => {
    if (opts) return mod.stagePath(stage, car, opts);
    const byCar = memo.get(stage) ?? memo.set(stage, new Map()).get(stage)!;
    return byCar.get(car) ?? byCar.set(car, mod.stagePath(stage, car)).get(car)!;
  };
  return { ...mod, stagePath };
});

const DIR = join(__dirname, '../../src/content/scenarios');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.toml')).sort();
const TEXTS = FILES.map((f) => readFileSync(join(DIR, f), 'utf8'));
/** Ticks each accepted mutation runs (NaN from absurd values showed within 25–325 ticks; 25 keeps 1,000 cases fast). */
const RUN_TICKS = 25;
const SEED = 20261125;
/** Copies a grown array gets: 5,000 passes every scenario array cap but inputs (cars × inputs cost run time only). */
const GROW_BY = [1, 3, 100, 5000];

const stages = new Map<string, Stage>();
const cars = new Map<string, CarConfig>();
const resources = {
  loadStage: (id: string): Stage => stages.get(id) ?? stages.set(id, loadStageFromDir(join(__dirname, '../../src/content/stages', id))).get(id)!,
  loadCar: (id: string): CarConfig => cars.get(id) ?? cars.set(id, loadBuiltinCar(id)).get(id)!,
};

/** Every position, orientation, velocity and angular velocity of every entity is finite after the run. */
function runsFinite(s: Scenario): boolean {
  // Havok props (another area) are left out of the run: each props world holds wasm memory; bodies, cars,
  // obstacles and stage scenery all run.
  const short: Scenario = { ...s, props: [], duration_s: Math.min(s.duration_s, RUN_TICKS * s.dt) };
  const sum = runScenario(buildScenario(short, resources));
  return sum.bodies.every((b) => [...b.position, ...b.orientation, ...b.velocity, ...b.angular_velocity].every(Number.isFinite));
}

describe('scenario files: mutations of the shipped scenarios', () => {
  it(`${FILES.length} shipped scenarios to mutate`, () => {
    expect(FILES.length).toBeGreaterThanOrEqual(10);
  });

  it('are refused with a ContentError naming a key, or run with finite state (1,000 cases)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.nat(FILES.length - 1), mutationsArb(GROW_BY), (k, muts) => {
        const doc = parseToml(TEXTS[k]!) as Record<string, unknown>;
        for (const m of muts) applyMutation(doc, m);
        let s: Scenario;
        try {
          s = parseScenario(stringify(doc), FILES[k]!);
        } catch (e) {
          return e instanceof ContentError && namesAKey(e.message, FILES[k]!);
        }
        accepted++;
        return runsFinite(s);
      }),
      { numRuns: 1000, seed: SEED },
    );
    expect(accepted).toBeGreaterThan(100); // the property also exercised the run branch
  });
});

describe('scenario files: any byte string', () => {
  it('parses to a Scenario or throws a ContentError, nothing else (1,000 cases)', () => {
    fc.assert(
      fc.property(byteStringArb(TEXTS), (text) => {
        try {
          const s = parseScenario(text, 'fuzz.toml');
          return s.bodies.length <= SCENARIO_LIMITS.bodies && s.cars.length <= SCENARIO_LIMITS.cars;
        } catch (e) {
          return e instanceof ContentError;
        }
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
  it('text over the size cap is refused before parsing', () => {
    const big = 'name = "' + 'x'.repeat(MAX_TOML_BYTES) + '"\n';
    expect(() => parseScenario(big, 'big.toml')).toThrow(`big.toml: (whole file): expected at most ${MAX_TOML_BYTES} bytes`);
  });
});
