/**
 * A bot's car in a "stage together" room: the real simulation of a shipped car on the room's stage (NetCar),
 * started on its slot's grid pose and driven tick by tick by the project's AI driver (the autopilot's driver:
 * src/systems/sim/ai), in its own lane offset so that a field of bots spreads across the road.
 */
import type { Stage } from '../../terrain/stage';
import { BUILTIN_CARS, loadBuiltinCar } from '../content/cars/index';
import { AiDriver } from '../systems/sim/ai/driver';
import { driverVehicleFromConfig } from '../systems/sim/ai/car-params';
import { DEFAULT_DRIVER, stagePath } from '../systems/sim/ai/stage-path';
import type { RunCar } from '../run/cars';
import { gridPose, GRID_COLUMN_M } from './grid';
import { NetCar } from './net-car';

/** The RunCar of built-in car `carId` at a pose (its files embedded, as a replay holds them). */
export function builtinRunCar(id: string, carId: string, pose: { x: number; z: number; heading: number }): RunCar {
  const main = BUILTIN_CARS.find((b) => b.id === carId);
  if (!main) throw new Error(`bot car: no built-in car "${carId}"`);
  const files = Object.fromEntries(BUILTIN_CARS.map((b) => [b.file, b.text]));
  return { id, role: 'player', main: main.file, files, pose: { x: pose.x, y: 0, z: pose.z, heading: pose.heading } };
}

/** The AI-driven car of `slot` on `stage`, stepping `ticksPerPacket` sim ticks of `dt` per state packet. */
export function createStageBotCar(stage: Stage, slot: number, carId: string, dt: number, ticksPerPacket: number): NetCar {
  const cfg = loadBuiltinCar(carId);
  const path = stagePath(stage, cfg);
  // the grid column the car starts in is the lane it keeps (+ = left, as the driver reads it)
  const laneOffsetM = slot % 2 === 0 ? GRID_COLUMN_M : -GRID_COLUMN_M;
  const driver = new AiDriver({ path, vehicle: driverVehicleFromConfig(cfg), params: DEFAULT_DRIVER, laneOffsetM });
  return new NetCar(builtinRunCar(`bot-${slot}`, carId, gridPose(stage, slot)), dt, ticksPerPacket, { stage, driver });
}
