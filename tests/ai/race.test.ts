import { describe, expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { circlePath } from './circle-path';
import { gridSlots, RallycrossRace } from '../../src/run/race';
import { stateHash } from '../../src/ecs/hash';


describe('rallycross race logic', () => {
  it('grid: two abreast behind the start line, rows 8 m apart (right column staggered 4 m), ±2.4 m from the path', () => {
    const path = circlePath(200);
    const slots = gridSlots(path, 100, 6);
    expect(slots).toHaveLength(6);
    for (const [k, sl] of slots.entries()) {
      const loc = path.locate(sl.x, sl.z);
      const expectS = 100 - 4 - Math.floor(k / 2) * 8 - (k % 2 ? 4 : 0);
      // arc vs chord: s within 5 cm; the lateral offset within the polygon sagitta of a 2 m chord on R = 200
      expect(Math.abs(loc.s - expectS)).toBeLessThan(0.05);
      expect(Math.abs(loc.lateral - (k % 2 ? -2.4 : 2.4))).toBeLessThan(0.01);
    }
  });

  it('a 4-car AI race on the shipped circuit: standing start held for the countdown, all cars move off, same seed → same bits', () => {
    const stage = loadStageFromDir('src/content/stages/rallycross-bitring');
    const cars = ['rally-awd', 'hatch-gti', 'classic-rwd', 'rally-awd'].map((id) => loadBuiltinCar(id));
    let grid: number[] = [];
    const run = (): RallycrossRace => {
      const race = new RallycrossRace({ stage, cars, laps: 1, countdownS: 1, seed: 5, integrator: 'euler' });
      grid = race.entrants.map((_, i) => race.runOf(i).progressM);
      for (let k = 0; k < 500; k++) race.tick();
      // held on the brakes through the countdown: nobody has moved more than a few centimetres
      race.entrants.forEach((_, i) => expect(Math.abs(race.runOf(i).progressM - grid[i]!)).toBeLessThan(0.1));
      for (let k = 0; k < 2000; k++) race.tick();
      return race;
    };
    const r1 = run();
    expect(r1.phase).toBe('racing');
    // then 4 s of racing: every car has left the grid and gained ground
    r1.entrants.forEach((_, i) => expect(r1.runOf(i).progressM - grid[i]!).toBeGreaterThan(15));
    expect(new Set(r1.positions()).size).toBe(4);
    const r2 = run();
    expect(stateHash(r2.world)).toBe(stateHash(r1.world));
  });
});
