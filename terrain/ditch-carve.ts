/**
 * Carves the drainage ditches (terrain/ditch.ts) into a generated stage's heightmap samples, after the road's
 * cross-section is blended into the natural terrain: each sample within the trough is lowered by the profile's
 * shape × the sample depth (the surface depth over the B-spline's mean response), times the breaks' factors.
 */
import { ditchEmbankmentFactor, ditchShape, ditchSurfaceGain, type DitchProfile } from './ditch';

export interface DitchCarveInput {
  /** Heights after the road is carved (lowered in place), and the natural terrain, per sample, m. */
  heights: Float32Array;
  nat: Float32Array;
  /** Per sample: squared distance to the road (∞ out of reach), road parameter, signed lateral offset (m). */
  d2: Float32Array;
  s: Float32Array;
  lat: Float32Array;
  profile: DitchProfile;
  shoulderM: number;
  halfWidthM: number;
  cellM: number;
  /** Distance along the road (m) at road parameter s. */
  distanceAt: (s: number) => number;
  /** Height of the road's edge on one side (1 left, −1 right) at road parameter s, m. */
  edgeHeightAt: (s: number, side: number) => number;
  /** The ditch's share on one side at road parameter s, distance d (surface mix, clearings, stations), 0 … 1. */
  factorAt: (s: number, distanceM: number, side: number) => number;
}

export function carveDitches(c: DitchCarveInput): void {
  const sampleDepth = c.profile.depthM / ditchSurfaceGain(c.profile.widthM, c.cellM).mean;
  for (let idx = 0; idx < c.heights.length; idx++) {
    if (c.d2[idx] === Infinity) continue;
    const lat = c.lat[idx]!;
    const shape = ditchShape(Math.abs(lat) - c.halfWidthM, c.shoulderM, c.profile);
    if (shape === 0) continue;
    const s = c.s[idx]!;
    const side = lat > 0 ? 1 : -1;
    const share = c.factorAt(s, c.distanceAt(s), side) * ditchEmbankmentFactor(c.edgeHeightAt(s, side) - c.nat[idx]!);
    c.heights[idx] = c.heights[idx]! - sampleDepth * shape * share;
  }
}
