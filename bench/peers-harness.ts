/**
 * Peer-engine harness (issue 8, benchmark (c)): the same car driven with the same inputs on the same
 * heightfield at the same dt by three engines in one process:
 *  - ours: the full BitRally pipeline (6DOF body, suspension, brush tyres, drivetrain) on the stage's B-spline
 *    surface;
 *  - Rapier (`@dimforge/rapier3d-compat`): DynamicRayCastVehicleController on a heightfield collider;
 *  - cannon-es: RaycastVehicle on a Heightfield shape.
 * The heightfield nodes are the stage's own (a square window around the start). Mass, wheel positions, wheel
 * radius, spring rate and damping come from our car config, converted to the peers' per-unit-mass
 * conventions (both peers port Bullet's btRaycastVehicle: suspension force = stiffness·compression·m_chassis).
 * Driving inputs: one scripted QuantizedInput sequence (throttle, steer, brake over time) for all three; the
 * peers map pedals to wheel forces with the car's traction and power limits, F = min(T·i₁·i_f·η/r, P/v).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import * as CANNON from 'cannon-es';
import type { Stage } from '../terrain/stage';
import type { CarConfig } from '../src/content/car-schema';
import { PEDAL_SCALE, STEER_SCALE, type QuantizedInput } from '../src/ecs/controls';
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 as G0 } from '../src/content/world-constants';

/** The peers step at the simulation's default step, s. */
export const PEER_DT = DEFAULT_DT;

/** The scripted driving inputs at tick k (same for every engine). Deterministic, integers as replays store them. */
export function scriptedInput(k: number, dt = PEER_DT): QuantizedInput {
  const t = k * dt;
  const throttle = t < 1 ? 0 : t % 10 < 8 ? 0.8 : 0;
  const brake = t % 10 >= 8.5 ? 0.6 : 0;
  // biased to the left so every car drives loops near its start and stays on the heightfield window
  const steer = t < 3 ? 0 : 0.18 + 0.1 * Math.sin((2 * Math.PI * (t - 3)) / 6);
  return { steer: Math.round(steer * STEER_SCALE), throttle: Math.round(throttle * PEDAL_SCALE), brake: Math.round(brake * PEDAL_SCALE), clutch: 0, handbrake: 0, buttons: 0 };
}

export interface PeerVehicle {
  name: string;
  /** Apply this tick's input and advance one step of dt. */
  step(input: QuantizedInput): void;
  /** Chassis position and speed (for sanity checks: it moved, it stayed on the ground). */
  position(): [number, number, number];
  speed(): number;
  dispose(): void;
}

/** Square window of the stage heightfield around (cx, cz): n×n nodes (n odd), heights in metres. */
export interface HeightPatch {
  n: number;
  cell: number;
  /** World position of node (0, 0). */
  x0: number;
  z0: number;
  /** h[j·n + i] at (x0 + i·cell, z0 + j·cell). */
  h: Float32Array;
}

export function heightPatch(stage: Stage, cx: number, cz: number, n = 129): HeightPatch {
  const hf = stage.heightfield;
  const cell = hf.cellSize;
  const ic = Math.round((cx - hf.origin.x) / cell), jc = Math.round((cz - hf.origin.z) / cell);
  const half = (n - 1) / 2;
  const i0 = Math.max(0, Math.min(hf.width - n, ic - half)), j0 = Math.max(0, Math.min(hf.depth - n, jc - half));
  const h = new Float32Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = hf.at(i0 + i, j0 + j);
  return { n, cell, x0: hf.origin.x + i0 * cell, z0: hf.origin.z + j0 * cell, h };
}

/** The car's numbers as the raycast peers need them. */
export interface PeerCarParams {
  mass: number;
  halfExtents: [number, number, number];
  /** Wheel centres at static ride height, body frame (x left, y up, z forward), FL FR RL RR. */
  wheels: [number, number, number][];
  front: boolean[];
  driven: boolean[];
  radius: number;
  restLength: number;
  /** Per unit chassis mass (Bullet convention). */
  stiffness: number;
  dampCompression: number;
  dampRelaxation: number;
  maxSteer: number;
  /** Drive force limits: at the wheels in first gear (N) and peak power (W); brake force at full pedal (N). */
  maxDriveForce: number;
  powerW: number;
  maxBrakeForce: number;
  friction: number;
}

