/**
 * The format 5 input codec (src/replay/input-codec.ts over src/replay/range-coder.ts): lossless round trip of
 * random streams (edge values, empty, long holds, several cars), coded size against the entropy of a known
 * source, held values costing ~nothing, and hostile streams (truncated, corrupt, random bytes, a legal stream
 * over the decompression cap) refused with a ReplayFormatError naming the car stream, in bounded memory.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHANNEL_RANGE, decodeCarInputs, encodeCarInputs, INPUT_CHANNELS, MAX_RUNS_PER_INPUT_BYTE, MIN_RUN_ALLOWANCE, type InputRuns } from '../../src/replay/input-codec';
import { decodeInputs, encodeInputs, InputCursor, InputStreamEncoder, type InputStreams } from '../../src/replay/inputs';
import { neutralInput } from '../../src/ecs/controls';
import { Prng } from '../../terrain/prng';
import { refusal } from './wire';

const FILE = 'codec.bitrally';

/** Runs from (value, length) segments: equal neighbours merged, cut or held to `ticks`. */
function runsOf(segments: readonly (readonly [number, number])[], ticks: number): InputRuns {
  const values: number[] = [];
  const ends: number[] = [];
  let t = 0;
  for (const [v, len] of segments) {
    if (t >= ticks) break;
    t = Math.min(ticks, t + len);
    if (values.length > 0 && values[values.length - 1] === v) ends[ends.length - 1] = t;
    else {
      values.push(v);
      ends.push(t);
    }
  }
  if (ticks > 0 && values.length === 0) values.push(0);
  if (ticks > 0) ends[values.length - 1] = ticks;
  return ticks === 0 ? { values: new Int32Array(0), ends: new Int32Array(0) } : { values: Int32Array.from(values), ends: Int32Array.from(ends) };
}

/** A channel's values: edge values of its range often, any value in it otherwise. */
const valueOf = (ch: number): fc.Arbitrary<number> => {
  const [lo, hi] = CHANNEL_RANGE[INPUT_CHANNELS[ch]!];
  return fc.oneof(fc.constantFrom(lo, hi, 0, lo + 1, hi - 1), fc.integer({ min: lo, max: hi }), fc.integer({ min: -3, max: 3 }).map((d) => Math.min(hi, Math.max(lo, d))));
};
/** Run lengths: mostly short (AI ticks, pad frames), sometimes long holds. */
const lengthArb = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.integer({ min: 100, max: 200_000 }) });
const carArb = fc.tuple(...INPUT_CHANNELS.map((_, ch) => fc.array(fc.tuple(valueOf(ch), lengthArb), { maxLength: 300 })));
const streamsArb = fc.record({ cars: fc.array(carArb, { maxLength: 3 }), ticks: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 300_000 })) });

