import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { circuitCurve, CIRCUIT_MIN_RADIUS_M, generateCircuit, isCircuit, SHIPPED_CIRCUITS } from '../../terrain/circuit';
import { loadStageFromDir } from '../../terrain/node';
import { AiPath } from '../../src/systems/sim/ai/path';

describe('rallycross circuit generator', () => {
  const opts = SHIPPED_CIRCUITS[0]!;
  const g = generateCircuit(opts);
  const stage = g.stage;

  it('the shipped circuit files are exactly what the generator writes (deterministic)', () => {
    const dir = `src/content/stages/${opts.id}`;
    expect(readFileSync(`${dir}/stage.toml`, 'utf8')).toBe(g.files.stageToml);
    expect(Buffer.compare(readFileSync(`${dir}/height.png`), Buffer.from(g.files.heightPng))).toBe(0);
    expect(Buffer.compare(readFileSync(`${dir}/surface.png`), Buffer.from(g.files.surfacePng))).toBe(0);
    const loaded = loadStageFromDir(dir);
    expect(loaded.lengthM).toBe(stage.lengthM);
  });

  it('is a closed loop: the finish line is the start line (position within 0.15 m, heading within 1°)', () => {
    // 0.1 m: start/finish distances are stored to 0.1 m in stage.toml
    expect(Math.hypot(stage.finish.x - stage.start.x, stage.finish.z - stage.start.z)).toBeLessThan(0.15);
    expect(Math.abs(stage.finish.heading - stage.start.heading)).toBeLessThan(Math.PI / 180);
    expect(isCircuit(stage)).toBe(true);
  });

  it('lap length equals the perimeter of the generating curve r(θ) (within 1 %: spline through 12 m control points)', () => {
    const c = circuitCurve(opts.seed, opts.radiusM ?? 140);
    let per = 0;
    const N = 20000;
    let prev = c.at(0);
    for (let i = 1; i <= N; i++) {
      const p = c.at((2 * Math.PI * i) / N);
      per += Math.hypot(p[0] - prev[0], p[1] - prev[1]);
      prev = p;
    }
    expect(Math.abs(g.lapM - per) / per).toBeLessThan(0.01);
  });

  it('no corner tighter than the generator limit (centreline radius ≥ 0.9 · limit after spline smoothing)', () => {
    const lap = lapPath(stage);
    for (let i = 0; i < lap.n; i++) expect(Math.abs(lap.kappa[i]!)).toBeLessThan(1 / (0.9 * CIRCUIT_MIN_RADIUS_M));
  });

  it('mixed surfaces: each section reads its surface on the road, both tarmac and gravel ≥ 30 % of the lap', () => {
    const lapLen = g.lapM;
    const len: Record<string, number> = {};
    g.sections.forEach(([d, s], k) => {
      const end = k + 1 < g.sections.length ? g.sections[k + 1]![0] : lapLen;
      len[s] = (len[s] ?? 0) + end - d;
      const mid = stage.road.poseAt(stage.start.distanceM + (d + end) / 2);
      expect(stage.surfaceMap.surfaceIdAt(mid.x, mid.z)).toBe(s);
    });
    expect(len.tarmac! / lapLen).toBeGreaterThan(0.3);
    expect(len.gravel! / lapLen).toBeGreaterThan(0.3);
  });

  it('the road is drivable: grade ≤ 8 % and cross slope ≤ 5 % on the macro surface', () => {
    let maxGrade = 0, maxCross = 0;
    for (let d = 0; d < g.lapM; d += 4) {
      const a = stage.road.poseAt(stage.start.distanceM + d), b = stage.road.poseAt(stage.start.distanceM + d + 4);
      const ha = stage.bspline.heightMacro(a.x, a.z), hb = stage.bspline.heightMacro(b.x, b.z);
      maxGrade = Math.max(maxGrade, Math.abs(hb - ha) / Math.hypot(b.x - a.x, b.z - a.z));
      const lx = Math.cos(a.heading), lz = -Math.sin(a.heading), w = 4;
      const hl = stage.bspline.heightMacro(a.x + w * lx, a.z + w * lz), hr = stage.bspline.heightMacro(a.x - w * lx, a.z - w * lz);
      maxCross = Math.max(maxCross, Math.abs(hl - hr) / (2 * w));
    }
    expect(maxGrade).toBeLessThan(0.08);
    expect(maxCross).toBeLessThan(0.05);
  });

  it('different seeds give different circuits; a map too small for the radius is a clear error', () => {
    const other = circuitCurve(opts.seed + 1, 140);
    expect(other.at(1)[0]).not.toBeCloseTo(circuitCurve(opts.seed, 140).at(1)[0], 3);
    expect(() => generateCircuit({ seed: 1, radiusM: 400 })).toThrow(/radiusM/);
  });
});

/** One lap of the stage road as a closed AiPath (what the rallycross mode builds). */
function lapPath(stage: ReturnType<typeof generateCircuit>['stage']): AiPath {
  const pts: number[] = [];
  const w: number[] = [];
  for (let d = 0; d < stage.lengthM - 1; d += 2) {
    const p = stage.road.poseAt(stage.start.distanceM + d);
    pts.push(p.x, p.y, p.z);
    w.push(p.width);
  }
  return AiPath.fromCentreline({ points: Float64Array.from(pts), widths: w }, { closed: true, racingLine: 0 });
}
