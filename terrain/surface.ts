/**
 * Surface maps (Deák §3.2: "practically any property of the terrain surface with local relevance can be
 * represented and interpolated"). The map stores one uint8 code per node = index into SURFACE_IDS. The
 * categorical type is looked up at the nearest node; continuous properties (friction scale, roughness,
 * detail amplitude, dust colour) are interpolated smoothly through the same cubic B-spline evaluator.
 * Physical friction curves per surface live in src/content/surfaces.toml (vehicle code); `frictionScale`
 * here is only a local multiplier (1 = the surface's own curve).
 */
import { BSplineGrid, type HeightSample } from './bspline';
import { TerrainError } from './errors';
import { encodeGrayPng } from './png';
import { decodeBoundedPng } from './png-guard';

/** Largest surface-map side, pixels (16.8 M codes; a ~400 KB PNG claiming 20000² would decode to 400 MB). */
export const SURFACE_MAP_MAX_SIDE = 4097;

export type SurfaceId = 'tarmac' | 'gravel' | 'snow' | 'ice' | 'grass';
/** Index = the uint8 code stored in the surface map. Never reorder (stage files depend on it). */
export const SURFACE_IDS: readonly SurfaceId[] = ['tarmac', 'gravel', 'snow', 'ice', 'grass'] as const;

export interface SurfaceRenderProps {
  /** Local multiplier on the surface's friction curve (1 = nominal). */
  frictionScale: number;
  /** Dust / kick-up colour, linear RGB 0..1. */
  dustColor: readonly [number, number, number];
  /** Visual roughness 0..1 (material). */
  roughness: number;
  /** Amplitude of the detail displacement layer on this surface, m (centimetre bumps on gravel). */
  detailAmplitudeM: number;
}

export const SURFACE_PROPS: Readonly<Record<SurfaceId, SurfaceRenderProps>> = {
  tarmac: { frictionScale: 1, dustColor: [0.35, 0.34, 0.33], roughness: 0.55, detailAmplitudeM: 0.003 },
  gravel: { frictionScale: 1, dustColor: [0.62, 0.52, 0.38], roughness: 0.9, detailAmplitudeM: 0.03 },
  snow: { frictionScale: 1, dustColor: [0.95, 0.96, 1.0], roughness: 0.7, detailAmplitudeM: 0.02 },
  ice: { frictionScale: 1, dustColor: [0.85, 0.9, 0.97], roughness: 0.1, detailAmplitudeM: 0.005 },
  grass: { frictionScale: 1, dustColor: [0.3, 0.38, 0.2], roughness: 0.95, detailAmplitudeM: 0.04 },
};

export type SurfaceProperty = 'frictionScale' | 'roughness' | 'detailAmplitudeM' | 'dustR' | 'dustG' | 'dustB';

function propValue(id: SurfaceId, prop: SurfaceProperty): number {
  const p = SURFACE_PROPS[id];
  switch (prop) {
    case 'dustR':
      return p.dustColor[0];
    case 'dustG':
      return p.dustColor[1];
    case 'dustB':
      return p.dustColor[2];
    default:
      return p[prop];
  }
}

export function surfaceCode(id: SurfaceId): number {
  return SURFACE_IDS.indexOf(id);
}

/** `surfaceAt`'s point for `surfaceAtPoint` (x at 0, z at 2). */
const AT = new Float64Array(3);

export class SurfaceMap {
  readonly width: number;
  readonly depth: number;
  readonly cellSize: number;
  readonly origin: { x: number; z: number };
  /** Row-major codes, rows along +Z, node (i, j) at origin + (i, j)·cellSize. */
  readonly codes: Uint8Array;
  private readonly fields = new Map<SurfaceProperty, BSplineGrid>();
  private readonly invCell: number;

  constructor(width: number, depth: number, cellSize: number, origin: { x: number; z: number }, codes: Uint8Array, fileName = '<surface map>') {
    if (codes.length !== width * depth) throw new TerrainError(fileName, 'codes', `${width * depth} codes`, `${codes.length}`);
    for (let k = 0; k < codes.length; k++) {
      if (codes[k]! >= SURFACE_IDS.length) {
        throw new TerrainError(fileName, `pixel (${k % width}, ${Math.floor(k / width)})`, `a surface code 0..${SURFACE_IDS.length - 1} (${SURFACE_IDS.join(', ')})`, String(codes[k]));
      }
    }
    this.width = width;
    this.depth = depth;
    this.cellSize = cellSize;
    this.origin = { x: origin.x, z: origin.z };
    this.codes = codes;
    this.invCell = 1 / cellSize;
  }

