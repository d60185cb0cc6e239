/**
 * Files of earlier formats. `fixtures/format4-scripted.bitrally` was recorded by the format 4 build (6 s,
 * hatch-gti, flat ground, ScriptedDriver(5), keyframes every 2 s, checksums every 250 ticks): its inputs are
 * deflated run streams; its checksums and keyframes are this sim version's (tests/replay/rehash-format4-fixture.ts). Formats 3 and 4 are read and verify; re-encoding one writes format 5 (range-coded
 * inputs) with the same inputs; a container whose format disagrees with its header, and formats 1 and 2
 * (tests/replay/errors.test.ts), are refused with a message naming the field.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeReplay, encodeReplay, openContainer, packReplay, REPLAY_FORMAT, type ReplayData } from '../../src/replay/format';
import { encodeInputs } from '../../src/replay/inputs';
import { verifyReplayData } from '../../src/replay/verify';
import { vehicleCarAdapter } from '../../src/run/cars';
import { jsonBytes, payloadOf, refusal, sectionsOf, withSection } from './wire';

const FIXTURE = readFileSync(join(__dirname, 'fixtures/format4-scripted.bitrally'));
const env = { stages: null, cars: vehicleCarAdapter };

/** The fixture's payload with its header's format and the container's format set to `format`. */
function asFormat(format: number, containerFormat = format): Uint8Array {
  const secs = sectionsOf(FIXTURE);
  const header = decodeReplay(FIXTURE).header;
  return packReplay(payloadOf(withSection(secs, 'H', jsonBytes({ ...header, format }))), 9, containerFormat);
}

/** The same replay written by this build (format 5). */
function reencode(d: ReplayData): Uint8Array {
  return encodeReplay({ header: { ...d.header, format: REPLAY_FORMAT }, inputsBytes: encodeInputs(d.inputs), edits: d.edits, checksums: d.checksums, keyframes: d.keyframes, stageFiles: d.stageFiles });
}

describe('replays of earlier formats', () => {
  it('a format 4 file (run-stream inputs) is read and verifies bit for bit', async () => {
    expect(new DataView(FIXTURE.buffer, FIXTURE.byteOffset).getUint16(8, true)).toBe(4);
    const d = decodeReplay(FIXTURE, 'format4.bitrally');
    expect(d.header.format).toBe(4);
    expect(d.header.ticks).toBe(3000);
    const r = await verifyReplayData(d, env);
    expect(r.firstDesync).toBeNull();
    expect(r.checksumsMatched).toBe(d.checksums.length);
    expect(d.checksums.length).toBeGreaterThanOrEqual(3000 / 250); // one per 250 ticks at least
  });

  it('a format 3 file (a format 4 file without start damage) is read and verifies', async () => {
    const d = decodeReplay(asFormat(3), 'format3.bitrally');
    expect(d.header.format).toBe(3);
    const r = await verifyReplayData(d, env);
    expect(r.firstDesync).toBeNull();
    expect(r.checksumsMatched).toBe(d.checksums.length);
  });

  it('re-encoding an old file writes format 5 with the same inputs, smaller, and it still verifies', async () => {
    const old = decodeReplay(FIXTURE);
    const bytes = reencode(old);
    const d = decodeReplay(bytes, 'converted.bitrally');
    expect(d.header.format).toBe(REPLAY_FORMAT);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(8, true)).toBe(REPLAY_FORMAT);
    for (let c = 0; c < 6; c++) {
      expect(d.inputs.channels[0]![c]!.values).toEqual(old.inputs.channels[0]![c]!.values);
      expect(d.inputs.channels[0]![c]!.ends).toEqual(old.inputs.channels[0]![c]!.ends);
    }
    // the run streams are deflated with the file: compare what each inputs section costs once deflated alone
    const deflatedInputs = (b: Uint8Array): number => packReplay(sectionsOf(b).find(([t]) => t === 'I')![1]).length;
    expect(deflatedInputs(bytes)).toBeLessThan(deflatedInputs(FIXTURE));
    const r = await verifyReplayData(d, env);
    expect(r.firstDesync).toBeNull();
    expect(r.checksumsMatched).toBe(d.checksums.length);
  });

  it('a container format that disagrees with the header is refused naming header.format', () => {
    expect(refusal(() => decodeReplay(asFormat(4, 5), 'mixed.bitrally')).message).toBe("mixed.bitrally: header.format: expected 5 (the container's format version), found 4");
  });

  it('format 4 inputs read as format 5 are refused as a corrupt range-coded stream, naming the car', () => {
    const secs = sectionsOf(FIXTURE);
    const header = decodeReplay(FIXTURE).header;
    const lying = packReplay(payloadOf(withSection(secs, 'H', jsonBytes({ ...header, format: 5 }))), 9, 5);
    expect(refusal(() => decodeReplay(lying, 'lying.bitrally')).field).toMatch(/^inputs\.car0/);
    expect(openContainer(lying, 'x').length).toBeGreaterThan(0);
  });
});
