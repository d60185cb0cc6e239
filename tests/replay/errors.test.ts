import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import { decodeReplay, encodeReplay, MAX_REPLAY_FILE_BYTES, REPLAY_FORMAT, ReplayFormatError } from '../../src/replay/format';
import { recordRun } from '../../src/replay/record-run';
import { ScriptedDriver } from '../../src/replay/script';
import { vehicleCarAdapter } from '../../src/run/cars';
import { crc32 } from '../../src/replay/bytes';
import { hatchCar, SETUP } from './helpers';

const good = recordRun({ setup: SETUP, cars: [hatchCar()], sources: [new ScriptedDriver(2)], maxSeconds: 2, adapter: vehicleCarAdapter }).bytes;
const err = (b: Uint8Array): ReplayFormatError => {
  try {
    decodeReplay(b, 'friend.bitrally');
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayFormatError);
    return e as ReplayFormatError;
  }
  throw new Error('expected an error');
};

/** Rebuilds a container around a payload (valid CRC) so that inner checks are reached. */
function container(payload: Uint8Array, version = REPLAY_FORMAT): Uint8Array {
  const packed = deflateSync(payload);
  const out = new Uint8Array(24 + packed.length);
  out.set(new TextEncoder().encode('BITRALLY'));
  const dv = new DataView(out.buffer);
  dv.setUint16(8, version, true);
  dv.setUint32(12, payload.length, true);
  dv.setUint32(16, packed.length, true);
  dv.setUint32(20, crc32(packed), true);
  out.set(packed, 24);
  return out;
}

describe('untrusted replay files give clear errors', () => {
  it('a good file decodes', () => {
    expect(decodeReplay(good).header.ticks).toBe(1000);
  });
  it('corrupted (one flipped byte) → CRC error', () => {
    const b = good.slice();
    b[b.length >> 1] ^= 0x40;
    const e = err(b);
    expect(e.field).toBe('checksum (CRC-32)');
    expect(e.message).toMatch(/^friend\.bitrally: checksum \(CRC-32\): expected 0x[0-9a-f]{8}, found 0x[0-9a-f]{8} \(file corrupted\)$/);
  });
  it('truncated → says truncated', () => {
    expect(err(good.subarray(0, good.length - 10)).message).toMatch(/payload length: expected \d+ bytes of data, found \d+ \(file truncated\)/);
    expect(err(good.subarray(0, 10)).message).toMatch(/\(file size\): expected at least 24 bytes.*found 10 bytes/);
  });
  it('wrong version → names both versions', () => {
    const b = good.slice();
    new DataView(b.buffer).setUint16(8, 7, true);
    expect(err(b).message).toBe('friend.bitrally: format version: expected 3 or 4 or 5 (this build reads replay formats 3, 4 and 5), found 7 (recorded by a newer BitRally)');
  });
  it.each([
    [1, 'before config edits and split input streams'],
    [2, 'keyframes with extension data beside the component state'],
  ])('a format %i file (%s) → a clear "older BitRally" error', (version) => {
    const b = good.slice();
    new DataView(b.buffer).setUint16(8, version, true);
    expect(err(b).message).toBe(
      `friend.bitrally: format version: expected 3 or 4 or 5 (this build reads replay formats 3, 4 and 5), found ${version} (recorded by an older BitRally, whose files cannot be replayed by this build: re-record the run)`,
    );
  });
  it('oversized → refused before reading', () => {
    const big = new Uint8Array(MAX_REPLAY_FILE_BYTES + 1);
    big.set(good);
    expect(err(big).message).toMatch(/\(file size\): expected at most 32\.0 MiB, found 32\.0 MiB/);
  });
  it('not a replay (bad magic)', () => {
    const png = new Uint8Array(64);
    png.set([0x89, 0x50, 0x4e, 0x47]);
    expect(err(png).message).toMatch(/magic: expected "BITRALLY" \(a BitRally replay\), found "\?PNG/);
  });
  it('a lying inflated length (zip-bomb guard) and a bad header field are caught', () => {
    const b = good.slice();
    new DataView(b.buffer).setUint32(12, 1 << 30, true);
    expect(err(b).message).toMatch(/inflated length: expected at most 128\.0 MiB/);
    const d = decodeReplay(good);
    const bad = encodeReplay({ header: { ...d.header, dt: -1 }, inputsBytes: new Uint8Array([1, 0]), edits: [], checksums: [], keyframes: [], stageFiles: null });
    expect(err(bad).message).toMatch(/header\.dt: .*found -1/);
  });
  it('inputs that do not cover every tick are refused', () => {
    const d = decodeReplay(good);
    // a header that claims 5 more ticks than the inputs hold
    const bad = encodeReplay({ header: { ...d.header, ticks: d.header.ticks + 5 }, inputsBytes: new Uint8Array([1, ...[0xe8, 0x07], 0, 0, 0, 0, 0, 0]), edits: [], checksums: [], keyframes: [], stageFiles: null });
    expect(err(bad).field).toMatch(/^inputs/);
    expect(err(container(new Uint8Array([0x48, 1, 0, 0, 0]))).message).toMatch(/truncated|header/);
  });
});
