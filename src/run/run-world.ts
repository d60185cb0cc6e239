/**
 * THE function that builds a run's simulation world. The live game, the replay player, the ghost and
 * `npm run replay -- verify` all build their world through `buildRunWorld`, so a verification re-simulates
 * exactly what the browser simulated: same dt, integrator, seed, gravity, ground (a stage's B-spline ground or
 * flat), the stage's scenery colliders and props (src/run/stage-colliders.ts), the cars spawned from their
 * embedded car file text, in setup order, and on a stage the player's car timed (StageProgress).
 */
import { createSimWorld, type IntegratorKind, type SimWorld } from '../ecs/world';
import { FlatGround, type Ground } from '../ecs/ground';
import type { Stage } from '../../terrain/stage';
import { StageGround } from '../systems/sim/vehicle/stage-ground';
import { buildStageColliders } from './stage-colliders';
import { vehicleCarAdapter, type CarAdapter, type RunCar } from './cars';
import { attachStageProgress, stageCourseOf } from './stage-progress';

/** Everything a run world is built from (a replay header holds exactly these fields). */
export interface RunSetup {
  /** Fixed step, s. */
  dt: number;
  integrator: IntegratorKind;
  seed: number;
  /** Magnitude of gravity, m/s². */
  gravity_m_s2: number;
  /** Flat ground height when there is no stage (null: 0 m). */
  ground: { kind: 'flat'; height_m: number } | null;
  cars: readonly RunCar[];
  /** Havok props on the stage (when Havok is loaded). */
  props?: boolean;
}

export interface RunWorld {
  world: SimWorld;
  /** Car entity per setup car, same order. */
  cars: number[];
  stage: Stage | null;
}

export function groundFor(setup: Pick<RunSetup, 'ground'>, stage: Stage | null): Ground {
  return stage ? StageGround.fromStage(stage) : new FlatGround(setup.ground?.height_m ?? 0);
}

export function buildRunWorld(setup: RunSetup, stage: Stage | null, cars: CarAdapter = vehicleCarAdapter): RunWorld {
  const world = createSimWorld({
    dt: setup.dt,
    integrator: setup.integrator,
    seed: setup.seed,
    gravity: setup.gravity_m_s2,
    ground: groundFor(setup, stage),
  });
  // a run that hit a tree replays hitting it
  if (stage) buildStageColliders(world, stage, setup.props === true);
  const eids = setup.cars.map((c) => cars.spawn(world, c));
  // the player's car is timed on the stage by the StageProgress pass (src/run/stage-progress.ts)
  if (stage) {
    world.course = stageCourseOf(stage);
    setup.cars.forEach((c, i) => {
      if (c.role === 'player') attachStageProgress(world, eids[i]!);
    });
  }
  return { world, cars: eids, stage };
}
