/**
 * Memory of Havok props worlds (docs/collisions.md "Havok memory"): a released props world gives its Havok
 * instance back, reset to its start-up state, and the next props world reuses it (havok-instance.ts), so
 * building and releasing props worlds over and over keeps the process's wasm memory flat — without relying on
 * the garbage collector to find dropped 16.9 MB instances.
 *
 * Measured with a full GC before each reading (`gc`, exposed at run time through V8's flags) and no turn of the
 * event loop in between: the 100 worlds are built synchronously, as a replay seek builds them, so an instance
 * that was not reused would still be alive at the reading (emscripten's ready-promise reactions hold it until
 * the microtask queue runs) and show as 16.9 MB of `external` memory each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { freshHavokStats } from '../../src/systems/sim/collision/havok-instance';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario } from '../../src/run/scenario';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { collisionRuntime, releaseCollisionWorld } from '../../src/systems/sim/collision/runtime';
import { HavokProps } from '../../src/systems/sim/collision/props';
import { loadStageFromDir } from '../../terrain/node';
import { carChoice } from '../../src/app/cars';
import { setStagePropsEnabled } from '../../src/app/game-setup';
import { buildGameRunWorld, releaseGameRunWorld } from '../../src/app/game-run-world';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import type { SimWorld } from '../../src/ecs/world';
import type { Stage } from '../../terrain/stage';
import type { CarChoice } from '../../src/app/cars';

setFlagsFromString('--expose-gc');
const gc = ((globalThis as { gc?: () => void }).gc ?? runInNewContext('gc')) as () => void;

/** The bound: memory after the last run within 10 % of memory after the first. */
const FLAT = 1.1;
const F = 'src/content/scenarios/collision-props.toml';
const TEXT = readFileSync(F, 'utf8');
/** Ticks per props run: the car (15 m/s from z = 0) reaches the first cone (z = 10 m) at ≈ 330 ticks. */
const SCENARIO_TICKS = 400;
/** Ticks per Retry at full throttle from the start line: the cones beside it are passed. */
const RETRY_TICKS = 300;

interface Reading {
  external: number;
  arrayBuffers: number;
}

/** Memory after two full collections (the second sweeps what the first one's finalisation freed). */
function reading(): Reading {
  gc();
  gc();
  const m = process.memoryUsage();
  return { external: m.external, arrayBuffers: m.arrayBuffers };
}

function expectFlat(first: Reading, last: Reading): void {
  expect(last.external).toBeLessThanOrEqual(first.external * FLAT);
  expect(last.arrayBuffers).toBeLessThanOrEqual(first.arrayBuffers * FLAT);
}

/**
 * One props run: built, stepped, hashed, released; returns its hash and Havok instance. Each run's work is in its
 * own call so no stale reference from a long-running loop frame (optimised on-stack) keeps the previous world.
 */
function propsRun(): { hash: string; hp: unknown } {
  const run = buildScenario(parseScenario(TEXT, F));
  const props = collisionRuntime(run.world).props as HavokProps;
  const hp = props.scene.hp;
  for (let i = 0; i < SCENARIO_TICKS; i++) runTick(run.world);
  run.world.events.length = 0;
  expect(props.steps).toBeGreaterThan(0);
  const hash = stateHash(run.world);
  releaseCollisionWorld(run.world);
  return { hash, hp };
}

/**
 * One Retry as the game does it (menus.ts 'loading'): Havok loaded (a pristine instance ready), the old
 * GameSession disposed (releaseGameRunWorld), the new GameSession's world built (buildGameRunWorld) and driven.
 */
async function retry(stage: Stage, car: CarChoice, prev: SimWorld | null): Promise<{ world: SimWorld; hash: string }> {
  await loadHavokNode();
  if (prev) releaseGameRunWorld(prev);
  const { run } = buildGameRunWorld(stage, car);
  expect(collisionRuntime(run.world).props).toBeInstanceOf(HavokProps);
  const input = new HeldInput();
  input.input = { steer: 0, throttle: 1000, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
  setInputSource(run.world, run.cars[0]!, input);
  for (let i = 0; i < RETRY_TICKS; i++) runTick(run.world);
  run.world.events.length = 0;
  return { world: run.world, hash: stateHash(run.world) };
}

beforeAll(async () => {
  await loadHavokNode();
});

describe('Havok props worlds built and released over and over keep memory flat', () => {
  it('100 props worlds built, stepped and released in one process: external memory within 10 % of after the first; identical runs', () => {
    const before = { ...freshHavokStats };
    const instances = new Set<unknown>();
    const hashes = new Set<string>();
    let first: Reading | null = null;
    for (let k = 0; k < 100; k++) {
      const { hash, hp } = propsRun();
      instances.add(hp);
      hashes.add(hash);
      first ??= reading();
    }
    expectFlat(first!, reading());
    expect(instances.size).toBe(1); // one instance, reset after each world, served all 100
    expect(freshHavokStats.reused - before.reused).toBe(99);
    expect(hashes.size).toBe(1); // every world stepped as the first, on a brand-new instance
  }, 300_000);

  it('50 Retries of the game run (Havok loaded, the old session released, the new world built): memory flat', async () => {
    const stage = loadStageFromDir('src/content/stages/test-short');
    const car = carChoice('hatch-gti');
    setStagePropsEnabled(true);
    const before = { ...freshHavokStats };
    const hashes = new Set<string>();
    let prev: SimWorld | null = null;
    let first: Reading | null = null;
    try {
      for (let k = 0; k < 50; k++) {
        const r = await retry(stage, car, prev);
        prev = r.world;
        hashes.add(r.hash);
        first ??= reading();
      }
      expectFlat(first!, reading());
    } finally {
      if (prev) releaseGameRunWorld(prev);
      setStagePropsEnabled(false);
    }
    // from the second Retry on (the first too, with an instance pooled by the test above), the instance the
    // previous run gave back serves the new one
    expect(freshHavokStats.reused - before.reused).toBeGreaterThanOrEqual(49);
    expect(freshHavokStats.dropped).toBe(before.dropped);
    expect(hashes.size).toBe(1);
  }, 300_000);
});
