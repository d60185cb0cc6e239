/**
 * `ai = true` on a scenario car (issue 8): the car's input comes from an AI driver following the stage road
 * (the autopilot's path for that car), instead of timed inputs. Errors name the car entry and what was wrong.
 */
import type { Scenario } from '../../../content/scenario-schema';
import type { SimWorld } from '../../../ecs/world';
import { setInputSource } from '../../../ecs/controls';
import type { Stage } from '../../../../terrain/stage';
import { vehicles } from '../vehicle/registry';
import { AiDriver } from './driver';
import { stagePath } from './stage-path';
import { driverVehicleFromConfig } from './car-params';

/** AI drivers created for a scenario, by car id (for traces and tests). */
export interface ScenarioAi {
  drivers: Map<string, AiDriver>;
}

declare module '../../../ecs/world-types' {
  interface WorldRuntime {
    scenarioAi?: ScenarioAi;
  }
}

export function setupScenarioAi(world: SimWorld, s: Scenario, stage: Stage | null, entities: readonly { id: string; eid: number; kind: string }[]): ScenarioAi {
  const drivers = new Map<string, AiDriver>();
  s.cars.forEach((c, i) => {
    if (!c.ai) return;
    if (!stage) throw new Error(`cars[${i}].ai: expected terrain.kind = "stage" (the AI follows the stage road), found "${s.terrain.kind}"`);
    if (c.inputs.length) throw new Error(`cars[${i}].inputs: expected none with ai = true (the AI drives), found ${c.inputs.length} entries`);
    const ent = entities.find((e) => e.id === c.id);
    const rt = ent ? vehicles(world).byEid.get(ent.eid) : undefined;
    if (!ent || !rt) throw new Error(`cars[${i}].ai: car "${c.id}" was not spawned`);
    const driver = new AiDriver({
      path: stagePath(stage, rt.cfg),
      vehicle: driverVehicleFromConfig(rt.cfg),
      params: { aggressiveness: c.ai_aggressiveness, skill: c.ai_skill, name: c.id },
    });
    setInputSource(world, ent.eid, driver);
    drivers.set(c.id, driver);
  });
  world.runtime.scenarioAi = { drivers };
  return world.runtime.scenarioAi;
}
