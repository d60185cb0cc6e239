/**
 * Autopilot: drive a whole stage (or laps of a circuit) headless with an AI driver on a car, and report the
 * time. Used by `npm run sim -- --stage <id> --car <file> --ai`, the rally's AI rivals, the "AI finishes every
 * stage" tests and the benchmarks. Pure (the caller loads the stage and the car). The path and the target time
 * are src/systems/sim/ai/stage-path.ts.
 *
 * The run is timed by the same pipeline passes as the player's: on a stage the StageProgress pass (the stage's
 * checkpoints, finish, recovery penalties), on a closed circuit the RaceProgress pass (a one-car race
 * without the joker rule: laps, recovery penalties, finish). The AI waits on the brakes through the countdown and
 * drives from the start event on, as a player does; its time runs from the lights, penalties included. An AI run
 * has no countdown (AI_COUNTDOWN_S): the lights go out in its first tick.
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
import { spawnCar } from '../systems/sim/vehicle/prefab-car';
import { StageGround } from '../systems/sim/vehicle/stage-ground';
import { AiDriver, type DriverParams } from '../systems/sim/ai/driver';
import { driverVehicleFromConfig } from '../systems/sim/ai/car-params';
import { DEFAULT_DRIVER, stagePath, targetTime } from '../systems/sim/ai/stage-path';
import { applyCarDamage, NO_DAMAGE, readCarDamage, type CarDamage } from '../systems/sim/collision/damage-state';
import type { AiPath } from '../systems/sim/ai/path';
import { addStageRecovery, attachStageProgress, stageCourseOf } from './stage-progress';
import { attachRaceProgress, raceEventOf, raceRunOf, resetRaceLocation, setRaceCourse } from './race-progress';
import { DEFAULT_RACE_RULES } from './race-rules';
import { recoverOnPath } from './recover-on-path';
import { STAGE_EVENT_KIND } from './stage-progress';
import { NO_TICK, STAGE_PHASE_RUNNING } from '../ecs/components';

export interface DriveOptions {
  stage: Stage;
  car: CarConfig;
  driver?: DriverParams;
  /** Laps on a closed circuit (default 1). */
  laps?: number;
  dt?: number;
  integrator?: IntegratorKind;
  /** Give up after this much simulated time from the lights (default: 4 × the human target + 60 s). */
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
  /** Time from the lights (standing start) to crossing the finish, recovery penalties included, s (or the time
   * driven when not finished). */
  timeS: number;
  distanceM: number;
  lengthM: number;
  avgSpeedKmh: number;
  /** Recoveries (Recover presses; 0 = finished without help). */
  recoveries: number;
  /** Largest distance from the road centreline, m, and the road's half width there. */
  maxOffRoadM: number;
  limitS: number;
  humanTargetS: number;
  /** World ticks run, the countdown included. */
  ticks: number;
  /** The car's damage right after it was spawned and when the drive ended (null: the car has no collider). */
  startDamage: CarDamage | null;
  endDamage: CarDamage | null;
}

/**
 * The countdown of an AI run, s: none. The lights go out in the first tick, which the car spends held on the
 * brakes at its spawn pose (as a player's car spends the tick the lights go out); it drives from the next one, the
 * first timed tick. A countdown would only add simulated seconds of a car standing still to every rival's run.
 */
const AI_COUNTDOWN_S = 0;

/**
 * How far back along its path the autopilot's car is put by a recovery, m: none. Its stall watchdog asks for one
 * after failing to get round something; from where it stands its sidestep tries again (put RECOVER_BACK_M back on
 * its line, the classic-rwd of tests/ai/game-world.test.ts drove into the block again and never sidestepped).
 */
const AUTOPILOT_RECOVER_BACK_M = 0;

/** The timing pass a drive is timed by: StageProgress on a stage, RaceProgress on a circuit. */
interface DriveTiming {
  /** Read after a tick: started (the lights went out), finished, a recovery was asked for. */
  read(world: SimWorld, eid: number): { started: boolean; finished: boolean; recover: boolean };
  /** The car was put back on its path: the timing's share (penalty, location search). */
  recovered(world: SimWorld, eid: number): void;
  /** Time from the lights with penalties, distance driven from the start, recoveries, s / m. */
  result(world: SimWorld, eid: number): { timeS: number; distanceM: number; recoveries: number };
  countdownS: number;
}

/** A stage run: world.course and the car's StageProgress; a recovery is the Recover button's press. */
function stageTiming(world: SimWorld, stage: Stage): DriveTiming {
  world.course = { ...stageCourseOf(stage), countdownS: AI_COUNTDOWN_S };
  const startM = world.course.startM;
  let held = false;
  return {
    countdownS: world.course.countdownS,
    read(w, eid) {
      let started = false, finished = false;
      for (const ev of w.events) {
        if (ev.car !== eid) continue;
        if (ev.kind === STAGE_EVENT_KIND.start) started = true;
        if (ev.kind === STAGE_EVENT_KIND.finish) finished = true;
      }
      const down = (w.c.Controls.buttons[eid]! & Button.Recover) !== 0;
      const recover = down && !held && w.c.StageProgress.phase[eid] === STAGE_PHASE_RUNNING;
      held = down;
      return { started, finished, recover };
    },
    recovered: (w, eid) => addStageRecovery(w, eid),
    result: (w, eid) => {
      const p = w.c.StageProgress;
      const finished = p.finishTick[eid] !== NO_TICK;
      return { timeS: finished ? p.finishTimeS[eid]! : p.timeS[eid]!, distanceM: p.progressM[eid]! - startM, recoveries: p.recoveries[eid]! };
    },
  };
}