describe('input codec round trip', () => {
  it('random streams (edge values, empty, long holds, 0–3 cars) decode to the same runs (fast-check, 300 cases)', () => {
    fc.assert(
      fc.property(streamsArb, ({ cars, ticks }) => {
        const s: InputStreams = { cars: cars.length, ticks, channels: cars.map((car) => car.map((segs) => runsOf(segs, ticks))) };
        const d = decodeInputs(encodeInputs(s), FILE, { cars: s.cars, ticks, format: 5 });
        expect(d.channels).toEqual(s.channels);
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it('per-tick pushes through the recorder encoder read back tick for tick', () => {
    const rng = new Prng(5);
    const enc = new InputStreamEncoder(2);
    const TICKS = 3000;
    const pushed: number[][][] = [[], []];
    const q = neutralInput();
    for (let t = 0; t < TICKS; t++) {
      for (let c = 0; c < 2; c++) {
        // a pad-like stream: a new value every 8 ticks on two channels, held otherwise
        if (t % 8 === 0) {
          q.steer = Math.round((rng.next() * 2 - 1) * 1000);
          q.throttle = Math.round(rng.next() * 1000);
          q.buttons = t % 800 === 0 ? 1 << c : 0;
        }
        enc.push(c, q);
        pushed[c]!.push([q.steer, q.throttle, q.brake, q.clutch, q.handbrake, q.buttons]);
      }
    }
    const d = decodeInputs(enc.encode(TICKS), FILE, { cars: 2, ticks: TICKS, format: 5 });
    for (let c = 0; c < 2; c++) {
      const cur = new InputCursor(d, c);
      for (let t = 0; t < TICKS; t++) {
        const r = cur.read(t, neutralInput());
        expect([r.steer, r.throttle, r.brake, r.clutch, r.handbrake, r.buttons]).toEqual(pushed[c]![t]);
      }
    }
  });
});

describe('input codec size', () => {
  it('codes a memoryless source close to its entropy: a change with probability p, ±1 with a fair sign', () => {
    const TICKS = 200_000;
    for (const p of [0.05, 0.3]) {
      const rng = new Prng(11);
      const segs: [number, number][] = [];
      let v = 0;
      let changes = 0;
      for (let t = 0; t < TICKS; t++) {
        if (t > 0 && rng.next() < p) {
          v += rng.next() < 0.5 || v === 1000 ? -1 : 1;
          if (v === -1001) v = -999;
          changes++;
        }
        segs.push([v, 1]);
      }
      const runs = runsOf(segs, TICKS);
      const empiricalP = changes / TICKS;
      // only steer changes, so the car's "any change" bit carries it (the steer bit is implied): H(p) per tick,
      // + 1 sign bit per change (the magnitude is always 1: its length bit becomes certain)
      const h = -(empiricalP * Math.log2(empiricalP) + (1 - empiricalP) * Math.log2(1 - empiricalP));
      const entropyBytes = (TICKS * h + changes) / 8;
      const flat = runsOf([[0, TICKS]], TICKS);
      const bytes = encodeCarInputs([runs, flat, flat, flat, flat, flat], TICKS).length;
      // an adaptive probability moved 1/32 of the way per bit fluctuates: ≈ 1/(63 · 2 ln 2) ≈ 0.011 bit per
      // coded symbol (≈ 1.2 symbols per tick here: 4 % of the 0.34 bit of a tick at p = 0.05), + the cost of
      // learning the model's contexts once (~100 sure-thing contexts, ≤ 40 bits each: ≤ 512 B)
      const excessBytes = (TICKS * (1 + empiricalP) * (1 / (63 * 2 * Math.LN2))) / 8;
      expect(bytes).toBeGreaterThan(entropyBytes);
      expect(bytes).toBeLessThan(entropyBytes + excessBytes + 512);
    }
  });

  it('held values cost ~nothing: decisions held 5 ticks (100 Hz) cost ≤ 2 % + 64 B more than the same decisions one tick each', () => {
    const rng = new Prng(3);
    const DECISIONS = 30_000; // 5 minutes at 100 Hz
    const steer: [number, number][] = [];
    const throttle: [number, number][] = [];
    let s = 0;
    for (let i = 0; i < DECISIONS; i++) {
      s = Math.max(-1000, Math.min(1000, s + Math.round((rng.next() - 0.5) * 16)));
      steer.push([s, 1]);
      throttle.push([rng.next() < 0.3 ? Math.round(rng.next() * 1000) : (throttle.at(-1)?.[0] ?? 0), 1]);
    }
    const flat = (n: number): InputRuns => runsOf([[0, n]], n);
    const tight = encodeCarInputs([runsOf(steer, DECISIONS), runsOf(throttle, DECISIONS), flat(DECISIONS), flat(DECISIONS), flat(DECISIONS), flat(DECISIONS)], DECISIONS).length;
    const held = (segs: [number, number][]): [number, number][] => segs.map(([v]) => [v, 5]);
    const T = DECISIONS * 5;
    const heldBytes = encodeCarInputs([runsOf(held(steer), T), runsOf(held(throttle), T), flat(T), flat(T), flat(T), flat(T)], T).length;
    expect(heldBytes).toBeLessThan(tight * 1.02 + 64);
    // and an all-held car costs ≈ 0.0007 bit per tick: 10 minutes at 500 Hz in a few dozen bytes
    expect(encodeCarInputs(Array.from({ length: 6 }, () => flat(300_000)), 300_000).length).toBeLessThan(64);
  });
});

/** A realistic car stream: 20 s of a pad-like stream at 500 Hz. */
function padCar(ticks: number): InputRuns[] {
  const rng = new Prng(8);
  const segs: [number, number][][] = INPUT_CHANNELS.map(() => []);
  for (let t = 0; t < ticks; t += 8) {
    segs[0]!.push([Math.round(Math.sin(t / 900) * 700 + (rng.next() - 0.5) * 8), 8]);
    segs[1]!.push([rng.next() < 0.1 ? Math.round(rng.next() * 1000) : (segs[1]!.at(-1)?.[0] ?? 0), 8]);
    segs[2]!.push([t % 4000 < 400 ? 800 : 0, 8]);
    segs[5]!.push([t % 2000 < 24 ? 4 : 0, 8]);
  }
  return segs.map((s) => runsOf(s, ticks));
}

describe('hostile car streams', () => {
  const TICKS = 10_000;
  const good = encodeCarInputs(padCar(TICKS), TICKS);

  it('every truncation is refused naming the car stream', () => {
    expect(good.length).toBeGreaterThan(100);
    for (let n = 0; n < good.length; n++) {
      const e = refusal(() => decodeCarInputs(good.subarray(0, n), TICKS, FILE, 'inputs.car0'));
      expect(e.field).toMatch(/^inputs\.car0/);
    }
  });

  it('a flipped byte or extra bytes are refused naming the car stream (fast-check, 300 flips)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length - 1 }), fc.integer({ min: 1, max: 255 }), (at, x) => {
        const bad = good.slice();
        bad[at]! ^= x;
        expect(refusal(() => decodeCarInputs(bad, TICKS, FILE, 'inputs.car0')).field).toMatch(/^inputs\.car0/);
      }),
      { numRuns: 300, seed: 7 },
    );
    const longer = new Uint8Array(good.length + 1);
    longer.set(good);
    expect(refusal(() => decodeCarInputs(longer, TICKS, FILE, 'inputs.car0')).message).toBe('codec.bitrally: inputs.car0: expected no bytes after the last coded symbol, found 1 more (corrupt)');
  });

  it('random bytes declaring 7.2 M ticks are refused in bounded memory and time', () => {
    const rng = new Prng(1);
    for (let k = 0; k < 5; k++) {
      const junk = Uint8Array.from({ length: 2048 }, (_, i) => (i < 6 ? i % 3 : i === 6 ? 0 : Math.floor(rng.next() * 256)));
      const before = process.memoryUsage().arrayBuffers;
      const e = refusal(() => decodeCarInputs(junk, 7_200_000, FILE, 'inputs.car0'));
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
      expect(e.field).toMatch(/^inputs\.car0/);
    }
  });

  it('a legal stream decoding to more runs than its bytes allow (decompression cap) is refused', () => {
    // steer toggling 0 ↔ 1 every tick: linear prediction is exact, so each run costs a tiny fraction of a bit
    const TOGGLE_TICKS = 1_000_000;
    const toggle: InputRuns = { values: Int32Array.from({ length: TOGGLE_TICKS }, (_, i) => i & 1), ends: Int32Array.from({ length: TOGGLE_TICKS }, (_, i) => i + 1) };
    const flat = runsOf([[0, TOGGLE_TICKS]], TOGGLE_TICKS);
    const bytes = encodeCarInputs([toggle, flat, flat, flat, flat, flat], TOGGLE_TICKS);
    const cap = MIN_RUN_ALLOWANCE + MAX_RUNS_PER_INPUT_BYTE * bytes.length;
    expect(cap).toBeLessThan(TOGGLE_TICKS);
    const before = process.memoryUsage().arrayBuffers;
    const e = refusal(() => decodeCarInputs(bytes, TOGGLE_TICKS, FILE, 'inputs.car0'));
    // runs are two Int32 per run, grown by doubling: at most 2 × 8 B per capped run allocated (+ the old
    // arrays not yet collected: × 2): memory follows the stream's bytes, not the runs it would decode to
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(cap * 8 * 2 * 2 + 1024 * 1024);
    expect(e.message).toBe(`codec.bitrally: inputs.car0: expected at most ${cap} runs for its ${bytes.length} bytes (decompression cap), found more (corrupt)`);
  });

  it('an unknown predictor id and a value outside its range are refused naming the channel', () => {
    const bad = good.slice();
    bad[2] = 9;
    expect(refusal(() => decodeCarInputs(bad, TICKS, FILE, 'inputs.car0')).message).toBe('codec.bitrally: inputs.car0.brake.predictor: expected 0..2, found 9');
    // a steer value past full lock: the encoder codes any integer residual, the decoder checks the range
    const over = encodeCarInputs([runsOf([[0, 5], [1500, 5]], 10), ...padCar(10).slice(1)], 10);
    expect(refusal(() => decodeCarInputs(over, 10, FILE, 'inputs.car0')).message).toBe('codec.bitrally: inputs.car0.steer[tick 5]: expected a new value in [-1000, 1000], found 1500');
  });
});
