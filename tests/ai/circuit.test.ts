import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { circuitCurve, CIRCUIT_MIN_RADIUS_M, generateCircuit, isCircuit, SHIPPED_CIRCUITS } from '../../terrain/circuit';
import { loadStageFromDir, readStageFiles } from '../../terrain/node';
import { loadStage, TerrainError } from '../../terrain';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { RallycrossRace } from '../../src/run/race';
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

  describe('the joker road (stage.toml [joker], planned by planJoker before carving)', () => {
    const J = stage.joker!;
    const jr = J.road;
    /** Samples across the joker road every 1 m along it: offsets from its centreline, m. */
    const across = [-J.widthM / 2 + 0.5, -J.widthM / 4, 0, J.widthM / 4, J.widthM / 2 - 0.5];
    const samples = (fn: (x: number, z: number, d: number, o: number) => void): void => {
      for (let d = 0; d <= jr.lengthM; d += 1) {
        const p = jr.poseAt(d);
        const lx = Math.cos(p.heading), lz = -Math.sin(p.heading);
        for (const o of across) fn(p.x + o * lx, p.z + o * lz, d, o);
      }
    };

    it('leaves and rejoins on the main road, 9 m wide, ≥ 5 m longer than the main road it replaces, 16 m off at the middle', () => {
      expect(J.widthM).toBe(9);
      expect(g.joker).not.toBeNull();
      // the end control points are on the main centreline at the leave / rejoin distances (0.01 m rounding of
      // the control points, 0.05 m of the distances)
      const a = stage.road.poseAt(J.leaveDistanceM), b = stage.road.poseAt(J.rejoinDistanceM);
      const ja = jr.poseAt(0), jb = jr.poseAt(jr.lengthM);
      expect(Math.hypot(ja.x - a.x, ja.z - a.z)).toBeLessThan(0.1);
      expect(Math.hypot(jb.x - b.x, jb.z - b.z)).toBeLessThan(0.1);
      expect(jr.lengthM - (J.rejoinDistanceM - J.leaveDistanceM)).toBeGreaterThan(5);
      // offset 16 m · sin²(πσ) at σ = ½, through a Catmull-Rom of 15 control points: within 0.1 m
      expect(Math.abs(Math.abs(stage.road.project(J.gateX, J.gateZ).lateralM) - 16)).toBeLessThan(0.1);
      // between the leave and rejoin points, away from the start line and both checkpoints
      for (const cp of stage.checkpoints) expect(cp.distanceM < J.leaveDistanceM - 10 || cp.distanceM > J.rejoinDistanceM + 10).toBe(true);
      expect(J.leaveDistanceM - stage.start.distanceM).toBeGreaterThan(0.3 * g.lapM - 1);
    });

    it('is inside the carved corridor: its surface sits on the main road profile (within 5 cm) with grade ≤ 8 %, cross slope ≤ 5 %', () => {
      // the carving gives every node on the joker road the main road's profile height at the nearest main-road
      // point; 5 cm allows the B-spline's approximation of the 2 m grid next to the 4 cm/m shoulders
      let maxDev = 0, maxGrade = 0, maxCross = 0;
      samples((x, z) => {
        const m = stage.road.poseAt(stage.road.project(x, z).distanceM);
        maxDev = Math.max(maxDev, Math.abs(stage.bspline.heightMacro(x, z) - m.y));
      });
      for (let d = 0; d + 2 <= jr.lengthM; d += 2) {
        const a = jr.poseAt(d), b = jr.poseAt(d + 2);
        const ha = stage.bspline.heightMacro(a.x, a.z), hb = stage.bspline.heightMacro(b.x, b.z);
        maxGrade = Math.max(maxGrade, Math.abs(hb - ha) / Math.hypot(b.x - a.x, b.z - a.z));
        const lx = Math.cos(a.heading), lz = -Math.sin(a.heading), w = J.widthM / 2 - 0.5;
        const hl = stage.bspline.heightMacro(a.x + w * lx, a.z + w * lz), hr = stage.bspline.heightMacro(a.x - w * lx, a.z - w * lz);
        maxCross = Math.max(maxCross, Math.abs(hl - hr) / (2 * w));
      }
      expect(maxDev).toBeLessThan(0.05);
      expect(maxGrade).toBeLessThan(0.08);
      expect(maxCross).toBeLessThan(0.05);
    });

    it('joins the main road without a step: from the main centreline across to the joker centreline the slope stays ≤ 5 % (a 3 cm step would read 12 % over 0.25 m)', () => {
      let maxSlope = 0;
      let lines = 0;
      for (let d = 0; d <= jr.lengthM; d += 2) {
        const p = jr.poseAt(d);
        const q = stage.road.poseAt(stage.road.project(p.x, p.z).distanceM);
        const L = Math.hypot(p.x - q.x, p.z - q.z);
        if (L < 0.5) continue;
        lines++;
        const n = Math.ceil(L / 0.25);
        let prev = stage.bspline.heightMacro(q.x, q.z);
        // from the main centreline to 2 m past the joker centreline
        for (let k = 1; k <= n + 8; k++) {
          const t = k / n;
          const h = stage.bspline.heightMacro(q.x + t * (p.x - q.x), q.z + t * (p.z - q.z));
          maxSlope = Math.max(maxSlope, Math.abs(h - prev) / (L / n));
          prev = h;
        }
      }
      expect(lines).toBeGreaterThan(50);
      expect(maxSlope).toBeLessThan(0.05);
      // at the leave and rejoin points the two roads are at the same height (the same point of the profile)
      for (const [jd, md] of [[0, J.leaveDistanceM], [jr.lengthM, J.rejoinDistanceM]] as const) {
        const a = jr.poseAt(jd), b = stage.road.poseAt(md);
        expect(Math.abs(stage.bspline.heightMacro(a.x, a.z) - stage.bspline.heightMacro(b.x, b.z))).toBeLessThan(0.02);
      }
    });

    it('is surfaced gravel wherever it is off the main road, and no scenery stands on it', () => {
      let off = 0, total = 0;
      samples((x, z) => {
        total++;
        // on the main road's surface (its half width 6.5 m) the main road's own surface wins; + 0.75 m: the
        // surface map is read at its nearest 1 m node (half the cell diagonal, 0.71 m)
        if (Math.abs(stage.road.project(x, z).lateralM) <= stage.road.poseAt(J.leaveDistanceM).width / 2 + 0.75) return;
        off++;
        expect(stage.surfaceMap.surfaceIdAt(x, z)).toBe('gravel');
      });
      // the branch overlaps the main road near its ends (offset 16 m · sin²(πσ) clears both half widths, 11 m, only
      // for σ in 0.31–0.69): about half its samples are off the main road (measured 54 %)
      expect(off / total).toBeGreaterThan(0.45);
      for (const s of stage.scenery) {
        if (s.kind === 'arch') continue;
        const p = jr.poseAt(jr.project(s.x, s.z).distanceM);
        expect(Math.hypot(s.x - p.x, s.z - p.z)).toBeGreaterThan(J.widthM / 2 + 1);
      }
    });

    it('a bad [joker] table is a clear error naming the file, the key, what was expected and what was found', () => {
      const files = readStageFiles(`src/content/stages/${opts.id}`);
      const text = files.stageToml;
      const load = (t: string): unknown => loadStage({ ...files, stageToml: t }, 'rx/stage.toml');
      const first = /\[joker\][^]*?points = \[\n {2}\[([-\d.]+), ([-\d.]+)\]/.exec(text)!;
      const cases: [string, RegExp][] = [
        [text.replace('width_m = 9.0', 'width_m = -2'), /rx\/stage\.toml: field "joker\.width_m": expected .*found -2/],
        [text.replace('surface = "gravel"\nleave', 'surface = "mud"\nleave'), /field "joker\.surface": expected .*found "mud"/],
        [text.replace(/leave_distance_m = [\d.]+/, 'leave_distance_m = 5000'), /field "joker\.leave_distance_m": expected a distance between start .* found 5000/],
        [text.replace(/rejoin_distance_m = [\d.]+/, `rejoin_distance_m = ${J.leaveDistanceM + 5}`), /field "joker\.rejoin_distance_m": expected a distance ≥ leave_distance_m \+ 20/],
        [text.replace(first[0], first[0].replace(`[${first[1]}, `, `[${Number(first[1]) + 3}, `)), /field "joker\.points\.0": expected the road centreline at joker\.leave_distance_m .* within 0\.5 m, found .*3\.00 m away/],
        [text.replace(first[0], first[0].replace(`[${first[1]}, `, '[9000, ')), /field "joker\.points\.0": expected a point inside the heightmap/],
        [text.replace(/\ngate_radius_m = [\d.]+\n# branch[^]*?\n\]\n/, '\n'), /field "joker\.points": expected .*found nothing \(missing\)/],
      ];
      for (const [t, re] of cases) {
        expect(t).not.toBe(text);
        expect(() => load(t)).toThrow(TerrainError);
        expect(() => load(t)).toThrow(re);
      }
    });

    it('the rules read the joker from the stage: a circuit without [joker] races without the rule; asking for it there is an error', () => {
      const plain = generateCircuit({ ...opts, joker: false, scenery: false });
      expect(plain.joker).toBeNull();
      expect(plain.stage.joker).toBeNull();
      expect(plain.files.stageToml).not.toMatch(/\[joker\]/);
      const cars = [loadBuiltinCar('rally-awd')];
      expect(new RallycrossRace({ stage: plain.stage, cars, laps: 1, integrator: 'euler' }).joker).toBeNull();
      expect(() => new RallycrossRace({ stage: plain.stage, cars, laps: 1, integrator: 'euler', joker: true })).toThrow(/\[joker\] table in stage "rallycross-bitring"/);
      const race = new RallycrossRace({ stage, cars, laps: 1, integrator: 'euler' });
      expect(race.joker!.gateX).toBe(J.gateX);
      expect(race.joker!.widthM).toBe(J.widthM);
    });
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
