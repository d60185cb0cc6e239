/**
 * Replays: bytes per minute of driving (target ≤ 10 KB/min), time to seek to a random point of a 10-minute
 * replay from a freshly loaded player (nearest recorded keyframe + re-simulation; target ≤ 100 ms), and the
 * recording overhead per tick (inputs, checksums every 1 s, keyframes every 5 s) on the full car pipeline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stepRun } from '../../src/run/step';
import { setInputSource } from '../../src/ecs/controls';
import { Prng } from '../../terrain/prng';
import { vehicleCarAdapter } from '../../src/run/cars';
import { decodeReplay, type ReplayCar } from '../../src/replay/format';
import { ReplayPlayer } from '../../src/replay/player';
import { ReplayRecorder } from '../../src/replay/recorder';
import { recordRun } from '../../src/replay/record-run';
import { buildRunWorld } from '../../src/run/run-world';
import { ScriptedDriver } from '../../src/replay/script';
import type { BenchResult, BenchSuite } from '../types';
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from '../../src/content/world-constants';

const SETUP = { dt: DEFAULT_DT, integrator: 'midpoint' as const, seed: 1, gravity_m_s2: STANDARD_GRAVITY_M_S2 };
const car = (): ReplayCar => ({
  id: 'hatch-gti',
  role: 'player',
  main: 'hatch-gti.toml',
  files: { 'hatch-gti.toml': readFileSync(join(import.meta.dirname ?? '.', '../../src/content/cars/hatch-gti.toml'), 'utf8') },
  pose: { x: 0, y: 0, z: 0, heading: 0 },
});

function overheadPerTick(ticks: number): { plain: number; rec: number } {
  const run = (record: boolean): number => {
    const r = buildRunWorld({ ...SETUP, ground: { kind: 'flat', height_m: 0 }, cars: [car()] }, null, vehicleCarAdapter);
    const recorder = record ? new ReplayRecorder(r.world, { stage: null, cars: [{ car: car(), eid: r.cars[0]! }] }) : null;
    setInputSource(r.world, r.cars[0]!, new ScriptedDriver(3));
    for (let i = 0; i < 2000; i++) stepRun(r.world, { recorder });
    const t0 = performance.now();
    for (let i = 0; i < ticks; i++) stepRun(r.world, { recorder });
    return ((performance.now() - t0) * 1000) / ticks;
  };
  // interleave to share the machine's noise between both
  let plain = 0;
  let rec = 0;
  for (let k = 0; k < 3; k++) {
    plain += run(false);
    rec += run(true);
  }
  return { plain: plain / 3, rec: rec / 3 };
}

export const suite: BenchSuite = {
  name: 'replay',
  run: ({ quick }) => runReplayBench(quick),
};

async function runReplayBench(quick: boolean | undefined): Promise<BenchResult[]> {
  {
    const out: BenchResult[] = [];
    const minutes = quick ? 2 : 10;
    const t0 = performance.now();
    const rec = recordRun({ setup: SETUP, cars: [car()], sources: [new ScriptedDriver(1)], maxSeconds: minutes * 60, adapter: vehicleCarAdapter });
    const recordS = (performance.now() - t0) / 1000;
    out.push({
      suite: 'replay',
      name: `file size, ${minutes}-minute scripted drive (steer every frame at 60 Hz)`,
      value: (rec.bytes.length * 60) / (minutes * 60) / 1024,
      unit: 'KiB/min',
      target: 10,
      lowerIsBetter: true,
      note: `${rec.bytes.length} B total incl. embedded car file; checksum every 1 s, keyframe every 5 s; recorded in ${recordS.toFixed(1)} s`,
    });
    const data = decodeReplay(rec.bytes);
    const player = new ReplayPlayer(data, buildRunWorld(data.header, null, vehicleCarAdapter), vehicleCarAdapter, { cacheEveryTicks: 1 << 30 });
    const rng = new Prng(42);
    const n = quick ? 10 : 40;
    const times: number[] = [];
    let resim = 0;
    const w0 = performance.now();
    player.seek(Math.floor(data.header.ticks / 2)); // first seek: includes JIT warm-up of the pipeline
    const firstMs = performance.now() - w0;
    for (let i = 0; i < n; i++) {
      const target = Math.floor(rng.next() * data.header.ticks);
      resim += target - player.keyframeBefore(target);
      const s0 = performance.now();
      player.seek(target);
      times.push(performance.now() - s0);
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / n;
    out.push({ suite: 'replay', name: `seek to a random point of a ${minutes}-minute replay (mean of ${n})`, value: mean, unit: 'ms', target: 100, lowerIsBetter: true, note: `max ${times[n - 1]!.toFixed(1)} ms; keyframe + re-simulation of ${(resim / n).toFixed(0)} ticks on average (K/2 = ${(data.header.keyframeEveryTicks / 2).toFixed(0)}), no in-memory cache; first (cold JIT) seek ${firstMs.toFixed(0)} ms` });
    out.push({ suite: 'replay', name: `seek, worst of ${n}`, value: times[n - 1]!, unit: 'ms', target: 100, lowerIsBetter: true });
    const o = overheadPerTick(quick ? 5000 : 20000);
    out.push({
      suite: 'replay',
      name: 'recording overhead per tick (1 car)',
      value: o.rec - o.plain,
      unit: 'µs/tick',
      lowerIsBetter: true,
      note: `tick ${o.plain.toFixed(1)} µs without, ${o.rec.toFixed(1)} µs with the recorder (difference is within machine noise when near 0)`,
    });
    const o2 = o;
    out.push({ suite: 'replay', name: 'seek cost model: mean re-simulated ticks × tick time', value: ((resim / n) * o2.plain) / 1000, unit: 'ms', target: 100, lowerIsBetter: true, note: `${(resim / n).toFixed(0)} ticks × ${o2.plain.toFixed(1)} µs (this machine, now); the measured mean above adds the keyframe restore` });
    return out;
  }
}
