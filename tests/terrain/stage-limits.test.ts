/**
 * Stage folders and stage images (issue #16, "stage folders" and "paths and images"): every case the fuzz campaign
 * found is refused by the loader with a TerrainError (a ContentError) naming the file and key, before anything big
 * is allocated; a stage at the image caps loads within the documented memory cap.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadStage, SurfaceMap, TerrainError, Heightfield, type Stage } from '../../terrain';
import { HEIGHTMAP_MAX_SIDE } from '../../terrain/heightfield';
import { SURFACE_MAP_MAX_SIDE } from '../../terrain/surface';
import { decodeBoundedPng, readPngHeader } from '../../terrain/png-guard';
import { encodeGrayPng, pngChunk } from '../../terrain/png';
import { STAGE_LIMITS, STAGE_MEMORY_CAP_BYTES } from '../../terrain/stage-limits';
import { loadStageFromDir } from '../../terrain/node';
import { ContentError } from '../../src/validate/errors';
import { craftPng, ihdr, smallStageImages, smallStageToml } from './stage-helpers';

const img = smallStageImages();
const load = (toml: string, files: Partial<{ heightPng: Uint8Array; surfacePng: Uint8Array }> = {}): Stage =>
  loadStage({ stageToml: toml, heightPng: files.heightPng ?? img.heightPng, surfacePng: files.surfacePng ?? img.surfacePng }, 'user/stage.toml');

function refusal(fn: () => unknown): TerrainError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TerrainError);
    expect(e).toBeInstanceOf(ContentError);
    return e as TerrainError;
  }
  throw new Error('expected a TerrainError');
}

const scenery = (radius: number, item: string): string => `[[scenery]]\nkind = "tree"\nradius_m = ${radius}\nheight_m = 10\nitems = [${item}]\n`;

describe('stage.toml: the fuzz campaign cases', () => {
  it('the hand-made stage loads (the baseline every case mutates)', () => {
    expect(load(smallStageToml(img, scenery(0.4, '[60, 200, 0, 1]'))).scenery).toHaveLength(1);
  });
  it.each([
    ['scenery radius 1e7', scenery(1e7, '[60, 200, 0, 1]'), 'scenery.0.radius_m', '0.01 … 50 m', '10000000'],
    ['scenery scale 1e9', scenery(0.4, '[60, 200, 0, 1e9]'), 'scenery.0.items.0.3', '0.05 … 20', '1000000000'],
    ['scenery coordinates 1e308', scenery(0.4, '[1e308, 200, 0, 1]'), 'scenery.0.items.0.0', '-100000 … 100000 m', '1e+308'],
  ])('%s is refused naming the key', (_name, extra, field, expected, found) => {
    const e = refusal(() => load(smallStageToml(img, extra)));
    expect([e.file, e.field, e.expected, e.found]).toEqual(['user/stage.toml', field, expected, found]);
  });
  it('road coordinates 1e308 and a huge road.points are refused', () => {
    expect(refusal(() => load(smallStageToml(img).replace('[[20, 20]', '[[1e308, 20]'))).field).toBe('road.points.0.0');
    const many = Array.from({ length: STAGE_LIMITS.roadPoints + 1 }, (_, k) => `[${20 + (k % 200)}, ${20 + Math.floor(k / 200)}]`).join(',');
    const e = refusal(() => load(smallStageToml(img).replace(/points = \[\[20.*\n/, `points = [${many}]\n`)));
    expect([e.field, e.expected]).toEqual(['road.points', `Too big: expected array to have <=${STAGE_LIMITS.roadPoints} items`]);
  });
  it('scenery inside its range but outside the heightmap, and a footprint over the cap', () => {
    expect(refusal(() => load(smallStageToml(img, scenery(0.4, '[60, 900, 0, 1]')))).field).toBe('scenery.0.items.0');
    const items = Array.from({ length: 4000 }, (_, k) => `[${10 + (k % 60) * 4}, ${10 + Math.floor(k / 60) * 3}, 0, 20]`).join(',');
    const e = refusal(() => load(smallStageToml(img, scenery(50, items))));
    expect(e.field).toBe('scenery');
    expect(e.expected).toContain(`≤ ${STAGE_LIMITS.sceneryFootprintM2} m²`);
  });
  it('degenerate road geometry: coincident control points', () => {
    const e = refusal(() => load(smallStageToml(img).replace('[100, 40], [200, 120]', '[100, 40], [100, 40.1]')));
    expect([e.field, e.expected]).toEqual(['road.points.2', 'control points at least 0.5 m from the previous one']);
  });
  it('PNG names are plain file names: nothing outside the stage folder is read', () => {
    const e = refusal(() => load(smallStageToml(img).replace('file = "h.png"', 'file = "../../../../etc/passwd"')));
    expect([e.field, e.expected]).toEqual(['heightmap.file', 'a PNG file name in the stage folder (no path)']);
    expect(refusal(() => load(smallStageToml(img).replace('file = "s.png"', 'file = "/tmp/s.png"'))).field).toBe('surface_map.file');
  });
  it('unknown keys and deep nesting are refused (parseTomlFile caps nesting before parsing)', () => {
    expect(refusal(() => load(smallStageToml(img).replace('cell_size_m = 4\n[road]', 'cell_size_m = 4\ncel_size = 1\n[road]'))).field).toBe('surface_map');
    const deep = smallStageToml(img, `x = ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
    expect(() => load(deep)).toThrow(/user\/stage\.toml: line \d+, column \d+: expected brackets nested at most 64 deep/);
  });
});

describe('stage images: header read before decoding', () => {
  it('a zero-size header is refused instead of giving NaN', () => {
    const png = craftPng(ihdr(0, 65, 8), new Uint8Array(0));
    const e = refusal(() => load(smallStageToml(img), { surfacePng: png }));
    expect([e.file, e.field, e.found]).toEqual(['user/s.png', 'image size', '0×65']);
    expect(refusal(() => load(smallStageToml(img), { heightPng: craftPng(ihdr(1, 1, 16), new Uint8Array(3)) })).found).toBe('1×1');
  });
  it('a small surface PNG claiming 10000² (100 MB decoded) is refused from its header', () => {
    const png = craftPng(ihdr(10_000, 10_000, 8), new Uint8Array(10_001)); // one row of data: the header alone decides
    expect(png.length).toBeLessThan(1000);
    const e = refusal(() => SurfaceMap.fromPng(png, { cellSize: 1, origin: { x: 0, z: 0 } }, 's.png'));
    expect([e.field, e.expected, e.found]).toEqual(['image size', `2×2 … ${SURFACE_MAP_MAX_SIDE}×${SURFACE_MAP_MAX_SIDE} pixels (stage image cap, read from the header)`, '10000×10000']);
  });
  it('an 8193² heightmap is refused from its header', () => {
    const e = refusal(() => Heightfield.fromPng(craftPng(ihdr(8193, 8193, 16), new Uint8Array(16387)), { cellSize: 1, heightScale: 1, heightOffset: 0 }, 'h.png'));
    expect([e.field, e.found]).toEqual(['image size', '8193×8193']);
    expect(HEIGHTMAP_MAX_SIDE).toBe(2049);
  });
  it('a decompression bomb (data inflating past what the header implies) is refused while inflating', () => {
    const bomb = craftPng(ihdr(2, 2, 8), new Uint8Array(4 * 1024 * 1024)); // 4 MB of zeros for 6 bytes of pixels
    expect(bomb.length).toBeLessThan(8000);
    const e = refusal(() => decodeBoundedPng(bomb, { depth: 8, maxSide: 64, what: 'codes' }, 'b.png'));
    expect([e.field, e.expected, e.found]).toEqual(['image data', '6 bytes of pixel data (from the header)', 'more (a decompression bomb)']);
  });
  it('truncated data, chunks past the end, garbage and other formats are refused', () => {
    const short = craftPng(ihdr(4, 4, 8), new Uint8Array(10));
    expect(refusal(() => decodeBoundedPng(short, { depth: 8, maxSide: 64, what: 'codes' }, 'p.png')).found).toBe('10 bytes');
    const good = craftPng(ihdr(4, 4, 8), new Uint8Array(20));
    expect(refusal(() => decodeBoundedPng(good.subarray(0, good.length - 20), { depth: 8, maxSide: 64, what: 'codes' }, 'p.png')).field).toBe('image');
    expect(refusal(() => readPngHeader(new TextEncoder().encode('not a png at all, not at all, no'), 'p.png')).field).toBe('image');
    expect(refusal(() => decodeBoundedPng(craftPng(ihdr(4, 4, 8, 2), new Uint8Array(52)), { depth: 8, maxSide: 64, what: 'codes' }, 'p.png')).found).toBe('PNG colour type 2');
    expect(refusal(() => decodeBoundedPng(good, { depth: 16, maxSide: 64, what: 'heights' }, 'p.png')).field).toBe('bit depth');
  });
  it('ancillary chunks are never expanded (a broken compressed iCCP profile does not reach the decoder)', () => {
    const iccp = pngChunk('iCCP', new Uint8Array([...new TextEncoder().encode('icc'), 0, 0, 1, 2, 3, 4]));
    const codes = new Uint8Array([0, 1, 2, 3, 4, 0, 1, 2, 3]);
    const raw = new Uint8Array(12);
    for (let r = 0; r < 3; r++) raw.set(codes.subarray(3 * r, 3 * r + 3), 4 * r + 1);
    const png = craftPng(ihdr(3, 3, 8), raw, [iccp]);
    expect(Array.from(decodeBoundedPng(png, { depth: 8, maxSide: 64, what: 'codes' }, 'p.png').data)).toEqual(Array.from(codes));
  });
  it('interlaced (Adam7) images decode like plain ones', () => {
    const plain = encodeGrayPng(new Uint8Array([0, 1, 2, 3, 4, 0, 1, 2, 3]), 3, 3, 8);
    const want = Array.from(decodeBoundedPng(plain, { depth: 8, maxSide: 64, what: 'codes' }, 'p.png').data);
    // Adam7 of a 3×3 image, each pass row after a filter byte 0: pass 1 (0,0); pass 4 (2,0); pass 5 (0,2),(2,2);
    // pass 6 (1,0) and (1,2) on two rows; pass 7 row 1 (x = 0..2)
    const raw = new Uint8Array([0, 0, 0, 2, 0, 1, 3, 0, 1, 0, 2, 0, 3, 4, 0]);
    const adam7 = craftPng(ihdr(3, 3, 8, 0, 1), raw);
    expect(Array.from(decodeBoundedPng(adam7, { depth: 8, maxSide: 64, what: 'codes' }, 'p.png').data)).toEqual(want);
  });
});

describe('shipped stages', () => {
  const root = join(__dirname, '../../src/content/stages');
  it.each(readdirSync(root))('%s loads within every range', (id) => {
    expect(loadStageFromDir(join(root, id)).id).toBe(id);
  });
});

/** Bytes of the distinct ArrayBuffers reachable from `root` (typed arrays, through objects, arrays and Maps). */
function typedArrayBytes(root: unknown): number {
  const seen = new Set<object>();
  const buffers = new Set<ArrayBufferLike>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (ArrayBuffer.isView(v)) buffers.add(v.buffer);
    else if (v instanceof Map) for (const e of v.values()) stack.push(e);
    else if (Array.isArray(v)) for (const e of v) stack.push(e);
    else for (const e of Object.values(v)) stack.push(e);
  }
  let n = 0;
  for (const b of buffers) n += b.byteLength;
  return n;
}

