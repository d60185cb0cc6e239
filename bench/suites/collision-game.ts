/**
 * What the collision setup costs the GAME: one whole simulation tick (every pass, dt = 2 ms as the game runs)
 * of a game run world on the forest-gravel stage (thousands of trees), built exactly as the game builds it
 * (`buildRunWorld` + the stage-colliders hook), one hatch-gti at the start line driving at full throttle:
 *   • TS grid, no props (what runs when the Havok wasm does not load),
 *   • Havok broad phase, no props (`props=0`),
 *   • Havok broad phase + Havok props (the game's default).
 * Median of 100-tick batches (shared machine). The three worlds' state hashes after the run say whether the
 * detection path changes results (it must not: props change the world, the broad phase does not).
 */
import { loadStageFromDir } from '../../terrain/node';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { buildRunWorld } from '../../src/run/run-world';
import { runTick } from '../../src/run/pipeline';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { stateHash } from '../../src/ecs/hash';
import { carChoice, gameCarAdapter } from '../../src/app/cars';
import { RUN_SETUP } from '../../src/app/game-setup';
import { collisionRuntime } from '../../src/systems/sim/collision/runtime';
import { HavokProps } from '../../src/systems/sim/collision/props';
import { propsPass } from '../../src/systems/sim/collision/system';
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
    // warm-up world (JIT): without it the first measured mode reads 2-3× slower
    {
      const s = stage.start;
      const wu = buildRunWorld({ ...RUN_SETUP, ground: null, cars: [carChoice('hatch-gti').replayCar({ x: s.x, y: s.y, z: s.z, heading: s.heading })] }, stage, gameCarAdapter);
      for (let i = 0; i < (quick ? 500 : 2000); i++) runTick(wu.world);
    }
    for (const mode of ['ts', 'havok', 'havok+props'] as const) {
      const ch = carChoice('hatch-gti');
      const s = stage.start;
      const run = buildRunWorld({ ...RUN_SETUP, props: mode === 'havok+props', ground: null, cars: [ch.replayCar({ x: s.x, y: s.y, z: s.z, heading: s.heading })] }, stage, gameCarAdapter);
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
      const props = rt.props instanceof HavokProps ? `; ${rt.props.eids.length} props, ${rt.props.steps} Havok steps (the rest skipped: props resting)` : '';
      if (rt.props instanceof HavokProps) {
        // the props pass alone in the game world once the props rest (what it costs per tick until a car arrives)
        const t0 = performance.now();
        for (let i = 0; i < 2000; i++) propsPass(w);
        out.push({
          suite: 'collision-game', name: 'props pass in the game world, props resting (car elsewhere)', value: ((performance.now() - t0) * 1000) / 2000, unit: 'µs/tick',
          note: `${rt.props.eids.length} props, resting: ${rt.props.resting}; a Havok step with them (the cost before the skip) is in the collision suite's props pass`,
        });
      }
      out.push({
        suite: 'collision-game', name: `game tick, forest-gravel (${rt.scene.n} static colliders), ${mode === 'havok+props' ? 'Havok broad phase + Havok props' : mode === 'havok' ? 'Havok broad phase, no props' : 'TS grid, no props'}`,
        value: batches[batches.length >> 1]!, unit: 'µs/tick (whole tick, 1 car, median of 100-tick batches)', target: 2000, lowerIsBetter: true,
        note: `${ticks} ticks at 500 Hz, car moved ${Math.hypot(b.px[eid]! - x0, b.pz[eid]! - z0).toFixed(1)} m; ${rt.queries ? `${rt.queries.queries} Havok queries, ${rt.queries.reused} cached` : 'no Havok'}${props}; target: one tick within its 2 ms of real time`,
      });
    }
    out.push({
      suite: 'collision-game', name: 'game tick: Havok broad phase and TS grid give the same state', value: hashes[0] === hashes[1] ? 1 : 0, unit: 'bool', target: 1, lowerIsBetter: false,
      note: `hashes ${hashes[1]} (Havok) / ${hashes[0]} (TS)`,
    });
    if (!havokOrNull()) setHavok(hp);
    return out;
  },
};
