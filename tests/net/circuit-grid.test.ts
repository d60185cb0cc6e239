/**
 * A rallycross race room's start grid (src/net/grid.ts on a closed circuit) is the offline rallycross race's grid
 * (src/run/race.ts): the cars of a networked race start where the same number of cars would in a race against the
 * AI, behind the start line, two abreast. Each client computes it alone from its slot, whatever car it drives.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { gridPose } from '../../src/net/grid';
import { RallycrossRace } from '../../src/run/race';
import { BUILTIN_CARS, loadBuiltinCar } from '../../src/content/cars/index';
import { DEFAULT_RACE_CIRCUIT } from '../../server/rooms/stages';
import { isClosedStage } from '../../src/systems/sim/ai/stage-path';
import { NetCar } from '../../src/net/net-car';
import { builtinRunCar } from '../../src/net/bot-car';
import { NET_SIM_DT_S, TICKS_PER_PACKET } from '../../server/rooms/race-room';

const CARS = 6;

describe('race room grid on a circuit', () => {
  it("each slot's car starts where the offline race spawns entrant k, exactly", () => {
    const stage = loadStageFromDir(join('src/content/stages', DEFAULT_RACE_CIRCUIT));
    expect(isClosedStage(stage)).toBe(true);
    const cfg = loadBuiltinCar(BUILTIN_CARS[0]!.id);
    const race = new RallycrossRace({ stage, cars: Array.from({ length: CARS }, () => cfg), laps: 1, playerIndex: -1 });
    const b = race.world.c.RigidBody;
    for (let k = 0; k < CARS; k++) {
      // the game's drive: a NetCar of the room's car on the circuit at its slot's grid pose
      const net = new NetCar(builtinRunCar(`p${k}`, BUILTIN_CARS[0]!.id, gridPose(stage, k)), NET_SIM_DT_S, TICKS_PER_PACKET, { stage });
      const nb = net.run.world.c.RigidBody, ne = net.eid;
      const eid = race.entrants[k]!.eid;
      for (const f of ['px', 'py', 'pz', 'R2', 'R8'] as const) expect(nb[f][ne]).toBe(b[f][eid]);
    }
    // behind the start line: every slot's offset from the start, along the start heading, is negative
    const h0 = gridPose(stage, 0).heading;
    for (let k = 0; k < CARS; k++) {
      const g = gridPose(stage, k);
      expect((g.x - stage.start.x) * Math.sin(h0) + (g.z - stage.start.z) * Math.cos(h0)).toBeLessThan(0);
    }
  });
});
