/**
 * Adaptive binary range coder (the LZMA scheme: 32-bit range, carry propagation through a cached byte) with
 * 16-bit probabilities and count-based adaptation speed, so a symbol the model is sure of costs ≈ 0.0007 bit:
 * a held input channel at 500 Hz then costs almost nothing per tick. Used by the replay input codec (src/replay/input-codec.ts).
 *
 * A probability is P(bit = 0) × 2^16, kept in a Uint32Array slot the caller chooses (its context).
 */
import { dlog2 } from '../../terrain/dmath';
import { ReplayFormatError } from './bytes';

const PROB_BITS = 16;
const PROB_MASK = 0xffff;
export const PROB_HALF = 1 << (PROB_BITS - 1);
const PROB_ONE = 1 << PROB_BITS;
/**
 * Adaptation speed: each coded bit moves its context's probability 1/2^shift of the way towards what was
 * seen, the shift growing with the bits the context has coded (2 → 5: a context learns from its first
 * few bits, then follows a changing source; measured on AI and pad streams, slower settling (→ 6, 7) codes
 * the AI's 500 Hz streams 2–4 % larger).
 */
const FIRST_SHIFT = 2;
const LAST_SHIFT = 5;
const BITS_PER_SHIFT_STEP = 16;
const COUNT_CAP = (LAST_SHIFT - FIRST_SHIFT) * BITS_PER_SHIFT_STEP;
/** Probabilities stay within [2^-11, 1 − 2^-11]: a sure symbol costs ≈ 0.0007 bit, a surprise ≤ 11 bits. */
const PROB_MIN = 32;
const PROB_MAX = PROB_ONE - PROB_MIN;
/** Renormalise when the range falls below 2^24 (one byte shifted out at a time). */
const TOP = 2 ** 24;
const TWO_32 = 2 ** 32;
/** Bytes the encoder's flush writes after the last symbol (the cached byte + the four bytes of `low`). */
const FLUSH_BYTES = 5;

/** A fresh context table: per slot the probability (low 16 bits) and the bits it has coded (high bits). */
export function newProbs(n: number): Uint32Array {
  return new Uint32Array(n).fill(PROB_HALF);
}

/** What a symbol coder writes to: the range encoder, or the cost meter used to choose a predictor. */
export interface BitSink {
  bit(probs: Uint32Array, i: number, bit: number): void;
}

function adapt(probs: Uint32Array, i: number, p: number, bit: number): void {
  const count = probs[i]! >>> PROB_BITS;
  const shift = FIRST_SHIFT + Math.floor(count / BITS_PER_SHIFT_STEP);
  let q = bit === 0 ? p + ((PROB_ONE - p) >> shift) : p - (p >> shift);
  q = q < PROB_MIN ? PROB_MIN : q > PROB_MAX ? PROB_MAX : q;
  probs[i] = (((count < COUNT_CAP ? count + 1 : count) << PROB_BITS) | q) >>> 0;
}

export class RangeEncoder implements BitSink {
  private low = 0;
  private range = 0xffffffff;
  private cache = 0;
  private cacheSize = 1;
  private out = new Uint8Array(256);
  private n = 0;

  bit(probs: Uint32Array, i: number, bit: number): void {
    const p = probs[i]! & PROB_MASK;
    const bound = (this.range >>> PROB_BITS) * p;
    if (bit === 0) this.range = bound;
    else {
      this.low += bound;
      this.range -= bound;
    }
    adapt(probs, i, p, bit);
    while (this.range < TOP) {
      this.range *= 256;
      this.shiftLow();
    }
  }

  private push(b: number): void {
    if (this.n === this.out.length) {
      const grown = new Uint8Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.n++] = b;
  }

  /** Emits the top byte of `low` once no later carry can change it (LZMA's cache + run of 0xFF bytes). */
  private shiftLow(): void {
    if (this.low < 0xff000000 || this.low >= TWO_32) {
      const carry = this.low >= TWO_32 ? 1 : 0;
      let b = this.cache;
      do {
        this.push((b + carry) & 0xff);
        b = 0xff;
      } while (--this.cacheSize !== 0);
      this.cache = Math.floor(this.low / TOP) & 0xff;
    }
    this.cacheSize++;
    this.low = (this.low % TOP) * 256;
  }

  /** Flushes `low` and returns the coded bytes (the encoder is spent afterwards). */
  finish(): Uint8Array {
    for (let k = 0; k < FLUSH_BYTES; k++) this.shiftLow();
    return this.out.slice(0, this.n);
  }
}

/** Sums the information content (bits) of the symbols instead of coding them; adapts like the coder. */
export class CostMeter implements BitSink {
  bits = 0;
  bit(probs: Uint32Array, i: number, bit: number): void {
    const p = probs[i]! & PROB_MASK;
    this.bits -= dlog2((bit === 0 ? p : PROB_ONE - p) / PROB_ONE);
    adapt(probs, i, p, bit);
  }
}

/**
 * Decoder over untrusted bytes. It never reads past the end: a symbol that needs more bytes than the stream
 * holds is a truncated stream (ReplayFormatError naming `field`). `finish()` checks that every byte was used
 * and that the code value is 0, which a stream the encoder flushed always leaves.
 */
export class RangeDecoder {
  private range = 0xffffffff;
  private code = 0;
  private pos = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly file: string,
    private readonly field: string,
  ) {
    if (bytes.length < FLUSH_BYTES) throw new ReplayFormatError(file, field, `at least ${FLUSH_BYTES} bytes of range-coded data`, `${bytes.length} (truncated)`);
    if (bytes[0] !== 0) throw new ReplayFormatError(file, field, 'range-coded data starting with a 0 byte', `0x${bytes[0]!.toString(16)} (corrupt)`);
    for (let k = 0; k < FLUSH_BYTES; k++) this.code = this.code * 256 + bytes[this.pos++]!;
  }

  bit(probs: Uint32Array, i: number): number {
    const p = probs[i]! & PROB_MASK;
    const bound = (this.range >>> PROB_BITS) * p;
    let bit: number;
    if (this.code < bound) {
      this.range = bound;
      bit = 0;
    } else {
      this.code -= bound;
      this.range -= bound;
      bit = 1;
    }
    adapt(probs, i, p, bit);
    while (this.range < TOP) {
      if (this.pos >= this.bytes.length) throw new ReplayFormatError(this.file, this.field, `${this.bytes.length} bytes holding every coded symbol`, 'a stream that ends early (truncated)');
      this.range *= 256;
      this.code = this.code * 256 + this.bytes[this.pos++]!;
    }
    return bit;
  }

  /** The end-of-stream check: all bytes consumed and the final code value 0 (else the data is corrupt). */
  finish(): void {
    if (this.pos !== this.bytes.length) throw new ReplayFormatError(this.file, this.field, 'no bytes after the last coded symbol', `${this.bytes.length - this.pos} more (corrupt)`);
    if (this.code !== 0) throw new ReplayFormatError(this.file, this.field, 'a range-coded stream ending on its flushed value', 'another value (corrupt)');
  }
}
