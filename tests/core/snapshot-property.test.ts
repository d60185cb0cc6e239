/**
 * Honest state (the component specs' `state` lists are the whole simulation state): for random states reached
 * by random driver inputs on random shipped stages with random integrators, snapshot → encode → decode →
 * restore into a freshly built world → N more ticks equals the uninterrupted run bit for bit (state hash every
 * tick, then the full snapshot bytes). Nothing here lists fields: whatever a tick reads from the previous one
 * must be in a spec's `state`, or the restored world (whose derived fields are those of a fresh world) drifts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readStageFiles } from '../../terrain/node';
import { loadStage, type Stage } from '../../terrain/stage';
import { PEDAL_SCALE, setInputSource, STEER_SCALE, type InputSource, type QuantizedInput } from '../../src/ecs/controls';
import { stateHash } from '../../src/ecs/hash';
import { runTick } from '../../src/run/pipeline';
import { saveSnapshot } from '../../src/ecs/snapshot';
import { decodeSnapshot, encodeSnapshot } from '../../src/replay/snapshot-codec';
import { restoreSnapshot } from '../../src/run/snapshot';
import type { IntegratorKind } from '../../src/ecs/world-types';
import { vehicleCarAdapter } from '../../src/run/cars';
import { buildRunWorld, type RunWorld } from '../../src/run/run-world';
import { releaseCollisionWorld } from '../../src/systems/sim/collision/runtime';
import { hatchCar, SETUP } from '../replay/helpers';
import { DEFAULT_RUN, initialStageRunState } from '../../src/run/stage-run';
import { hasStageProgress, readStageRun } from '../../src/run/stage-progress';
import { STAGE_PHASE_COUNTDOWN } from '../../src/ecs/components/progress';

const STAGES_DIR = join(__dirname, '../../src/content/stages');
const STAGE_IDS = readdirSync(STAGES_DIR).sort();
/** Ticks run after the restore (and compared every tick): 0.1 s at 500 Hz, past every shift/lock timer's first step. */
const AFTER_TICKS = 50;
/** Ticks before the lights go out (the stage countdown at 500 Hz). */
const COUNTDOWN_TICKS = Math.round(DEFAULT_RUN.countdownS / SETUP.dt);
/** Ticks a held input segment lasts (≈ one 60 Hz frame to half a second at 500 Hz). */
const SEGMENT_TICKS = { min: 8, max: 250 };
/** Centre-to-centre distance of the two cars of a two-car run (m): side by side, 0.1–0.8 m apart (1.8 m wide cars). */
const SIDE_BY_SIDE_M = { min: 1.9, max: 2.6 };

const stages = new Map<string, Stage>();
beforeAll(() => {
  for (const id of STAGE_IDS) stages.set(id, loadStage(readStageFiles(join(STAGES_DIR, id)), join(STAGES_DIR, id, 'stage.toml')));
});

interface Segment {
  ticks: number;
  input: QuantizedInput;
}

/**
 * Plays the segments in order, then holds the last input. The second car of a run plays them offset by one
 * segment, or mirrored (steer negated: the two cars steer towards each other and touch).
 */
class SegmentInput implements InputSource {
  constructor(private readonly segs: readonly Segment[], private readonly offset: number, private readonly steerSign: number) {}
  next(world: RunWorld['world']): QuantizedInput {
    const n = this.segs.length;
    let t = world.tick;
    let k = 0;
    while (k < n - 1 && t >= this.segs[(k + this.offset) % n]!.ticks) t -= this.segs[(k++ + this.offset) % n]!.ticks;
    const input = this.segs[(k + this.offset) % n]!.input;
    return this.steerSign === 1 ? input : { ...input, steer: -input.steer + 0 };
  }
}

/** Pedal / steer positions as the device quantises them (per mille); throttle is mostly on so cars get moving. */
const pedal = fc.integer({ min: 0, max: PEDAL_SCALE });
const segment = fc.record({
  ticks: fc.integer(SEGMENT_TICKS),
  steer: fc.integer({ min: -STEER_SCALE, max: STEER_SCALE }),
  throttle: fc.oneof({ arbitrary: fc.constant(PEDAL_SCALE), weight: 2 }, { arbitrary: pedal, weight: 2 }, { arbitrary: fc.constant(0), weight: 1 }),
  brake: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: pedal, weight: 1 }),
  handbrake: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.constant(PEDAL_SCALE), weight: 1 }),
}).map((s): Segment => ({ ticks: s.ticks, input: { steer: s.steer, throttle: s.throttle, brake: s.brake, clutch: 0, handbrake: s.handbrake, buttons: 0 } }));

interface Drive {
  nCars: number;
  gapM: number;
  mirrored: boolean;
  segs: Segment[];
}

const drive: fc.Arbitrary<Drive> = fc.record({
  nCars: fc.integer({ min: 1, max: 2 }),
  gapM: fc.double({ ...SIDE_BY_SIDE_M, noNaN: true }),
  mirrored: fc.boolean(),
  segs: fc.array(segment, { minLength: 1, maxLength: 6 }),
});

