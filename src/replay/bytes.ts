/**
 * Little byte tools for the replay format and the state snapshots (src/ecs/snapshot.ts): THE growable writer /
 * bounds-checked reader of the project (LEB128 varints, zig-zag signed ints, fixed-width LE numbers,
 * length-prefixed byte strings and UTF-8 strings) and CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320).
 */
const te = new TextEncoder();
const td = new TextDecoder('utf-8', { fatal: true });
export class ReplayFormatError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${file}: ${field}: expected ${expected}, found ${found}`);
    this.name = 'ReplayFormatError';
  }
}

export class ByteWriter {
  buf: Uint8Array;
  private dv: DataView;
  n = 0;
  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
    this.dv = new DataView(this.buf.buffer);
  }
  private need(k: number): void {
    if (this.n + k <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
    this.dv = new DataView(b.buffer);
  }
  u8(v: number): void {
    this.need(1);
    this.buf[this.n++] = v;
  }
  u16(v: number): void {
    this.need(2);
    this.dv.setUint16(this.n, v, true);
    this.n += 2;
  }
  u32(v: number): void {
    this.need(4);
    this.dv.setUint32(this.n, v >>> 0, true);
    this.n += 4;
  }
  i32(v: number): void {
    this.need(4);
    this.dv.setInt32(this.n, v, true);
    this.n += 4;
  }
  /** u32 length, then the bytes. */
  bytes(b: Uint8Array): void {
    this.u32(b.length);
    this.raw(b);
  }
  /** UTF-8, as `bytes`. */
  str(s: string): void {
    this.bytes(te.encode(s));
  }
  f64(v: number): void {
    this.need(8);
    this.dv.setFloat64(this.n, v, true);
    this.n += 8;
  }
  /** Unsigned LEB128 (values up to 2^53). */
  uvar(v: number): void {
    this.need(8);
    while (v >= 0x80) {
      this.buf[this.n++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
      if (this.n + 1 > this.buf.length) this.need(8);
    }
    this.buf[this.n++] = v;
  }
  /** Zig-zag signed varint. */
  svar(v: number): void {
    this.uvar(v < 0 ? -2 * v - 1 : 2 * v);
  }
  raw(b: Uint8Array): void {
    this.need(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

/** Makes the error of a failed read: field (`section.what`), expected, found. */
export type ReadFailure = (field: string, expected: string, found: string) => Error;

export class ByteReader {
  private readonly dv: DataView;
  p = 0;
  private readonly fail: ReadFailure;
  constructor(
    readonly b: Uint8Array,
    /** For error messages: file name and the section being read. */
    readonly file: string,
    readonly section: string,
    /** Error type (default: ReplayFormatError naming the file). */
    fail?: ReadFailure,
  ) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.fail = fail ?? ((field, expected, found) => new ReplayFormatError(file, field, expected, found));
  }
  get left(): number {
    return this.b.length - this.p;
  }
  private need(k: number, what: string): void {
    if (this.p + k > this.b.length) {
      throw this.fail(`${this.section}.${what}`, `${k} more byte(s) at offset ${this.p}`, `${this.b.length - this.p} (data truncated)`);
    }
  }
  u8(what: string): number {
    this.need(1, what);
    return this.b[this.p++]!;
  }
  u16(what: string): number {
    this.need(2, what);
    const v = this.dv.getUint16(this.p, true);
    this.p += 2;
    return v;
  }
  u32(what: string): number {
    this.need(4, what);
    const v = this.dv.getUint32(this.p, true);
    this.p += 4;
    return v;
  }
  f64(what: string): number {
    this.need(8, what);
    const v = this.dv.getFloat64(this.p, true);
    this.p += 8;
    return v;
  }
  uvar(what: string): number {
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.u8(what);
      v += (b & 0x7f) * mul;
      if (!(b & 0x80)) return v;
      mul *= 0x80;
    }
    throw this.fail(`${this.section}.${what}`, 'a varint of at most 8 bytes', 'a longer one (corrupt data)');
  }
  svar(what: string): number {
    const u = this.uvar(what);
    return u % 2 === 1 ? -(u + 1) / 2 : u / 2;
  }
  i32(what: string): number {
    this.need(4, what);
    const v = this.dv.getInt32(this.p, true);
    this.p += 4;
    return v;
  }
  take(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.b.subarray(this.p, this.p + n);
    this.p += n;
    return out;
  }
  /** A u32 count of items of at least `elemBytes` bytes each, checked against the bytes left. */
  count(what: string, elemBytes: number): number {
    const n = this.u32(what);
    if (n * elemBytes > this.left) throw this.fail(`${this.section}.${what}`, `at most ${Math.floor(this.left / elemBytes)} items (bytes left)`, String(n));
    return n;
  }
  /** u32 length, then the bytes (a copy). */
  bytes(what: string): Uint8Array {
    return this.take(this.count(what, 1), what).slice();
  }
  /** UTF-8, as `bytes`. */
  str(what: string): string {
    const b = this.take(this.count(what, 1), what);
    try {
      return td.decode(b);
    } catch {
      throw this.fail(`${this.section}.${what}`, 'UTF-8 text', 'invalid UTF-8');
    }
  }
}

export { crc32 } from '../../terrain/crc32';

/** 64-bit content hash (two CRC-independent multiply-xorshift lanes, like src/ecs/hash.ts) as 16 hex digits. */
export function contentHash(parts: readonly (Uint8Array | string)[]): string {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  const te = new TextEncoder();
  const mix = (w: number): void => {
    h1 = Math.imul(h1 ^ w, 0x01000193) >>> 0;
    h1 = (h1 ^ (h1 >>> 15)) >>> 0;
    h2 = Math.imul(h2 ^ w, 0x5bd1e995) >>> 0;
    h2 = (h2 ^ (h2 >>> 13)) >>> 0;
  };
  for (const part of parts) {
    const b = typeof part === 'string' ? te.encode(part) : part;
    mix(b.length);
    let i = 0;
    for (; i + 4 <= b.length; i += 4) mix(b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24));
    let tail = 0;
    for (let k = 0; i < b.length; i++, k++) tail |= b[i]! << (8 * k);
    mix(tail);
  }
  let a = Math.imul(h1 ^ (h2 >>> 16), 0x85ebca6b) >>> 0;
  let c = Math.imul(h2 ^ (a >>> 13), 0xc2b2ae35) >>> 0;
  a = (a ^ (c >>> 16)) >>> 0;
  c = (c ^ (a >>> 15)) >>> 0;
  return a.toString(16).padStart(8, '0') + c.toString(16).padStart(8, '0');
}
