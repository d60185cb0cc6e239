import { describe, expect, it } from 'vitest';
import { AiPath, mengerCurvature } from '../../src/systems/sim/ai/path';
import { G } from '../../src/systems/sim/ai/driver-model';

/** Centreline xyz points of a circle (CCW seen from +Y … i.e. turning left along increasing angle). */
function circle(R: number, spacing = 2): Float64Array {
  const n = Math.round((2 * Math.PI * R) / spacing);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    // heading θ = atan2(dx, dz); left = (cos θ, −sin θ). Parametrise so the centre lies on the left.
    p[3 * i] = R * Math.cos(a);
    p[3 * i + 2] = -R * Math.sin(a);
  }
  return p;
}

function straightThenBend(): Float64Array {
  // 200 m straight along +Z, a 90° left bend of radius 30 m, 200 m straight along +X? (left of +Z is +X)
  const pts: number[] = [];
  for (let z = 0; z < 200; z += 2) pts.push(0, 0, z);
  const R = 30, n = Math.round((Math.PI / 2) * R / 2);
  for (let i = 0; i < n; i++) {
    const a = ((Math.PI / 2) * i) / n;
    pts.push(R - R * Math.cos(a), 0, 200 + R * Math.sin(a));
  }
  for (let x = R; x < R + 200; x += 2) pts.push(x, 0, 200 + R);
  return Float64Array.from(pts);
}

