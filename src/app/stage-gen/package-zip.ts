/**
 * Reading an untrusted zip (a stage package) without trusting it: the central directory is read first and every
 * entry's name, method and declared sizes are checked against the caller's caps before anything is inflated;
 * each entry is then inflated into a buffer one byte longer than it declared (a zip bomb that lies about its size
 * stops there), and its real size and CRC-32 must match. Every refusal is a ContentError naming the file.
 */
import { inflateSync } from 'fflate';
import { crc32 } from '../../../terrain/crc32';
import { ContentError } from '../../validate/errors';

/** The caps: most entries, and per entry name the most bytes it may declare. */
export interface ZipCaps {
  maxEntries: number;
  maxBytes: Readonly<Record<string, number>>;
}

interface EntryInfo {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD_SIG = 0x06054b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const EOCD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;
const CENTRAL_HEADER_BYTES = 46;
const LOCAL_HEADER_BYTES = 30;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
/** Sizes of 0xFFFFFFFF mean ZIP64 (a file over 4 GiB): never a stage. */
const ZIP64_MARK = 0xffffffff;

const mib = (n: number): string => `${(n / 1048576).toFixed(n < 1048576 ? 3 : 1)} MiB`;

/** Offset of the end-of-central-directory record, searched back over the largest comment. */
function findEocd(b: Uint8Array, v: DataView, file: string): number {
  for (let p = b.length - EOCD_BYTES; p >= Math.max(0, b.length - EOCD_BYTES - MAX_COMMENT_BYTES); p--) {
    if (v.getUint32(p, true) === EOCD_SIG) return p;
  }
  throw new ContentError(file, ['(whole file): expected a stage package (a zip file), found no zip directory (not a zip, or the file is cut short)']);
}

/** The central directory's entries, each checked against the caps (names, counts, declared sizes). */
function readDirectory(b: Uint8Array, caps: ZipCaps, file: string): EntryInfo[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const eocd = findEocd(b, v, file);
  const count = v.getUint16(eocd + 10, true);
  const cdSize = v.getUint32(eocd + 12, true);
  const cdOffset = v.getUint32(eocd + 16, true);
  if (count > caps.maxEntries) throw new ContentError(file, [`(whole file): expected at most ${caps.maxEntries} files in a stage package, found ${count}`]);
  if (cdOffset + cdSize > eocd) throw new ContentError(file, ['(whole file): expected a complete zip directory, found one pointing past the end (the file is cut short)']);
  const td = new TextDecoder('utf-8', { fatal: false });
  const out: EntryInfo[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + CENTRAL_HEADER_BYTES > eocd || v.getUint32(p, true) !== CENTRAL_SIG) throw new ContentError(file, [`zip directory entry ${i}: expected a file header, found damaged data`]);
    const nameLen = v.getUint16(p + 28, true);
    const e: EntryInfo = {
      name: td.decode(b.subarray(p + CENTRAL_HEADER_BYTES, Math.min(eocd, p + CENTRAL_HEADER_BYTES + nameLen))),
      method: v.getUint16(p + 10, true),
      crc: v.getUint32(p + 16, true),
      compressedSize: v.getUint32(p + 20, true),
      size: v.getUint32(p + 24, true),
      localOffset: v.getUint32(p + 42, true),
    };
    checkEntry(e, caps, file, out);
    out.push(e);
    p += CENTRAL_HEADER_BYTES + nameLen + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return out;
}

function checkEntry(e: EntryInfo, caps: ZipCaps, file: string, seen: readonly EntryInfo[]): void {
  const cap = caps.maxBytes[e.name];
  if (cap === undefined) throw new ContentError(file, [`(whole file): expected a BitRally stage package (${Object.keys(caps.maxBytes).join(', ')}), found a zip holding ${JSON.stringify(e.name.slice(0, 80))}`]);
  if (seen.some((s) => s.name === e.name)) throw new ContentError(file, [`${e.name}: expected once, found twice`]);
  if (e.method !== METHOD_STORED && e.method !== METHOD_DEFLATE) throw new ContentError(file, [`${e.name}: expected stored or deflate compression, found method ${e.method}`]);
  if (e.size === ZIP64_MARK || e.compressedSize === ZIP64_MARK || e.size > cap) {
    throw new ContentError(file, [`${e.name}: declared size expected at most ${mib(cap)}, found ${e.size === ZIP64_MARK ? 'over 4 GiB (ZIP64)' : mib(e.size)} (refused before inflating)`]);
  }
  if (e.method === METHOD_STORED && e.compressedSize !== e.size) throw new ContentError(file, [`${e.name}: stored data expected ${e.size} bytes (declared), found ${e.compressedSize}`]);
}

/** One entry's bytes: inflated into at most its declared size + 1, then its size and CRC-32 checked. */
function readEntry(b: Uint8Array, e: EntryInfo, file: string): Uint8Array {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const lh = e.localOffset;
  if (lh + LOCAL_HEADER_BYTES > b.length || v.getUint32(lh, true) !== LOCAL_SIG) throw new ContentError(file, [`${e.name}: expected its data in the file, found damaged data (the file is cut short)`]);
  const start = lh + LOCAL_HEADER_BYTES + v.getUint16(lh + 26, true) + v.getUint16(lh + 28, true);
  if (start + e.compressedSize > b.length) throw new ContentError(file, [`${e.name}: expected ${e.compressedSize} bytes of data, found ${Math.max(0, b.length - start)} (the file is cut short)`]);
  const raw = b.subarray(start, start + e.compressedSize);
  let data: Uint8Array;
  if (e.method === METHOD_STORED) data = raw.slice();
  else {
    try {
      data = inflateSync(raw, { out: new Uint8Array(e.size + 1) });
    } catch (err) {
      throw new ContentError(file, [`${e.name}: expected deflate data, found damaged data (${(err as Error).message})`]);
    }
  }
  if (data.length !== e.size) throw new ContentError(file, [`${e.name}: expected ${e.size} bytes (its declared size), found ${data.length > e.size ? 'more (a zip bomb or a damaged file)' : data.length}`]);
  const crc = crc32(data);
  if (crc !== e.crc) throw new ContentError(file, [`${e.name}: expected CRC-32 ${e.crc.toString(16)}, found ${crc.toString(16)} (damaged file)`]);
  return data;
}

/** Every entry of the zip by name, after the whole directory passed the caps. */
export function readBoundedZip(bytes: Uint8Array, caps: ZipCaps, file: string): Map<string, Uint8Array> {
  const entries = readDirectory(bytes, caps, file);
  return new Map(entries.map((e) => [e.name, readEntry(bytes, e, file)]));
}
