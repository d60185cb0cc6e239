/**
 * Replays: bytes per minute of driving (goal ≤ 10 KB/min) for a 10-minute synthetic human-like 60 Hz pad stream
 * (HumanPadDriver, src/replay/human-pad.ts), a 10-minute run from a pad stream recorded in Chromium (the fixture
 * tests/replay/fixtures/pad-chromium-forest-gravel.bitrally, its inputs looped to 10 minutes), a 10-minute AI
 * run and an AI run to the finish of a shipped stage (the AI as shipped: decisions at a driver rate, outputs held
 * in between); time to seek to random points of the 10-minute replay from a freshly loaded player (nearest
 * recorded keyframe + re-simulation; goal: every seek ≤ 100 ms); the recording overhead per tick on the full car
 * pipeline.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { stepRun } from '../../src/run/step';
import { setInputSource } from '../../src/ecs/controls';
import { Prng } from '../../terrain/prng';
import { loadStage } from '../../terrain/stage';
import { readStageFiles } from '../../terrain/node';
import { replayCarFromText, vehicleCarAdapter } from '../../src/run/cars';
import { decodeReplay, openContainer, type ReplayCar, type ReplayPose } from '../../src/replay/format';
import { deflateSync } from 'fflate';
import type { InputSource, QuantizedInput } from '../../src/ecs/controls';
import type { SimWorld } from '../../src/ecs/world';
import { ReplayPlayer } from '../../src/replay/player';
import { ReplayRecorder } from '../../src/replay/recorder';
import { recordRun } from '../../src/replay/record-run';
import { recordAiStageRun } from '../../src/replay/record-ai';
import { CONTENT_DIR, nodeStageSource, readCarFile } from '../../src/replay/node';
import { InputCursor, type InputStreams } from '../../src/replay/inputs';
import { resolveStage } from '../../src/replay/stage-check';
import { addStageRecovery } from '../../src/run/stage-progress';
import { neutralInput } from '../../src/ecs/controls';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { AI_DECISION_HZ } from '../../src/systems/sim/ai/driver';
import { buildRunWorld, type RunWorld } from '../../src/run/run-world';
import { HumanPadDriver } from '../../src/replay/human-pad';
import { ScriptedDriver } from '../../src/replay/script';
import type { BenchResult, BenchSuite } from '../types';
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from '../../src/content/world-constants';

/** How the shipped AI feeds the recorder (src/systems/sim/ai/driver.ts: a decision per period, held in between). */
const AI_HOW = `as shipped (decides at ${AI_DECISION_HZ} Hz, outputs held between decisions)`;
const AI_STAGE = 'forest-gravel';
/** The shipped circuit: the AI laps it for the 10-minute run (every open stage takes it under 6 minutes). */
const AI_CIRCUIT = 'rallycross-bitring';
/** An open tarmac stage, driven to the finish beside the gravel one. */
const AI_TARMAC_STAGE = 'col-tarmac';
const AI_MINUTES = 10;
const PAD_QUICK =
  'the 2-minute --quick file spreads the fixed ≈ 2 KB (header, embedded car file) over 2 minutes instead of 10: the full run is the measurement';
const WARM_PLAY_TICKS = 5000;

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

const perMinute = (bytes: number, ticks: number): number => bytes / 1024 / ((ticks * DEFAULT_DT) / 60);

/**
 * The AI as shipped (rally-awd, default driver; the game's autopilot) on a shipped stage for `maxSeconds`, or to
 * the finish when `toFinish`; the goal row is the 10-minute run.
 */
