/**
 * Minimal deterministic grayscale PNG encoder (8- or 16-bit, one channel) with the Paeth row filter, which
 * compresses smooth heightmaps far better than the unfiltered output of fast-png's encoder. Decoding uses
 * fast-png. Same input → same bytes (fflate's zlib at a fixed level).
 */
import { zlibSync } from 'fflate';
import { crc32 } from './crc32';

/** One PNG chunk: length, type, data, CRC-32 over type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** The eight bytes every PNG file starts with. */
export const PNG_SIGNATURE: Uint8Array = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Encodes a one-channel image; `data` is row-major, `width` × `height` samples. */
export function encodeGrayPng(data: Uint8Array | Uint16Array, width: number, height: number, depth: 8 | 16): Uint8Array {
  const bpp = depth / 8;
  const stride = width * bpp;
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x]!;
      if (depth === 16) {
        raw[y * stride + 2 * x] = (v >>> 8) & 0xff;
        raw[y * stride + 2 * x + 1] = v & 0xff;
      } else raw[y * stride + x] = v & 0xff;
    }
  }
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1);
    filtered[o] = 4; // Paeth
    for (let i = 0; i < stride; i++) {
      const cur = raw[y * stride + i]!;
      const a = i >= bpp ? raw[y * stride + i - bpp]! : 0;
      const b = y > 0 ? raw[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= bpp ? raw[(y - 1) * stride + i - bpp]! : 0;
      filtered[o + 1 + i] = (cur - paeth(a, b, c)) & 0xff;
    }
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = depth;
  ihdr[9] = 0; // grayscale
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const idat = zlibSync(filtered, { level: 9, mem: 8 });
  const parts = [PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