export function peerParams(cfg: CarConfig): PeerCarParams {
  const m = cfg.body.massKg;
  const k = cfg.suspension.front.springRate; // N/m per wheel
  const c = 0.5 * (cfg.suspension.front.bumpDamping + cfg.suspension.front.reboundDamping);
  let power = 0;
  for (let i = 0; i < cfg.engine.curveOmega.length; i++) power = Math.max(power, cfg.engine.curveOmega[i]! * cfg.engine.curveTorque[i]!);
  const r = cfg.tires.front.radius;
  const g1 = cfg.gearbox.ratios[1]!;
  return {
    mass: m,
    halfExtents: [cfg.body.widthM / 2, 0.35, cfg.body.lengthM / 2],
    wheels: cfg.wheels.map((w) => [w.position[0], w.position[1], w.position[2]] as [number, number, number]),
    front: cfg.wheels.map((w) => w.front),
    driven: cfg.wheels.map((w) => w.driven),
    radius: r,
    // static compression of the spring: m g / (4 k); the rest length leaves room above it
    restLength: 0.15 + (m * G0) / (4 * k),
    stiffness: k / m,
    dampCompression: c / m,
    dampRelaxation: c / m,
    maxSteer: cfg.steering.maxAngle,
    maxDriveForce: (cfg.engine.peakTorque * g1 * cfg.gearbox.finalDrive * cfg.gearbox.efficiency) / r,
    powerW: power,
    maxBrakeForce: cfg.brakes.maxTorque / r,
    friction: cfg.tires.front.grip * 0.9,
  };
}

function driveForce(p: PeerCarParams, throttle: number, speed: number): number {
  return throttle * Math.min(p.maxDriveForce, p.powerW / Math.max(1, Math.abs(speed)));
}

/** Rapier needs its wasm initialised once per process. */
let rapierReady: Promise<void> | null = null;
export function initRapier(): Promise<void> {
  rapierReady ??= RAPIER.init();
  return rapierReady;
}

/**
 * Collision groups (membership << 16 | filter) of a chassis that touches nothing: Rapier then solves no chassis
 * contact against the heightfield, as our car (which has no chassis–terrain contact) — the like-for-like peer.
 * The vehicle controller's wheel rays still hit the ground (they use their own filter).
 */
const CHASSIS_TOUCHES_NOTHING = (0x0002 << 16) | 0x0000;

export interface RapierOptions {
  /** The chassis box collides with the heightfield (Rapier's default; false: like-for-like with ours). */
  chassisHitsGround: boolean;
}

export function rapierVehicle(patch: HeightPatch, p: PeerCarParams, start: { x: number; y: number; z: number; heading: number }, opts: RapierOptions = { chassisHitsGround: true }, dt = PEER_DT): PeerVehicle {
  const world = new RAPIER.World({ x: 0, y: -G0, z: 0 });
  world.timestep = dt;
  // Rapier heightfield: (nrows+1)×(ncols+1) heights, column-major, rows along Z, columns along X, centred on
  // the collider's origin, total size = scale.x × scale.z.
  const n = patch.n;
  const heights = new Float32Array(n * n);
  // column-major: index = col·(nrows+1) + row, row ↔ z index j, col ↔ x index i
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) heights[i * n + j] = patch.h[j * n + i]!;
  const size = (n - 1) * patch.cell;
  const ground = RAPIER.ColliderDesc.heightfield(n - 1, n - 1, heights, { x: size, y: 1, z: size }).setTranslation(patch.x0 + size / 2, 0, patch.z0 + size / 2);
  world.createCollider(ground);
  const rot = { w: Math.cos(start.heading / 2), x: 0, y: Math.sin(start.heading / 2), z: 0 };
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(start.x, start.y, start.z).setRotation(rot).setCanSleep(false));
  const [hx, hy, hz] = p.halfExtents;
  const col = RAPIER.ColliderDesc.cuboid(hx, hy, hz).setMass(p.mass);
  if (!opts.chassisHitsGround) col.setCollisionGroups(CHASSIS_TOUCHES_NOTHING);
  world.createCollider(col, body);
  const vc = world.createVehicleController(body);
  vc.indexUpAxis = 1;
  vc.setIndexForwardAxis = 2;
  p.wheels.forEach((w, i) => {
    vc.addWheel({ x: w[0], y: w[1] + p.restLength, z: w[2] }, { x: 0, y: -1, z: 0 }, { x: -1, y: 0, z: 0 }, p.restLength, p.radius);
    vc.setWheelSuspensionStiffness(i, p.stiffness);
    vc.setWheelSuspensionCompression(i, p.dampCompression);
    vc.setWheelSuspensionRelaxation(i, p.dampRelaxation);
    vc.setWheelMaxSuspensionTravel(i, 0.15);
    vc.setWheelMaxSuspensionForce(i, 4 * p.mass * G0 * 3);
    vc.setWheelFrictionSlip(i, p.friction);
  });
  const nDriven = p.driven.filter(Boolean).length || 1;
  return {
    name: opts.chassisHitsGround ? 'rapier' : 'rapier-lfl',
    step(input) {
      const steer = (input.steer / STEER_SCALE) * p.maxSteer;
      const f = driveForce(p, input.throttle / PEDAL_SCALE, vc.currentVehicleSpeed()) / nDriven;
      const b = ((input.brake / PEDAL_SCALE) * p.maxBrakeForce * dt) / 4;
      for (let i = 0; i < 4; i++) {
        if (p.front[i]) vc.setWheelSteering(i, steer);
        vc.setWheelEngineForce(i, p.driven[i] ? f : 0);
        vc.setWheelBrake(i, b);
      }
      vc.updateVehicle(dt);
      world.step();
    },
    position() {
      const t = body.translation();
      return [t.x, t.y, t.z];
    },
    speed() {
      const v = body.linvel();
      return Math.hypot(v.x, v.y, v.z);
    },
    dispose() {
      world.free();
    },
  };
}

