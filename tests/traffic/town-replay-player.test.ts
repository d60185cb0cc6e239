/**
 * Town replays in the game (issue 23 item 5): a left town run is saved to the replay library like a stage
 * run and comes back byte for byte with its town described; the viewer's town player rebuilds the town from
 * the header and re-simulates world + traffic to the recorded final state hash, every checksum matched and
 * each counted once; seeking back (a rebuild and re-simulation from tick 0, no keyframes) lands on the
 * recorded checksum of the tick sought; a changed input shows as a desync at the first checksum after it.
 */
import { describe, expect, it } from 'vitest';
import { decodeReplay } from '../../src/replay/format';
import { DEFAULT_CHECKSUM_EVERY_TICKS } from '../../src/replay/recorder';
import { TownReplayPlayer } from '../../src/replay/town-replay-player';
import { ReplayLibrary, replayPlace } from '../../src/app/replay/library';
import { setInputSample } from '../replay/helpers';
import { recordTown } from './town-record';

const SEED = 1;
const TRAFFIC = 120;
const RUN_TICKS = 6000; // 12 s at 500 Hz (the instructor finds a vehicle at 9 s)
const FIRST_TRY_TICK = 1500;
const TRY_EVERY = 250;
const THROTTLE_CHANNEL = 1;
/** A seek target on a checksum tick after the instructor's pick (its recorded hash is the expected state). */
const SEEK_TICK = 10 * DEFAULT_CHECKSUM_EVERY_TICKS;

const recorded = recordTown({ seed: SEED, traffic: TRAFFIC, ticks: RUN_TICKS, firstTryTick: FIRST_TRY_TICK, tryEvery: TRY_EVERY });
const data = decodeReplay(recorded.bytes);
const hashAt = new Map(data.checksums.map((c) => [c.tick, c.hash]));

describe('town replay in the library and the viewer', () => {
  it('saves to the library and loads back byte for byte, described as a town run', async () => {
    const lib = new ReplayLibrary();
    const saved = await lib.save(recorded.bytes);
    expect(saved.townSeed).toBe(SEED);
    expect(saved.stageId).toBeNull();
    expect(saved.carIds).toEqual(['hatch-gti']);
    expect(saved.timeS).toBeNull();
    expect(saved.durationS).toBeCloseTo(RUN_TICKS * data.header.dt, 9);
    expect(replayPlace(saved)).toBe(`town ${SEED}`);
    const back = await lib.get(saved.id);
    expect(back).toBeDefined();
    expect(Buffer.from(back!.bytes).equals(Buffer.from(recorded.bytes))).toBe(true);
    expect((await lib.list()).map((e) => e.id)).toContain(saved.id);
  });

  it('plays to the recorded final hash, every checksum matched once', () => {
    const p = new TownReplayPlayer(decodeReplay(recorded.bytes), 'town.bitrally');
    expect(recorded.pickTick).toBeGreaterThan(0);
    p.runToEnd();
    expect(p.tick).toBe(RUN_TICKS);
    expect(p.ended).toBe(true);
    expect(p.step()).toBe(false);
    expect(p.desync).toBeNull();
    // a checksum at tick 0 and every DEFAULT_CHECKSUM_EVERY_TICKS to the end
    expect(p.checksumsChecked).toBe(RUN_TICKS / DEFAULT_CHECKSUM_EVERY_TICKS + 1);
    expect(p.checksumsMatched).toBe(p.checksumsChecked);
    expect(p.run.stateHash()).toBe(data.checksums.at(-1)!.hash);
    // the instructor's pick was replayed (the recorded tries before the pick found nobody)
    expect(p.run.picks.length).toBe(1);
  }, 120_000);

  it('seeks back by rebuilding and re-simulating, to the recorded state of the tick sought', () => {
    const p = new TownReplayPlayer(decodeReplay(recorded.bytes));
    p.seek(RUN_TICKS - 1);
    const first = p.run;
    p.seek(SEEK_TICK);
    expect(p.run).not.toBe(first);
    expect(p.tick).toBe(SEEK_TICK);
    expect(p.run.stateHash()).toBe(hashAt.get(SEEK_TICK));
    p.seek(RUN_TICKS + 100);
    expect(p.tick).toBe(RUN_TICKS);
    expect(p.run.stateHash()).toBe(data.checksums.at(-1)!.hash);
    expect(p.checksumsChecked).toBe(RUN_TICKS / DEFAULT_CHECKSUM_EVERY_TICKS + 1);
    expect(p.checksumsMatched).toBe(p.checksumsChecked);
  }, 120_000);

  it('reports a changed input as a desync at the first checksum after it', () => {
    const d = decodeReplay(recorded.bytes);
    const changeTick = 3 * DEFAULT_CHECKSUM_EVERY_TICKS + 10;
    setInputSample(d.inputs, 0, THROTTLE_CHANNEL, changeTick, 1000);
    const p = new TownReplayPlayer(d);
    p.seek(5 * DEFAULT_CHECKSUM_EVERY_TICKS);
    expect(p.desync?.tick).toBe(4 * DEFAULT_CHECKSUM_EVERY_TICKS);
    expect(p.desync?.expected).toBe(hashAt.get(4 * DEFAULT_CHECKSUM_EVERY_TICKS));
    expect(p.checksumsMatched).toBe(4);
  }, 120_000);
});
