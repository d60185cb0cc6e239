/**
 * The co-driver's call planner on hand-built notes: calls end the lead time before their corner at the car's
 * speed, linked notes are one call, calls never overlap, passed notes are dropped and nothing is said twice.
 */
import { describe, expect, it } from 'vitest';
import type { PaceNote } from '../../terrain/pacenotes/types';
import { buildCalls, spokenSeconds, MAX_CALL_S, NOTE_GAP_S, WORD_GAP_S, type Call } from '../../src/systems/view/codriver/calls';
import { CallPlanner, CALL_GAP_S, CALL_LEAD_S, MIN_USEFUL_LEAD_S } from '../../src/systems/view/codriver/planner';

/** Every clip lasts 0.4 s: call durations are then a count of words and gaps. */
const CLIP_S = 0.4;
const clipS = (): number => CLIP_S;
const wordsOf = (n: PaceNote): string[] => (n.kind === 'corner' ? [n.direction!, String(n.severity)] : [n.feature!]);

function corner(atM: number, link: PaceNote['link'] = null, severity: PaceNote['severity'] = 4): PaceNote {
  return { atM, endM: atM + 40, kind: 'corner', direction: 'left', severity, modifiers: [], link, distanceToNextM: link ? null : 100, origin: 'generated' };
}

interface Said {
  call: Call;
  startS: number;
  endS: number;
  /** Seconds from the call's end to its entry at the car's speed then. */
  leadS: number;
}

/** Drives at `speed(t)` from `fromM`, feeding the planner every `dt`; `jump(t)` may move the car (a recovery). */
function drive(planner: CallPlanner, fromM: number, toM: number, speed: (t: number) => number, jump?: (t: number, p: number) => number): Said[] {
  const dt = 0.01;
  const said: Said[] = [];
  const open: { call: Call; startS: number }[] = [];
  let p = fromM;
  for (let t = 0; p < toM; t += dt) {
    const v = speed(t);
    p = jump ? jump(t, p) : p;
    for (const o of open.splice(0)) {
      if (t >= o.startS + o.call.durationS) said.push({ ...o, endS: t, leadS: (o.call.entryM - p) / v });
      else open.push(o);
    }
    const c = planner.update(t, p, v);
    if (c) open.push({ call: c, startS: t });
    p += v * dt;
  }
  return said;
}

describe('calls', () => {
  it('chains notes linked by into / and into one call, timed as clips plus gaps', () => {
    const notes = [corner(100, 'into'), corner(130, null), corner(400, 'and'), corner(440, 'into'), corner(470, null)];
    const calls = buildCalls(notes, wordsOf, clipS);
    expect(calls.map((c) => [c.first, c.end])).toEqual([[0, 2], [2, 5]]);
    expect(calls[0]!.entryM).toBe(100);
    // two notes of two words: 4 clips, a word gap inside each note, a note gap between them
    expect(calls[0]!.durationS).toBeCloseTo(4 * CLIP_S + 2 * WORD_GAP_S + NOTE_GAP_S, 12);
    expect(calls[1]!.durationS).toBeCloseTo(6 * CLIP_S + 3 * WORD_GAP_S + 2 * NOTE_GAP_S, 12);
    expect(spokenSeconds([[], ['a']], clipS)).toBeCloseTo(CLIP_S, 12);
  });

  it(`splits a chain into calls of at most MAX_CALL_S (${MAX_CALL_S} s), never a note`, () => {
    const chain = [0, 1, 2, 3, 4, 5].map((k) => corner(100 + 20 * k, k < 5 ? 'into' : null));
    const calls = buildCalls(chain, wordsOf, clipS);
    // two notes take 4·0.4 + 2·0.06 + 0.12 = 1.84 s, three 2.82 s, four 3.8 s: three per call
    expect(calls.map((c) => [c.first, c.end])).toEqual([[0, 3], [3, 6]]);
    for (const c of calls) expect(c.durationS).toBeLessThanOrEqual(MAX_CALL_S);
    const long = buildCalls([corner(100)], () => Array<string>(20).fill('left'), clipS);
    expect(long).toHaveLength(1);
    expect(long[0]!.durationS).toBeGreaterThan(MAX_CALL_S);
  });
});

