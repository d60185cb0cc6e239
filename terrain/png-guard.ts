/**
 * Bounded PNG decoding for untrusted stage images. The header (IHDR) is read and checked against a size cap
 * BEFORE anything is decompressed; the compressed stream is then inflated in small slices, counting the output,
 * and refused as soon as it passes the size the header implies (a ~400 KB "zlib bomb" would otherwise inflate to
 * hundreds of MB inside fast-png). Only the critical chunks (IHDR, IDAT, IEND) reach fast-png, so ancillary chunks
 * (a compressed iCCP profile, text) are never expanded. A zero-size header is refused instead of giving NaN.
 */
import { decode, type DecodedPng } from 'fast-png';
import { Unzlib } from 'fflate';
import { TerrainError } from './errors';
import { pngChunk, PNG_SIGNATURE } from './png';

/** Largest PNG file a stage may ship, bytes (a 4097² 8-bit or 2049² 16-bit image compresses far below it). */
export const MAX_PNG_FILE_BYTES = 32 * 1024 * 1024;
/** Compressed bytes inflated per step: zlib expands at most ~1032×, so one step yields ≤ ~1 MB. */
const INFLATE_SLICE_BYTES = 1024;
/** Fewest pixels a side: the cubic B-spline interpolates between at least two nodes. */
const MIN_SIDE = 2;

export interface PngHeader {
  width: number;
  height: number;
  /** Bits per sample. */
  depth: number;
  /** PNG colour type (0 = grayscale). */
  colorType: number;
  interlace: number;
}

/** What a stage image must be: grayscale of one bit depth, 2 … `maxSide` pixels a side (the B-spline needs 2). */
export interface PngExpectation {
  depth: 8 | 16;
  maxSide: number;
  /** Label of the pixel format in errors ("16-bit grayscale heights"). */
  what: string;
}

const u32 = (b: Uint8Array, o: number): number => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
const chunkType = (b: Uint8Array, o: number): string => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);

/** Signature and IHDR, without decompressing anything. */
export function readPngHeader(bytes: Uint8Array, file: string): PngHeader {
  const sigOk = bytes.length >= 33 && PNG_SIGNATURE.every((v, i) => bytes[i] === v);
  if (!sigOk || u32(bytes, 8) !== 13 || chunkType(bytes, 12) !== 'IHDR') {
    throw new TerrainError(file, 'image', 'a PNG image (signature then a 13-byte IHDR chunk)', `${bytes.length} bytes that are not one`);
  }
  const h: PngHeader = { width: u32(bytes, 16), height: u32(bytes, 20), depth: bytes[24]!, colorType: bytes[25]!, interlace: bytes[28]! };
  if (h.width === 0 || h.height === 0) throw new TerrainError(file, 'image size', 'a width and height of at least 1 pixel (PNG header)', `${h.width}×${h.height}`);
  if (bytes[26] !== 0 || bytes[27] !== 0 || h.interlace > 1) {
    throw new TerrainError(file, 'image', 'a standard PNG (deflate, filter method 0, interlace 0 or 1)', `compression ${bytes[26]}, filter ${bytes[27]}, interlace ${h.interlace}`);
  }
  return h;
}

/** Bytes of filtered scanlines the header implies (one filter byte per row, Adam7 passes when interlaced). */
export function pngRawBytes(h: PngHeader): number {
  const bpp = h.depth / 8; // grayscale, 8 or 16 bits
  if (h.interlace === 0) return h.height * (1 + h.width * bpp);
  const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;
  let n = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const pw = h.width > x0 ? Math.ceil((h.width - x0) / dx) : 0;
    const ph = h.height > y0 ? Math.ceil((h.height - y0) / dy) : 0;
    if (pw > 0 && ph > 0) n += ph * (1 + pw * bpp);
  }
  return n;
}

