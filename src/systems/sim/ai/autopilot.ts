/**
 * Autopilot: drive a whole stage (or laps of a circuit) headless with an AI driver on a car, and report the
 * time. Used by `npm run sim -- --stage <id> --car <file> --ai`, the "AI finishes every stage" tests and the
 * benchmarks. Pure (the caller loads the stage and the car).
 *
 * The "good human-like target" time (docs/ai.md): the limit time T_lim of the stage's racing line for this
 * car (corners at √(μ g/κ) with μ the planned friction of the surface under each point, braking at μ g,
 * accelerating at the car's full-throttle acceleration min(μ g·driven share, P/(m v))), plus 15 %: a good
 * human on an unknown stage drives ~85 % of the limit speed on average (pace notes, no risk at blind crests).
 */
import { setSceneColliders } from '../collision/runtime';
import { fromScenery, type ObstacleInit } from '../collision/scene';
import { useTsSceneQueries } from '../collision/havok-queries';
import { attachCarColliderFromConfig } from '../collision/car-collider';
import type { Stage } from '../../../../terrain/stage';
import type { CarConfig } from '../../../content/car-schema';
import { createSimWorld, DEFAULT_DT, type IntegratorKind, type SimWorld } from '../../../ecs/world';
import { runTick } from '../../../ecs/pipeline';
import { Button, setInputSource } from '../../../ecs/controls';
import { despawnCar, spawnCar } from '../../../ecs/prefab-car';
import { StageGround } from '../vehicle/stage-ground';
import { AiDriver, type DriverParams } from './driver';
import { AiPath } from './path';
import { driverVehicleFromConfig, plannedMu } from './car-params';
import { fullThrottleAcceleration, G } from './driver-model';

/** A good human's average speed as a fraction of the limit speed (see header). */
export const HUMAN_TARGET_FACTOR = 1.15;

export const DEFAULT_DRIVER: DriverParams = { aggressiveness: 0.6, skill: 0.8, name: 'autopilot' };

/** True when the stage is a closed circuit (finish on the start line). */
export function isClosedStage(stage: Stage): boolean {
  return Math.hypot(stage.finish.x - stage.start.x, stage.finish.z - stage.start.z) < 1;
}

/**
 * The AI path of a stage: the road from 20 m before the start to the end of the road (open stage), or one lap
 * from the start line as a closed loop (circuit). μ from the surface map under each point for this car.
 */
export function stagePath(stage: Stage, car: CarConfig, opts: { racingLine?: number; edgeMarginM?: number } = {}): AiPath {
  const closed = isClosedStage(stage);
  const pts: number[] = [];
  const widths: number[] = [];
  const step = 2;
  const d0 = closed ? stage.start.distanceM : Math.max(0, stage.start.distanceM - 20);
  const d1 = closed ? stage.start.distanceM + stage.lengthM - step / 2 : stage.road.lengthM;
  for (let d = d0; d <= d1; d += step) {
    const p = stage.road.poseAt(d);
    pts.push(p.x, p.y, p.z);
    widths.push(p.width);
  }
  return AiPath.fromCentreline(
    { points: Float64Array.from(pts), widths },
    {
      closed,
      racingLine: opts.racingLine ?? 1,
      edgeMarginM: opts.edgeMarginM ?? car.body.widthM / 2 + 0.9,
      muAt: (x, z) => plannedMu(car, stage.surfaceMap.surfaceAt(x, z)),
    },
  );
}

/** Limit time and the good-human target for driving `distanceM` from the start (see header). */
export function targetTime(path: AiPath, car: CarConfig, startS: number, distanceM: number): { limitS: number; humanS: number } {
  const v = driverVehicleFromConfig(car);
  const prof = path.speedProfile(
    {
      gripUse: 1,
      brakeUse: Math.min(1, v.brakeDecelMS2 / G),
      vMaxMS: v.topSpeedMS,
      accelMS2: (vv, mu) => fullThrottleAcceleration(vv, mu, v.drivenWeightFraction, v.powerW, v.massKg),
    },
    0,
  );
  // a standing start: the profile starts from rest at the start line
  const limitS = path.closed ? lapsTime(path, prof, startS, distanceM) : path.profileTime(standingStart(path, prof, startS, v), startS, startS + distanceM);
  return { limitS, humanS: limitS * HUMAN_TARGET_FACTOR };
}

function standingStart(path: AiPath, prof: Float64Array, startS: number, v: ReturnType<typeof driverVehicleFromConfig>): Float64Array {
  const out = Float64Array.from(prof);
  const i0 = path.indexAt(startS);
  for (let i = 0; i <= i0; i++) out[i] = 0;
  for (let i = i0 + 1; i < path.n; i++) {
    const ds = path.s[i]! - path.s[i - 1]!;
    const a = fullThrottleAcceleration(out[i - 1]!, path.mu[i - 1]!, v.drivenWeightFraction, v.powerW, v.massKg);
    const lim = Math.sqrt(out[i - 1]! ** 2 + 2 * a * ds);
    if (lim >= out[i]!) break;
    out[i] = lim;
  }
  return out;
}

function lapsTime(path: AiPath, prof: Float64Array, startS: number, distanceM: number): number {
  let t = 0;
  let left = distanceM;
  let s = startS;
  while (left > 1e-9) {
    const h = Math.min(left, path.lengthM - (s % path.lengthM));
    t += path.profileTime(prof, s % path.lengthM, (s % path.lengthM) + h);
    s += h;
    left -= h;
  }
  return t;
}

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
   * collision obstacles and the car with its collider, as src/app/stage-colliders.ts builds it (no Havok props).
   */
  gameWorld?: boolean;
  /** With `gameWorld`: extra obstacles added to the scenery's (tests: something on the road to get round). */
  extraObstacles?: readonly ObstacleInit[];
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
  let eid = spawnCar(world, car, { x: stage.start.x, z: stage.start.z, heading: stage.start.heading });
  if (opts.gameWorld) attachCarColliderFromConfig(world, eid, car);
  setInputSource(world, eid, driver);
  const b = world.c.RigidBody;
  const proj = { distanceM: 0, lateralM: 0, index: 0 };
  let progress = 0;
  let lastS = startLoc.s;
  let maxOff = 0;
  let finished = false;
  let timeS = 0;
  const maxTicks = Math.ceil(maxTime / world.dt);
  for (let k = 0; k < maxTicks; k++) {
    runTick(world);
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
      despawnCar(world, eid);
      eid = spawnCar(world, car, { x: pt[0]!, z: pt[1]!, heading: path.headingAt(rs) });
      if (opts.gameWorld) attachCarColliderFromConfig(world, eid, car);
      setInputSource(world, eid, driver);
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
  };
}
