/**
 * The pace-note generator on synthetic roads (issue #17 "Must show"): severity bands both ways, hairpin, S-bend
 * links, tightens / opens, crests at speed, cautions, don't cut, surface changes, narrows, called distances and
 * determinism. Expected values come from the table's equations (v = √(μgR), a = v²κ_v/g), not from the generator.
 */
import { describe, expect, it } from 'vitest';
import { formatPaceNotes } from '../../terrain/pacenotes/file';
import { generatePaceNotesFromRoad } from '../../terrain/pacenotes/generate';
import { roundCallDistance } from '../../terrain/pacenotes/links';
import {
  APPROACH_ACCEL_M_S2,
  BAND_GRAVITY_M_S2,
  BUMPY_MIN_RMS_M,
  BUMPY_RMS_WINDOW_M,
  CALL_DISTANCES_M,
  CAUTION_DROP_M,
  DOUBLE_CAUTION_DROP_M,
  CREST_MIN_G,
  DOUBLE_CAUTION_SPEED_RATIO,
  FEATURE_SPEED_CAP_M_S,
  JUMP_MIN_G,
  OVER_CREST_MIN_G,
  REFERENCE_FRICTION,
  SEVERITY_MAX_RADIUS_M,
} from '../../terrain/pacenotes/table';
import type { PaceNote } from '../../terrain/pacenotes/types';
import { noteWords, VOCABULARY } from '../../terrain/pacenotes/words';
import { arc, buildRoad, corners, countedLengthM, straight, type Piece } from './pacenote-roads';

const WIDTH_M = 7;
const notesOf = (pieces: Piece[], heightAt?: (s: number) => number): PaceNote[] => generatePaceNotesFromRoad({ points: buildRoad(pieces, heightAt), widths: WIDTH_M });

describe('corner severity', () => {
  // a radius inside each band (geometric mean of its bounds), 60°: neither square nor hairpin
  const bands = [1, 2, 3, 4, 5, 6] as const;
  for (const s of bands) {
    const lo = s === 1 ? 15 : SEVERITY_MAX_RADIUS_M[(s - 1) as 1 | 2 | 3 | 4 | 5];
    const r = Math.sqrt(lo * SEVERITY_MAX_RADIUS_M[s]);
    it(`a ${r.toFixed(0)} m arc is a ${s} both ways, its radius measured exactly`, () => {
      for (const [sign, dir] of [[1, 'left'], [-1, 'right']] as const) {
        const c = corners(notesOf([straight(150), arc(sign * r, 60), straight(150)]));
        expect(c).toHaveLength(1);
        expect(c[0]!.direction).toBe(dir);
        expect(c[0]!.severity).toBe(s);
        expect(c[0]!.minRadiusM).toBeCloseTo(r, 0); // chords of the circle: the window average is 1/R to 0.1 m
      }
    });
  }

  it('a straight into a 9 m radius turn is a hairpin', () => {
    const c = corners(notesOf([straight(200), arc(-9, 180), straight(150)]));
    expect(c.map((n) => [n.direction, n.severity])).toEqual([['right', 'hairpin']]);
    expect(noteWords(c[0]!).slice(-3, -1)).toEqual(['hairpin', 'right']);
  });

  it('a 15 m radius right angle is a square', () => {
    const c = corners(notesOf([straight(150), arc(15, 90), straight(150)]));
    expect(c.map((n) => [n.direction, n.severity])).toEqual([['left', 'square']]);
  });

  it('an S-bend of two 60 m arcs is "left N into right N"', () => {
    const notes = notesOf([straight(150), arc(60, 45), arc(-60, 45), straight(150)]);
    const c = corners(notes);
    expect(c).toHaveLength(2);
    const n = c[0]!.severity;
    expect(n).toBe(4); // 60 m: the 4 band starts at SEVERITY_MAX_RADIUS_M[3] = 60 m
    expect(noteWords(c[0]!)).toEqual(['left', String(n), 'into']);
    expect(noteWords(c[1]!).slice(0, 2)).toEqual(['right', String(n)]);
  });

  it('a corner whose radius halves tightens; the reverse opens', () => {
    const tight = corners(notesOf([straight(150), arc(80, 45), arc(40, 90), straight(150)]));
    expect(tight).toHaveLength(1);
    expect(tight[0]!.modifiers).toContain('tightens');
    expect(tight[0]!.severity).toBe(3); // graded by its minimum radius, 40 m
    const open = corners(notesOf([straight(150), arc(-40, 90), arc(-80, 45), straight(150)]));
    expect(open[0]!.modifiers).toContain('opens');
    const even = corners(notesOf([straight(150), arc(50, 120), straight(150)]));
    expect(even[0]!.modifiers).toEqual(['long']); // 120° ≥ LONG_DEFLECTION (100°), constant radius
  });
});

