/**
 * What the collision setup costs the GAME: one whole simulation tick (every pass, dt = 2 ms as the game runs)
 * of a game run world on the forest-gravel stage (thousands of trees), built exactly as the game builds it
 * (`buildRunWorld` + the stage-colliders hook), one hatch-gti at the start line driving at full throttle:
 *   • Havok broad phase + Havok props (the game's default),
 *   • Havok broad phase, no props (`props=0`),
 *   • TS grid, no props (what runs when the Havok wasm does not load).
 * Median of 100-tick batches (shared machine). The three worlds' state hashes after the run say whether the
 * detection path changes results (it must not: props change the world, the broad phase does not).
 */
import { loadStageFromDir } from '../../terrain/node';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { buildRunWorld } from '../../src/replay/run-world';
import { runTick } from '../../src/ecs/pipeline';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { stateHash } from '../../src/ecs/hash';
import { carChoice, gameCarAdapter } from '../../src/app/cars';
import { setStagePropsEnabled } from '../../src/app/stage-colliders';
import { RUN_SETUP } from '../../src/app/game-setup';
import { collisionRuntime } from '../../src/systems/sim/collision/runtime';
import { useTsSceneQueries } from '../../src/systems/sim/collision/havok-queries';
import { setHavok, havokOrNull } from '../../src/systems/sim/collision/havok-instance';
import type { BenchResult, BenchSuite } from '../types';

export const suite: BenchSuite = {
  name: 'collision-game',
  async run({ quick }) {
    const out: BenchResult[] = [];
    const stage = loadStageFromDir('src/content/stages/forest-gravel');
    const hp = await loadHavokNode();
    const ticks = quick ? 1000 : 5000;
    const hashes: string[] = [];
    for (const mode of ['havok+props', 'havok', 'ts'] as const) {
      setStagePropsEnabled(mode === 'havok+props');
      const ch = carChoice('hatch-gti');
      const s = stage.start;
      const run = buildRunWorld({ ...RUN_SETUP, ground: null, cars: [ch.replayCar({ x: s.x, y: s.y, z: s.z, heading: s.heading })] }, stage, gameCarAdapter);
      const w = run.world;
      if (mode === 'ts') useTsSceneQueries(w);
      const eid = run.cars[0]!;
      const b = w.c.RigidBody;
      const x0 = b.px[eid]!, z0 = b.pz[eid]!;
      const input = new HeldInput();
      input.input = { steer: 0, throttle: 1000, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
      setInputSource(w, eid, input);
      const batches: number[] = [];
      for (let done = 0; done < ticks; done += 100) {
        const t0 = performance.now();
        for (let i = 0; i < 100; i++) {
          runTick(w);
          w.events.length = 0;
        }
        batches.push(((performance.now() - t0) * 1000) / 100);
      }
      batches.sort((a, b) => a - b);
      hashes.push(stateHash(w));
      const rt = collisionRuntime(w);
      out.push({
        suite: 'collision-game', name: `game tick, forest-gravel (${rt.scene.n} static colliders), ${mode === 'havok+props' ? 'Havok broad phase + Havok props' : mode === 'havok' ? 'Havok broad phase, no props' : 'TS grid, no props'}`,
        value: batches[batches.length >> 1]!, unit: 'µs/tick (whole tick, 1 car, median of 100-tick batches)', target: 2000, lowerIsBetter: true,
        note: `${ticks} ticks at 500 Hz, car moved ${Math.hypot(b.px[eid]! - x0, b.pz[eid]! - z0).toFixed(1)} m; ${rt.queries ? `${rt.queries.queries} Havok queries, ${rt.queries.reused} cached` : 'no Havok'}; target: one tick within its 2 ms of real time`,
      });
    }
    out.push({
      suite: 'collision-game', name: 'game tick: Havok broad phase and TS grid give the same state', value: hashes[1] === hashes[2] ? 1 : 0, unit: 'bool', target: 1, lowerIsBetter: false,
      note: `hashes ${hashes[1]} / ${hashes[2]}`,
    });
    if (!havokOrNull()) setHavok(hp);
    setStagePropsEnabled(true);
    return out;
  },
};
