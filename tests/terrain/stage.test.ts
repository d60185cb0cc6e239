import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateStage, loadStage, roadLimits, SHIPPED_STAGES, TerrainError, type Stage, type StageStyle } from '../../terrain';
import { loadStageFromDir } from '../../terrain/node';
import { smallStageImages, smallStageToml } from './stage-helpers';

const ROOT = join(__dirname, '../../src/content/stages');

/** Max |grade| along the centreline and max |cross-slope| within ±w/4, on the macro B-spline surface. */
function drivability(s: Stage): { grade: number; cross: number } {
  const o = { h: 0, dhdx: 0, dhdz: 0 };
  let grade = 0, cross = 0;
  for (let d = s.start.distanceM; d <= s.finish.distanceM; d += 2) {
    const p = s.road.poseAt(d);
    const fx = Math.sin(p.heading), fz = Math.cos(p.heading);
    for (const l of [-p.width / 4, 0, p.width / 4]) {
      s.bspline.grid.evalInto(p.x + l * fz, p.z - l * fx, o);
      grade = Math.max(grade, Math.abs(o.dhdx * fx + o.dhdz * fz));
      cross = Math.max(cross, Math.abs(o.dhdx * fz - o.dhdz * fx));
    }
  }
  return { grade, cross };
}

describe('stage generator', () => {
  it('is deterministic: same seed → same bytes; other seed → different', () => {
    const o = { seed: 42, lengthKm: 0.5, surface: 'tarmac' as const, size: 257, relief: 0.3 };
    const a = generateStage(o), b = generateStage(o);
    expect(Buffer.from(a.files.heightPng).equals(Buffer.from(b.files.heightPng))).toBe(true);
    expect(Buffer.from(a.files.surfacePng).equals(Buffer.from(b.files.surfacePng))).toBe(true);
    expect(a.files.stageToml).toBe(b.files.stageToml);
    const c = generateStage({ ...o, seed: 43 });
    expect(c.files.stageToml).not.toBe(a.files.stageToml);
  });

  it('reproduces the shipped test-short stage byte for byte', () => {
    const g = generateStage(SHIPPED_STAGES.find((s) => s.id === 'test-short')!);
    const dir = join(ROOT, 'test-short');
    expect(g.files.stageToml).toBe(readFileSync(join(dir, 'stage.toml'), 'utf8'));
    expect(Buffer.from(g.files.heightPng).equals(readFileSync(join(dir, 'height.png')))).toBe(true);
    expect(Buffer.from(g.files.surfacePng).equals(readFileSync(join(dir, 'surface.png')))).toBe(true);
  });
});

describe('shipped stages', () => {
  const want: Record<string, { min: number; surface: string; style: StageStyle }> = {
    'forest-gravel': { min: 5000, surface: 'gravel', style: 'gravel' },
    'col-tarmac': { min: 4000, surface: 'tarmac', style: 'tarmac' },
    'snow-ridge': { min: 4000, surface: 'snow', style: 'snow' },
    'test-short': { min: 550, surface: 'gravel', style: 'gravel' },
  };
  for (const [id, w] of Object.entries(want)) {
    it(`${id}: loads, is long enough and drivable (grade and cross-slope within stated limits)`, () => {
      const s = loadStageFromDir(join(ROOT, id));
      expect(s.id).toBe(id);
      expect(s.surface).toBe(w.surface);
      expect(s.lengthM).toBeGreaterThanOrEqual(w.min);
      const lim = roadLimits(w.style);
      const d = drivability(s);
      expect(d.grade).toBeLessThanOrEqual(lim.statedMaxGrade);
      expect(d.cross).toBeLessThanOrEqual(lim.statedMaxCrossSlope);
      // the road is painted with the stage surface
      expect(s.surfaceMap.surfaceIdAt(s.start.x, s.start.z)).toBe(w.surface);
      // start on the surface, checkpoints in order
      expect(Math.abs(s.start.y - s.bspline.heightMacro(s.start.x, s.start.z))).toBeLessThan(0.05);
      for (let k = 1; k < s.checkpoints.length; k++) expect(s.checkpoints[k]!.distanceM).toBeGreaterThan(s.checkpoints[k - 1]!.distanceM);
      // no scenery on the road
      for (const it of s.scenery) {
        if (it.kind === 'tree' || it.kind === 'rock') expect(Math.abs(s.road.project(it.x, it.z).lateralM)).toBeGreaterThan(s.start.width / 2);
      }
      if (id === 'col-tarmac') {
        // hairpins: spans where the heading turns > 150° within 60 m
        let hairpins = 0;
        for (let d = s.start.distanceM; d < s.finish.distanceM - 60; d += 60) {
          let turn = s.road.poseAt(d + 60).heading - s.road.poseAt(d).heading;
          while (turn > Math.PI) turn -= 2 * Math.PI;
          while (turn < -Math.PI) turn += 2 * Math.PI;
          if (Math.abs(turn) > 2.3) hairpins++;
        }
        expect(hairpins).toBeGreaterThanOrEqual(3);
      }
      if (id === 'test-short') {
        expect(s.checkpoints.length).toBe(1);
        expect(s.checkpoints[0]!.distanceM - s.start.distanceM).toBeCloseTo(300, 0);
      }
    });
  }
});

