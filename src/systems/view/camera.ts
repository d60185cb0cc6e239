/**
 * Cameras. Chase near and far: a critically damped spring (ω₀ = stiffness) pulls the eye toward a point behind
 * and above the car along its smoothed horizontal heading, so the camera lags in corners and on jumps, never
 * goes below the terrain, and aims ahead of the car, turned into the corner by the heading rate (CORNER_LEAD_S).
 * Hood, cockpit (the driver's eye, with the interior: cockpit-view.ts) and bumper are rigidly attached to the
 * body. Free: an orbit around the car, driven by the stick while the game is paused. Pure math in
 * `springStep` (tested).
 */
import type { Scene } from '@babylonjs/core/scene';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';

export type CameraView = 'chase' | 'chase-far' | 'hood' | 'cockpit' | 'bumper' | 'free';

/** A chase camera's placement behind the car (heading-aligned, spring-smoothed). */
export interface ChaseRig {
  /** Distance behind the car at rest, m, growing by `backPerMS` per m/s up to `maxExtraBackM`. */
  backM: number;
  backPerMS: number;
  maxExtraBackM: number;
  /** Eye height above the car's centre of mass, m. */
  heightM: number;
  /** Aim point: this far ahead of the car, m, at this height above its centre of mass. */
  lookAheadM: number;
  lookHeightM: number;
  /** Spring stiffness ω₀, 1/s. */
  stiffness: number;
  /** Vertical field of view at rest, rad, widening with speed. */
  fov: number;
}

/** Near chase: close and high enough to see over the car into the next bend. */
export const CHASE_NEAR: ChaseRig = { backM: 6, backPerMS: 0.03, maxExtraBackM: 2, heightM: 2.6, lookAheadM: 5, lookHeightM: 1.1, stiffness: 7, fov: 0.95 };
/** Far chase: further back and higher, aiming further ahead, softer spring. */
export const CHASE_FAR: ChaseRig = { backM: 9.5, backPerMS: 0.04, maxExtraBackM: 3, heightM: 3.8, lookAheadM: 11, lookHeightM: 0.9, stiffness: 5, fov: 0.9 };
/** The aim leads the heading by the yaw rate times this, s: the camera looks into the corner. */
export const CORNER_LEAD_S = 0.45;
/** Most the aim leads the heading, rad. */
export const MAX_CORNER_LEAD_RAD = 0.35;

/**
 * One step of a critically damped spring x'' = −ω²(x − target) − 2ω x' (exact solution over dt, so it is
 * stable for any frame time). Returns [x, v].
 */
export function springStep(x: number, v: number, target: number, omega: number, dt: number): [number, number] {
  const d = x - target;
  const e = Math.exp(-omega * dt);
  const c = v + omega * d;
  const nd = (d + c * dt) * e;
  const nv = (v - omega * c * dt) * e;
  return [target + nd, nv];
}

/** A point in the car's body frame: +X left, +Y up, +Z forward, m. */
export interface BodyPoint {
  x: number;
  y: number;
  z: number;
}
const HOOD_EYE: BodyPoint = { x: 0, y: 1.25, z: 0.4 };
const BUMPER_EYE: BodyPoint = { x: 0, y: 0.45, z: 2.15 };

export interface CarFrame {
  x: number;
  y: number;
  z: number;
  /** Body axes in world: forward (+Z body) and up (+Y body). */
  fx: number;
  fy: number;
  fz: number;
  ux: number;
  uy: number;
  uz: number;
  speed: number;
}

export class GameCamera {
  readonly camera: FreeCamera;
  view: CameraView = 'chase';
  private readonly pos = new Vector3();
  private readonly vel = new Vector3();
  private initialised = false;
  private orbitYaw = 0;
  private orbitPitch = 0.35;
  private orbitDist = 9;
  private heading = 0;
  /** Smoothed heading rate, rad/s (+ = turning left). */
  private headingRate = 0;
  /** The driver's eye in the body frame (cockpit view; set from the car's body by `setCockpitEye`). */
  private eye: BodyPoint = { x: 0.35, y: 0.75, z: -0.2 };

  constructor(
    scene: Scene,
    private readonly groundHeight: (x: number, z: number) => number,
  ) {
    this.camera = new FreeCamera('cam', new Vector3(0, 5, -10), scene);
    this.camera.minZ = 0.1;
    this.camera.maxZ = 4000;
    this.camera.fov = 1.0;
    this.camera.inputs.clear();
    scene.activeCamera = this.camera;
  }

  snap(): void {
    this.initialised = false;
  }

  /** Where the driver's eye is in this car (cockpit view), body frame, m. */
  setCockpitEye(e: BodyPoint): void {
    this.eye = { ...e };
  }

  /** Orbit input while paused (stick x/y in [−1, 1]). */
  orbit(dx: number, dy: number, dt: number): void {
    this.orbitYaw += dx * 2 * dt;
    this.orbitPitch = Math.max(-0.1, Math.min(1.3, this.orbitPitch + dy * 1.5 * dt));
  }

