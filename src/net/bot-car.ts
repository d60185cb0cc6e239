/**
 * A bot's car in a room: the real simulation of a shipped car on the room's stage (NetCar), started on its slot's
 * grid pose and driven tick by tick by the project's AI driver (the autopilot's driver: src/systems/sim/ai). On a
 * stage it keeps its grid column's lane so that a field of bots spreads across the road; on a race room's circuit
 * it is the offline race's AI entrant (RaceDriver: the circuit driver and the joker-branch driver), which takes the
 * joker once after its chosen lap. Bots never recover.
 */
import type { Stage } from '../../terrain/stage';
import { BUILTIN_CARS, loadBuiltinCar } from '../content/cars/index';
import { AiDriver } from '../systems/sim/ai/driver';
import { driverVehicleFromConfig } from '../systems/sim/ai/car-params';
import { DEFAULT_DRIVER, stagePath } from '../systems/sim/ai/stage-path';
import type { RunCar } from '../run/cars';
import type { InputSource, QuantizedInput } from '../ecs/controls';
import type { SimWorld } from '../ecs/world';
import { RaceDriver } from '../run/race';
import { RACE_PHASE_RACING } from '../ecs/components';
import { jokerRoute } from '../systems/sim/ai/joker';
import { plannedMu } from '../systems/sim/ai/car-params';
import { gridPose, GRID_COLUMN_M } from './grid';
import { NetCar } from './net-car';

/** The RunCar of built-in car `carId` at a pose (its files embedded, as a replay holds them). */
export function builtinRunCar(id: string, carId: string, pose: { x: number; z: number; heading: number }): RunCar {
  const main = BUILTIN_CARS.find((b) => b.id === carId);
  if (!main) throw new Error(`bot car: no built-in car "${carId}"`);
  const files = Object.fromEntries(BUILTIN_CARS.map((b) => [b.file, b.text]));
  return { id, role: 'player', main: main.file, files, pose: { x: pose.x, y: 0, z: pose.z, heading: pose.heading } };
}

/** The autopilot's driver for car `carId` of grid `slot` on `stage`, keeping the slot's grid column as its lane. */
export function createStageDriver(stage: Stage, slot: number, carId: string): InputSource {
  const cfg = loadBuiltinCar(carId);
  const path = stagePath(stage, cfg);
  // the grid column the car starts in is the lane it keeps (+ = left, as the driver reads it)
  const laneOffsetM = slot % 2 === 0 ? GRID_COLUMN_M : -GRID_COLUMN_M;
  return new AiDriver({ path, vehicle: driverVehicleFromConfig(cfg), params: DEFAULT_DRIVER, laneOffsetM });
}

/** The AI-driven car of `slot` on `stage`, stepping `ticksPerPacket` sim ticks of `dt` per state packet. */
export function createStageBotCar(stage: Stage, slot: number, carId: string, dt: number, ticksPerPacket: number): NetCar {
  const driver = createStageDriver(stage, slot, carId);
  return new NetCar(builtinRunCar(`bot-${slot}`, carId, gridPose(stage, slot)), dt, ticksPerPacket, { stage, driver });
}

/** A race bot's lane, m (+ = left): half the offline grid's ±2.4 m columns, as RallycrossRace gives its AI. */
const RACE_LANE_OFFSET_M = 1.2;
/** Clearance of the joker driver's line from the branch edge beyond the car's half width, m (the offline race's). */
const JOKER_EDGE_CLEARANCE_M = 0.9;

/**
 * The offline race's joker strategy for one car driving itself (RallycrossRace.steerJokerStrategy): want the joker
 * from lap `jokerLap` on until the car's RaceProgress counts one.
 */
class JokerOnceDriver implements InputSource {
  constructor(readonly race: RaceDriver) {}

  next(world: SimWorld, eid: number): QuantizedInput {
    const p = world.c.RaceProgress;
    if (p.phase[eid] === RACE_PHASE_RACING) this.race.wantJoker = p.jokers[eid] === 0 && p.lap[eid]! >= this.race.jokerLap;
    return this.race.next(world, eid);
  }
}

/**
 * The offline race's AI entrant for car `carId` in grid `slot` on circuit `stage` (its lane by the slot's column),
 * taking the joker after `jokerLap` completed laps (Infinity: never). Race bots drive with it; the game's drive
 * hands it the player's car when its autopilot is on (the browser test's hook).
 */
export function createRaceDriver(stage: Stage, slot: number, carId: string, jokerLap = 0): InputSource {
  const cfg = loadBuiltinCar(carId);
  const path = stagePath(stage, cfg);
  const vehicle = driverVehicleFromConfig(cfg);
  const roadHalf = stage.road.poseAt(stage.start.distanceM).width / 2;
  const laneOffsetM = slot % 2 === 0 ? RACE_LANE_OFFSET_M : -RACE_LANE_OFFSET_M;
  const main = new AiDriver({ path, vehicle, params: DEFAULT_DRIVER, laneOffsetM, halfWidthM: roadHalf });
  const route = jokerRoute(stage, path, (x, z) => plannedMu(cfg, stage.surfaceMap.surfaceAt(x, z)), { edgeMarginM: cfg.body.widthM / 2 + JOKER_EDGE_CLEARANCE_M });
  const joker = route ? new AiDriver({ path: route.path, vehicle, params: DEFAULT_DRIVER, halfWidthM: route.widthM / 2 }) : null;
  return new JokerOnceDriver(new RaceDriver(main, joker, route, jokerLap));
}

/**
 * The AI-driven car of `slot` in a race room on circuit `stage` over `laps` laps, taking the joker after
 * `jokerLap` completed laps (Infinity: never, a joker skipped).
 */
export function createRaceBotCar(stage: Stage, slot: number, carId: string, dt: number, ticksPerPacket: number, laps: number, jokerLap = 0): NetCar {
  const driver = createRaceDriver(stage, slot, carId, jokerLap);
  return new NetCar(builtinRunCar(`bot-${slot}`, carId, gridPose(stage, slot)), dt, ticksPerPacket, { stage, driver, laps });
}
