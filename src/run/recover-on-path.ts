/**
 * Recovery along an AI path (the rallycross circuit, an autopilot's stage line): the recovery rule's placing
 * (placeCarAtRest, src/systems/sim/vehicle/recovery.ts) at RECOVER_BACK_M behind the car's arc length, facing
 * along the path (the autopilot places it where it stands: src/run/autopilot.ts). The penalty is the timing pass's (StageProgress: `addStageRecovery`; RaceProgress: counted
 * with the `race-recover` event).
 */
import type { SimWorld } from '../ecs/world-types';
import type { CarConfig } from '../content/car-schema';
import type { AiPath } from '../systems/sim/ai/path';
import { placeCarAtRest, RECOVER_BACK_M } from '../systems/sim/vehicle/recovery';

/** Car `eid` (config `car`) at rest `backM` (default RECOVER_BACK_M) behind arc length `pathS` on `path`, facing along it. */
export function recoverOnPath(world: SimWorld, eid: number, car: CarConfig, path: AiPath, pathS: number, backM = RECOVER_BACK_M): void {
  const s = path.wrapS(pathS - backM);
  const pt = [0, 0];
  path.pointAt(s, pt);
  placeCarAtRest(world, eid, car, { x: pt[0]!, z: pt[1]!, heading: path.headingAt(s) });
}
