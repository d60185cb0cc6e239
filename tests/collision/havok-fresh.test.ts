/**
 * Havok props results depend on the wasm heap's history (docs/collisions.md "Havok heap history"): every props
 * world therefore gets an instance whose wasm state is that of a fresh process — a new one, or one a released
 * world gave back, reset to its state right after start-up (havok-instance.ts, havok-pristine.ts). These runs
 * are built one after another in this one process — kept alive, released, reusing reset instances, stepped
 * interleaved — and each must equal a run in a fresh process (the sim CLI in a child process) bit for bit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { MAX_POOLED_HAVOK, freshHavokStats, havokOrNull, pooledHavokCount } from '../../src/systems/sim/collision/havok-instance';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, runScenario } from '../../src/run/scenario';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { collisionRuntime, releaseCollisionWorld } from '../../src/systems/sim/collision/runtime';
import { HavokProps } from '../../src/systems/sim/collision/props';

const F = 'src/content/scenarios/collision-props.toml';
const TEXT = readFileSync(F, 'utf8');
const scenario = () => parseScenario(TEXT, F);
let cliHash = '';

beforeAll(async () => {
  await loadHavokNode();
  // a fresh process: one props world in a brand-new Havok (what `replay verify` does)
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', F, '--json'], { encoding: 'utf8' });
  cliHash = (JSON.parse(out.trim().split('\n').pop()!) as { state_hash: string }).state_hash;
}, 180_000);

const hpOf = (r: { world: Parameters<typeof collisionRuntime>[0] }) => (collisionRuntime(r.world).props as HavokProps).scene.hp;

describe('a pristine Havok instance per props world', () => {
  it('props worlds built one after another and kept alive: every run equals the fresh process; each has its own instance', async () => {
    const before = { ...freshHavokStats };
    const runs = [];
    for (let k = 0; k < 3; k++) {
      await loadHavokNode(); // as the game before a run: a pristine instance ready
      const run = buildScenario(scenario());
      runs.push(run);
      expect(runScenario(run).state_hash).toBe(cliHash);
    }
    const instances = runs.map(hpOf);
    expect(new Set(instances).size).toBe(3);
    expect(instances).not.toContain(havokOrNull()); // not the shared (query world) instance
    expect(freshHavokStats.spare - before.spare).toBe(3); // nothing released yet: new instances
    expect(freshHavokStats.shared).toBe(before.shared);
    for (const r of runs) releaseCollisionWorld(r.world);
    expect(freshHavokStats.returned - before.returned).toBe(3);
    expect(pooledHavokCount()).toBe(3);
  }, 120_000);

  it('released after each run: the next run reuses the reset instance, and still equals the fresh process', () => {
    const before = { ...freshHavokStats };
    const used = new Set();
    for (let k = 0; k < 3; k++) {
      const run = buildScenario(scenario());
      used.add(hpOf(run));
      expect(runScenario(run).state_hash).toBe(cliHash);
      releaseCollisionWorld(run.world);
    }
    expect(freshHavokStats.reused - before.reused).toBe(3);
    expect(used.size).toBe(1); // one instance served all three
    expect(freshHavokStats.spare + freshHavokStats.sync).toBe(before.spare + before.sync); // no new instance
  }, 120_000);

  it('more worlds alive than pooled instances, built without awaiting: pool, spare, then synchronous instantiation — all equal', () => {
    const before = { ...freshHavokStats };
    const runs = [];
    for (let k = 0; k < MAX_POOLED_HAVOK + 2; k++) runs.push(buildScenario(scenario())); // no await: no spare prepared meanwhile
    expect(new Set(runs.map(hpOf)).size).toBe(runs.length);
    for (const r of runs) expect(runScenario(r).state_hash).toBe(cliHash);
    expect(freshHavokStats.sync - before.sync).toBeGreaterThan(0);
    expect(freshHavokStats.shared).toBe(before.shared);
    for (const r of runs) releaseCollisionWorld(r.world);
    // the pool keeps at most MAX_POOLED_HAVOK; the others go to the GC
    expect(pooledHavokCount()).toBe(MAX_POOLED_HAVOK);
    expect(freshHavokStats.dropped - before.dropped).toBe(runs.length - MAX_POOLED_HAVOK);
  }, 120_000);

  it('two props worlds stepped interleaved (a ghost beside the game) each equal the fresh process', () => {
    const a = buildScenario(scenario());
    const b = buildScenario(scenario());
    const ticks = Math.round(a.scenario.duration_s / a.scenario.dt);
    for (let i = 0; i < ticks; i++) {
      runTick(a.world);
      a.world.events.length = 0;
      runTick(b.world);
      b.world.events.length = 0;
    }
    expect(stateHash(a.world)).toBe(cliHash);
    expect(stateHash(b.world)).toBe(cliHash);
    releaseCollisionWorld(a.world);
    releaseCollisionWorld(b.world);
  }, 120_000);

  // the sequence that diverged with one shared instance (2 of 5 runs, docs/collisions.md): game stage worlds
  // built one after another WITHOUT releasing the previous ones
  it('game stage worlds built one after another, none released: identical runs', async () => {
    const { loadStageFromDir } = await import('../../terrain/node');
    const { buildRunWorld } = await import('../../src/run/run-world');
    const { carChoice, gameCarAdapter } = await import('../../src/app/cars');
    const { RUN_SETUP } = await import('../../src/app/game-setup');
    const { HeldInput, setInputSource } = await import('../../src/ecs/controls');
    const stage = loadStageFromDir('src/content/stages/forest-gravel');
    const ch = carChoice('hatch-gti');
    const s = stage.start;
    const hashes: string[] = [];
    const worlds = [];
    try {
      for (let k = 0; k < 5; k++) {
        const run = buildRunWorld({ ...RUN_SETUP, props: true, ground: null, cars: [ch.replayCar({ x: s.x, y: s.y, z: s.z, heading: s.heading })] }, stage, gameCarAdapter);
        expect(collisionRuntime(run.world).props).toBeInstanceOf(HavokProps);
        const input = new HeldInput();
        input.input = { steer: 0, throttle: 1000, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
        setInputSource(run.world, run.cars[0]!, input);
        for (let i = 0; i < 1200; i++) runTick(run.world);
        expect((collisionRuntime(run.world).props as HavokProps).steps).toBeGreaterThan(0); // the props were stepped
        hashes.push(stateHash(run.world));
        worlds.push(run.world);
      }
    } finally {
      for (const w of worlds) releaseCollisionWorld(w);
    }
    expect(new Set(hashes).size).toBe(1);
  }, 180_000);

  it('an instance that served a game stage world (props knocked about), reset, runs the scenario as a fresh process', () => {
    // the stage worlds above were released into the pool: the next props world reuses one of them
    const before = { ...freshHavokStats };
    const run = buildScenario(scenario());
    expect(freshHavokStats.reused - before.reused).toBe(1);
    expect(runScenario(run).state_hash).toBe(cliHash);
    releaseCollisionWorld(run.world);
  }, 120_000);
});
