/**
 * spawnCar: a car entity (RigidBody + Controls + Car) and four wheel entities (Wheel), placed on the world's
 * ground at its static ride height, body aligned with the ground normal, optionally moving forward.
 */
import type { SimWorld } from '../../../ecs/world';
import { attach, spawnEntity } from '../../../ecs/world';
import { groundSample } from '../../../ecs/ground';
import { spawnBody } from '../../../ecs/prefabs';
import type { CarConfig } from '../../../content/car-schema';
import { openSplit, registerCar, unregisterCar, vehicles } from './registry';
import { DRIVELINE_SCRATCH_SIZE, vehicleBlock } from './vehicle-block';
import { totalRatio } from './engine-curve';
import { removeEntity } from 'bitecs';
import { dcos, dsin } from '../../../../terrain/dmath';

export interface CarPose {
  x: number;
  z: number;
  /** World height of the CG; default: on the ground at static ride height. */
  y?: number;
  /** Heading (rad), 0 = facing +Z, + turns toward +X (left of a +Z-facing car). */
  heading: number;
  /** Initial forward speed (m/s). */
  speed?: number;
}

export interface CarOptions {
  /** Driver assists (default: both on). */
  autoClutch?: boolean;
  autoGear?: boolean;
  /** Anti-lock brakes (default on). */
  abs?: boolean;
  /** Initial gear (default: 1, or the gear that suits `speed` when the car starts moving). */
  gear?: number;
}

/** Rotation matrix (row-major) → unit quaternion (w, x, y, z). */
function quatFromMatrix(m: number[]): [number, number, number, number] {
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m as [number, number, number, number, number, number, number, number, number];
  const tr = m00 + m11 + m22;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    return [0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s];
  }
  if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    return [(m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s];
  }
  if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    return [(m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s];
  }
  const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
  return [(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s];
}

/** The pose's numbers are finite: a NaN here would spread through the whole world state. */
function checkPose(pose: CarPose): void {
  for (const [k, v] of Object.entries(pose)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`spawnCar: pose.${k} must be a finite number, found ${String(v)}`);
  }
}

/** The car's frame on the ground under the pose: normal n, forward f (unit) and the body orientation q. */
interface GroundFrame {
  h: number;
  nx: number;
  ny: number;
  nz: number;
  fx: number;
  fy: number;
  fz: number;
  q: [number, number, number, number];
}

function groundFrame(world: SimWorld, pose: CarPose): GroundFrame {
  const gs = groundSample();
  world.ground.sample(pose.x, pose.z, gs);
  // Body axes in world: Y = ground normal, Z = heading projected on the ground plane, X = Y × Z (left).
  const nx = gs.nx,
    ny = gs.ny,
    nz = gs.nz;
  let fx = dsin(pose.heading),
    fy = 0,
    fz = dcos(pose.heading);
  const fn = fx * nx + fy * ny + fz * nz;
  fx -= fn * nx;
  fy -= fn * ny;
  fz -= fn * nz;
  const fl = Math.hypot(fx, fy, fz);
  fx /= fl;
  fy /= fl;
  fz /= fl;
  const lx = ny * fz - nz * fy,
    ly = nz * fx - nx * fz,
    lz = nx * fy - ny * fx;
  const q = quatFromMatrix([lx, nx, fx, ly, ny, fy, lz, nz, fz]);
  return { h: gs.h, nx, ny, nz, fx, fy, fz, q };
}

/** Four wheel entities at static travel, spinning to roll at `speed` (m/s). */
function spawnWheels(world: SimWorld, eid: number, config: CarConfig, speed: number): [number, number, number, number] {
  const W = world.c.Wheel;
  const wheels: number[] = [];
  for (let i = 0; i < 4; i++) {
    const w = spawnEntity(world);
    attach(world, w, W);
    const wc = config.wheels[i]!;
    const tc = wc.front ? config.tires.front : config.tires.rear;
    W.car[w] = eid;
    W.index[w] = i;
    W.omega[w] = speed / tc.radius;
    W.angle[w] = 0;
    W.travel[w] = wc.staticTravel;
    W.travelRate[w] = 0;
    W.ux[w] = 0;
    W.uy[w] = 0;
    wheels.push(w);
  }
  return wheels as [number, number, number, number];
}

