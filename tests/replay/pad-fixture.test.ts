/**
 * The browser pad fixture (`npm run record:pad-fixture`, tests/e2e/record-pad-fixture.mjs; docs/replays.md "The
 * browser pad fixture"): a run on forest-gravel recorded by the built game in Chromium, driven through the
 * browser's Gamepad API by a human-like driver at 60 Hz and saved by the game's replay library. A change to the
 * simulation that breaks bit-exact replay of what the browser recorded shows here (as `npm run replay -- verify`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { decodeReplay, type ReplayData } from '../../src/replay/format';
import { verifyReplayData } from '../../src/replay/verify';
import { nodeStageSource } from '../../src/replay/node';
import { vehicleCarAdapter } from '../../src/run/cars';
import { encodeInputs } from '../../src/replay/inputs';
import { sectionsOf } from './wire';

const FILE = 'pad-chromium-forest-gravel.bitrally';
const bytes = new Uint8Array(readFileSync(join(__dirname, 'fixtures', FILE)));
/** The display the recording ran at and the simulation's step: a frame is 500/60 = 25/3 ticks. */
const DISPLAY_HZ = 60;
/** Three frames span exactly this many ticks (3 × 25/3), so frame starts repeat with this period. */
const FRAME_PATTERN_TICKS = 25;
const FRAMES_PER_PATTERN = 3;

/** Ticks at which any input channel of car 0 takes a new value (the first tick of each run but the first). */
function changeTicks(d: ReplayData): number[] {
  const ticks = new Set<number>();
  for (const ch of d.inputs.channels[0]!) for (let i = 0; i + 1 < ch.ends.length; i++) ticks.add(ch.ends[i]!);
  return [...ticks].sort((a, b) => a - b);
}

describe('the pad stream recorded in Chromium', () => {
  const d = decodeReplay(bytes, FILE);

  beforeAll(async () => {
    await loadHavokNode(); // the browser run had the stage's Havok props
  });

  it('is a browser recording of a stage run of minutes, with Havok props', () => {
    expect(d.header.stage?.id).toBe('forest-gravel');
    expect(d.header.cars.map((c) => c.id)).toEqual(['hatch-gti']);
    expect(d.header.props).toBe(true);
    expect(d.header.dt).toBe(1 / 500);
    expect(d.header.ticks * d.header.dt).toBeGreaterThanOrEqual(150);
  });

  it('changes its inputs only at the start of a 60 Hz frame: the pad is polled once per frame', () => {
    expect(Math.round(1 / d.header.dt / DISPLAY_HZ * FRAMES_PER_PATTERN)).toBe(FRAME_PATTERN_TICKS);
    const changes = changeTicks(d);
    const phases = new Set(changes.map((t) => t % FRAME_PATTERN_TICKS));
    expect(phases.size).toBeLessThanOrEqual(FRAMES_PER_PATTERN);
    // consecutive changes lie a whole number of frames apart: 8 or 9 ticks each, so never 1–7 ticks
    for (let i = 1; i < changes.length; i++) expect(changes[i]! - changes[i - 1]!).toBeGreaterThanOrEqual(8);
  });

  it("holds the bytes Node's input coder writes: the browser's streaming range coder agrees with Node's", () => {
    const recorded = sectionsOf(bytes).find(([tag]) => tag === 'I')![1];
    expect(encodeInputs(d.inputs)).toEqual(recorded);
  });

  it('verifies bit for bit in Node: every checksum and keyframe of the browser run', async () => {
    const r = await verifyReplayData(d, { stages: nodeStageSource, cars: vehicleCarAdapter, file: FILE });
    expect(r.firstDesync).toBeNull();
    expect(r.keyframeMismatches).toEqual([]);
    expect(r.checksumsMatched).toBe(d.checksums.length);
    expect(r.checksumsChecked).toBe(d.checksums.length);
    expect(r.finalHash).toBe(r.recordedFinalHash);
    expect(r.ok).toBe(true);
  }, 120_000);
});
