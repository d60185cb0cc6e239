/**
 * A replay car as the game's views see it (`DrivableCar`): the game's own car view (src/app/cars.ts
 * `drivable`: shape and telemetry mapping) on the config the replay adapter spawned the car with (parsed
 * from the embedded car text, so a replay shows the car as recorded, whatever the car files say today).
 * Replay cars are placed by the recorded edits only.
 */
import type { SimWorld } from '../../ecs/world';
import { carConfigOf } from '../../run/cars';
import type { ReplayCar } from '../../replay/format';
import type { DrivableCar } from '../car-link';
import { COLORS, drivable } from '../cars';

export function replayDrivable(world: SimWorld, eid: number, car: ReplayCar, index: number): DrivableCar {
  const cfg = carConfigOf(world, eid);
  if (!cfg) throw new Error(`replay viewer: car ${index} (${car.id}) was not spawned by the replay car adapter`);
  const info = { id: car.id, name: cfg.name, stats: [], color: COLORS[index % COLORS.length]! };
  return drivable(world, eid, info, cfg, () => {
    throw new Error('replay cars are placed by the replay (recorded edits) only');
  });
}
