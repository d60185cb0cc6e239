/**
 * Records a town run for the town replay tests: the hatch driven by a steady part throttle (straight: it
 * starts along its lane) through the traffic, the instructor trying from `firstTryTick` every `tryEvery`
 * ticks until a vehicle is picked.
 */
import { loadBuiltinCar, BUILTIN_CARS, readBuiltin } from '../../src/content/cars/index';
import { neutralInput, type InputSource, type QuantizedInput } from '../../src/ecs/controls';
import type { SimWorld } from '../../src/ecs/world';
import { TownRun } from '../../src/run/town';
import { replayCarFromText } from '../../src/run/cars';
import { builtinTrafficCars, TownRecording } from '../../src/replay/town-replay';

/** The player's throttle once it rolls (of 1000), and when it starts rolling, s. */
const ROLL_THROTTLE = 350;
const ROLL_AFTER_S = 0.5;

/** The player: rolls on after ROLL_AFTER_S at a steady part throttle, straight. */
class SteadyThrottle implements InputSource {
  next(world: SimWorld): QuantizedInput {
    const q = neutralInput();
    if (world.tick * world.dt >= ROLL_AFTER_S) q.throttle = ROLL_THROTTLE;
    return q;
  }
}

export interface TownRecordOptions {
  seed: number;
  traffic: number;
  ticks: number;
  firstTryTick: number;
  tryEvery: number;
}

export interface RecordedTown {
  bytes: Uint8Array;
  /** The tick before which the instructor picked a vehicle (−1: none). */
  pickTick: number;
  /** Every tick the instructor tried before (the failed tries are recorded too). */
  tries: number[];
}

export function recordTown(o: TownRecordOptions): RecordedTown {
  const carText = BUILTIN_CARS.find((b) => b.id === 'hatch-gti')!;
  const trafficCars = builtinTrafficCars();
  const run = new TownRun({ seed: o.seed, cars: o.traffic, player: loadBuiltinCar('hatch-gti'), trafficCars: trafficCars.map((c) => loadBuiltinCar(c.id)), playerInput: new SteadyThrottle() });
  const b = run.world.c.RigidBody, e = run.playerEid;
  const player = replayCarFromText({ id: 'hatch-gti', main: carText.file, text: carText.text, read: readBuiltin, pose: { x: b.px[e]!, y: b.py[e]!, z: b.pz[e]!, heading: 0 } });
  const rec = new TownRecording(run, { seed: o.seed, cars: o.traffic, player, trafficCars });
  let pickTick = -1;
  const tries: number[] = [];
  for (let t = 0; t < o.ticks; t++) {
    if (pickTick < 0 && t >= o.firstTryTick && t % o.tryEvery === 0) {
      tries.push(t);
      if (rec.instruct() !== null) pickTick = t;
    }
    rec.tick();
  }
  return { bytes: rec.recorder.finish(), pickTick, tries };
}