function aiRunSize(stageId: string, maxSeconds: number, toFinish: boolean, goal: boolean): BenchResult {
  const dir = join(CONTENT_DIR, 'stages', stageId);
  const files = readStageFiles(dir);
  const stage = loadStage(files, join(dir, 'stage.toml'));
  const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
  const ai = replayCarFromText({ id: 'rally-awd', main: 'rally-awd.toml', text: readCarFile('rally-awd'), read: readCarFile, pose });
  const rec = recordAiStageRun({ setup: SETUP, stage, files, car: ai, maxSeconds, stopAtFinish: toFinish });
  const ticks = rec.run.world.tick;
  const minutes = (ticks * DEFAULT_DT) / 60;
  const inputs = decodeReplay(rec.bytes).inputs.channels[0]!;
  const finished = toFinish && rec.timing?.finishTick != null;
  return {
    suite: 'replay',
    name: `file size, AI run on ${stageId}, ${AI_HOW}, ${minutes.toFixed(1)} min${finished ? ' to the finish' : toFinish ? '' : ' (laps)'}`,
    value: perMinute(rec.bytes.length, ticks),
    unit: 'KiB/min',
    lowerIsBetter: true,
    ...(goal ? { target: 10 } : {}),
    note: `${rec.bytes.length} B total (inputs ${sectionBytes(rec.bytes, 'I')} B: steer ${inputs[0]!.values.length} and throttle ${inputs[1]!.values.length} runs; ${(rec.timing?.progressM ?? 0).toFixed(0)} m of stage progress${toFinish ? '' : ": the timing ends at the first lap's finish, the AI drives on"}); keyframe every 5 s`,
  };
}

/** The pad stream recorded in Chromium (tests/e2e/record-pad-fixture.mjs; docs/replays.md "The browser pad fixture"). */
const PAD_FIXTURE = join(import.meta.dirname ?? '.', '../../tests/replay/fixtures/pad-chromium-forest-gravel.bitrally');

/** A recorded input stream played over and over: loop k covers ticks [k·T, (k+1)·T) of the world. */
class LoopedInputs implements InputSource {
  private cursor: InputCursor;
  private loopStart = 0;
  private readonly q = neutralInput();
  constructor(private readonly inputs: InputStreams) {
    this.cursor = new InputCursor(inputs, 0);
  }
  next(world: SimWorld): QuantizedInput {
    if (world.tick - this.loopStart >= this.inputs.ticks) {
      this.loopStart += this.inputs.ticks;
      this.cursor = new InputCursor(this.inputs, 0);
    }
    return this.cursor.read(world.tick - this.loopStart, this.q);
  }
}

/**
 * The browser-recorded pad stream extended to `minutes`: its inputs looped on its stage with its car and setup
 * (world built from its header), the car put back on its start pose at each loop with a recorded recovery (as the
 * game's), the recording's own recoveries re-applied at their offsets, all through the recorder as a game run.
 * The first loop re-simulates the recording itself. A recovery keeps the car's damage (as in the game), so a
 * later loop drives the same inputs from the start with the damage of the loops before: how far later loops end
 * from the first loop's end says how far their trajectories part.
 */