describe('AiPath', () => {
  it('Menger curvature of three points on a circle is 1/R, + for a left turn', () => {
    const R = 25;
    const p = (a: number): [number, number] => [R * Math.cos(a), -R * Math.sin(a)];
    const [ax, az] = p(0.1), [bx, bz] = p(0.3), [cx, cz] = p(0.5);
    expect(mengerCurvature(ax, az, bx, bz, cx, cz)).toBeCloseTo(1 / R, 12);
    expect(mengerCurvature(cx, cz, bx, bz, ax, az)).toBeCloseTo(-1 / R, 12);
  });

  it('closed circle: length 2πR (chord error), curvature 1/R, profile √(μ g R), lap time 2πR / v', () => {
    const R = 60;
    const path = AiPath.fromCentreline({ points: circle(R), widths: [0] }, { closed: true, muAt: () => 0.8, racingLine: 0 });
    // inscribed polygon of n sides: L = 2 n R sin(π/n)
    const n = path.n;
    expect(path.lengthM).toBeCloseTo(2 * n * R * Math.sin(Math.PI / n), 9);
    for (let i = 0; i < n; i += 17) expect(Math.abs(path.kappa[i]! - 1 / R) * R).toBeLessThan(1e-3);
    const v = path.speedProfile({ gripUse: 1, accelMS2: 3, brakeUse: 0.8, vMaxMS: 100 });
    const vExp = Math.sqrt(0.8 * G * R);
    for (let i = 0; i < n; i += 13) expect(Math.abs(v[i]! - vExp) / vExp).toBeLessThan(1e-3);
    const t = path.profileTime(v, 0, path.lengthM);
    expect(Math.abs(t - path.lengthM / vExp) / t).toBeLessThan(2e-3);
  });

  it('locate: nearest point, arc length and signed lateral offset (+ = left = toward the centre here)', () => {
    const R = 60;
    const path = AiPath.fromCentreline({ points: circle(R), widths: [0] }, { closed: true, racingLine: 0 });
    for (const a of [0.2, 1.7, 4]) {
      for (const d of [-3, 0.5, 4]) {
        const rr = R - d; // d > 0: toward the centre = left
        const loc = path.locate(rr * Math.cos(a), -rr * Math.sin(a));
        // polygon vs circle: lateral within the sagitta R(1 − cos(π/n)) of the chord
        expect(Math.abs(loc.lateral - d)).toBeLessThan(R * (1 - Math.cos(Math.PI / path.n)) + 1e-9);
        // arc vs chord parametrisation inside one 2 m segment: |Δs| ≤ (segment length)·(1 − cos(π/n)) + chord shortening ≪ 0.1 m
        expect(Math.abs(loc.s - a * R)).toBeLessThan(0.1);
        // the windowed search from a nearby hint finds the same point
        const near = path.locate(rr * Math.cos(a), -rr * Math.sin(a), (loc.index + 5) % path.n);
        expect(near.index).toBe(loc.index);
      }
    }
  });

  it('standing start on a straight: forward pass gives v² = 2 a s (uniform acceleration)', () => {
    const pts: number[] = [];
    for (let z = 0; z <= 1000; z += 2) pts.push(0, 0, z);
    const path = AiPath.fromCentreline({ points: Float64Array.from(pts), widths: [7] }, { racingLine: 0 });
    const a = 4;
    const v = path.speedProfile({ gripUse: 1, accelMS2: a, brakeUse: 0.8, vMaxMS: 1e3 }, 0);
    for (const i of [10, 100, 300]) expect(v[i]!).toBeCloseTo(Math.sqrt(2 * a * path.s[i]!), 9);
    // the open end brakes to nothing? no: the end is a straight; the backward pass leaves it untouched
    expect(v[path.n - 1]!).toBeCloseTo(Math.sqrt(2 * a * path.s[path.n - 1]!), 9);
  });

  it('braking into a bend: backward pass gives v² = v_c² + 2 b (s_c − s) before it', () => {
    const path = AiPath.fromCentreline({ points: straightThenBend(), widths: [8] }, { racingLine: 0, muAt: () => 1 });
    const lim = { gripUse: 1, accelMS2: 100, brakeUse: 0.9, vMaxMS: 1e3, frictionCircle: false };
    const v = path.speedProfile(lim);
    // with the friction circle the car may not brake as hard while turning: never faster anywhere
    const vc2 = path.speedProfile({ ...lim, frictionCircle: true });
    for (let i = 0; i < path.n; i++) expect(vc2[i]!).toBeLessThanOrEqual(v[i]! + 1e-12);
    // the slowest point is in the bend, at the grip limit of its radius
    let ic = 0;
    for (let i = 0; i < path.n; i++) if (v[i]! < v[ic]!) ic = i;
    expect(path.s[ic]!).toBeGreaterThan(200);
    const vc = v[ic]!;
    expect(Math.abs(vc - Math.sqrt(G * 30)) / vc).toBeLessThan(0.01);
    // on the straight, well before the curvature ramp: the braking parabola from the bend speed
    const i = ic - 40;
    const b = 0.9 * G;
    // the speed at i follows the parabola from the lowest point of the approach (the ramp adds ≤ a few %)
    expect(v[i]!).toBeGreaterThan(vc);
    expect(v[i]! ** 2).toBeLessThanOrEqual(vc ** 2 + 2 * b * (path.s[ic]! - path.s[i]!) + 1e-6);
    expect(v[i]! ** 2).toBeGreaterThan(0.9 * (vc ** 2 + 2 * b * (path.s[ic]! - path.s[i]!)));
  });

  it('racing line: a straight road keeps the line on the centre (zero curvature is already optimal)', () => {
    const pts: number[] = [];
    for (let z = 0; z <= 400; z += 2) pts.push(0, 0, z);
    const path = AiPath.fromCentreline({ points: Float64Array.from(pts), widths: [8] }, { edgeMarginM: 1 });
    for (let i = 0; i < path.n; i++) expect(path.offset[i]!).toBe(0);
  });

  it('racing line: through a 90° bend it cuts the apex and lowers the peak curvature, within the road', () => {
    const src = { points: straightThenBend(), widths: [8] };
    const centre = AiPath.fromCentreline(src, { racingLine: 0 });
    const line = AiPath.fromCentreline(src, { edgeMarginM: 1 });
    const peak = (p: AiPath): number => p.kappa.reduce((m, k) => Math.max(m, Math.abs(k)), 0);
    expect(peak(line)).toBeLessThan(0.8 * peak(centre));
    for (let i = 0; i < line.n; i++) expect(Math.abs(line.offset[i]!)).toBeLessThanOrEqual(3 + 1e-12);
    // apex: the line is on the inside (left, +) in the middle of the bend, outside (−) before it
    const mid = line.indexAt(200 + (Math.PI / 4) * 30);
    expect(line.offset[mid]!).toBeGreaterThan(1.5);
    const entry = line.indexAt(185);
    expect(line.offset[entry]!).toBeLessThan(-0.5);
    // a faster profile follows
    const lim = { gripUse: 1, accelMS2: 5, brakeUse: 0.9, vMaxMS: 60 };
    const tc = centre.profileTime(centre.speedProfile(lim), 0, centre.lengthM);
    const tl = line.profileTime(line.speedProfile(lim), 0, line.lengthM);
    expect(tl).toBeLessThan(tc);
  });
});
