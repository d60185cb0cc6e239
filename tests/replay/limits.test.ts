/**
 * Regression tests for the hostile replay files of the robustness issue: declared expansions refused before
 * allocation, depth-capped JSON, section and edit caps, embedded car files and stages through their loaders,
 * the verification budget (ticks first, wall time as a backstop).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readStageFiles } from '../../terrain/node';
import { decodeReplay, encodeReplay, packReplay, ReplayFormatError, type ReplayData } from '../../src/replay/format';
import { encodeSnapshotSet } from '../../src/replay/snapshot-codec';
import { recordRun } from '../../src/replay/record-run';
import { ScriptedDriver } from '../../src/replay/script';
import { vehicleCarAdapter } from '../../src/run/cars';
import { buildRunWorld } from '../../src/run/run-world';
import { stageHash } from '../../src/replay/stage-check';
import { ReplayPlayer } from '../../src/replay/player';
import { verifyReplayData } from '../../src/replay/verify';
import { inputAt } from '../../src/replay/inputs';
import { neutralInput } from '../../src/ecs/controls';
import { MAX_CONFIG_EDITS, MAX_REPLAY_CAR_TICKS, MAX_REPLAY_EDITS, MAX_REPLAY_TICKS, MAX_SECTION_BYTES } from '../../src/replay/limits';
import { ByteWriter } from '../../src/replay/bytes';
import { hatchCar, SETUP } from './helpers';
import { fileOf, flatInputs, jsonBytes, jsonOf, refusal, section, sectionsOf, withSection } from './wire';

const rec = recordRun({ setup: SETUP, cars: [hatchCar()], sources: [new ScriptedDriver(3)], maxSeconds: 0.2, checksumEveryTicks: 10, keyframeEverySeconds: 0.05, adapter: vehicleCarAdapter });
const good = rec.bytes;
const secs = sectionsOf(good);
const header = jsonOf(section(secs, 'H')) as ReplayData['header'];
const carText = header.cars[0]!.files['hatch-gti.toml']!;
const env = { stages: null, cars: vehicleCarAdapter, file: 'hostile.bitrally' };

async function asyncRefusal(f: () => Promise<unknown>): Promise<ReplayFormatError> {
  try {
    await f();
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayFormatError);
    return e as ReplayFormatError;
  }
  throw new Error('expected a ReplayFormatError');
}
const decode = (b: Uint8Array): ReplayData => decodeReplay(b, 'hostile.bitrally');
const withHeader = (h: unknown): Uint8Array => fileOf(withSection(secs, 'H', jsonBytes(h)));

/** ArrayBuffer bytes allocated while `f` runs (what typed arrays take: the 2.5 GB of the issue were these). */
function arrayBufferGrowth(f: () => void): number {
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  f();
  peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  return peak - before;
}

