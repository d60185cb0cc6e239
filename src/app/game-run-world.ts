/**
 * The game run's simulation world (no Babylon): GameSession builds one for every run — each Retry and Restart
 * builds a new one — and releases it when the session is disposed (its Havok props instance goes back to the
 * pool, reset: src/systems/sim/collision/havok-instance.ts). One place for both, so Node tests build and release
 * exactly what the game does (tests/collision/havok-memory.test.ts: 50 Retries keep memory flat).
 */
import type { SimWorld } from '../ecs/world';
import type { Stage } from '../../terrain/stage';
import type { ReplayCar } from '../replay/format';
import { buildRunWorld, type RunWorld } from '../run/run-world';
import { releaseCollisionWorld } from '../systems/sim/collision/runtime';
import { gameCarAdapter, type CarChoice } from './cars';
import { RUN_SETUP, stagePropsEnabled } from './game-setup';
import type { CarDamage } from '../systems/sim/collision/damage-state';

/**
 * The run world with the chosen car at the stage start — the same builder the replay player and `replay verify`
 * use. `startDamage`: the damage the car brings (a rally stage after the first), kept in the replay header car.
 */
export function buildGameRunWorld(stage: Stage, car: CarChoice, startDamage?: CarDamage): { run: RunWorld; replayCar: ReplayCar } {
  const s = stage.start;
  const replayCar = car.replayCar({ x: s.x, y: s.y, z: s.z, heading: s.heading });
  if (startDamage) replayCar.damage = { ...startDamage };
  return {
    run: buildRunWorld(
      { ...RUN_SETUP, props: stagePropsEnabled(), ground: null, cars: [replayCar] },
      stage,
      gameCarAdapter,
    ),
    replayCar,
  };
}

/** The run is over (Retry, Restart, Quit): frees its Havok worlds; nothing may step the world afterwards. */
export function releaseGameRunWorld(world: SimWorld): void {
  releaseCollisionWorld(world);
}