describe('crests at speed', () => {
  /** Height of a parabolic crest of vertical radius `rv` over ±`half` m around `centre`, straight tangents beyond. */
  const crest = (centre: number, half: number, rv: number) => (s: number): number => {
    const u = Math.max(-half, Math.min(half, s - centre));
    return 50 - (u * u) / (2 * rv) - (Math.max(0, Math.abs(s - centre) - half) * half) / rv;
  };
  const crestRoad = (rv: number): Float64Array => buildRoad([straight(600)], crest(300, 40, rv));
  // on a straight the car carries the capped speed: a = v²/(R_v g) ⇒ R_v = v²/(a g)
  const rvFor = (g: number): number => (FEATURE_SPEED_CAP_M_S * FEATURE_SPEED_CAP_M_S) / (g * BAND_GRAVITY_M_S2);
  const vertical = (rv: number): string[] => generatePaceNotesFromRoad({ points: crestRoad(rv), widths: WIDTH_M }).filter((n) => n.feature !== 'finish').map((n) => n.feature!);

  it('past the over-crest threshold at speed: over crest; past the jump threshold: jump', () => {
    expect(vertical(rvFor((OVER_CREST_MIN_G + JUMP_MIN_G) / 2))).toEqual(['over crest']);
    expect(vertical(rvFor(JUMP_MIN_G * 1.2))).toEqual(['jump']);
    expect(vertical(rvFor((CREST_MIN_G + OVER_CREST_MIN_G) / 2))).toEqual(['crest']);
    expect(vertical(rvFor(CREST_MIN_G * 0.8))).toEqual([]);
  });

  it('the same crest at a hairpin\'s speed is no note: the threshold is at speed', () => {
    const rv = rvFor((OVER_CREST_MIN_G + JUMP_MIN_G) / 2);
    // a 9 m hairpin (v = √(μ g 9) ≈ 8.4 m/s) over the top: a = v²/(R_v g) ≪ CREST_MIN_G
    const v2 = REFERENCE_FRICTION * BAND_GRAVITY_M_S2 * 9;
    expect(v2 / (rv * BAND_GRAVITY_M_S2)).toBeLessThan(CREST_MIN_G);
    const pts = buildRoad([straight(272), arc(9, 180), straight(300)], crest(272 + (9 * Math.PI) / 2, 10, rv));
    const notes = generatePaceNotesFromRoad({ points: pts, widths: WIDTH_M });
    expect(notes.filter((n) => n.kind === 'feature').map((n) => n.feature)).toEqual(['finish']);
    // and the same 20 m crest on the straight before it is called
    const fast = generatePaceNotesFromRoad({ points: buildRoad([straight(600)], crest(286, 10, rv)), widths: WIDTH_M });
    expect(fast.map((n) => n.feature)).toEqual(['over crest', 'finish']);
  });
});

