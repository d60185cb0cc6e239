/**
 * Drainage ditches beside a generated stage's road (terrain/README.md, "Generator: ditches"): a cos² trough
 * past the shoulder on both sides, carved into the heightmap samples, so the car's terrain contact drops a wheel
 * into it like any other terrain. The heightmap is read through a cubic B-spline that approximates its samples
 * (terrain/bspline.ts), which makes a ditch a few cells wide shallower on the surface than in the samples: the
 * samples are carved deeper by the B-spline's mean response (`ditchSurfaceGain`), so the surface's depth at the
 * ditch's centre line is the profile's depth on average over where the grid nodes fall. Deterministic: dcos only.
 */
import { dcos } from './dmath';
import { CLEARING_THRESHOLD } from './forest';

/** A ditch's size: the depth on the terrain surface and the width of the carved trough at half depth, m. */
export interface DitchProfile {
  depthM: number;
  widthM: number;
}

/** Gravel and snow stages: a ditch 0.3 m deep, 2 m wide at half depth (a forest road's drainage ditch). */
export const DEFAULT_DITCH: DitchProfile = { depthM: 0.3, widthM: 2 };
/** Stated limits of a ditch's depth and width (generator options outside are refused), m. */
export const DITCH_DEPTH_RANGE_M: readonly [number, number] = [0.1, 1];
export const DITCH_WIDTH_RANGE_M: readonly [number, number] = [1, 4];

/**
 * No ditch within this distance along the road of the start, the finish, a checkpoint or the road's ends (the
 * stage's junctions: service roads, spectator areas, gantries), m; it fades back in over DITCH_FADE_M.
 */
export const DITCH_STATION_GAP_M = 12;
export const DITCH_FADE_M = 8;
/** The road on an embankment: no ditch where the road's edge is more than this above the natural ground, m. */
export const DITCH_EMBANKMENT_M = 0.3;
/** ... fading out over this much more rise, m. */
export const DITCH_EMBANKMENT_FADE_M = 0.5;

/** Distance from the road edge to the ditch's centre line: the shoulder, then the trough's inner half, m. */
export function ditchCentreM(shoulderM: number, p: DitchProfile): number {
  return shoulderM + p.widthM;
}

/** Distance from the road edge to the ditch's outer lip (where nothing is carved any more), m. */
export function ditchOuterM(shoulderM: number, p: DitchProfile): number {
  return shoulderM + 2 * p.widthM;
}

/**
 * The trough's shape at `edgeM` metres from the road edge, 0 … 1: cos²(π/2 · u) with u = (edge − centre)/width,
 * 1 on the centre line, ½ at ± width/2 (so `widthM` is the width at half depth), 0 from ± width on (the
 * shoulder's outer edge inward, the outer lip outward).
 */
export function ditchShape(edgeM: number, shoulderM: number, p: DitchProfile): number {
  const u = (edgeM - ditchCentreM(shoulderM, p)) / p.widthM;
  if (!(Math.abs(u) < 1)) return 0;
  const c = dcos((Math.PI / 2) * u);
  return c * c;
}

/** Uniform cubic B-spline basis at t (in cells from its centre). */
function bspline3(t: number): number {
  const a = Math.abs(t);
  if (a < 1) return (4 - 6 * a * a + 3 * a * a * a) / 6;
  if (a < 2) return ((2 - a) * (2 - a) * (2 - a)) / 6;
  return 0;
}

/** Grid phases the B-spline response is averaged over. */
const GAIN_PHASES = 32;

/**
 * Depth on the B-spline surface at the centre line of a unit-depth trough sampled every `cellM` metres, across
 * the road (the 1D section: a line feature's surface section is the basis' 1D smoothing): its mean, least and
 * greatest value over where the nodes fall relative to the centre line.
 */
export function ditchSurfaceGain(widthM: number, cellM: number): { mean: number; min: number; max: number } {
  let sum = 0, min = Infinity, max = -Infinity;
  const reach = Math.ceil(widthM / cellM) + 2;
  for (let q = 0; q < GAIN_PHASES; q++) {
    const phase = q / GAIN_PHASES;
    let g = 0;
    for (let i = -reach; i <= reach; i++) {
      const x = (i + phase) * cellM;
      const u = x / widthM;
      const shape = Math.abs(u) < 1 ? dcos((Math.PI / 2) * u) ** 2 : 0;
      g += shape * bspline3(x / cellM);
    }
    sum += g;
    min = Math.min(min, g);
    max = Math.max(max, g);
  }
  return { mean: sum / GAIN_PHASES, min, max };
}

/** Smooth 0 → 1 ramp of t over [0, 1]. */
function ramp01(t: number): number {
  const c = t < 0 ? 0 : t > 1 ? 1 : t;
  return c * c * (3 - 2 * c);
}

/** How much of the ditch is carved at a distance along the road, 0 … 1: breaks at the stations and road ends. */
export function ditchStationFactor(distanceM: number, stationsM: readonly number[]): number {
  let f = 1;
  for (const s of stationsM) f = Math.min(f, ramp01((Math.abs(distanceM - s) - DITCH_STATION_GAP_M) / DITCH_FADE_M));
  return f;
}

/** How much of the ditch is carved where the road's edge stands `riseM` above the natural ground, 0 … 1. */
export function ditchEmbankmentFactor(riseM: number): number {
  return 1 - ramp01((riseM - DITCH_EMBANKMENT_M) / DITCH_EMBANKMENT_FADE_M);
}

/** How much of the ditch is carved where the side's clearing noise is `value` (none in a clearing), 0 … 1. */
export function ditchClearingFactor(value: number): number {
  return 1 - ramp01((value - CLEARING_THRESHOLD + CLEARING_FADE) / CLEARING_FADE);
}

/** Clearing noise range over which the ditch fades out before a clearing starts. */
const CLEARING_FADE = 0.1;

/** The ditch's share along one side of the road: its breaks at clearings and stations (0 … 1). */
export function ditchSideFactor(clearingValue: number, distanceM: number, stationsM: readonly number[]): number {
  return ditchClearingFactor(clearingValue) * ditchStationFactor(distanceM, stationsM);
}
