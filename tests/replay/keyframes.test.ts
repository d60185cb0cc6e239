/**
 * Keyframes checked against the checksum stream when a replay loads (the issue: a flipped byte inside a keyframe
 * still verified as a match, and seeking restored the corrupted keyframe). Every bit of a keyframe's tick, time,
 * PRNG and state values is covered by the recorded 64-bit state hash, and a keyframe holds nothing else (every
 * value a tick leaves for the next is component state), so any flipped byte is refused on load.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeReplay, ReplayFormatError, type ReplayData } from '../../src/replay/format';
import { recordRun } from '../../src/replay/record-run';
import { ScriptedDriver } from '../../src/replay/script';
import { vehicleCarAdapter } from '../../src/run/cars';
import { buildRunWorld } from '../../src/run/run-world';
import { ReplayPlayer } from '../../src/replay/player';
import { checkKeyframes } from '../../src/replay/keyframe-check';
import { snapshotHash, stateHash } from '../../src/ecs/hash';
import { saveSnapshot } from '../../src/ecs/snapshot';
import { ByteReader } from '../../src/replay/bytes';
import { hatchCar, SETUP } from './helpers';
import { fileOf, section, sectionsOf, withSection } from './wire';

const rec = recordRun({ setup: SETUP, cars: [hatchCar()], sources: [new ScriptedDriver(6)], maxSeconds: 0.2, checksumEveryTicks: 10, keyframeEverySeconds: 0.05, adapter: vehicleCarAdapter });
const secs = sectionsOf(rec.bytes);
const K = section(secs, 'K');
const data = decodeReplay(rec.bytes);
/** The keyframe whose bytes are flipped (tick 50 of 25, 50, 75, 100). */
const KF = 1;

/** Byte offsets of the columnar snapshot set (src/ecs/snapshot.ts encodeSnapshotSet): heads, planes, end of the planes. */
function layoutOf(k: Uint8Array): { n: number; slots: number; heads: number; planes: number; end: number } {
  const r = new ByteReader(k, 'test', 'K');
  r.u32('magic');
  r.u32('version');
  const n = r.u32('count');
  expect(r.u8('layout')).toBe(1); // one run: one layout
  r.take(4 * r.u32('entities'), 'eids');
  const nc = r.u32('components');
  let slots = 0;
  for (let c = 0; c < nc; c++) {
    r.str('name');
    const m = r.u32('eids');
    r.take(4 * m, 'eids');
    const nf = r.u32('fields');
    for (let f = 0; f < nf; f++) r.str('field');
    slots += m * nf;
  }
  const heads = r.p;
  return { n, slots, heads, planes: heads + 32 * n, end: heads + 32 * n + slots * 8 * n };
}

const refusedOnLoad = (k: Uint8Array): ReplayFormatError | null => {
  try {
    decodeReplay(fileOf(withSection(secs, 'K', k)), 'kf.bitrally');
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayFormatError);
    return e as ReplayFormatError;
  }
};

describe('keyframes against the checksum stream', () => {
  it('snapshotHash of a saved world equals its stateHash (the walk the keyframe check relies on)', () => {
    const run = buildRunWorld(data.header, null, vehicleCarAdapter);
    const p = new ReplayPlayer(data, run, vehicleCarAdapter);
    p.seek(37);
    expect(snapshotHash(saveSnapshot(p.world))).toBe(stateHash(p.world));
    for (const k of data.keyframes) expect(snapshotHash(k.snapshot)).toBe(data.checksums.find((c) => c.tick === k.tick)!.hash);
  });

  it('one flipped bit in each byte of one keyframe (tick, time, PRNG, every state value; the bit rotates) → refused', () => {
    const kf = data.keyframes[KF]!;
    const s = kf.snapshot;
    const check = (): void => checkKeyframes([kf], data.checksums, data.header.dt, 'kf.bitrally');
    check(); // intact: accepted
    const expectRefused = (flip: () => void, unflip: () => void): void => {
      flip();
      expect(check, 'a flipped byte').toThrow(ReplayFormatError);
      unflip();
    };
    const f64 = new Float64Array(1);
    const b8 = new Uint8Array(f64.buffer);
    let flipped = 0;
    const number = (get: () => number, set: (v: number) => void): void => {
      for (let b = 0; b < 8; b++) {
        const old = get();
        f64[0] = old;
        b8[b] ^= 1 << (flipped++ % 8);
        const v = f64[0];
        expectRefused(() => set(v), () => set(old));
      }
    };
    number(() => kf.tick, (v) => ((kf.tick = v), (s.tick = v)));
    number(() => s.time, (v) => (s.time = v));
    for (let i = 0; i < 4; i++) {
      for (let b = 0; b < 4; b++) {
        const old = s.rng[i]!;
        expectRefused(() => (s.rng[i] = old ^ (1 << (8 * b + (flipped++ % 8)))), () => (s.rng[i] = old));
      }
    }
    for (const c of s.components) {
      for (const col of c.fields.values()) {
        for (let i = 0; i < col.length; i++) number(() => col[i]!, (v) => (col[i] = v));
      }
    }
    const { slots } = layoutOf(K);
    expect(flipped).toBe(8 + 8 + 16 + slots * 8);
    check(); // all restored
  });

  it('flipping the bytes of one keyframe in the file itself: its head and every state value → the file is refused', () => {
    const { n, slots, heads, planes } = layoutOf(K);
    const at: number[] = [];
    for (let b = 0; b < 32; b++) at.push(heads + 32 * KF + b);
    for (let j = 0; j < slots * 8; j++) at.push(planes + j * n + KF);
    // through the whole load path (container, decodeSnapshotSet, checkKeyframes): a seeded sample of the positions
    const sample = fc.sample(fc.constantFrom(...at), { numRuns: 120, seed: 16 });
    for (const [k, pos] of sample.entries()) {
      const bad = K.slice();
      bad[pos] ^= 1 << (k % 8);
      const e = refusedOnLoad(bad);
      expect(e, `byte ${pos}`).not.toBeNull();
      expect(e!.field).toMatch(/^keyframes/);
    }
  });

  it('a flipped byte anywhere in the keyframes section is refused on load (a keyframe is state values only)', () => {
    expect(layoutOf(K).end).toBe(K.length); // nothing after the value planes: no unhashed data
    const positions = fc.sample(fc.integer({ min: 0, max: K.length - 1 }), { numRuns: 150, seed: 1616 });
    for (const [k, pos] of positions.entries()) {
      const bad = K.slice();
      bad[pos] ^= 1 << (k % 8);
      expect(refusedOnLoad(bad), `byte ${pos}`).not.toBeNull();
    }
  });

  it('a keyframe at a tick without a recorded checksum is refused (each keyframe needs one to be checked against)', () => {
    const noCk: ReplayData['checksums'] = data.checksums.filter((c) => c.tick !== data.keyframes[0]!.tick);
    expect(() => checkKeyframes(data.keyframes, noCk, data.header.dt, 'kf.bitrally')).toThrow(/keyframes\[0\] \(tick 25\): expected a recorded checksum at tick 25/);
  });
});