describe('hazards, surfaces, width', () => {
  it('a hairpin after a long straight: double caution (speed to shed from the approach)', () => {
    const c = corners(notesOf([straight(500), arc(9, 180), straight(100)]));
    const vApproach = Math.min(FEATURE_SPEED_CAP_M_S, Math.sqrt(2 * APPROACH_ACCEL_M_S2 * 500));
    expect(Math.sqrt(REFERENCE_FRICTION * BAND_GRAVITY_M_S2 * 9)).toBeLessThan(DOUBLE_CAUTION_SPEED_RATIO * vApproach);
    expect(c[0]!.caution).toBe('double caution');
    expect(noteWords(c[0]!)[0]).toBe('double caution');
    const calm = corners(notesOf([straight(150), arc(220, 30), straight(150)]));
    expect(calm[0]!.caution).toBeUndefined();
  });

  it("a rock at the inside edge of a corner: don't cut; on the outside, nothing", () => {
    const pieces = [straight(150), arc(40, 90), straight(150)];
    const pts = buildRoad(pieces);
    // apex of the left arc: centre of the circle is 40 m to the left of the arc start (150 m up +Z), at (40, 150)
    const apex = { x: 40 - 40 * Math.cos(Math.PI / 4), z: 150 + 40 * Math.sin(Math.PI / 4) };
    const towardsCentre = { x: Math.cos(Math.PI / 4), z: -Math.sin(Math.PI / 4) };
    const at = (offsetM: number) => ({ x: apex.x + towardsCentre.x * offsetM, z: apex.z + towardsCentre.z * offsetM, radiusM: 1 });
    const withRock = (o: { x: number; z: number; radiusM: number }): PaceNote => corners(generatePaceNotesFromRoad({ points: pts, widths: WIDTH_M, obstacles: [o] }))[0]!;
    expect(withRock(at(WIDTH_M / 2 + 2)).modifiers).toContain("don't cut");
    expect(withRock(at(-(WIDTH_M / 2 + 2))).modifiers).not.toContain("don't cut");
    expect(withRock(at(WIDTH_M / 2 + 10)).modifiers).not.toContain("don't cut");
  });

  it('onto tarmac where tarmac lasts; a short patch is no change; narrows where the width falls', () => {
    const pts = buildRoad([straight(600)]);
    const n = pts.length / 3;
    const surfaces = Array.from({ length: n }, (_, k) => (k * 2 >= 300 ? 'tarmac' : k * 2 >= 100 && k * 2 < 110 ? 'tarmac' : 'gravel') as 'tarmac' | 'gravel');
    const widths = Array.from({ length: n }, (_, k) => (k * 2 >= 450 ? 4.5 : 7));
    const notes = generatePaceNotesFromRoad({ points: pts, widths, surfaces });
    expect(notes.map((x) => [x.feature, x.atM])).toEqual([['onto tarmac', 300], ['narrows', 450], ['finish', 600]]);
  });
});

describe('bumpy and a road that drops away', () => {
  // a ripple of wavelength 10 m (shorter than the 20 m trend window) on 200 m of a 600 m straight; the RMS of a
  // sinusoid of amplitude A is A/√2, so the amplitude for a target RMS is √2 × RMS
  const RIPPLE_FROM_M = 200;
  const RIPPLE_TO_M = 400;
  const ripple = (amplitudeM: number) => (s: number): number => 20 + (s >= RIPPLE_FROM_M && s <= RIPPLE_TO_M ? amplitudeM * Math.sin((2 * Math.PI * s) / 10) : 0);
  const bumpy = (heightAt: (s: number) => number): PaceNote[] => notesOf([straight(600)], heightAt).filter((n) => n.feature === 'bumpy');

  it('a ripple of twice the threshold RMS is bumpy over the ripple; half of it, a smooth road, a grade and a crest are not', () => {
    const rough = bumpy(ripple(Math.SQRT2 * 2 * BUMPY_MIN_RMS_M));
    expect(rough).toHaveLength(1);
    // the RMS window (±25 m) spreads the rough stretch by at most half a window each side
    expect(rough[0]!.atM).toBeGreaterThanOrEqual(RIPPLE_FROM_M - BUMPY_RMS_WINDOW_M / 2);
    expect(rough[0]!.atM).toBeLessThan(RIPPLE_FROM_M + BUMPY_RMS_WINDOW_M / 2);
    expect(rough[0]!.endM).toBeGreaterThan(RIPPLE_TO_M - BUMPY_RMS_WINDOW_M / 2);
    expect(rough[0]!.endM).toBeLessThanOrEqual(RIPPLE_TO_M + BUMPY_RMS_WINDOW_M / 2);
    expect(noteWords(rough[0]!)[0]).toBe('bumpy');
    expect(bumpy(ripple((Math.SQRT2 * BUMPY_MIN_RMS_M) / 2))).toEqual([]);
    expect(bumpy(() => 20)).toEqual([]);
    expect(bumpy((s) => 0.08 * s)).toEqual([]); // an 8 % grade is exactly linear: no roughness
    expect(bumpy((s) => 50 - ((s - 300) * (s - 300)) / 400)).toEqual([]); // a 200 m-radius crest is exactly quadratic
  });

  // a 40 m left corner on level road (no speed caution after a 150 m straight), the ground beside it flat or falling
  const pieces = [straight(150), arc(40, 90), straight(150)];
  const pts = buildRoad(pieces, () => 100);
  const centre = { x: 40, z: 150 }; // the left arc turns about this point (the rock test above)
  /** Ground `depthM` below the road beyond `edgeM` from the arc's centre (outside the left arc), else level with it. */
  const dropBeyond = (edgeM: number, depthM: number) => (x: number, z: number): number => (Math.hypot(x - centre.x, z - centre.z) > edgeM ? 100 - depthM : 100);
  const withGround = (sideHeightAt?: (x: number, z: number) => number): PaceNote => corners(generatePaceNotesFromRoad({ points: pts, widths: WIDTH_M, sideHeightAt }))[0]!;

  it('a corner with a 5 m drop beside its outside edge gets double caution; on flat ground, none', () => {
    const dropM = 5;
    expect(dropM).toBeGreaterThan(DOUBLE_CAUTION_DROP_M);
    const edge = 40 + WIDTH_M / 2;
    const c = withGround(dropBeyond(edge + 1, dropM));
    expect(c.caution).toBe('double caution');
    expect(noteWords(c)[0]).toBe('double caution');
    expect(withGround(() => 100).caution).toBeUndefined();
    expect(withGround().caution).toBeUndefined();
    // the same drop on the INSIDE of the corner (towards the centre) is not where a car runs wide
    expect(withGround((x, z) => (Math.hypot(x - centre.x, z - centre.z) < 40 - WIDTH_M / 2 - 1 ? 100 - dropM : 100)).caution).toBeUndefined();
    // a drop that starts further out than the probes reach (6 m past the edge) is not called
    expect(withGround(dropBeyond(edge + 8, dropM)).caution).toBeUndefined();
  });

  it('a smaller drop (between the caution and double-caution depths) gets caution', () => {
    expect(withGround(dropBeyond(40 + WIDTH_M / 2 + 1, (CAUTION_DROP_M + DOUBLE_CAUTION_DROP_M) / 2)).caution).toBe('caution');
    expect(withGround(dropBeyond(40 + WIDTH_M / 2 + 1, CAUTION_DROP_M / 2)).caution).toBeUndefined();
  });
});