  /** Uniform map (every node the same surface). */
  static uniform(id: SurfaceId, width: number, depth: number, cellSize: number, origin = { x: 0, z: 0 }): SurfaceMap {
    return new SurfaceMap(width, depth, cellSize, origin, new Uint8Array(width * depth).fill(surfaceCode(id)));
  }

  /** Decodes an 8-bit one-channel PNG of codes; the header is checked against SURFACE_MAP_MAX_SIDE before inflating. */
  static fromPng(bytes: Uint8Array, meta: { cellSize: number; origin: { x: number; z: number } }, fileName: string): SurfaceMap {
    const png = decodeBoundedPng(bytes, { depth: 8, maxSide: SURFACE_MAP_MAX_SIDE, what: '8-bit grayscale surface codes' }, fileName);
    return new SurfaceMap(png.width, png.height, meta.cellSize, meta.origin, new Uint8Array(png.data), fileName);
  }

  toPng(): Uint8Array {
    return encodeGrayPng(this.codes, this.width, this.depth, 8);
  }

  /** Code (index into SURFACE_IDS) at the nearest node; outside the map the border node. */
  surfaceAt(x: number, z: number): number {
    AT[0] = x;
    AT[2] = z;
    return this.surfaceAtPoint(AT);
  }

  /** `surfaceAt(p[0], p[2])` (a point's x, y, z in an array: no boxed double arguments on a hot call). */
  surfaceAtPoint(p: Float64Array): number {
    let i = Math.round((p[0]! - this.origin.x) * this.invCell);
    let j = Math.round((p[2]! - this.origin.z) * this.invCell);
    if (i < 0) i = 0;
    else if (i >= this.width) i = this.width - 1;
    if (j < 0) j = 0;
    else if (j >= this.depth) j = this.depth - 1;
    return this.codes[j * this.width + i]!;
  }

  surfaceIdAt(x: number, z: number): SurfaceId {
    return SURFACE_IDS[this.surfaceAt(x, z)]!;
  }

  /** Render properties of the surface at the nearest node. */
  propsAt(x: number, z: number): SurfaceRenderProps {
    return SURFACE_PROPS[this.surfaceIdAt(x, z)];
  }

  /**
   * Smooth field of one property, through the same B-spline evaluator (control points = property value of
   * each node's surface, box-averaged down to at most `maxSide` nodes per side to bound memory).
   */
  field(prop: SurfaceProperty, maxSide = 1025): BSplineGrid {
    const cached = this.fields.get(prop);
    if (cached) return cached;
    const step = Math.max(1, Math.ceil((Math.max(this.width, this.depth) - 1) / (maxSide - 1)));
    const w = Math.floor((this.width - 1) / step) + 1;
    const d = Math.floor((this.depth - 1) / step) + 1;
    const lut = SURFACE_IDS.map((id) => propValue(id, prop));
    const vals = new Float64Array(w * d);
    const r = step >> 1;
    for (let j = 0; j < d; j++) {
      for (let i = 0; i < w; i++) {
        let sum = 0;
        let cnt = 0;
        for (let b = -r; b <= r; b++) {
          const jj = j * step + b;
          if (jj < 0 || jj >= this.depth) continue;
          for (let a = -r; a <= r; a++) {
            const ii = i * step + a;
            if (ii < 0 || ii >= this.width) continue;
            sum += lut[this.codes[jj * this.width + ii]!]!;
            cnt++;
          }
        }
        vals[j * w + i] = sum / cnt;
      }
    }
    const g = new BSplineGrid(vals, w, d, this.cellSize * step, this.origin.x, this.origin.z);
    this.fields.set(prop, g);
    return g;
  }

  /** Smoothly interpolated property value at (x, z). */
  property(prop: SurfaceProperty, x: number, z: number): number {
    return this.field(prop).value(x, z);
  }

  /** Smooth property value and gradient at (x, z), written into `out`. */
  propertyInto(prop: SurfaceProperty, x: number, z: number, out: HeightSample): void {
    this.field(prop).evalInto(x, z, out);
  }
}