/** The gear asked for, or (moving, none asked for) the highest gear that keeps the engine above 45% of redline. */
function startingGear(config: CarConfig, opts: CarOptions, speed: number): number {
  const n = config.gearbox.forwardGears;
  let gear = opts.gear ?? 1;
  if (gear < -1 || gear > n || !Number.isInteger(gear)) throw new Error(`spawnCar: gear must be an integer −1..${n}, found ${gear}`);
  const wheelOmega = speed / config.tires.rear.radius;
  if (opts.gear === undefined && speed > 1) {
    gear = 1;
    for (let g = n; g >= 1; g--) {
      if (wheelOmega * totalRatio(config, g) >= 0.45 * config.engine.redline) {
        gear = g;
        break;
      }
    }
  }
  return gear;
}

/** Gear and engine state: a moving car in gear starts with the engine turning with the wheels, clutch locked. */
function startDriveline(world: SimWorld, eid: number, config: CarConfig, gear: number, speed: number): void {
  const C = world.c.Car;
  const wheelOmega = speed / config.tires.rear.radius;
  C.gear[eid] = gear;
  C.shiftTarget[eid] = gear;
  C.shiftTimer[eid] = 0;
  C.stalled[eid] = 0;
  C.steerAngle[eid] = 0;
  const engaged = speed > 1 && gear !== 0;
  const we = engaged ? Math.min(Math.max(wheelOmega * totalRatio(config, gear), config.engine.idle), config.engine.redline) : config.engine.idle;
  C.omegaE[eid] = we;
  C.clutchLocked[eid] = engaged && Math.abs(we - wheelOmega * totalRatio(config, gear)) < 1e-9 ? 1 : 0;
}

export function spawnCar(world: SimWorld, config: CarConfig, pose: CarPose, opts: CarOptions = {}): number {
  checkPose(pose);
  const { h, nx, ny, nz, fx, fy, fz, q } = groundFrame(world, pose);
  // CG above the ground along the normal: tyre radius − static tyre deflection + (CG height − radius).
  const tf = config.tires.front;
  const deflection = tf.nominalLoad / tf.radialStiffness;
  const hAbove = config.body.cgHeightM - deflection;
  const speed = pose.speed ?? 0;
  const eid = spawnBody(world, {
    mass: config.body.massKg,
    inertia: config.body.inertia,
    position: [pose.x + nx * hAbove, pose.y ?? h + ny * hAbove, pose.z + nz * hAbove],
    orientation: q,
    velocity: [fx * speed, fy * speed, fz * speed],
  });
  attach(world, eid, world.c.Controls);
  attach(world, eid, world.c.Car);
  const C = world.c.Car;
  const wheels = spawnWheels(world, eid, config, speed);
  C.w0[eid] = wheels[0];
  C.w1[eid] = wheels[1];
  C.w2[eid] = wheels[2];
  C.w3[eid] = wheels[3];
  C.autoClutch[eid] = opts.autoClutch === false ? 0 : 1;
  C.autoGear[eid] = opts.autoGear === false ? 0 : 1;
  C.abs[eid] = opts.abs === false ? 0 : 1;
  startDriveline(world, eid, config, startingGear(config, opts, speed), speed);
  const res = vehicles(world);
  registerCar(world, {
    eid,
    cfg: config,
    wheels,
    split: openSplit(config),
    scratch: new Float64Array(DRIVELINE_SCRATCH_SIZE),
  });
  if (!world.stateBlocks.includes(vehicleBlock)) world.stateBlocks.push(vehicleBlock);
  void res;
  return eid;
}

/** Remove a car and its wheels from the world. */
export function despawnCar(world: SimWorld, eid: number): void {
  const C = world.c.Car;
  for (const w of [C.w0[eid]!, C.w1[eid]!, C.w2[eid]!, C.w3[eid]!]) removeEntity(world, w);
  unregisterCar(world, eid);
  removeEntity(world, eid);
}
