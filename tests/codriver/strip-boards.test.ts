/**
 * The HUD strip's icons (arrow turn per severity, mirrored for left) and labels, and where the chevron boards
 * stand (outside of each slow corner, off the road edge).
 */
import { describe, expect, it } from 'vitest';
import type { PaceNote } from '../../terrain/pacenotes/types';
import { ICON_TURN_DEG, arrowShaft, arrowSvg, noteLabel, noteTail } from '../../src/systems/view/codriver/icons';
import { BOARD_EDGE_GAP_M, boardSpots, wantsBoard } from '../../src/systems/view/codriver/board-spots';
import { loadStageFromDir } from '../../terrain/node';
import { codriverNotes } from '../../src/systems/view/codriver/notes';

const note = (over: Partial<PaceNote>): PaceNote => ({ atM: 100, endM: 140, kind: 'corner', direction: 'right', severity: 3, modifiers: [], link: null, distanceToNextM: 100, origin: 'generated', ...over });

describe('strip icons', () => {
  for (const sev of [6, 5, 4, 3, 2, 1, 'hairpin'] as const) {
    it(`the ${sev} arrow turns by ${ICON_TURN_DEG[sev]}°`, () => {
      const p = arrowShaft(sev);
      const [ax, ay] = p[1]!, [bx, by] = p[0]!;
      const [cx, cy] = p[p.length - 2]!, [dx, dy] = p[p.length - 1]!;
      const turn = Math.atan2(dx - cx, -(dy - cy)) - Math.atan2(ax - bx, -(ay - by));
      // clockwise (a right turn) in [0°, 360°)
      expect((((turn * 180) / Math.PI) % 360 + 360) % 360).toBeCloseTo(ICON_TURN_DEG[sev], 6);
    });
  }

  it('a square is a right angle, a left arrow the mirror of the right one', () => {
    const sq = arrowShaft('square');
    expect(sq[2]![1]).toBe(sq[1]![1]);
    expect(sq[2]![0]).toBeGreaterThan(0);
    const nums = (s: string): number[] => (s.match(/M[^"]*/)![0].match(/-?\d+\.\d/g) ?? []).map(Number);
    const r = nums(arrowSvg('right', 2)), l = nums(arrowSvg('left', 2));
    // x mirrored about the 64-unit box centre, y equal
    for (let i = 0; i < r.length; i += 2) {
      expect(l[i]! + r[i]!).toBeCloseTo(64, 1);
      expect(l[i + 1]).toBeCloseTo(r[i + 1]!, 1);
    }
  });

  it('labels: severity number, HP / SQ, the feature; the tail is the link or the distance', () => {
    expect(noteLabel(note({ severity: 4 }))).toBe('4');
    expect(noteLabel(note({ severity: 'hairpin' }))).toBe('HP');
    expect(noteLabel(note({ kind: 'feature', direction: undefined, severity: undefined, feature: 'over crest' }))).toBe('OVER CREST');
    expect(noteTail(note({ link: 'into', distanceToNextM: null }))).toBe('into');
    expect(noteTail(note({ distanceToNextM: 150 }))).toBe('150');
  });
});

describe('corner boards', () => {
  it('stand at severity ≤ 2, hairpins and squares only', () => {
    expect([1, 2, 3, 'hairpin', 'square', 6].map((s) => wantsBoard(note({ severity: s as PaceNote['severity'] })))).toEqual([true, true, false, true, true, false]);
    expect(wantsBoard(note({ kind: 'feature', severity: undefined, feature: 'crest' }))).toBe(false);
  });

  it('stand off the road edge on the outside of the bend (forest-gravel)', () => {
    const stage = loadStageFromDir('src/content/stages/forest-gravel');
    const notes = codriverNotes(stage);
    const spots = boardSpots(notes, stage.road);
    expect(spots.length).toBe(notes.filter(wantsBoard).length);
    expect(spots.length).toBeGreaterThan(0);
    const proj = { distanceM: 0, lateralM: 0, index: 0 };
    for (const s of spots) {
      stage.road.project(s.x, s.z, proj);
      const half = stage.road.poseAt(proj.distanceM).width / 2;
      // left of the road is +lateral: a right-hander's outside. The nearest centreline point may be another
      // part of the bend, so the distance is at least the board's offset less a metre of curvature.
      expect(Math.sign(proj.lateralM)).toBe(s.direction === 'right' ? 1 : -1);
      expect(Math.abs(proj.lateralM)).toBeGreaterThan(half + BOARD_EDGE_GAP_M - 1);
    }
  });
});