function build(stageId: string, integrator: IntegratorKind, { nCars, gapM, mirrored, segs }: Drive): RunWorld {
  const stage = stages.get(stageId)!;
  const st = stage.start;
  // the start heading's right-hand side (x left, z forward convention: right = (−cos h, sin h)), ground height per car
  const cars = Array.from({ length: nCars }, (_, i) => {
    const x = st.x - Math.cos(st.heading) * gapM * i;
    const z = st.z + Math.sin(st.heading) * gapM * i;
    return hatchCar({ x, y: st.y, z, heading: st.heading });
  });
  const run = buildRunWorld({ ...SETUP, ground: null, integrator, cars }, stage, vehicleCarAdapter);
  run.cars.forEach((eid, i) => setInputSource(run.world, eid, i === 0 ? new SegmentInput(segs, 0, 1) : mirrored ? new SegmentInput(segs, 0, -1) : new SegmentInput(segs, 1, 1)));
  return run;
}

/**
 * Runs `before` ticks, restores a snapshot of that state into a fresh world and runs both on, bit for bit.
 * Returns how many cars were in contact with something, and how many were being timed (lights out), when the
 * snapshot was taken.
 */
function resumesBitForBit(stageId: string, integrator: IntegratorKind, d: Drive, before: number): { inContact: number; timedCars: number } {
  const a = build(stageId, integrator, d);
  const b = build(stageId, integrator, d);
  try {
    for (let i = 0; i < before; i++) runTick(a.world);
    const cc = a.world.c.CarCollider;
    const inContact = a.cars.filter((e) => cc.contact0[e] !== 0 || cc.propContact0[e] !== 0).length;
    const sp = a.world.c.StageProgress;
    const timedCars = a.cars.filter((e) => sp.phase[e] !== STAGE_PHASE_COUNTDOWN && sp.timeS[e]! > 0).length;
    restoreSnapshot(b.world, decodeSnapshot(encodeSnapshot(saveSnapshot(a.world))));
    a.world.events.length = 0;
    expect(stateHash(b.world)).toBe(stateHash(a.world));
    for (let i = 0; i < AFTER_TICKS; i++) {
      runTick(a.world);
      runTick(b.world);
      expect(stateHash(b.world), `tick ${a.world.tick}`).toBe(stateHash(a.world));
      // what a tick reports (collisions, stage checkpoints, stuck) follows from the state too
      expect(b.world.events, `events of tick ${a.world.tick}`).toEqual(a.world.events);
      a.world.events.length = 0;
      b.world.events.length = 0;
    }
    expect(encodeSnapshot(saveSnapshot(b.world))).toEqual(encodeSnapshot(saveSnapshot(a.world)));
    // the stage timing the drivers read (every field the StageRun rules carry) came back with the snapshot
    for (const e of a.cars.filter((c) => hasStageProgress(a.world, c))) {
      expect(readStageRun(b.world, e, initialStageRunState(a.world.course!))).toEqual(readStageRun(a.world, e, initialStageRunState(a.world.course!)));
    }
    return { inContact, timedCars };
  } finally {
    releaseCollisionWorld(a.world);
    releaseCollisionWorld(b.world);
  }
}

describe('snapshot → restore → N ticks equals the uninterrupted run (random stages, inputs, integrators)', () => {
  it('bit for bit, state hash every tick and the final snapshot bytes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STAGE_IDS),
        fc.constantFrom<IntegratorKind>('euler', 'midpoint', 'rk4'),
        drive,
        fc.integer({ min: 1, max: 1200 }),
        (stageId, integrator, d, before) => void resumesBitForBit(stageId, integrator, d, before),
      ),
      { numRuns: 24, seed: 0x15, endOnFailure: true },
    );
  });

  it('a car past the lights, restored mid-stage: its StageProgress (time, progress, checkpoints, stuck timer) times on bit for bit', () => {
    let running = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...STAGE_IDS),
        fc.constantFrom<IntegratorKind>('euler', 'midpoint', 'rk4'),
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: COUNTDOWN_TICKS + 1, max: COUNTDOWN_TICKS + 1500 }),
        (stageId, integrator, segs, before) => {
          // the snapshot is taken with the lights out (the pass has been timing the car)
          running += resumesBitForBit(stageId, integrator, { nCars: 1, gapM: 0, mirrored: false, segs }, before).timedCars;
        },
      ),
      { numRuns: 4, seed: 0x5a9e, endOnFailure: true },
    );
    expect(running).toBe(4);
  });

  it('two cars steered into each other, restored while in contact (the contact memory is state)', () => {
    let midContact = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...STAGE_IDS),
        fc.constantFrom<IntegratorKind>('euler', 'midpoint', 'rk4'),
        fc.integer({ min: STEER_SCALE / 10, max: STEER_SCALE / 2 }),
        fc.double({ ...SIDE_BY_SIDE_M, noNaN: true }),
        fc.integer({ min: 100, max: 900 }),
        (stageId, integrator, steer, gapM, before) => {
          // car 1 starts on car 0's right: car 0 steers right (−), car 1 the mirror (+)
          const input = { steer: -steer, throttle: PEDAL_SCALE, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
          midContact += resumesBitForBit(stageId, integrator, { nCars: 2, gapM, mirrored: true, segs: [{ ticks: before, input }] }, before).inContact;
        },
      ),
      { numRuns: 10, seed: 0x15c, endOnFailure: true },
    );
    expect(midContact).toBeGreaterThan(0); // some snapshots were taken mid-contact
  });
});