describe('road projection', () => {
  it('returns distance along and signed lateral offset (left positive)', () => {
    const s = loadStageFromDir(join(ROOT, 'test-short'));
    for (const d of [50, 123.4, 300, 480]) {
      const p = s.road.poseAt(d);
      for (const lat of [-3, 0, 2.5]) {
        // left of heading θ is (cos θ, −sin θ)
        const x = p.x + lat * Math.cos(p.heading), z = p.z - lat * Math.sin(p.heading);
        const r = s.road.project(x, z);
        expect(r.distanceM).toBeCloseTo(d, 0);
        expect(r.lateralM).toBeCloseTo(lat, 1);
      }
    }
  });
});

describe('user stages and errors', () => {
  const img = smallStageImages();
  const png = { bytes: img.heightPng };
  const surf = img.surfacePng;
  const toml = (extra = ''): string => smallStageToml(img, extra);

  it('loads a hand-made heightmap PNG + stage.toml', () => {
    const s = loadStage({ stageToml: toml('[[checkpoints]]\ndistance_m = 100\n'), heightPng: png.bytes, surfacePng: surf }, 'user/stage.toml');
    expect(s.lengthM).toBeGreaterThan(300);
    expect(s.checkpoints[0]!.distanceM).toBe(100);
    expect(s.start.y).toBeCloseTo(100 + 0.02 * 20, 2);
  });

  it('names file, field, expectation and finding', () => {
    const load = (t: string): Stage => loadStage({ stageToml: t, heightPng: png.bytes, surfacePng: surf }, 'user/stage.toml');
    expect(() => load(toml().replace('surface = "gravel"', 'surface = "mud"'))).toThrow(TerrainError);
    expect(() => load(toml().replace('surface = "gravel"', 'surface = "mud"'))).toThrow(/user\/stage\.toml.*surface.*"mud"/);
    expect(() => load(toml().replace('width_m = 6', 'width_m = -1'))).toThrow(/user\/stage\.toml.*road\.width_m.*-1/);
    expect(() => load(toml().replace('cell_size_m = 4\nheight', 'height'))).toThrow(/heightmap\.cell_size_m.*missing/);
    expect(() => load(toml().replace('[[20, 20]', '[[-500, 20]'))).toThrow(/road\.points\.0.*inside the heightmap/);
    expect(() => load(toml('[[checkpoints]]\ndistance_m = 99999\n'))).toThrow(/checkpoints\.0\.distance_m/);
    expect(() => loadStage({ stageToml: toml(), heightPng: surf, surfacePng: surf }, 'user/stage.toml')).toThrow(/user\/h\.png.*bit depth/);
  });
});