async function padFixtureSize(minutes: number): Promise<BenchResult> {
  const fixture = new Uint8Array(readFileSync(PAD_FIXTURE));
  const data = decodeReplay(fixture, PAD_FIXTURE);
  const ref = data.header.stage;
  if (!ref) throw new Error(`${PAD_FIXTURE}: expected a stage run, found flat ground`);
  await loadHavokNode(); // the browser run had the stage's Havok props: the world built from its header has them too
  const stage = (await resolveStage(data.header, data.stageFiles, nodeStageSource, PAD_FIXTURE))!;
  const files = await nodeStageSource.files(ref.id);
  const loopTicks = data.header.ticks;
  const home = data.header.cars[0]!.pose;
  const loopEnds: { x: number; z: number }[] = [];
  let firstLoopPower = 1;
  const place = (run: RunWorld, r: ReplayRecorder, pose: ReplayPose): void => {
    vehicleCarAdapter.place(run.world, run.cars[0]!, pose);
    r.edit(0, pose);
    addStageRecovery(run.world, run.cars[0]!);
  };
  const rec = recordRun({
    setup: data.header,
    cars: data.header.cars,
    sources: [new LoopedInputs(data.inputs)],
    stage: { stage, files },
    maxSeconds: minutes * 60,
    stopAtFinish: false,
    adapter: vehicleCarAdapter,
    beforeTick: (run, r) => {
      const t = run.world.tick % loopTicks;
      if (run.world.tick > 0 && t === 0) {
        const b = run.world.c.RigidBody;
        loopEnds.push({ x: b.px[run.cars[0]!]!, z: b.pz[run.cars[0]!]! });
        if (loopEnds.length === 1) firstLoopPower = run.world.c.Damage.powerFactor[run.cars[0]!]!;
        place(run, r, home);
      }
      for (const e of data.edits) if (e.kind === 'place' && e.tick === t) place(run, r, e.pose);
    },
  });
  const ticks = rec.run.world.tick;
  const recordedMin = (loopTicks * DEFAULT_DT) / 60;
  const drift = loopEnds.slice(1).map((p) => Math.hypot(p.x - loopEnds[0]!.x, p.z - loopEnds[0]!.z));
  const recoveries = data.edits.filter((e) => e.kind === 'place').length;
  return {
    suite: 'replay',
    name: `file size, ${minutes}-minute run from a pad stream recorded in Chromium (${recordedMin.toFixed(1)} min on ${ref.id} at 60 Hz, inputs looped ×${(ticks / loopTicks).toFixed(1)})`,
    value: perMinute(rec.bytes.length, ticks),
    unit: 'KiB/min',
    target: 10,
    lowerIsBetter: true,
    quickReportOnly: PAD_QUICK,
    note: `${rec.bytes.length} B total (inputs ${sectionBytes(rec.bytes, 'I')} B); the recording itself ${fixture.length} B = ${perMinute(fixture.length, loopTicks).toFixed(2)} KiB/min (inputs ${sectionBytes(fixture, 'I')} B, ${recoveries} recoveries by the driver); inputs ${perMinute(sectionBytes(rec.bytes, 'I'), ticks).toFixed(2)} KiB/min looped against ${perMinute(sectionBytes(fixture, 'I'), loopTicks).toFixed(2)} recorded; car put back on the start each loop by a recorded recovery, which keeps its damage (the first loop ended at ${(firstLoopPower * 100).toFixed(0)} % engine power): ${drift.length ? `later loops ended ${drift.map((d) => d.toFixed(0)).join(', ')} m from the first loop's end` : 'one loop or less'}`,
  };
}

/** Bytes of one section once deflated with the file's settings (what it adds to the file, near enough). */
function sectionBytes(file: Uint8Array, tag: string): number {
  const p = openContainer(file, 'bench');
  const dv = new DataView(p.buffer, p.byteOffset, p.byteLength);
  for (let i = 0; i < p.length; ) {
    const len = dv.getUint32(i + 1, true);
    if (String.fromCharCode(p[i]!) === tag) return deflateSync(p.subarray(i + 5, i + 5 + len), { level: 9 }).length;
    i += 5 + len;
  }
  return 0;
}

