/** Small hand-made stages and PNG byte crafting for the stage tests (limits and fuzz). */
import { zlibSync } from 'fflate';
import { Heightfield, SurfaceMap } from '../../terrain';
import { PNG_SIGNATURE, pngChunk } from '../../terrain/png';

/** A 65² heightmap (4 m cells, a gentle ramp) and a matching grass surface map. */
export function smallStageImages(): { heightPng: Uint8Array; surfacePng: Uint8Array; heightScale: number; heightOffset: number } {
  const n = 65;
  const h = new Float32Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 100 + 0.08 * i;
  const png = Heightfield.fromFloat32(h, n, n, { cellSize: 4 }).toPng();
  return { heightPng: png.bytes, surfacePng: SurfaceMap.uniform('grass', n, n, 4).toPng(), heightScale: png.heightScale, heightOffset: png.heightOffset };
}

/** stage.toml for `smallStageImages` (256 m square), with `extra` TOML appended. */
export function smallStageToml(img: { heightScale: number; heightOffset: number }, extra = ''): string {
  return `format = 1
id = "my-stage"
name = "Mine"
surface = "gravel"
[heightmap]
file = "h.png"
cell_size_m = 4
height_scale_m = ${img.heightScale}
height_offset_m = ${img.heightOffset}
[surface_map]
file = "s.png"
cell_size_m = 4
[road]
width_m = 6
points = [[20, 20], [100, 40], [200, 120], [240, 240]]
${extra}`;
}

/** Concatenates byte arrays. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** IHDR data: width, height, bit depth, colour type, compression, filter, interlace. */
export function ihdr(width: number, height: number, depth: number, colorType = 0, interlace = 0): Uint8Array {
  const d = new Uint8Array(13);
  const dv = new DataView(d.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  d.set([depth, colorType, 0, 0, interlace], 8);
  return d;
}

/** A PNG whose header says one thing and whose IDAT inflates to `raw` (any length), plus `extra` chunks before it. */
export function craftPng(header: Uint8Array, raw: Uint8Array, extra: Uint8Array[] = []): Uint8Array {
  return concat([PNG_SIGNATURE, pngChunk('IHDR', header), ...extra, pngChunk('IDAT', zlibSync(raw)), pngChunk('IEND', new Uint8Array(0))]);
}
