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
import { runTick } from '../../src/ecs/pipeline';
import { decodeSnapshot, encodeSnapshot, restoreSnapshot, saveSnapshot } from '../../src/ecs/snapshot';
import type { IntegratorKind } from '../../src/ecs/world-types';
import { vehicleCarAdapter } from '../../src/replay/cars';
import { buildRunWorld, type RunWorld } from '../../src/replay/run-world';
import { releaseCollisionWorld } from '../../src/systems/sim/collision/runtime';
import { hatchCar, SETUP } from '../replay/helpers';

const STAGES_DIR = join(__dirname, '../../src/content/stages');
const STAGE_IDS = readdirSync(STAGES_DIR).sort();
/** Ticks run after the restore (and compared every tick): 0.1 s at 500 Hz, past every shift/lock timer's first step. */
const AFTER_TICKS = 50;
/** Ticks a held input segment lasts (≈ one 60 Hz frame to half a second at 500 Hz). */
const SEGMENT_TICKS = { min: 8, max: 250 };
/** Lateral gap between the two cars of a two-car run (m): they start side by side and may touch. */
const SIDE_BY_SIDE_M = 2.2;

const stages = new Map<string, Stage>();
beforeAll(() => {
  for (const id of STAGE_IDS) stages.set(id, loadStage(readStageFiles(join(STAGES_DIR, id)), join(STAGES_DIR, id, 'stage.toml')));
});

interface Segment {
  ticks: number;
  input: QuantizedInput;
}

/** Plays the segments in order (per car, offset so two cars drive differently), then holds the last input. */
class SegmentInput implements InputSource {
  constructor(private readonly segs: readonly Segment[], private readonly offset: number) {}
  next(world: RunWorld['world']): QuantizedInput {
    let t = world.tick;
    for (let k = 0; k < this.segs.length; k++) {
      const s = this.segs[(k + this.offset) % this.segs.length]!;
      if (t < s.ticks) return s.input;
      t -= s.ticks;
    }
    return this.segs[(this.segs.length - 1 + this.offset) % this.segs.length]!.input;
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

function build(stageId: string, integrator: IntegratorKind, nCars: number, segs: readonly Segment[]): RunWorld {
  const stage = stages.get(stageId)!;
  const st = stage.start;
  // the start heading's right-hand side (x left, z forward convention: right = (−cos h, sin h)), ground height per car
  const cars = Array.from({ length: nCars }, (_, i) => {
    const x = st.x - Math.cos(st.heading) * SIDE_BY_SIDE_M * i;
    const z = st.z + Math.sin(st.heading) * SIDE_BY_SIDE_M * i;
    return hatchCar({ x, y: st.y, z, heading: st.heading });
  });
  const run = buildRunWorld({ ...SETUP, ground: null, integrator, cars }, stage, vehicleCarAdapter);
  run.cars.forEach((eid, i) => setInputSource(run.world, eid, new SegmentInput(segs, i)));
  return run;
}

describe('snapshot → restore → N ticks equals the uninterrupted run (random stages, inputs, integrators)', () => {
  it('bit for bit, state hash every tick and the final snapshot bytes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STAGE_IDS),
        fc.constantFrom<IntegratorKind>('euler', 'midpoint', 'rk4'),
        fc.integer({ min: 1, max: 2 }),
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 1200 }),
        (stageId, integrator, nCars, segs, before) => {
          const a = build(stageId, integrator, nCars, segs);
          const b = build(stageId, integrator, nCars, segs);
          try {
            for (let i = 0; i < before; i++) runTick(a.world);
            restoreSnapshot(b.world, decodeSnapshot(encodeSnapshot(saveSnapshot(a.world))));
            expect(stateHash(b.world)).toBe(stateHash(a.world));
            for (let i = 0; i < AFTER_TICKS; i++) {
              runTick(a.world);
              runTick(b.world);
              expect(stateHash(b.world), `tick ${a.world.tick}`).toBe(stateHash(a.world));
            }
            expect(encodeSnapshot(saveSnapshot(b.world))).toEqual(encodeSnapshot(saveSnapshot(a.world)));
          } finally {
            releaseCollisionWorld(a.world);
            releaseCollisionWorld(b.world);
          }
        },
      ),
      { numRuns: 24, seed: 0x15, endOnFailure: true },
    );
  });
});
