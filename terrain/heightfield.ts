/**
 * Heightfield: a regular grid of heights on the X–Z plane (height y = h(x, z), +Y up, metres).
 * Sample (i, j) lies at x = origin.x + i·cellSize, z = origin.z + j·cellSize and is stored at
 * heights[j·width + i] (rows along +Z). `width` counts samples along X, `depth` along Z.
 */
import { TerrainError } from './errors';
import { encodeGrayPng } from './png';
import { decodeBoundedPng } from './png-guard';

/** Largest heightmap side, samples (2¹¹+1: 4.2 M samples, ~60 MB with the B-spline grid; 8193² would take 1.3 GB). */
export const HEIGHTMAP_MAX_SIDE = 2049;

export interface HeightfieldMeta {
  /** Distance between neighbouring samples, m. */
  cellSize: number;
  /** World position of sample (0, 0). */
  origin?: { x: number; z: number };
}

/** Metadata to turn 16-bit PNG values v into metres: h = heightOffset + heightScale · v / 65535. */
export interface HeightPngMeta extends HeightfieldMeta {
  heightScale: number;
  heightOffset: number;
  /** If given, the image must have exactly this many samples per side. */
  size?: number;
  /** If true (default), the side must be 2ⁿ+1 samples (needed by the geomipmap). */
  requirePow2Plus1?: boolean;
}

export function isPow2Plus1(n: number): boolean {
  const m = n - 1;
  return m >= 1 && (m & (m - 1)) === 0;
}

function checkNumber(file: string, field: string, v: unknown, positive: boolean): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || (positive && v <= 0)) {
    throw new TerrainError(file, field, positive ? 'a finite number > 0' : 'a finite number', v === undefined ? 'nothing (missing)' : String(v));
  }
  return v;
}

export class Heightfield {
  readonly width: number;
  readonly depth: number;
  readonly cellSize: number;
  readonly origin: { x: number; z: number };
  readonly heights: Float32Array;

  constructor(width: number, depth: number, cellSize: number, origin: { x: number; z: number }, heights: Float32Array) {
    this.width = width;
    this.depth = depth;
    this.cellSize = cellSize;
    this.origin = { x: origin.x, z: origin.z };
    this.heights = heights;
  }

  /** World extent covered by the samples. */
  get maxX(): number {
    return this.origin.x + (this.width - 1) * this.cellSize;
  }
  get maxZ(): number {
    return this.origin.z + (this.depth - 1) * this.cellSize;
  }

  at(i: number, j: number): number {
    return this.heights[j * this.width + i]!;
  }

  /** Wraps heights (metres, row-major, rows along +Z). `fileName` only labels errors. */
  static fromFloat32(heights: Float32Array | ArrayLike<number>, width: number, depth: number, meta: HeightfieldMeta, fileName = '<heights>'): Heightfield {
    if (!Number.isInteger(width) || width < 2) throw new TerrainError(fileName, 'width', 'an integer ≥ 2', String(width));
    if (!Number.isInteger(depth) || depth < 2) throw new TerrainError(fileName, 'depth', 'an integer ≥ 2', String(depth));
    if (heights.length !== width * depth) {
      throw new TerrainError(fileName, 'heights', `${width}×${depth} = ${width * depth} samples`, `${heights.length}`);
    }
    const cell = checkNumber(fileName, 'cellSize', meta?.cellSize, true);
    const origin = meta.origin ?? { x: 0, z: 0 };
    checkNumber(fileName, 'origin.x', origin.x, false);
    checkNumber(fileName, 'origin.z', origin.z, false);
    const h = heights instanceof Float32Array ? heights : Float32Array.from(heights);
    for (let k = 0; k < h.length; k++) {
      if (!Number.isFinite(h[k]!)) throw new TerrainError(fileName, `heights[${k}]`, 'a finite height', String(h[k]));
    }
    return new Heightfield(width, depth, cell, origin, h);
  }

  /**
   * Decodes a 16-bit one-channel grayscale PNG: h = heightOffset + heightScale · v / 65535 (metres). The header is
   * checked against HEIGHTMAP_MAX_SIDE before anything is inflated (png-guard.ts).
   */
  static fromPng(bytes: Uint8Array, meta: HeightPngMeta | undefined, fileName: string): Heightfield {
    if (!meta) throw new TerrainError(fileName, 'metadata', 'cellSize, heightScale and heightOffset', 'nothing (missing)');
    const cell = checkNumber(fileName, 'cellSize', meta.cellSize, true);
    const scale = checkNumber(fileName, 'heightScale', meta.heightScale, false);
    const offset = checkNumber(fileName, 'heightOffset', meta.heightOffset, false);
    const png = decodeBoundedPng(bytes, { depth: 16, maxSide: HEIGHTMAP_MAX_SIDE, what: '16-bit grayscale heights' }, fileName);
    if (png.width !== png.height) throw new TerrainError(fileName, 'image size', 'a square image', `${png.width}×${png.height}`);
    if (meta.size !== undefined && png.width !== meta.size) {
      throw new TerrainError(fileName, 'image size', `${meta.size}×${meta.size} (from metadata)`, `${png.width}×${png.height}`);
    }
    if ((meta.requirePow2Plus1 ?? true) && !isPow2Plus1(png.width)) {
      throw new TerrainError(fileName, 'image size', '2ⁿ+1 samples per side (e.g. 257, 513, 1025, 2049)', `${png.width}×${png.height}`);
    }
    const n = png.width;
    const src = png.data;
    const h = new Float32Array(n * n);
    const k = scale / 65535;
    for (let i = 0; i < h.length; i++) h[i] = offset + k * src[i]!;
    return new Heightfield(n, n, cell, meta.origin ?? { x: 0, z: 0 }, h);
  }

  /**
   * Quantises to a 16-bit PNG. Returns the bytes and the scale/offset to store beside them.
   * Offset/scale are rounded outward to whole metres so they print exactly in stage.toml.
   */
  toPng(): { bytes: Uint8Array; heightScale: number; heightOffset: number } {
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of this.heights) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const offset = Math.floor(lo) - 1;
    const scale = Math.max(1, Math.ceil(hi) + 1 - offset);
    const q = new Uint16Array(this.heights.length);
    for (let i = 0; i < q.length; i++) q[i] = Math.max(0, Math.min(65535, Math.round(((this.heights[i]! - offset) / scale) * 65535)));
    return { bytes: encodeGrayPng(q, this.width, this.depth, 16), heightScale: scale, heightOffset: offset };
  }
}
