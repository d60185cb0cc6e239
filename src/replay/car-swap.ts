/**
 * A mid-run car swap in the game (garage "apply", dev live reload: src/app/garage/live-car.ts calls it right
 * after `reconfigureCar`): later recoveries place the car with the new configuration, and the recorder
 * attached to the world (if any) records a config edit with the new file text and every file it extends, at
 * this tick, in order with the other edits.
 */
import type { SimWorld } from '../ecs/world';
import type { CarConfig } from '../content/car-schema';
import { embedCarFiles, setCarConfigOf } from '../run/cars';
import { recorderOf } from './recorder';

export function carConfigSwapped(
  world: SimWorld,
  eid: number,
  cfg: CarConfig,
  file: string,
  text: string,
  read?: (name: string) => string,
): void {
  setCarConfigOf(world, eid, cfg);
  const files = embedCarFiles(
    file,
    text,
    read ??
      ((name) => {
        throw new Error(`car swap: ${file} extends "${name}" but no file reader was given`);
      }),
  );
  recorderOf(world)?.configEdit(eid, { main: file, files });
}
