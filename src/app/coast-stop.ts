/**
 * After the finish line the car is not left to roll on with the player's last input: the autopilot steers it
 * along the road with the throttle closed and a light brake until it stands, then holds it (issue 18, item 5).
 * The recording stopped at the finish, so none of this is in the replay.
 */
import { quantizeInput, type InputSource, type QuantizedInput } from '../ecs/controls';
import type { SimWorld } from '../ecs/world';
import type { AiDriver } from '../systems/sim/ai/driver';

/** Brake pedal share while rolling out (a firm but gentle stop: about 0.45 g with hatch-gti, tests/app/coast-stop.test.ts). */
export const COAST_BRAKE = 0.3;
/** Below this ground speed the car counts as stopped and is held on the brakes, m/s. */
export const COAST_STOPPED_MS = 0.3;

/** Horizontal speed of a car, m/s. */
export function groundSpeed(world: SimWorld, eid: number): number {
  const b = world.c.RigidBody;
  return Math.hypot(b.vx[eid]!, b.vz[eid]!);
}

export class CoastToStop implements InputSource {
  constructor(private readonly driver: AiDriver) {
    driver.hold = false;
  }

  next(world: SimWorld, eid: number): QuantizedInput {
    const steer = this.driver.decide(world, eid).steer;
    const rolling = groundSpeed(world, eid) > COAST_STOPPED_MS;
    return quantizeInput({ steer, throttle: 0, brake: rolling ? COAST_BRAKE : 1, clutch: 0, handbrake: rolling ? 0 : 1 });
  }
}