describe('declared expansions are checked against the header and the caps before allocation', () => {
  it('a ~56 KB inputs section declaring 64 cars × 7.2 M ticks is refused without allocating', () => {
    const hostile = flatInputs(64, MAX_REPLAY_TICKS);
    expect(hostile.length).toBeLessThan(64 * 1024);
    // with a header that agrees (64 cars, 7.2 M ticks): the header's car-ticks are over the cap
    const h64 = { ...header, ticks: MAX_REPLAY_TICKS, cars: Array.from({ length: 64 }, () => header.cars[0]!) };
    let e: ReplayFormatError | null = null;
    const grew = arrayBufferGrowth(() => {
      e = refusal(() => decode(fileOf(withSection(withSection(secs, 'H', jsonBytes(h64)), 'I', hostile))));
    });
    expect(e!.field).toBe('header.ticks');
    expect(e!.message).toContain(`at most ${MAX_REPLAY_CAR_TICKS} car-ticks`);
    expect(grew).toBeLessThan(16 * 1024 * 1024); // the old decoder expanded it to 64 × 6 × 7.2 M Int32 = 11 GB
    // with the recorded header (1 car, 100 ticks): the inputs disagree with it, refused at the first count
    expect(refusal(() => decode(fileOf(withSection(secs, 'I', hostile)))).message).toBe('hostile.bitrally: inputs.cars: expected 1 (header.cars), found 64');
  });

  it('inputs within the caps are kept as runs: 7.2 M ticks of one car cost < 1 KB of stream and decode as one run per channel, not 170 MB', () => {
    const h = { ...header, ticks: MAX_REPLAY_TICKS };
    const file = fileOf([
      ['H', jsonBytes(h)],
      ['I', flatInputs(1, MAX_REPLAY_TICKS)],
      ['E', jsonBytes([])],
      ['C', new Uint8Array([0])],
      ['K', encodeSnapshotSet([])],
    ]);
    let d: ReplayData | null = null;
    const grew = arrayBufferGrowth(() => (d = decode(file)));
    expect(grew).toBeLessThan(1024 * 1024);
    expect(d!.inputs.channels[0]![0]!.ends).toEqual(Int32Array.of(MAX_REPLAY_TICKS));
    expect(inputAt(d!.inputs, 0, MAX_REPLAY_TICKS - 1, neutralInput()).steer).toBe(0);
  });

  it('the header and edits JSON are depth-capped before parsing: a 1e6-deep header is refused, not a stack overflow', () => {
    const deep = '['.repeat(1e6) + ']'.repeat(1e6);
    const e = refusal(() => decode(fileOf(withSection(secs, 'H', new TextEncoder().encode(deep)))));
    expect(e.field).toBe('header');
    expect(e.message).toBe('hostile.bitrally: header: expected UTF-8 JSON nested at most 32 deep, found line 1, column 33: deeper nesting');
    const deepName = `{"name": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(refusal(() => decode(fileOf(withSection(secs, 'H', new TextEncoder().encode(deepName))))).field).toBe('header');
    expect(refusal(() => decode(fileOf(withSection(secs, 'E', new TextEncoder().encode(deep))))).field).toBe('edits');
  });

  it('every section is capped and known: a lying length or an unknown tag is refused before reading it', () => {
    const w = new ByteWriter(16);
    w.u8('H'.charCodeAt(0));
    w.u32(MAX_SECTION_BYTES.H! + 1);
    expect(refusal(() => decode(packReplay(w.done(), 1))).message).toBe('hostile.bitrally: section H length: expected at most 4.0 MiB, found 4.0 MiB');
    const z = new ByteWriter(16);
    z.u8(0x5a);
    z.u32(0);
    expect(refusal(() => decode(packReplay(z.done(), 1))).message).toBe('hostile.bitrally: section tag: expected one of H I E C K T P Q, found 0x5a');
  });

  it('keyframes: at most one per keyframe spacing, and a cap on the objects they decode to (checked before making them)', () => {
    const set = (n: number, fields: number): Uint8Array => {
      const w = new ByteWriter(1024);
      w.u32(0x53504e53); // "SNPS"
      w.u32(2); // snapshot set version
      w.u32(n);
      w.u8(1); // columnar
      w.u32(0); // no entities
      w.u32(1); // one component, no entities, `fields` fields named ""
      w.str('X');
      w.u32(0);
      w.u32(fields);
      for (let f = 0; f < fields; f++) w.str('');
      for (let i = 0; i < n; i++) w.raw(new Uint8Array(32)); // heads (no value planes: no entities)
      return w.done();
    };
    // the recorded header: 100 ticks, a keyframe every 25 → at most 4
    expect(refusal(() => decode(fileOf(withSection(secs, 'K', set(1000, 1))))).message).toBe('hostile.bitrally: keyframes: expected valid state snapshots, found snapshot set: expected at most 4 snapshots, found 1000');
    // 4 snapshots × 300 001 columns: 1.2 M small objects from a 1.2 MB section
    let e: ReplayFormatError | null = null;
    const grew = arrayBufferGrowth(() => (e = refusal(() => decode(fileOf(withSection(secs, 'K', set(4, 300_000)))))));
    expect(e!.message).toMatch(/^hostile\.bitrally: keyframes: expected valid state snapshots, found snapshot: 4 snapshots × 300001 components and fields: expected at most 1000000 decoded objects in all, found more$/);
    expect(grew).toBeLessThan(16 * 1024 * 1024);
  });

  it('checksums: ticks strictly increase, at most one per tick', () => {
    const c = new ByteWriter(64);
    c.uvar(2);
    for (let i = 0; i < 2; i++) {
      c.uvar(0);
      c.u32(1);
      c.u32(2);
    }
    expect(refusal(() => decode(fileOf(withSection(secs, 'C', c.done())))).field).toBe('checksums[1].tick');
  });
});

describe('edits: counts capped, embedded car files through the car loader', () => {
  const place = (tick: number) => ({ tick, kind: 'place', car: 0, pose: { x: 0, y: 0, z: 0, heading: 0 } });
  const config = (tick: number, text = carText) => ({ tick, kind: 'config', car: 0, main: 'hatch-gti.toml', files: { 'hatch-gti.toml': text } });

  it(`more than ${MAX_CONFIG_EDITS} car swaps or ${MAX_REPLAY_EDITS} edits are refused when loading`, () => {
    const swaps = Array.from({ length: MAX_CONFIG_EDITS + 1 }, (_, i) => config(i % 100, 'x = 1'));
    swaps.sort((a, b) => a.tick - b.tick);
    const e = refusal(() => decode(fileOf(withSection(secs, 'E', jsonBytes(swaps)))));
    expect(e.field).toBe(`edits.${MAX_CONFIG_EDITS}`);
    expect(e.message).toContain(`at most ${MAX_CONFIG_EDITS} car swaps`);
    const places = Array.from({ length: MAX_REPLAY_EDITS + 1 }, () => place(1));
    expect(refusal(() => decode(fileOf(withSection(secs, 'E', jsonBytes(places))))).message).toBe(`hostile.bitrally: edits: expected at most ${MAX_REPLAY_EDITS} edits, found ${MAX_REPLAY_EDITS + 1}`);
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`f${i}.toml`, 'x = 1']));
    expect(refusal(() => decode(withHeader({ ...header, cars: [{ ...header.cars[0]!, files: { ...many, 'hatch-gti.toml': carText } }] }))).field).toBe('header.cars.0.files');
  });

  it('an embedded car file the car loader refuses is a replay error naming the car or edit and the file, before anything runs', async () => {
    const bad = carText.replace(/^unsprung_mass_kg = 38\b/m, 'unsprung_mass_kg = 1000');
    expect(bad).not.toBe(carText);
    const swapped = decode(fileOf(withSection(secs, 'E', jsonBytes([config(40, bad)]))));
    const e = await asyncRefusal(() => verifyReplayData(swapped, env));
    expect(e.field).toBe('edits.0 (embedded hatch-gti.toml)');
    expect(e.message).toMatch(/^hostile\.bitrally: edits\.0 \(embedded hatch-gti\.toml\): expected a car file the car loader accepts, found hatch-gti\.toml: suspension\.front\.unsprung_mass_kg: /);
    // the player refuses it too (a viewer would otherwise fail at the swap's tick)
    const run = buildRunWorld(swapped.header, null, vehicleCarAdapter);
    expect(refusal(() => new ReplayPlayer(swapped, run, vehicleCarAdapter, { file: 'hostile.bitrally' })).field).toBe('edits.0 (embedded hatch-gti.toml)');
    const inHeader = decode(withHeader({ ...header, cars: [{ ...header.cars[0]!, files: { 'hatch-gti.toml': bad } }] }));
    expect((await asyncRefusal(() => verifyReplayData(inHeader, env))).field).toBe('header.cars.0 (embedded hatch-gti.toml)');
  });

  // Without the car loader's physical ranges the crash-collider fit at spawn took minutes for such a car (214 s in
  // buildRunWorld: one synchronous call no wall budget can interrupt): the replay path must use the loader.
  const heavy = carText.replace(/^mass_kg = .*$/m, 'mass_kg = 1e20');
  it('an embedded car with mass 1e20 (verification hung) is refused as a replay error before any world is built', async () => {
    const d = decode(withHeader({ ...header, cars: [{ ...header.cars[0]!, files: { 'hatch-gti.toml': heavy } }] }));
    const e = await asyncRefusal(() => verifyReplayData(d, env));
    expect(e.field).toBe('header.cars.0 (embedded hatch-gti.toml)');
    expect(e.message).toMatch(/mass_kg/);
    const swap = decode(fileOf(withSection(secs, 'E', jsonBytes([config(40, heavy)]))));
    expect((await asyncRefusal(() => verifyReplayData(swap, env))).field).toBe('edits.0 (embedded hatch-gti.toml)');
  });
});

describe('an embedded stage goes through the stage loader', () => {
  const files = readStageFiles(join(__dirname, '../../src/content/stages/test-short'));
  it('a stage.toml the stage loader refuses is a replay error naming section T', async () => {
    const broken = { ...files, stageToml: files.stageToml.replace('cell_size_m = 2.0', 'cell_size_m = -2.0') };
    expect(broken.stageToml).not.toBe(files.stageToml);
    const d = decode(rec.bytes);
    const bytes = encodeReplay({
      header: { ...d.header, stage: { id: 'my-stage', hash: stageHash(broken), embedded: true }, ground: null },
      inputsBytes: section(secs, 'I'),
      edits: d.edits,
      checksums: d.checksums,
      keyframes: d.keyframes,
      stageFiles: broken,
    });
    const e = await asyncRefusal(() => verifyReplayData(decode(bytes), env));
    expect(e.field).toBe('section T (embedded stage "my-stage")');
    expect(e.message).toMatch(/expected a stage the stage loader accepts, found .*heightmap\.cell_size_m/);
  });
  // A fence radius of 1e7 m exhausted memory building the collision scene; the stage loader's ranges refuse it.
  // The replay path must use the stage loader and name the section.
  const hugeFence = { ...files, stageToml: files.stageToml.replace(/(kind = "fence"\nradius_m = )2\.0/, '$11e7') };
  it('the fence edit is in place', () => expect(hugeFence.stageToml).not.toBe(files.stageToml));
  it('an embedded stage with a fence radius of 1e7 m is refused as a replay error naming section T', async () => {
    const d = decode(rec.bytes);
    const bytes = encodeReplay({ header: { ...d.header, stage: { id: 'fence', hash: stageHash(hugeFence), embedded: true }, ground: null }, inputsBytes: section(secs, 'I'), edits: d.edits, checksums: d.checksums, keyframes: d.keyframes, stageFiles: hugeFence });
    expect((await asyncRefusal(() => verifyReplayData(decode(bytes), env))).field).toBe('section T (embedded stage "fence")');
  });
  it('embedded PNGs above their section cap are refused when loading', () => {
    const big = new Uint8Array(MAX_SECTION_BYTES.P! + 1);
    const e = refusal(() => decode(fileOf([...secs, ['T', new TextEncoder().encode(files.stageToml)], ['P', big]])));
    expect(e.message).toBe('hostile.bitrally: section P length: expected at most 8.0 MiB, found 8.0 MiB');
  });
});

describe('verification budget: ticks first (deterministic), wall time as a backstop', () => {
  const data = decode(good);
  it('a replay above the tick budget is refused by the verifier and the player before a world runs', async () => {
    const e = await asyncRefusal(() => verifyReplayData(data, { ...env, budget: { maxCarTicks: 99 } }));
    expect(e.message).toBe('hostile.bitrally: header.ticks: expected at most 99 car-ticks (ticks × cars: the verification budget), found 100 ticks × 1 cars = 100');
    const run = buildRunWorld(data.header, null, vehicleCarAdapter);
    expect(refusal(() => new ReplayPlayer(data, run, vehicleCarAdapter, { maxCarTicks: 99 })).field).toBe('header.ticks');
    expect((await verifyReplayData(data, { ...env, budget: { maxCarTicks: 100 } })).ok).toBe(true);
  });
  it('a verification past its wall-time budget stops with "verification budget exceeded" (injected clock: 10 ms per tick)', async () => {
    let calls = 0;
    const r = await verifyReplayData(data, { ...env, budget: { maxWallSeconds: 0.5, nowSeconds: () => 0.01 * calls++ } });
    expect(r.ok).toBe(false);
    expect(r.budgetExceeded).not.toBeNull();
    // call 0 starts the clock, call k ≥ 1 follows tick k: 0.01·k > 0.5 first at k = 51
    expect(r.budgetExceeded!.atTick).toBe(51);
    expect(r.ticks).toBe(51);
    expect(r.budgetExceeded!.message).toMatch(/^verification budget exceeded: 0\.5 s of wall time \(limit 0\.5 s\) at tick 51 of 100$/);
  });
});
