/**
 * Co-driver timing on every shipped stage (issue #17 "Must show"): the AI autopilot drives the stage headless;
 * the call planner is fed the car's progress along the road and its speed once per 60 Hz frame, as the game
 * does. Notes within ON_LINE_READ_M of the start are read on the line at the first frame; every other call must end between 1.5 s and 6 s before its first corner's entry at the car's speed then,
 * no call may start before the previous one is over, no call may name a corner the car has passed, and every
 * note is said or dropped exactly once.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import type { Stage } from '../../terrain/stage';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { driveStage } from '../../src/run/autopilot';
import { codriverNotes, slowZones } from '../../src/systems/view/codriver/notes';
import { isClosedStage } from '../../src/systems/sim/ai/stage-path';
import { noteWords } from '../../terrain/pacenotes/words';
import { buildCalls, type Call } from '../../src/systems/view/codriver/calls';
import { CallPlanner, CALL_LEAD_S, ON_LINE_READ_M } from '../../src/systems/view/codriver/planner';
import { clipSeconds } from '../../src/systems/view/codriver/sprite';
import { SHIPPED_STAGE_DIRS } from '../ai/finish';

/** The window a call must end in, s before its corner (issue #17). */
const EARLIEST_S = 6;
const LATEST_S = 1.5;
/** Planner updates at the game's frame rate, Hz. */
const FRAME_HZ = 60;
/** At most this share of calls may be dropped (too close behind the previous call to be said in time). */
const MAX_DROPPED_SHARE = 0.1;

interface Heard {
  call: Call;
  startS: number;
  endS: number;
  leadS: number;
  progressAtStartM: number;
}

function driveWithCodriver(dir: string): { heard: Heard[]; dropped: Call[]; calls: Call[]; finished: boolean; startM: number } {
  const stage = stageOf(dir);
  const notes = codriverNotes(stage);
  const calls = buildCalls(notes, noteWords, clipSeconds);
  const planner = new CallPlanner(calls, CALL_LEAD_S.normal, { startM: stage.start.distanceM, clipS: clipSeconds }, slowZones(stage, notes));
  const heard: Heard[] = [];
  let open: Omit<Heard, 'endS' | 'leadS'> | null = null;
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  let nextFrameS = 0;
  const r = driveStage({
    stage,
    car: loadBuiltinCar('rally-awd'),
    integrator: 'euler',
    onTick: (w, e) => {
      if (w.time < nextFrameS) return;
      nextFrameS += 1 / FRAME_HZ;
      const b = w.c.RigidBody;
      const progress = stage.road.project(b.px[e]!, b.pz[e]!, proj).distanceM;
      const speed = Math.hypot(b.vx[e]!, b.vy[e]!, b.vz[e]!);
      if (open && w.time >= open.startS + open.call.durationS) {
        heard.push({ ...open, endS: w.time, leadS: (open.call.entryM - progress) / speed });
        open = null;
      }
      const c = planner.update(w.time, progress, speed);
      if (c) {
        expect(open, `call ${c.first} started while call ${open?.call.first} was being said`).toBeNull();
        open = { call: c, startS: w.time, progressAtStartM: progress };
      }
    },
  });
  return { heard, dropped: planner.dropped, calls: [...planner.calls], finished: r.finished, startM: stage.start.distanceM };
}

const stageOf = (dir: string): Stage => loadStageFromDir(join('src/content/stages', dir));
const OPEN_STAGES = SHIPPED_STAGE_DIRS.filter((d) => !isClosedStage(stageOf(d)));
const CIRCUITS = SHIPPED_STAGE_DIRS.filter((d) => !OPEN_STAGES.includes(d));

describe('co-driver timing with the AI autopilot on every shipped stage', () => {
  for (const dir of CIRCUITS) {
    it(`${dir}: a closed circuit (rallycross) has no co-driver`, () => {
      expect(codriverNotes(stageOf(dir))).toEqual([]);
    });
  }
  for (const dir of OPEN_STAGES) {
    it(`${dir}: calls end ${LATEST_S}–${EARLIEST_S} s before their corner, never overlap, never name a passed corner`, { timeout: 300_000 }, () => {
      const { heard, dropped, calls, finished, startM } = driveWithCodriver(dir);
      const msg = (h: Heard): string => JSON.stringify({ dir, first: h.call.first, words: h.call.words, entryM: h.call.entryM, startS: h.startS, leadS: h.leadS });
      expect(finished, dir).toBe(true);
      expect(calls.length, dir).toBeGreaterThan(0);
      for (const h of heard.filter((x) => x.call.onLine)) {
        // the notes of the first ON_LINE_READ_M are read on the start line, at the first frame
        expect(h.startS, msg(h)).toBeLessThan(1 / FRAME_HZ);
        expect(Math.abs(h.progressAtStartM - startM), msg(h)).toBeLessThan(1);
        expect(h.call.entryM, msg(h)).toBeLessThanOrEqual(startM + ON_LINE_READ_M);
      }
      for (const h of heard.filter((x) => !x.call.onLine)) {
        expect(h.leadS, msg(h)).toBeGreaterThanOrEqual(LATEST_S);
        expect(h.leadS, msg(h)).toBeLessThanOrEqual(EARLIEST_S);
        expect(h.progressAtStartM, msg(h)).toBeLessThan(h.call.entryM);
      }
      for (let i = 1; i < heard.length; i++) expect(heard[i]!.startS, msg(heard[i]!)).toBeGreaterThanOrEqual(heard[i - 1]!.endS);
      // each call once: said or dropped, in road order, none twice
      const firsts = [...heard.map((h) => h.call.first), ...dropped.map((c) => c.first)].sort((a, b) => a - b);
      expect(firsts, dir).toEqual(calls.map((c) => c.first).filter((f) => firsts.includes(f)));
      expect(new Set(firsts).size, dir).toBe(firsts.length);
      expect(dropped.length, `${dir}: dropped ${JSON.stringify(dropped.map((c) => c.words))}`).toBeLessThanOrEqual(MAX_DROPPED_SHARE * calls.length);
    });
  }
});
