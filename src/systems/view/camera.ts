/**
 * Cameras. Chase: a critically damped spring (ω₀ = stiffness) pulls the eye toward a point behind and above
 * the car along its horizontal heading, so the camera lags in corners and on jumps, and never goes below
 * the terrain. Hood and bumper are rigidly attached to the body. Free: an orbit around the car, driven by
 * the stick while the game is paused. Pure math in `springStep` (tested).
 */
import type { Scene } from '@babylonjs/core/scene';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';

export type CameraView = 'chase' | 'hood' | 'bumper' | 'free';

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

  /** Orbit input while paused (stick x/y in [−1, 1]). */
  orbit(dx: number, dy: number, dt: number): void {
    this.orbitYaw += dx * 2 * dt;
    this.orbitPitch = Math.max(-0.1, Math.min(1.3, this.orbitPitch + dy * 1.5 * dt));
  }

  update(c: CarFrame, dt: number): void {
    const cam = this.camera;
    const fh = Math.hypot(c.fx, c.fz);
    if (fh > 0.2) {
      const h = Math.atan2(c.fx, c.fz);
      // heading follows the body but is smoothed so small yaw wobble does not shake the view
      let d = h - this.heading;
      while (d > Math.PI) d -= 2 * Math.PI;
      while (d < -Math.PI) d += 2 * Math.PI;
      this.heading = this.initialised ? this.heading + d * (1 - Math.exp(-6 * dt)) : h;
    }
    const sx = Math.sin(this.heading);
    const sz = Math.cos(this.heading);
    if (this.view === 'chase' || this.view === 'free') {
      let tx: number, ty: number, tz: number, lookY: number;
      if (this.view === 'chase') {
        const back = 6.2 + Math.min(2, c.speed * 0.03);
        tx = c.x - sx * back;
        tz = c.z - sz * back;
        ty = c.y + 2.3;
        lookY = c.y + 1.0;
      } else {
        const yaw = this.heading + Math.PI + this.orbitYaw;
        tx = c.x + Math.sin(yaw) * Math.cos(this.orbitPitch) * this.orbitDist;
        tz = c.z + Math.cos(yaw) * Math.cos(this.orbitPitch) * this.orbitDist;
        ty = c.y + 1 + Math.sin(this.orbitPitch) * this.orbitDist;
        lookY = c.y + 0.6;
      }
      if (!this.initialised) {
        this.pos.set(tx, ty, tz);
        this.vel.set(0, 0, 0);
        this.initialised = true;
      } else {
        const w = this.view === 'chase' ? 7 : 12;
        [this.pos.x, this.vel.x] = springStep(this.pos.x, this.vel.x, tx, w, dt);
        [this.pos.y, this.vel.y] = springStep(this.pos.y, this.vel.y, ty, w * 0.8, dt);
        [this.pos.z, this.vel.z] = springStep(this.pos.z, this.vel.z, tz, w, dt);
      }
      const gy = this.groundHeight(this.pos.x, this.pos.z) + 0.6;
      if (this.pos.y < gy) {
        this.pos.y = gy;
        this.vel.y = Math.max(0, this.vel.y);
      }
      cam.position.copyFrom(this.pos);
      cam.setTarget(new Vector3(c.x + sx * 2, lookY, c.z + sz * 2));
      cam.fov = this.view === 'chase' ? 0.95 + Math.min(0.2, c.speed * 0.004) : 1.0;
      return;
    }
    // rigid cameras: hood (above the bonnet) and bumper (low, at the nose)
    const [fwd, up] = this.view === 'hood' ? [0.4, 1.25] : [2.15, 0.45];
    cam.position.set(c.x + c.fx * fwd + c.ux * up, c.y + c.fy * fwd + c.uy * up, c.z + c.fz * fwd + c.uz * up);
    cam.upVector.set(c.ux, c.uy, c.uz);
    cam.setTarget(new Vector3(cam.position.x + c.fx * 10, cam.position.y + c.fy * 10, cam.position.z + c.fz * 10));
    cam.fov = 1.1;
    this.initialised = false;
  }

  /** After a rigid view the up vector may be tilted; chase and free use world up. */
  resetUp(): void {
    this.camera.upVector.set(0, 1, 0);
  }
}