describe('memory cap', () => {
  it(`a stage at both image caps holds, with its decoding buffers, less than STAGE_MEMORY_CAP_BYTES (${STAGE_MEMORY_CAP_BYTES / 2 ** 20} MiB)`, () => {
    const n = HEIGHTMAP_MAX_SIDE, m = SURFACE_MAP_MAX_SIDE;
    const heightPng = encodeGrayPng(new Uint16Array(n * n).fill(30_000), n, n, 16);
    const surfacePng = encodeGrayPng(new Uint8Array(m * m).fill(1), m, m, 8);
    const toml = smallStageToml({ heightScale: 100, heightOffset: 0 }, '[detail]\nenabled = true\n').replace(/cell_size_m = 4/g, 'cell_size_m = 1');
    const stage = load(toml, { heightPng, surfacePng });
    expect(stage.heightfield.width).toBe(n);
    expect(stage.surfaceMap.width).toBe(m);
    const retained = typedArrayBytes(stage);
    // the walk sees the big arrays: float heights, the B-spline grid, the surface codes
    expect(retained).toBeGreaterThan(n * n * 4 + (n + 2) ** 2 * 8 + m * m);
    // transient while one image decodes (png-guard.ts, fast-png): the compressed data twice (one IDAT, the
    // critical-chunks copy) and the scanlines three times (inflated chunks, their concatenation, unfiltered pixels)
    const scanlines = Math.max(n * (1 + 2 * n), m * (1 + m));
    const transient = 2 * Math.max(heightPng.length, surfacePng.length) + 3 * scanlines;
    expect(retained + transient).toBeLessThan(STAGE_MEMORY_CAP_BYTES);
  });
});