function checkFormat(h: PngHeader, want: PngExpectation, file: string): void {
  if (h.colorType !== 0) throw new TerrainError(file, 'channels', `1 channel (${want.what}, PNG colour type 0)`, `PNG colour type ${h.colorType}`);
  if (h.depth !== want.depth) throw new TerrainError(file, 'bit depth', want.what, `${h.depth}-bit`);
  if (h.width > want.maxSide || h.height > want.maxSide || h.width < MIN_SIDE || h.height < MIN_SIDE) {
    throw new TerrainError(file, 'image size', `${MIN_SIDE}×${MIN_SIDE} … ${want.maxSide}×${want.maxSide} pixels (stage image cap, read from the header)`, `${h.width}×${h.height}`);
  }
}

/** Offsets and lengths of the IDAT chunks; checks that every chunk lies inside the file and that IEND ends it. */
function idatRanges(bytes: Uint8Array, file: string): [number, number][] {
  const out: [number, number][] = [];
  let o = 8;
  for (;;) {
    if (o + 12 > bytes.length) throw new TerrainError(file, 'image', 'a complete PNG ending in an IEND chunk', 'a truncated file');
    const len = u32(bytes, o);
    const type = chunkType(bytes, o + 4);
    if (len > bytes.length - o - 12) throw new TerrainError(file, 'image', `a ${type} chunk inside the file`, `a chunk of ${len} bytes past the end`);
    if (type === 'IDAT') out.push([o + 8, len]);
    if (type === 'IEND') return out;
    o += 12 + len;
  }
}

/** Inflates the IDAT stream in slices, refusing it once it passes `limit` bytes; returns the inflated size. */
function inflatedSize(bytes: Uint8Array, ranges: [number, number][], limit: number, file: string): number {
  let total = 0;
  const z = new Unzlib((chunk) => {
    total += chunk.length;
  });
  try {
    for (const [start, len] of ranges) {
      for (let k = 0; k < len && total <= limit; k += INFLATE_SLICE_BYTES) {
        z.push(bytes.subarray(start + k, start + Math.min(len, k + INFLATE_SLICE_BYTES)));
      }
    }
    if (total <= limit) z.push(new Uint8Array(0), true);
  } catch (e) {
    throw new TerrainError(file, 'image data', 'a valid zlib stream', `corrupt data (${(e as Error).message})`);
  }
  if (total > limit) throw new TerrainError(file, 'image data', `${limit} bytes of pixel data (from the header)`, `more (a decompression bomb)`);
  return total;
}

/** A PNG of only IHDR, one IDAT (the concatenated data) and IEND. */
function criticalChunksOnly(bytes: Uint8Array, ranges: [number, number][]): Uint8Array {
  const idat = new Uint8Array(ranges.reduce((s, [, len]) => s + len, 0));
  let off = 0;
  for (const [start, len] of ranges) {
    idat.set(bytes.subarray(start, start + len), off);
    off += len;
  }
  const parts = [PNG_SIGNATURE, bytes.subarray(8, 33), pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/**
 * Decodes an untrusted grayscale PNG within bounded memory: file size, header dimensions and the inflated size are
 * checked before fast-png allocates the image. Every refusal is a TerrainError naming `file`.
 */
export function decodeBoundedPng(bytes: Uint8Array, want: PngExpectation, file: string): DecodedPng {
  if (bytes.length > MAX_PNG_FILE_BYTES) throw new TerrainError(file, 'file size', `at most ${MAX_PNG_FILE_BYTES} bytes`, `${bytes.length} bytes`);
  const h = readPngHeader(bytes, file);
  checkFormat(h, want, file);
  const ranges = idatRanges(bytes, file);
  const raw = pngRawBytes(h);
  const got = inflatedSize(bytes, ranges, raw, file);
  if (got < raw) throw new TerrainError(file, 'image data', `${raw} bytes of pixel data (from the header)`, `${got} bytes`);
  try {
    return decode(criticalChunksOnly(bytes, ranges));
  } catch (e) {
    throw new TerrainError(file, 'image', 'a PNG image', `undecodable data (${(e as Error).message})`);
  }
}