  update(c: CarFrame, dt: number): void {
    const fh = Math.hypot(c.fx, c.fz);
    if (fh > 0.2) this.followHeading(Math.atan2(c.fx, c.fz), dt);
    if (this.view === 'chase' || this.view === 'chase-far' || this.view === 'free') this.updateFollow(c, dt);
    else this.updateRigid(c);
  }

  /** The smoothed heading (small yaw wobble does not shake the view) and its smoothed rate (the corner lead). */
  private followHeading(h: number, dt: number): void {
    let d = h - this.heading;
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    if (!this.initialised || dt <= 0) {
      if (!this.initialised) {
        this.heading = h;
        this.headingRate = 0;
      }
      return;
    }
    const step = d * (1 - Math.exp(-6 * dt));
    this.heading += step;
    this.headingRate += (step / dt - this.headingRate) * (1 - Math.exp(-3 * dt));
  }

  /** Chase (near, far) and the paused free orbit: a spring-smoothed eye, never under the terrain. */
  private updateFollow(c: CarFrame, dt: number): void {
    const rig = this.view === 'chase-far' ? CHASE_FAR : CHASE_NEAR;
    const sx = Math.sin(this.heading);
    const sz = Math.cos(this.heading);
    let tx: number, ty: number, tz: number;
    if (this.view !== 'free') {
      const back = rig.backM + Math.min(rig.maxExtraBackM, c.speed * rig.backPerMS);
      tx = c.x - sx * back;
      tz = c.z - sz * back;
      ty = c.y + rig.heightM;
    } else {
      const yaw = this.heading + Math.PI + this.orbitYaw;
      tx = c.x + Math.sin(yaw) * Math.cos(this.orbitPitch) * this.orbitDist;
      tz = c.z + Math.cos(yaw) * Math.cos(this.orbitPitch) * this.orbitDist;
      ty = c.y + 1 + Math.sin(this.orbitPitch) * this.orbitDist;
    }
    if (!this.initialised) {
      this.pos.set(tx, ty, tz);
      this.vel.set(0, 0, 0);
      this.initialised = true;
    } else {
      const w = this.view === 'free' ? 12 : rig.stiffness;
      [this.pos.x, this.vel.x] = springStep(this.pos.x, this.vel.x, tx, w, dt);
      [this.pos.y, this.vel.y] = springStep(this.pos.y, this.vel.y, ty, w * 0.8, dt);
      [this.pos.z, this.vel.z] = springStep(this.pos.z, this.vel.z, tz, w, dt);
    }
    const gy = this.groundHeight(this.pos.x, this.pos.z) + 0.6;
    if (this.pos.y < gy) {
      this.pos.y = gy;
      this.vel.y = Math.max(0, this.vel.y);
    }
    const cam = this.camera;
    cam.position.copyFrom(this.pos);
    const free = this.view === 'free';
    const lead = free ? 0 : Math.max(-MAX_CORNER_LEAD_RAD, Math.min(MAX_CORNER_LEAD_RAD, this.headingRate * CORNER_LEAD_S));
    const ahead = free ? 2 : rig.lookAheadM;
    cam.setTarget(new Vector3(c.x + Math.sin(this.heading + lead) * ahead, c.y + (free ? 0.6 : rig.lookHeightM), c.z + Math.cos(this.heading + lead) * ahead));
    cam.fov = free ? 1.0 : rig.fov + Math.min(0.2, c.speed * 0.004);
  }

  /** Rigid cameras on the body: hood (above the bonnet), cockpit (the driver's eye), bumper (low, at the nose). */
  private updateRigid(c: CarFrame): void {
    const cam = this.camera;
    const e = this.view === 'cockpit' ? this.eye : this.view === 'hood' ? HOOD_EYE : BUMPER_EYE;
    // body → world: right-handed body frame with +X left, so left = up × forward
    const lx = c.uy * c.fz - c.uz * c.fy, ly = c.uz * c.fx - c.ux * c.fz, lz = c.ux * c.fy - c.uy * c.fx;
    cam.position.set(c.x + lx * e.x + c.ux * e.y + c.fx * e.z, c.y + ly * e.x + c.uy * e.y + c.fy * e.z, c.z + lz * e.x + c.uz * e.y + c.fz * e.z);
    cam.upVector.set(c.ux, c.uy, c.uz);
    cam.setTarget(new Vector3(cam.position.x + c.fx * 10, cam.position.y + c.fy * 10, cam.position.z + c.fz * 10));
    cam.fov = this.view === 'cockpit' ? 1.15 : 1.1;
    this.initialised = false;
  }

  /** After a rigid view the up vector may be tilted; chase and free use world up. */
  resetUp(): void {
    this.camera.upVector.set(0, 1, 0);
  }
}
