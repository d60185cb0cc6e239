/**
 * Drainage ditches (terrain/ditch.ts, terrain/ditch-carve.ts). A gravel stage on flat natural ground (relief 0:
 * the road is never on an embankment, so a side's share of the ditch is its clearing and station factors only)
 * is generated with and without ditches; at stations every 23 m along the road the macro B-spline surface's
 * difference across the road is the ditch as drawn. Its depth on the centre line is depth × share, within the
 * spread of the cubic B-spline's response over where the grid nodes fall relative to the ditch (the 1D model
 * `ditchSurfaceGain`: the samples are carved to depth / mean response, so the surface's depth lies between
 * min/mean and max/mean of the depth), plus 2 cm for the 2D surface of a curved road and the heightmap's 16-bit
 * steps. The width at half depth is the profile's width widened by the B-spline: the same 1D model's smoothed
 * section, measured the same way. The road itself is not carved: inside 0.5 m of its edges the surface moves by
 * less than the gravel detail layer's 3 cm amplitude (the B-spline reaches 2 cells, 4 m, from a carved sample).
 */
import { describe, expect, it } from 'vitest';
import { generateStage, type GenerateOptions, type Stage } from '../../terrain';
import { DEFAULT_DITCH, ditchCentreM, ditchEmbankmentFactor, ditchShape, ditchSideFactor, ditchSurfaceGain, DITCH_EMBANKMENT_M, DITCH_STATION_GAP_M } from '../../terrain/ditch';
import { createClearingNoise } from '../../terrain/forest';

const SHOULDER_M = 1;
const CELL_M = 2;
const BASE: GenerateOptions = { seed: 11, lengthKm: 1.2, surface: 'gravel', size: 513, relief: 0, scenery: false };
/** Slack for the 2D surface of a curved road and the 16-bit height steps, m. */
const SURFACE_SLACK_M = 0.02;

/** Macro-surface lowering by the ditch (no-ditch − ditch) at `e` m past the road edge on one side of a station. */
function lowering(withDitch: Stage, without: Stage, d: number, side: number, e: number): number {
  const p = withDitch.road.poseAt(d);
  const off = side * (p.width / 2 + e);
  const x = p.x + off * Math.cos(p.heading), z = p.z - off * Math.sin(p.heading);
  return without.bspline.heightMacro(x, z) - withDitch.bspline.heightMacro(x, z);
}

/** Width (m) where a lowering section f(e) exceeds half of f at the centre, scanned in 5 cm steps. */
function halfDepthWidth(f: (e: number) => number, centre: number): number {
  const half = f(centre) / 2;
  let lo = centre, hi = centre;
  while (f(lo) > half && lo > centre - 8) lo -= 0.05;
  while (f(hi) > half && hi < centre + 8) hi += 0.05;
  return hi - lo;
}

/** The 1D model: the cubic B-spline section through a unit ditch sampled every CELL_M with the nodes at `phase`. */
function modelSection(phase: number): (e: number) => number {
  const c = ditchCentreM(SHOULDER_M, DEFAULT_DITCH);
  const b3 = (t: number): number => {
    const a = Math.abs(t);
    return a < 1 ? (4 - 6 * a * a + 3 * a * a * a) / 6 : a < 2 ? (2 - a) ** 3 / 6 : 0;
  };
  return (e) => {
    let s = 0;
    for (let i = -8; i <= 8; i++) {
      const x = c + (i + phase) * CELL_M;
      s += ditchShape(x, SHOULDER_M, DEFAULT_DITCH) * b3((e - x) / CELL_M);
    }
    return s;
  };
}

