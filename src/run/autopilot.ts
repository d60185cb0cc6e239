/**
 * Autopilot: drive a whole stage (or laps of a circuit) headless with an AI driver on a car, and report the
 * time. Used by `npm run sim -- --stage <id> --car <file> --ai`, the "AI finishes every stage" tests and the
 * benchmarks. Pure (the caller loads the stage and the car). The path and the target time are
 * src/systems/sim/ai/stage-path.ts.
 */
import { setSceneColliders } from '../systems/sim/collision/runtime';
import { fromScenery, type ObstacleInit } from '../systems/sim/collision/scene';
import { useTsSceneQueries } from '../systems/sim/collision/havok-queries';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import type { Stage } from '../../terrain/stage';
import type { CarConfig } from '../content/car-schema';
import { createSimWorld, DEFAULT_DT, type IntegratorKind, type SimWorld } from '../ecs/world';
import { stepRun } from './step';
import { Button, setInputSource } from '../ecs/controls';
import { despawnCar, spawnCar } from '../systems/sim/vehicle/prefab-car';
import { StageGround } from '../systems/sim/vehicle/stage-ground';
import { AiDriver, type DriverParams } from '../systems/sim/ai/driver';
import { driverVehicleFromConfig } from '../systems/sim/ai/car-params';
import { DEFAULT_DRIVER, stagePath, targetTime } from '../systems/sim/ai/stage-path';
import { applyCarDamage, readCarDamage, type CarDamage } from '../systems/sim/collision/damage-state';

export interface DriveOptions {
  stage: Stage;
  car: CarConfig;
  driver?: DriverParams;
  /** Laps on a closed circuit (default 1). */
  laps?: number;
  dt?: number;
  integrator?: IntegratorKind;
  /** Give up after this much simulated time (default: 4 × the human target + 60 s). */
  maxTimeS?: number;
  /**
   * The game's world instead of the bare road: the stage scenery (trees, rocks, fences, markers, arches) as
   * collision obstacles and the car with its collider, as src/run/stage-colliders.ts builds it (no Havok props).
   */
  gameWorld?: boolean;
  /** With `gameWorld`: extra obstacles added to the scenery's (tests: something on the road to get round). */
  extraObstacles?: readonly ObstacleInit[];
  /**
   * The damage the car starts with (a rally stage; NO_DAMAGE for the first). The car then carries a collider
   * even without `gameWorld` and keeps its damage through recoveries, as the game's recovery does. Without it a
   * recovery respawns a fresh car (the AI tests' runs: a stage driven to the end, whatever it hit).
   */
  initialDamage?: CarDamage;
  /** Called every tick (tracing). */
  onTick?: (world: SimWorld, eid: number, driver: AiDriver) => void;
}

export interface DriveResult {
  stageId: string;
  carId: string;
  finished: boolean;
  /** Time from the start (standing) to crossing the finish, s (or the time driven when not finished). */
  timeS: number;
  distanceM: number;
  lengthM: number;
  avgSpeedKmh: number;
  /** Recover presses (0 = finished without help). */
  recoveries: number;
  /** Largest distance from the road centreline, m, and the road's half width there. */
  maxOffRoadM: number;
  limitS: number;
  humanTargetS: number;
  ticks: number;
  /** The car's damage right after it was spawned and when the drive ended (null: the car has no collider). */
  startDamage: CarDamage | null;
  endDamage: CarDamage | null;
}

/** Spawns the driven car at `pose` with its collider and `damage` when it has one, driven by `driver`. */
function spawnDriven(world: SimWorld, car: CarConfig, pose: { x: number; z: number; heading: number }, collider: boolean, damage: CarDamage | null, driver: AiDriver): number {
  const eid = spawnCar(world, car, pose);
  if (collider) attachCarColliderFromConfig(world, eid, car);
  if (collider && damage) applyCarDamage(world, eid, damage);
  setInputSource(world, eid, driver);
  return eid;
}

/** Drives the stage from its start line with the AI; deterministic for the same inputs. */
export function driveStage(opts: DriveOptions): DriveResult {
  const { stage, car } = opts;
  const world = createSimWorld({ dt: opts.dt ?? DEFAULT_DT, integrator: opts.integrator ?? 'midpoint', ground: StageGround.fromStage(stage) });
  const path = stagePath(stage, car);
  const closed = path.closed;
  const laps = closed ? Math.max(1, opts.laps ?? 1) : 1;
  const lengthM = stage.lengthM * laps;
  const startLoc = path.locate(stage.start.x, stage.start.z);
  const target = targetTime(path, car, startLoc.s, lengthM);
  const maxTime = opts.maxTimeS ?? 4 * target.humanS + 60;
  const vehicle = driverVehicleFromConfig(car);
  const driver = new AiDriver({ path, vehicle, params: opts.driver ?? DEFAULT_DRIVER });
  if (opts.gameWorld) {
    const scene = fromScenery(stage.scenery);
    for (const o of opts.extraObstacles ?? []) scene.add(o);
    setSceneColliders(world, scene);
    useTsSceneQueries(world);
  }
  const collider = opts.gameWorld === true || opts.initialDamage !== undefined;
  let eid = spawnDriven(world, car, { x: stage.start.x, z: stage.start.z, heading: stage.start.heading }, collider, opts.initialDamage ?? null, driver);
  const startDamage = collider ? readCarDamage(world, eid) : null;
  const b = world.c.RigidBody;
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  let progress = 0;
  let lastS = startLoc.s;
  let maxOff = 0;
  let finished = false;
  let timeS = 0;
  const maxTicks = Math.ceil(maxTime / world.dt);
  for (let k = 0; k < maxTicks; k++) {
    stepRun(world);
    opts.onTick?.(world, eid, driver);
    const x = b.px[eid]!, z = b.pz[eid]!;
    // progress along the path (unwrapped on a circuit); only small forward steps count (no shortcuts)
    const s = driver.loc.index >= 0 ? driver.loc.s : path.locate(x, z).s;
    let ds = s - lastS;
    if (closed) {
      if (ds > path.lengthM / 2) ds -= path.lengthM;
      else if (ds < -path.lengthM / 2) ds += path.lengthM;
    }
    lastS = s;
    if (Math.abs(ds) < 30) progress += ds;
    stage.road.project(x, z, proj);
    const half = stage.road.poseAt(proj.distanceM).width / 2;
    maxOff = Math.max(maxOff, Math.abs(proj.lateralM) - half);
    if (progress >= lengthM) {
      finished = true;
      timeS = world.time;
      break;
    }
    if (world.c.Controls.buttons[eid]! & Button.Recover) {
      // put the car back on the path where it left it, facing along it, at rest
      const rs = path.wrapS(s);
      const pt = [0, 0];
      path.pointAt(rs, pt);
      const damage = opts.initialDamage !== undefined ? readCarDamage(world, eid) : null;
      despawnCar(world, eid);
      eid = spawnDriven(world, car, { x: pt[0]!, z: pt[1]!, heading: path.headingAt(rs) }, collider, damage, driver);
      driver.resetTracking();
    }
  }
  if (!finished) timeS = world.time;
  return {
    stageId: stage.id,
    carId: car.id,
    finished,
    timeS,
    distanceM: progress,
    lengthM,
    avgSpeedKmh: (progress / Math.max(1e-9, timeS)) * 3.6,
    recoveries: driver.recoveries,
    maxOffRoadM: maxOff,
    limitS: target.limitS,
    humanTargetS: target.humanS,
    ticks: world.tick,
    startDamage,
    endDamage: collider ? readCarDamage(world, eid) : null,
  };
}
