/**
 * Benchmarks (a) and (b) of issue 8:
 *  (a) µs per car tick, full pipeline (controls with the AI driver, suspension, drivetrain, tyres, brakes/aero,
 *      collision pass, midpoint integration, bookkeeping) for 1 and 8 AI cars on the test-short stage;
 *  (b) a 32-car AI field on the rallycross circuit from a standing start with car–car collisions: real-time
 *      factor (simulated seconds per wall second, > 1 = faster than real time) and collisions seen.
 */
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { RallycrossRace } from '../../src/run/race';
import type { CarConfig } from '../../src/content/car-schema';
import type { BenchResult, BenchSuite } from '../types';

const STAGES = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../src/content/stages');
const CAR_IDS = ['rally-awd', 'hatch-gti', 'classic-rwd'];

function field(n: number): CarConfig[] {
  const cfgs = CAR_IDS.map((id) => loadBuiltinCar(id));
  return Array.from({ length: n }, (_, k) => cfgs[k % cfgs.length]!);
}

function timeRace(race: RallycrossRace, warmTicks: number, ticks: number): { usPerTick: number; collisions: number } {
  let collisions = 0;
  const drain = (): void => {
    for (const ev of race.world.events) if (String(ev.kind).startsWith('collision')) collisions++;
    race.world.events.length = 0;
  };
  for (let i = 0; i < warmTicks; i++) {
    race.tick();
    drain();
  }
  const t0 = performance.now();
  for (let i = 0; i < ticks; i++) {
    race.tick();
    drain();
  }
  return { usPerTick: ((performance.now() - t0) * 1000) / ticks, collisions };
}

export const suite: BenchSuite = {
  name: 'ai',
  async run({ quick }) {
    const out: BenchResult[] = [];
    const circuit = loadStageFromDir(join(STAGES, 'rallycross-bitring'));
    // (a) per car tick: 1 and 8 AI cars racing on the circuit (the same pipeline as a stage)
    for (const n of [1, 8]) {
      const race = new RallycrossRace({ stage: circuit, cars: field(n), laps: 5, countdownS: 0.002, seed: 7 });
      const { usPerTick } = timeRace(race, quick ? 500 : 2000, quick ? 1500 : 10000);
      out.push({
        suite: 'ai',
        name: `full pipeline, ${n} AI car${n > 1 ? 's' : ''}`,
        value: usPerTick / n,
        unit: 'µs/car/tick',
        note: `midpoint, dt 2 ms, with AI driver and collision pass; ${(2000 / usPerTick).toFixed(2)}× real time`,
      });
    }
    // (b) 32 cars from a standing start: the first seconds have the grid packed tight (most collisions)
    const race = new RallycrossRace({ stage: circuit, cars: field(32), laps: 3, countdownS: 0.002, seed: 11 });
    const simS = quick ? 2 : 10;
    const ticks = Math.round(simS / race.world.dt);
    const { usPerTick, collisions } = timeRace(race, 0, ticks);
    const rtf = (race.world.dt * 1e6) / usPerTick;
    out.push({
      suite: 'ai',
      name: '32-car AI field, rallycross, collisions on',
      value: rtf,
      unit: '× real time',
      lowerIsBetter: false,
      target: 1,
      note: `${simS} s from a standing start, ${collisions} collision events, ${(usPerTick / 32).toFixed(1)} µs/car/tick`,
    });
    return out;
  },
};