/** A one-car race of `laps` laps on a circuit, without the joker rule; a recovery is the pass's `race-recover`. */
function circuitTiming(world: SimWorld, path: AiPath, startS: number, laps: number): DriveTiming {
  setRaceCourse(world, { ...DEFAULT_RACE_RULES, countdownS: AI_COUNTDOWN_S, laps, lapLengthM: path.lengthM, joker: null, path, startS });
  return {
    countdownS: AI_COUNTDOWN_S,
    read(w, eid) {
      let started = false, finished = false, recover = false;
      for (const ev of w.events) {
        if (ev.car !== eid) continue;
        const k = raceEventOf(ev.kind);
        started ||= k === 'start';
        finished ||= k === 'finish';
        recover ||= k === 'recover';
      }
      return { started, finished, recover };
    },
    recovered: (w, eid) => resetRaceLocation(w, eid),
    result: (w, eid) => {
      const r = raceRunOf(w, eid);
      return { timeS: (r.finishTimeS ?? r.timeS) + r.penaltyS, distanceM: r.progressM, recoveries: r.recoveries };
    },
  };
}

/** Spawns the driven car at `pose` with its collider and `damage` when it has one, driven by `driver`. */
function spawnDriven(world: SimWorld, car: CarConfig, pose: { x: number; z: number; heading: number }, collider: boolean, damage: CarDamage | null, driver: AiDriver): number {
  const eid = spawnCar(world, car, pose);
  if (collider) attachCarColliderFromConfig(world, eid, car);
  if (collider && damage) applyCarDamage(world, eid, damage);
  setInputSource(world, eid, driver);
  return eid;
}

/** The game's world around the road: the stage scenery (and any extra obstacles) as collision obstacles. */
function addSceneryColliders(world: SimWorld, stage: Stage, extra: readonly ObstacleInit[]): void {
  const scene = fromScenery(stage.scenery);
  for (const o of extra) scene.add(o);
  setSceneColliders(world, scene);
  useTsSceneQueries(world);
}

/** Drives the stage from its start line with the AI; deterministic for the same inputs. */
export function driveStage(opts: DriveOptions): DriveResult {
  const { stage, car } = opts;
  const world = createSimWorld({ dt: opts.dt ?? DEFAULT_DT, integrator: opts.integrator ?? 'midpoint', ground: StageGround.fromStage(stage) });
  const path = stagePath(stage, car);
  const laps = path.closed ? Math.max(1, opts.laps ?? 1) : 1;
  const lengthM = stage.lengthM * laps;
  const startLoc = path.locate(stage.start.x, stage.start.z);
  const target = targetTime(path, car, startLoc.s, lengthM);
  const maxTime = opts.maxTimeS ?? 4 * target.humanS + 60;
  const driver = new AiDriver({ path, vehicle: driverVehicleFromConfig(car), params: opts.driver ?? DEFAULT_DRIVER });
  if (opts.gameWorld) addSceneryColliders(world, stage, opts.extraObstacles ?? []);
  const collider = opts.gameWorld === true || opts.initialDamage !== undefined;
  const eid = spawnDriven(world, car, { x: stage.start.x, z: stage.start.z, heading: stage.start.heading }, collider, opts.initialDamage ?? null, driver);
  const timing = path.closed ? circuitTiming(world, path, startLoc.s, laps) : stageTiming(world, stage);
  if (path.closed) attachRaceProgress(world, eid);
  else attachStageProgress(world, eid);
  const startDamage = collider ? readCarDamage(world, eid) : null;
  driver.hold = true;
  let maxOff = 0;
  let finished = false;
  const maxTicks = Math.ceil((timing.countdownS + maxTime) / world.dt);
  for (let k = 0; k < maxTicks && !finished; k++) {
    stepRun(world);
    opts.onTick?.(world, eid, driver);
    maxOff = Math.max(maxOff, offRoadM(world, stage, eid));
    const tick = timing.read(world, eid);
    world.events.length = 0;
    if (tick.started) driver.hold = false;
    finished = tick.finished;
    if (tick.recover && !finished) {
      // put the car back on the path where it left it, facing along it, at rest; without a starting damage
      // the AI tests' runs go on with a repaired car (a stage driven to the end, whatever it hit)
      const b = world.c.RigidBody;
      const s = driver.loc.index >= 0 ? driver.loc.s : path.locate(b.px[eid]!, b.pz[eid]!).s;
      recoverOnPath(world, eid, car, path, s, AUTOPILOT_RECOVER_BACK_M);
      if (collider && opts.initialDamage === undefined) applyCarDamage(world, eid, NO_DAMAGE);
      timing.recovered(world, eid);
      driver.resetTracking();
    }
  }
  const r = timing.result(world, eid);
  return {
    stageId: stage.id,
    carId: car.id,
    finished,
    timeS: r.timeS,
    distanceM: r.distanceM,
    lengthM,
    avgSpeedKmh: (r.distanceM / Math.max(1e-9, r.timeS)) * 3.6,
    recoveries: r.recoveries,
    maxOffRoadM: maxOff,
    limitS: target.limitS,
    humanTargetS: target.humanS,
    ticks: world.tick,
    startDamage,
    endDamage: collider ? readCarDamage(world, eid) : null,
  };
}

/** How far car `eid` is beyond the road's edge, m (negative: on the road). */
function offRoadM(world: SimWorld, stage: Stage, eid: number): number {
  const b = world.c.RigidBody;
  stage.road.project(b.px[eid]!, b.pz[eid]!, scratchProj);
  return Math.abs(scratchProj.lateralM) - stage.road.poseAt(scratchProj.distanceM).width / 2;
}
const scratchProj = { distanceM: 0, lateralM: 0, index: 0 };
