/**
 * Adaptive binary range coder (the LZMA scheme: 32-bit range, carry propagation through a cached byte) with
 * 16-bit probabilities, so a symbol the model is sure of costs ≈ 0.0007 bit: a held input channel at 500 Hz
 * then costs almost nothing per tick. Used by the replay input codec (src/replay/input-codec.ts).
 *
 * A probability is P(bit = 0) × 2^16, kept in a Uint16Array slot the caller chooses (its context).
 */
import { ReplayFormatError } from './bytes';

const PROB_BITS = 16;
/** Adaptation speed: each coded bit moves its probability 1/32 of the way towards what was seen. */
const ADAPT_SHIFT = 5;
export const PROB_HALF = 1 << (PROB_BITS - 1);
const PROB_ONE = 1 << PROB_BITS;
/** Renormalise when the range falls below 2^24 (one byte shifted out at a time). */
const TOP = 2 ** 24;
const TWO_32 = 2 ** 32;
/** Bytes the encoder's flush writes after the last symbol (the cached byte + the four bytes of `low`). */
const FLUSH_BYTES = 5;

/** A fresh probability table (every context at one half). */
export function newProbs(n: number): Uint16Array {
  return new Uint16Array(n).fill(PROB_HALF);
}

/** What a symbol coder writes to: the range encoder, or the cost meter used to choose a predictor. */
export interface BitSink {
  bit(probs: Uint16Array, i: number, bit: number): void;
}

function adapt(probs: Uint16Array, i: number, p: number, bit: number): void {
  probs[i] = bit === 0 ? p + ((PROB_ONE - p) >> ADAPT_SHIFT) : p - (p >> ADAPT_SHIFT);
}

export class RangeEncoder implements BitSink {
  private low = 0;
  private range = 0xffffffff;
  private cache = 0;
  private cacheSize = 1;
  private out = new Uint8Array(256);
  private n = 0;

  bit(probs: Uint16Array, i: number, bit: number): void {
    const p = probs[i]!;
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
  bit(probs: Uint16Array, i: number, bit: number): void {
    const p = probs[i]!;
    this.bits -= Math.log2((bit === 0 ? p : PROB_ONE - p) / PROB_ONE);
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

  /** Bytes of coded data. */
  get length(): number {
    return this.bytes.length;
  }

  bit(probs: Uint16Array, i: number): number {
    const p = probs[i]!;
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
