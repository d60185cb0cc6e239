/**
 * Town replays (issue 23 item 5): a town run driven by recorded inputs with an instructor action records,
 * decodes and verifies bit for bit (every checksum hashes the world and the traffic); a changed input or a
 * dropped instructor action desyncs at the first checksum after it; malformed `town` header fields are refused
 * naming the field.
 */
import { describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, ReplayFormatError, type ReplayData } from '../../src/replay/format';
import { verifyReplay, verifyReplayData } from '../../src/replay/verify';
import { DEFAULT_CHECKSUM_EVERY_TICKS } from '../../src/replay/recorder';
import { setInputSample } from '../replay/helpers';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli } from '../cli/spawn';
import { recordTown } from './town-record';

const SEED = 1;
const TRAFFIC = 120;
const RUN_TICKS = 6000; // 12 s at 500 Hz
/** The instructor tries from this tick (the traffic has moved off and queues form at the lights), every TRY_EVERY ticks until a vehicle is picked. */
const FIRST_TRY_TICK = 1500;
const TRY_EVERY = 250;
const THROTTLE_CHANNEL = 1;

const recorded = recordTown({ seed: SEED, traffic: TRAFFIC, ticks: RUN_TICKS, firstTryTick: FIRST_TRY_TICK, tryEvery: TRY_EVERY });

describe('town replay', () => {
  it('records the town in its header and verifies bit for bit', async () => {
    expect(recorded.pickTick).toBeGreaterThan(0);
    const d = decodeReplay(recorded.bytes);
    expect(d.header.town).toMatchObject({ seed: SEED, cars: TRAFFIC, instructorTicks: recorded.tries });
    expect(d.header.stage).toBeNull();
    expect(d.keyframes.length).toBe(0);
    const r = await verifyReplay(recorded.bytes, { stages: null });
    expect(r.ok).toBe(true);
    // a checksum at tick 0 and every DEFAULT_CHECKSUM_EVERY_TICKS to the end, all matched
    expect(r.checksumsChecked).toBe(RUN_TICKS / DEFAULT_CHECKSUM_EVERY_TICKS + 1);
    expect(r.checksumsMatched).toBe(r.checksumsChecked);
    expect(r.finalHash).toBe(r.recordedFinalHash);
  }, 120_000);

  it('desyncs at the first checksum after a dropped instructor action or a changed input', async () => {
    const noPick: ReplayData = decodeReplay(recorded.bytes);
    // the failed tries changed nothing; dropping the one that picked a vehicle does
    noPick.header.town!.instructorTicks = recorded.tries.filter((t) => t !== recorded.pickTick);
    const r1 = await verifyReplayData(noPick, { stages: null });
    expect(r1.ok).toBe(false);
    expect(r1.firstDesync?.tick).toBe(Math.ceil((recorded.pickTick + 1) / DEFAULT_CHECKSUM_EVERY_TICKS) * DEFAULT_CHECKSUM_EVERY_TICKS);
    const input: ReplayData = decodeReplay(recorded.bytes);
    setInputSample(input.inputs, 0, THROTTLE_CHANNEL, 300, 1000);
    const r2 = await verifyReplayData(input, { stages: null });
    expect(r2.firstDesync?.tick).toBe(DEFAULT_CHECKSUM_EVERY_TICKS);
  }, 120_000);

  it('npm run replay -- verify rebuilds the town from the file (another process)', async () => {
    const f = join(mkdtempSync(join(tmpdir(), 'town-replay-')), 'town.bitrally');
    writeFileSync(f, recorded.bytes);
    const r = await spawnCli('src/cli/replay.ts', ['verify', f, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; checksumsChecked: number; finalHash: string };
    expect(out.ok).toBe(true);
    expect(out.checksumsChecked).toBe(RUN_TICKS / DEFAULT_CHECKSUM_EVERY_TICKS + 1);
    expect(out.finalHash).toBe(decodeReplay(recorded.bytes).checksums.at(-1)!.hash);
  }, 120_000);

  it('refuses malformed town fields, naming them', () => {
    const d = decodeReplay(recorded.bytes);
    const bad = (town: unknown): string => {
      const bytes = encodeReplay({ header: { ...d.header, town } as never, inputsBytes: new Uint8Array([1, 0]), edits: [], checksums: [], keyframes: [], stageFiles: null });
      try {
        decodeReplay(bytes, 'town.bitrally');
      } catch (e) {
        expect(e).toBeInstanceOf(ReplayFormatError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad({ ...d.header.town, cars: 5000 })).toMatch(/town\.cars/);
    expect(bad({ ...d.header.town, seed: -1 })).toMatch(/town\.seed/);
    expect(bad({ ...d.header.town, trafficCars: [] })).toMatch(/town\.trafficCars/);
    expect(bad({ ...d.header.town, instructorTicks: [1.5] })).toMatch(/town\.instructorTicks/);
    expect(bad({ ...d.header.town, trafficCars: [{ id: 'x', main: 'x.toml', files: {} }] })).toMatch(/town\.trafficCars\.0\.files/);
  });
});
