/**
 * THE order of the fixed-step passes (ARCHITECTURE.md). One tick runs `pipeline` top to bottom.
 * `forcePasses` (passes 2–5) are also re-run by the integrator at each midpoint / RK4 stage.
 */
import { commitRemovals } from 'bitecs';
import type { SimWorld } from '../ecs/world';
import { applyBodyForces } from '../systems/sim/apply-body-forces';
import { makeIntegrateBodies } from '../systems/sim/integrate-bodies';
import { applyControls } from '../ecs/controls';
import { collisionPass, propsPass } from '../systems/sim/collision/system';
import { vehicleTickLogic } from '../systems/sim/vehicle/drivetrain';
import { vehicleAfterStep, vehicleForces } from '../systems/sim/vehicle/forces';
import { haltCheckpointPass, haltGuardPass } from '../systems/sim/halt-guard';
import { updateStageProgress } from './stage-progress';
import { updateRaceProgress } from './race-progress';

export type System = (world: SimWorld) => void;

/** Passes 2–5: every system that turns state into forces and torques. Order matters within a tick. */
export const forcePasses: System[] = [
  applyBodyForces, // accumulators ← gravity + applied forces
  // 2–5 merged per car (vehicle/forces.ts): 2. wheel–terrain contact, suspension travel rate, tyre normal
  // loads; 3. engine, clutch, gearbox, differentials → wheel drive torques; 4. brush tyre forces on the
  // chassis, reaction torques on the wheels; 5. brakes, handbrake, rolling resistance, aero
  vehicleForces,
];

export function evaluateForces(world: SimWorld): void {
  for (let i = 0; i < forcePasses.length; i++) forcePasses[i]!(world);
}

const integrateBodies = makeIntegrateBodies(evaluateForces);

/** One fixed tick, in order. */
export const pipeline: System[] = [
  // 0. guard checkpoint: running-car list in step with RigidBody.halted; each car's start-of-tick pose
  haltCheckpointPass,
  // 1. controls
  applyControls,
  // 1b. per-tick vehicle logic: steering rate, gear shifts, clutch / diff lock states, stall
  vehicleTickLogic,
  // 2–5. forces at the start-of-step state
  evaluateForces,
  // 6–7. collision detection and response
  collisionPass,
  // 8. integrate
  integrateBodies,
  // 8b. vehicle telemetry-only fields from the last force evaluation (slip angles)
  vehicleAfterStep,
  // 9. props
  propsPass,
  // 9b. last line of defence: a car with a non-finite or runaway state is stopped with a `car-halted` event
  haltGuardPass,
  // 10. stage timing: each timed car's road progress, checkpoints, finish, stuck (StageProgress, `stage-*` events)
  updateStageProgress,
  // 10b. race progress: each racing car's countdown, jump start, laps, joker, penalties, finish (RaceProgress, `race-*` events)
  updateRaceProgress,
];
// After the tick, what the run's owner attached (replay recorder, replay player check, telemetry) reads the
// completed state: src/run/step.ts `stepRun`.

/** Run one fixed tick and advance the clock. */
export function runTick(world: SimWorld): void {
  commitRemovals(world);
  for (let i = 0; i < pipeline.length; i++) pipeline[i]!(world);
  world.tick += 1;
  world.time = world.tick * world.dt;
}
