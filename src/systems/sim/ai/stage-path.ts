/**
 * The AI's path along a stage and the stage's target time for a car.
 *
 * The "good human-like target" time (docs/ai.md): the limit time T_lim of the stage's racing line for this
 * car (corners at √(μ g/κ) with μ the planned friction of the surface under each point, braking at μ g,
 * accelerating at the car's full-throttle acceleration min(μ g·driven share, P/(m v))), plus 15 %: a good
 * human on an unknown stage drives ~85 % of the limit speed on average (pace notes, no risk at blind crests).
 */
import type { Stage } from '../../../../terrain/stage';
import type { CarConfig } from '../../../content/car-schema';
import type { DriverParams } from './driver';
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