/** Seeks to seeded random ticks with a fresh player (no in-memory keyframe cache): every seek timed. */
function seekTimes(bytes: Uint8Array, n: number): { times: number[]; wall: number[]; resim: number; firstMs: number; keyframeTicks: number } {
  const data = decodeReplay(bytes);
  const player = new ReplayPlayer(data, buildRunWorld(data.header, null, vehicleCarAdapter), vehicleCarAdapter, { cacheEveryTicks: 1 << 30 });
  const rng = new Prng(42);
  // CPU time of the process (what the seek costs; wall time on this shared machine also holds the other
  // processes' time slices), wall time reported beside it
  const times: number[] = [];
  const wall: number[] = [];
  let resim = 0;
  // the viewer plays from the start when opened: warm the playback path the same way (10 s of play), then
  // time the first seek (cold restore path) separately from the measured ones
  while (player.tick < WARM_PLAY_TICKS) player.step();
  const w0 = performance.now();
  player.seek(Math.floor(data.header.ticks * 0.37)); // between two keyframes: a real re-simulation
  const firstMs = performance.now() - w0;
  for (let i = 0; i < n; i++) {
    const target = Math.floor(rng.next() * data.header.ticks);
    resim += target - player.keyframeBefore(target);
    const s0 = performance.now();
    const c0 = process.cpuUsage();
    player.seek(target);
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - s0);
    times.push((c.user + c.system) / 1000);
  }
  player.dispose();
  return { times: times.sort((a, b) => a - b), wall: wall.sort((a, b) => a - b), resim: resim / n, firstMs, keyframeTicks: data.header.keyframeEveryTicks };
}

async function runReplayBench(quick: boolean | undefined): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const minutes = quick ? 2 : 10;
  const t0 = performance.now();
  const rec = recordRun({ setup: SETUP, cars: [car()], sources: [new HumanPadDriver(7)], maxSeconds: minutes * 60, adapter: vehicleCarAdapter });
  const recordS = (performance.now() - t0) / 1000;
  out.push({
    suite: 'replay',
    name: `file size, ${minutes}-minute human-like pad stream (60 Hz, analog noise and drift)`,
    value: perMinute(rec.bytes.length, rec.run.world.tick),
    unit: 'KiB/min',
    target: 10,
    lowerIsBetter: true,
    quickReportOnly: PAD_QUICK,
    note: `${rec.bytes.length} B total incl. embedded car file; checksum every 1 s, keyframe every 5 s; recorded in ${recordS.toFixed(1)} s; synthetic stream (the browser-recorded one is the next row)`,
  });
  out.push(await padFixtureSize(minutes));
  out.push(aiRunSize(AI_CIRCUIT, AI_MINUTES * 60, false, true));
  if (!quick) {
    out.push(aiRunSize(AI_STAGE, AI_MINUTES * 60, true, false));
    out.push(aiRunSize(AI_TARMAC_STAGE, AI_MINUTES * 60, true, false));
  }
  const n = quick ? 40 : 200;
  const s = seekTimes(rec.bytes, n);
  const mean = s.times.reduce((a, b) => a + b, 0) / n;
  const note = `CPU time; mean ${mean.toFixed(1)} ms; wall time worst ${s.wall[n - 1]!.toFixed(1)} ms, median ${s.wall[n >> 1]!.toFixed(1)} ms (load ${loadavg()[0]!.toFixed(1)} on this machine's cores); keyframe + re-simulation of ${s.resim.toFixed(0)} ticks on average (at most ${s.keyframeTicks}), no in-memory cache; after 10 s of playback; the first seek (cold restore path) ${s.firstMs.toFixed(0)} ms`;
  out.push({ suite: 'replay', name: `seek, worst of ${n} random seeks in a ${minutes}-minute replay (CPU time)`, value: s.times[n - 1]!, unit: 'ms', target: 100, lowerIsBetter: true, note });
  const o = overheadPerTick(quick ? 5000 : 20000);
  out.push({
    suite: 'replay',
    name: 'recording overhead per tick (1 car)',
    value: o.rec - o.plain,
    unit: 'µs/tick',
    lowerIsBetter: true,
    note: `tick ${o.plain.toFixed(1)} µs without, ${o.rec.toFixed(1)} µs with the recorder (difference is within machine noise when near 0)`,
  });
  out.push({ suite: 'replay', name: 'seek cost model: a full keyframe interval re-simulated × tick time', value: (s.keyframeTicks * o.plain) / 1000, unit: 'ms', target: 100, lowerIsBetter: true, note: `${s.keyframeTicks} ticks × ${o.plain.toFixed(1)} µs (this machine, now): the worst case a seek re-simulates` });
  return out;
}