describe('planner', () => {
  const notes = [corner(300), corner(700), corner(1100)];

  for (const timing of ['early', 'normal', 'late'] as const) {
    it(`at a steady 20 m/s each call ends ${CALL_LEAD_S[timing]} s (${timing}) before its corner`, () => {
      const planner = new CallPlanner(buildCalls(notes, wordsOf, clipS), CALL_LEAD_S[timing]);
      const said = drive(planner, 0, 1200, () => 20);
      expect(said.map((s) => s.call.first)).toEqual([0, 1, 2]);
      // the planner starts on the first 10 ms step where the call would end at the lead and the harness sees
      // the end on the first step after it: up to two steps (0.02 s) late
      for (const s of said) expect(s.leadS).toBeGreaterThan(CALL_LEAD_S[timing] - 0.021);
      for (const s of said) expect(s.leadS).toBeLessThanOrEqual(CALL_LEAD_S[timing] + 1e-9);
    });
  }

  it('pulls a call earlier when the next one follows too closely, and never talks over itself', () => {
    // at 25 m/s the corners are 1.2 s apart: each call (0.86 s) would otherwise run into the next
    const close = [corner(400), corner(430), corner(460)];
    const planner = new CallPlanner(buildCalls(close, wordsOf, clipS));
    const said = drive(planner, 0, 500, () => 25);
    expect(said.map((s) => s.call.first)).toEqual([0, 1, 2]);
    for (let i = 1; i < said.length; i++) expect(said[i]!.startS).toBeGreaterThanOrEqual(said[i - 1]!.endS + CALL_GAP_S - 1e-9);
    // the last one keeps its lead; the earlier ones end sooner than their own corner needs, never later
    expect(said[2]!.leadS).toBeGreaterThan(CALL_LEAD_S.normal - 0.021);
    for (const s of said) expect(s.leadS).toBeGreaterThanOrEqual(CALL_LEAD_S.normal - 0.021);
  });

  it('drops notes the car is past (a recovery ahead or a spin) and repeats nothing after a recovery back', () => {
    const planner = new CallPlanner(buildCalls([corner(200), corner(260), corner(700), corner(1000)], wordsOf, clipS));
    // at t = 1 s the car is put 500 m on (past the first two corners); at t = 20 s it is put 150 m back
    let moved = 0;
    const said = drive(planner, 0, 1100, () => 20, (t, p) => {
      if (t >= 1 && moved === 0) return (moved = 1), p + 500;
      if (t >= 20 && moved === 1) return (moved = 2), p - 150;
      return p;
    });
    expect(said.map((s) => s.call.first)).toEqual([2, 3]);
    expect(planner.dropped.map((c) => c.first)).toEqual([0, 1]);
  });

  it('drops a note it can no longer say in time instead of calling it late', () => {
    // the car appears 6 s before a chained call of four notes (3.74 s): said at once, it ends 2.26 s before its
    // corner (chains not split here); the corner after it (320 m) would then end 1.77 s before its entry, under
    // MIN_USEFUL_LEAD_S
    const chain = [corner(300, 'and'), corner(305, 'and'), corner(310, 'and'), corner(315, null), corner(320)];
    const planner = new CallPlanner(buildCalls(chain, wordsOf, clipS, Infinity));
    const v = 30;
    const said = drive(planner, 300 - 6 * v, 400, () => v);
    expect(said.map((s) => s.call.first)).toEqual([0]);
    expect(planner.dropped.map((c) => c.first)).toEqual([4]);
    expect(said[0]!.leadS).toBeGreaterThanOrEqual(MIN_USEFUL_LEAD_S);
  });

  it('reads nothing to a car standing still', () => {
    const planner = new CallPlanner(buildCalls(notes, wordsOf, clipS));
    for (let t = 0; t < 60; t += 0.1) expect(planner.update(t, 150, 0)).toBeNull();
  });
});
