/**
 * The stage's static collision scene for a run world: trees, rocks, markers, fences and the start/finish
 * arches of the stage scenery become the collision issue's scene colliders (`fromScenery`: cylinders and
 * walls), tested by its detection/response pass (6–7) against every car's CarCollider. Bushes do not stop
 * a car. Importing this module registers it as a `runWorldSetupHook`, so every world `buildRunWorld` makes
 * for a stage (the game, the browser replay player, ghosts) has the same static scene; Node tools that
 * verify game replays import it too (see docs/game.md "Replays").
 */
import type { SimWorld } from '../ecs/world';
import type { Stage } from '../../terrain/stage';
import { fromScenery } from '../systems/sim/collision/scene';
import { setSceneColliders } from '../systems/sim/collision/runtime';
import { runWorldSetupHooks } from '../replay/run-world';

export function buildStageColliders(world: SimWorld, stage: Stage | null): void {
  if (!stage) return;
  const scene = fromScenery(stage.scenery);
  setSceneColliders(world, scene);
}

if (!runWorldSetupHooks.includes(buildStageColliders)) runWorldSetupHooks.push(buildStageColliders);
