/**
 * The one CRC-32 of the project (IEEE 802.3 / zlib / PNG polynomial, reflected 0xedb88320): PNG chunk checksums
 * here, the `.bitrally` replay checksum (src/replay/format.ts) and the built-in car content ids (src/app). In the
 * lowest layer that needs it, so every caller can import it.
 */

/** Reflected CRC-32 polynomial (IEEE 802.3). */
const CRC32_POLY = 0xedb88320;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? CRC32_POLY ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `buf[start, end)` (the whole buffer by default), as an unsigned 32-bit number. */
export function crc32(buf: Uint8Array, start = 0, end = buf.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
