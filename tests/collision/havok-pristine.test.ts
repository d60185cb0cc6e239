/**
 * A released props world's Havok instance is reset to its state right after start-up and pooled
 * (havok-pristine.ts, havok-instance.ts). Checked on the wasm state itself: after a props run, the reset
 * instance's linear memory and stack pointer equal those of a brand-new instance, except the few bytes that
 * depend on the clock at start-up (found by starting two instances with the clock stubbed far apart). The run-level check (every run on a reused
 * instance equals the sim CLI in a fresh process) is tests/collision/havok-fresh.test.ts.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import HavokPhysics, { type HavokPhysicsWithBindings } from '@babylonjs/havok';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { freshHavokStats, havokOrNull, moduleFactory, pooledHavokCount, releaseFreshHavok } from '../../src/systems/sim/collision/havok-instance';
import { havokMemoryOf } from '../../src/systems/sim/collision/havok-pristine';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, type ScenarioRun } from '../../src/run/scenario';
import { runTick } from '../../src/run/pipeline';
import { collisionRuntime, releaseCollisionWorld } from '../../src/systems/sim/collision/runtime';
import { HavokProps } from '../../src/systems/sim/collision/props';

const F = 'src/content/scenarios/collision-props.toml';
const TEXT = readFileSync(F, 'utf8');
/** Ticks of the props scenario: the car has gone through the cones and hit the barrel (props moving). */
const TICKS = 1500;

const propsOf = (run: ScenarioRun) => collisionRuntime(run.world).props as HavokProps;

function ranScenario(): ScenarioRun {
  const run = buildScenario(parseScenario(TEXT, F));
  for (let i = 0; i < TICKS; i++) runTick(run.world);
  run.world.events.length = 0;
  return run;
}

/** Bytes in which two memories of the same size differ (vitest's deep equality is too slow for 17 MB). */
function countDiff(x: Uint8Array, y: Uint8Array, skip: ReadonlySet<number> = new Set()): number {
  let n = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i] && !skip.has(i)) n++;
  return n;
}

/** A brand-new instance of the Havok module (own compiled copy, not from the pool), started with the clock at `nowMs`. */
async function brandNew(nowMs: number): Promise<HavokPhysicsWithBindings> {
  const require = createRequire(import.meta.url);
  const mod = new WebAssembly.Module(readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm')));
  const f = moduleFactory(HavokPhysics as (o: object) => Promise<HavokPhysicsWithBindings>, mod);
  const clock = vi.spyOn(performance, 'now').mockReturnValue(nowMs);
  const date = vi.spyOn(Date, 'now').mockReturnValue(nowMs);
  try {
    return await f.create();
  } finally {
    clock.mockRestore();
    date.mockRestore();
  }
}

beforeAll(async () => {
  await loadHavokNode();
});

describe('resetting a Havok instance to its start-up state', () => {
  it('after a props run, the released instance has a brand-new instance\'s memory and stack pointer (but for the start-up clock)', async () => {
    // start-up is deterministic but for the clock: same clock → same bytes; the bytes that change with the clock
    // (a start-up time reading in static data, and its trace in the dead stack below the stack pointer) are few
    const A = havokMemoryOf(await brandNew(1_000))!, A2 = havokMemoryOf(await brandNew(1_000))!;
    const B = havokMemoryOf(await brandNew(1e7))!;
    expect(countDiff(A2.heap, A.heap)).toBe(0);
    const clockBytes = new Set<number>();
    for (let i = 0; i < A.heap.length; i++) if (A.heap[i] !== B.heap[i]) for (let k = i & ~7; k < (i & ~7) + 8; k++) clockBytes.add(k);
    expect(clockBytes.size).toBeGreaterThan(0);
    expect(clockBytes.size).toBeLessThanOrEqual(16);

    const run = ranScenario();
    const hp = propsOf(run).scene.hp;
    expect(propsOf(run).steps).toBeGreaterThan(0);
    const used = havokMemoryOf(hp)!;
    expect(countDiff(used.heap, A.heap)).toBeGreaterThan(1000); // the run changed the heap (bodies, contacts, allocator state)

    const before = { ...freshHavokStats };
    releaseCollisionWorld(run.world);
    expect(freshHavokStats.returned - before.returned).toBe(1);
    const reset = havokMemoryOf(hp)!;
    expect(reset.heap.length).toBe(A.heap.length);
    expect(reset.stackPointer).toBe(A.stackPointer);
    expect(countDiff(reset.heap, A.heap, clockBytes)).toBe(0);
  }, 120_000);

  it('a released world cannot use its instance any more; releasing twice gives it back once', () => {
    const run = ranScenario();
    const props = propsOf(run);
    const before = { ...freshHavokStats };
    props.dispose();
    props.dispose();
    releaseCollisionWorld(run.world);
    expect(freshHavokStats.returned - before.returned).toBe(1);
    expect(() => props.scene.step(run.world.dt)).toThrow(/disposed/);
    expect(() => props.scene.hp).toThrow(/disposed/);
  }, 120_000);

  it('an instance whose memory grew is dropped, not pooled (a memory cannot shrink back to a fresh size)', () => {
    const run = buildScenario(parseScenario(TEXT, F));
    const hp = propsOf(run).scene.hp as HavokPhysicsWithBindings & { _malloc(n: number): number };
    const size0 = havokMemoryOf(hp)!.heap.length;
    expect(hp._malloc(64 << 20)).toBeGreaterThan(0); // 64 MiB: more than the 16.9 MB heap holds
    expect(havokMemoryOf(hp)!.heap.length).toBeGreaterThan(size0);
    const before = { ...freshHavokStats }, pooled = pooledHavokCount();
    releaseCollisionWorld(run.world);
    expect(freshHavokStats.dropped - before.dropped).toBe(1);
    expect(pooledHavokCount()).toBe(pooled);
  }, 120_000);

  it('the shared (query world) instance is never pooled', () => {
    const before = { ...freshHavokStats }, pooled = pooledHavokCount();
    releaseFreshHavok(havokOrNull()!);
    expect(freshHavokStats).toEqual(before);
    expect(pooledHavokCount()).toBe(pooled);
  });
});