export function cannonVehicle(patch: HeightPatch, p: PeerCarParams, start: { x: number; y: number; z: number; heading: number }, dt = PEER_DT): PeerVehicle {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -G0, 0) });
  world.broadphase = new CANNON.SAPBroadphase(world);
  world.defaultContactMaterial.friction = 0.8;
  // cannon Heightfield lies in its local XY plane with heights along local Z; rotating −90° about X maps
  // local (x, y, h) to world (x, h, −y). data[i][k] sits at local (i·e, k·e): with the body at
  // (x0, 0, z0 + size), world z = z0 + size − k·e, so k = n − 1 − j for our node (i, j).
  const n = patch.n;
  const data: number[][] = [];
  for (let i = 0; i < n; i++) {
    const col: number[] = [];
    for (let k = 0; k < n; k++) col.push(patch.h[(n - 1 - k) * n + i]!);
    data.push(col);
  }
  const hfShape = new CANNON.Heightfield(data, { elementSize: patch.cell });
  const hfBody = new CANNON.Body({ mass: 0 });
  hfBody.addShape(hfShape);
  hfBody.position.set(patch.x0, 0, patch.z0 + (n - 1) * patch.cell);
  hfBody.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  world.addBody(hfBody);
  const [hx, hy, hz] = p.halfExtents;
  const chassis = new CANNON.Body({ mass: p.mass });
  chassis.addShape(new CANNON.Box(new CANNON.Vec3(hx, hy, hz)));
  chassis.position.set(start.x, start.y, start.z);
  chassis.quaternion.setFromEuler(0, start.heading, 0);
  chassis.allowSleep = false;
  const vehicle = new CANNON.RaycastVehicle({ chassisBody: chassis, indexRightAxis: 0, indexUpAxis: 1, indexForwardAxis: 2 });
  for (const w of p.wheels) {
    vehicle.addWheel({
      radius: p.radius,
      directionLocal: new CANNON.Vec3(0, -1, 0),
      suspensionStiffness: p.stiffness,
      suspensionRestLength: p.restLength,
      frictionSlip: p.friction,
      dampingRelaxation: p.dampRelaxation,
      dampingCompression: p.dampCompression,
      maxSuspensionForce: 4 * p.mass * G0 * 3,
      rollInfluence: 1,
      axleLocal: new CANNON.Vec3(-1, 0, 0),
      chassisConnectionPointLocal: new CANNON.Vec3(w[0], w[1] + p.restLength, w[2]),
      maxSuspensionTravel: 0.15,
    });
  }
  vehicle.addToWorld(world);
  const nDriven = p.driven.filter(Boolean).length || 1;
  return {
    name: 'cannon-es',
    step(input) {
      const steer = (input.steer / STEER_SCALE) * p.maxSteer;
      const v = chassis.velocity;
      const f = driveForce(p, input.throttle / PEDAL_SCALE, Math.hypot(v.x, v.z)) / nDriven;
      const b = ((input.brake / PEDAL_SCALE) * p.maxBrakeForce * dt) / 4;
      for (let i = 0; i < 4; i++) {
        if (p.front[i]) vehicle.setSteeringValue(steer, i);
        // cannon's RaycastVehicle pushes along −forward for a positive engine force
        vehicle.applyEngineForce(p.driven[i] ? -f : 0, i);
        vehicle.setBrake(b, i);
      }
      world.step(dt);
    },
    position() {
      return [chassis.position.x, chassis.position.y, chassis.position.z];
    },
    speed() {
      const v = chassis.velocity;
      return Math.hypot(v.x, v.y, v.z);
    },
    dispose() {
      vehicle.removeFromWorld(world);
    },
  };
}