describe('links and called distances', () => {
  it('rounds a gap to a neighbouring call distance, the one keeping the running total closest', () => {
    expect(roundCallDistance(120, 0)).toBe(100);
    expect(roundCallDistance(130, 0)).toBe(150);
    expect(roundCallDistance(120, 20)).toBe(150); // 20 m under-called so far: round up
    expect(roundCallDistance(140, -30)).toBe(100);
    for (let g = 30; g < 2000; g += 7) {
      const c = roundCallDistance(g, 0);
      expect(CALL_DISTANCES_M).toContain(c);
      const above = CALL_DISTANCES_M.find((d) => d >= g)!;
      const below = [...CALL_DISTANCES_M].reverse().find((d) => d <= g)!;
      expect([below, above]).toContain(c);
    }
  });

  it('a long road of corners: distances add up to its length within one call step; every token is in the vocabulary', () => {
    const pieces: Piece[] = [straight(60)];
    for (let k = 0; k < 40; k++) pieces.push(arc((k % 2 ? -1 : 1) * (25 + 13 * (k % 7)), 40 + 11 * (k % 5)), straight(35 + ((k * 53) % 240)));
    const pts = buildRoad(pieces);
    const notes = generatePaceNotesFromRoad({ points: pts, widths: WIDTH_M });
    expect(corners(notes)).toHaveLength(40);
    const lengthM = notes[notes.length - 1]!.atM;
    expect(Math.abs(countedLengthM(notes, 0) - lengthM)).toBeLessThanOrEqual(100); // ≤ the largest step in use (500 → 400 m)
    for (const n of notes) for (const w of noteWords(n)) expect(VOCABULARY).toContain(w);
  });

  it('the same road gives byte-identical notes', () => {
    const pieces: Piece[] = [straight(80), arc(30, 70), straight(40), arc(-12, 170), arc(90, 50), straight(300), arc(-140, 25), straight(100)];
    const heightAt = (s: number): number => 10 * Math.sin(s / 37) + (s > 500 ? 0.2 * Math.sin(s / 1.7) : 0);
    const sideHeightAt = (x: number, z: number): number => 10 * Math.sin(x / 23) - 0.1 * z;
    const run = (): string =>
      formatPaceNotes(generatePaceNotesFromRoad({ points: buildRoad(pieces, heightAt), widths: WIDTH_M, obstacles: [{ x: 10, z: 90, radiusM: 1 }], sideHeightAt }), { stageId: 'synthetic' });
    const a = run();
    expect(run()).toBe(a);
    expect(a).toContain('[[note]]');
    expect(a).toContain('bumpy'); // the new notes are in the compared text
    expect(a).toContain('caution');
  });
});