describe('drainage ditches', () => {
  const a = generateStage(BASE);
  const b = generateStage({ ...BASE, ditch: false });
  const sa = a.stage, sb = b.stage;
  const stations = [0, sa.start.distanceM, sa.finish.distanceM, ...sa.checkpoints.map((cp) => cp.distanceM), sa.road.lengthM];
  const clearing = createClearingNoise(BASE.seed);
  const gain = ditchSurfaceGain(DEFAULT_DITCH.widthM, CELL_M);
  const centre = ditchCentreM(SHOULDER_M, DEFAULT_DITCH);
  const samples: { d: number; side: number; share: number; even: boolean }[] = [];
  const shareAt = (d: number, side: number): number => ditchSideFactor(clearing(d, side), d, stations);
  for (let d = sa.start.distanceM; d <= sa.finish.distanceM; d += 23)
    for (const side of [1, -1]) {
      const share = shareAt(d, side);
      // the surface blends the samples within the B-spline's reach (2 cells) along the road too
      const even = shareAt(d - 2 * CELL_M, side) === share && shareAt(d + 2 * CELL_M, side) === share;
      samples.push({ d, side, share, even });
    }

  it('is as deep as the profile × the side\'s share on the centre line, within the B-spline\'s response spread', () => {
    let full = 0;
    for (const { d, side, share, even } of samples) {
      const depth = lowering(sa, sb, d, side, centre);
      // where the share changes within reach, the depth lies between none and the full ditch
      const [lo, hi] = even ? [share, share] : [0, 1];
      expect(depth).toBeGreaterThanOrEqual(DEFAULT_DITCH.depthM * lo * (gain.min / gain.mean) - SURFACE_SLACK_M);
      expect(depth).toBeLessThanOrEqual(DEFAULT_DITCH.depthM * hi * (gain.max / gain.mean) + SURFACE_SLACK_M);
      if (even && share === 1) full++;
    }
    expect(full).toBeGreaterThan(samples.length / 3);
  });

  it('is as wide at half depth as the profile smoothed by the B-spline (1D model over the node phases)', () => {
    const widths = Array.from({ length: 16 }, (_, q) => halfDepthWidth(modelSection(q / 16), centre));
    const wMin = Math.min(...widths), wMax = Math.max(...widths);
    expect(wMin).toBeGreaterThan(DEFAULT_DITCH.widthM);
    for (const { d, side, share, even } of samples) {
      if (share !== 1 || !even) continue;
      const w = halfDepthWidth((e) => lowering(sa, sb, d, side, e), centre);
      expect(w).toBeGreaterThanOrEqual(wMin - 0.25);
      expect(w).toBeLessThanOrEqual(wMax + 0.25);
    }
  });

  it('leaves the road surface alone: within 0.5 m of the edges it moves less than the detail layer\'s 3 cm', () => {
    for (const { d, side } of samples)
      for (let e = -sa.road.poseAt(d).width / 2; e <= -0.5; e += 0.25) expect(Math.abs(lowering(sa, sb, d, side, e))).toBeLessThan(0.03);
  });

  it('keeps the drivable width: the road and its shoulder codes in the surface map are unchanged', () => {
    expect(Buffer.from(a.files.surfacePng).equals(Buffer.from(b.files.surfacePng))).toBe(true);
    expect(sa.road.poseAt(sa.start.distanceM).width).toBe(sb.road.poseAt(sb.start.distanceM).width);
  });

  it('breaks near stations and in clearings, and where the road stands on an embankment', () => {
    expect(ditchSideFactor(0, sa.start.distanceM + DITCH_STATION_GAP_M - 1, stations)).toBe(0);
    expect(ditchSideFactor(1, sa.start.distanceM + 200, stations)).toBe(0);
    expect(ditchEmbankmentFactor(0)).toBe(1);
    expect(ditchEmbankmentFactor(DITCH_EMBANKMENT_M + 1)).toBe(0);
  });

  it('is not carved on tarmac stages (kerbs and banks) whatever the options say', () => {
    const t = { seed: 5, lengthKm: 0.5, surface: 'tarmac' as const, size: 257, relief: 0.3, scenery: false };
    const with_ = generateStage({ ...t, ditch: { depthM: 0.6, widthM: 2.5 } }), without = generateStage({ ...t, ditch: false });
    expect(Buffer.from(with_.files.heightPng).equals(Buffer.from(without.files.heightPng))).toBe(true);
  });

  it('follows the options deterministically, and the [generator] table regenerates them', () => {
    const o = { ...BASE, size: 257, lengthKm: 0.4, ditch: { depthM: 0.3, widthM: 1.5 } };
    const x = generateStage(o), y = generateStage(o), z = generateStage({ ...o, ditch: { depthM: 0.6, widthM: 1.5 } });
    expect(Buffer.from(x.files.heightPng).equals(Buffer.from(y.files.heightPng))).toBe(true);
    expect(Buffer.from(x.files.heightPng).equals(Buffer.from(z.files.heightPng))).toBe(false);
    expect(x.stage.config.generator).toMatchObject({ ditch_depth_m: 0.3, ditch_width_m: 1.5 });
  });

  it('refuses a depth or width outside the stated ranges, naming the option', () => {
    expect(() => generateStage({ ...BASE, ditch: { depthM: 2, widthM: 2 } })).toThrow(/ditch\.depthM/);
    expect(() => generateStage({ ...BASE, ditch: { depthM: 0.4, widthM: 0.2 } })).toThrow(/ditch\.widthM/);
  });
});
