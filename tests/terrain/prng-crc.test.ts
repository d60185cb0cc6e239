/**
 * The project's one PRNG (sfc32, terrain/prng.ts) and one CRC-32 (terrain/crc32.ts). The PRNG pins are the
 * sequences the simulation world's PRNG and stage generation's RNG gave before they shared one generator (replay
 * state hashes and generated stages depend on them); the CRC-32 vectors are the published check values.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createRng, Prng, randRange, sfc32Next } from '../../terrain/prng';
import { crc32 } from '../../terrain/crc32';
import { pngChunk } from '../../terrain/png';

const TWO_POW_32 = 4294967296;

describe('sfc32 (terrain/prng.ts)', () => {
  it('the world PRNG gives the pinned sequence and state for seed 42', () => {
    const p = new Prng(42);
    expect([p.nextU32(), p.nextU32(), p.nextU32()]).toEqual([1028872839, 2516511472, 400437680]);
    expect(Array.from(p.s)).toEqual([3662689482, 2463205908, 3866464522, 3317318732]);
  });

  it('stage generation RNG gives the pinned sequence for seed 42', () => {
    const r = createRng(42);
    expect([r(), r(), r()].map((x) => x * TWO_POW_32)).toEqual([3730666837, 1786513705, 1450338100]);
  });

  it('reseed restarts the sequence; next() and range() are nextU32 scaled into [0, 1) and [lo, hi)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 50 }), (seed, n) => {
        const a = new Prng(seed);
        for (let i = 0; i < n; i++) a.nextU32();
        a.reseed(seed);
        const b = new Prng(seed);
        const s = new Uint32Array(b.s);
        for (let i = 0; i < n; i++) {
          const u = sfc32Next(s);
          expect(a.next()).toBe(u / TWO_POW_32);
          const x = b.range(-3, 5);
          expect(x).toBe(-3 + 8 * (u / TWO_POW_32));
          expect(x >= -3 && x < 5).toBe(true);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('randRange maps the generator into [lo, hi)', () => {
    const r = createRng(7);
    for (let i = 0; i < 1000; i++) {
      const x = randRange(r, 2, 3);
      expect(x >= 2 && x < 3).toBe(true);
    }
  });
});

describe('CRC-32 (terrain/crc32.ts)', () => {
  const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

  it('gives the published check values', () => {
    expect(crc32(ascii('123456789'))).toBe(0xcbf43926); // CRC-32/ISO-HDLC check value
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(ascii('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('over a sub-range equals the CRC of the copied bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(), fc.nat(), (buf, i, j) => {
        const a = Math.min(i % (buf.length + 1), j % (buf.length + 1));
        const b = Math.max(i % (buf.length + 1), j % (buf.length + 1));
        expect(crc32(buf, a, b)).toBe(crc32(buf.slice(a, b)));
      }),
    );
  });

  it('a PNG IEND chunk carries the CRC every PNG file ends with (0xAE426082)', () => {
    const c = pngChunk('IEND', new Uint8Array(0));
    expect(new DataView(c.buffer).getUint32(8)).toBe(0xae426082);
  });
});
