/**
 * Driving cameras (src/systems/view/camera.ts, cockpit-view.ts) on a NullEngine, flat ground:
 *  - far chase sits higher and further back than near chase, both above and behind the car;
 *  - in a steady left turn the chase aim leads the heading into the corner by min(rate · CORNER_LEAD_S,
 *    MAX_CORNER_LEAD_RAD), in a right turn the other way, on the straight not at all;
 *  - the cockpit eye is inside every shipped car's body (width, height between belt and roof, length), the
 *    steering wheel in front of it, and the wheel turns by the steering ratio;
 *  - the start gantry's beam is faded while the chase camera is behind the car on the start line.
 */
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { CHASE_FAR, CHASE_NEAR, CORNER_LEAD_S, GameCamera, MAX_CORNER_LEAD_RAD, type CarFrame, type CameraView } from '../../src/systems/view/camera';
import { CockpitView, STEERING_RATIO, cockpitLayout } from '../../src/systems/view/cockpit-view';
import { bodyProfile } from '../../src/systems/view/car/body-profile';
import { CARS, carShape } from '../../src/app/cars';
import { StageView, GANTRY_FADED_VISIBILITY } from '../../src/systems/view/stage-view';
import { loadStageFromDir } from '../../terrain/node';

const scene = new Scene(new NullEngine());
scene.useRightHandedSystem = true;

/** A car at (x, 0.5, z) heading `h` (rad from +z towards +x), level. */
const frame = (x: number, z: number, h: number, speed: number): CarFrame => ({ x, y: 0.5, z, fx: Math.sin(h), fy: 0, fz: Math.cos(h), ux: 0, uy: 1, uz: 0, speed });

/** Drives a circle at `rate` rad/s and `speed` m/s for `seconds`; returns the last frame. */
function drive(cam: GameCamera, rate: number, speed: number, seconds: number, dt = 1 / 60): CarFrame {
  let x = 0, z = 0, h = 0;
  let f = frame(x, z, h, speed);
  cam.snap();
  cam.update(f, dt);
  for (let t = 0; t < seconds; t += dt) {
    h += rate * dt;
    x += Math.sin(h) * speed * dt;
    z += Math.cos(h) * speed * dt;
    f = frame(x, z, h, speed);
    cam.update(f, dt);
  }
  return f;
}

const angle = (ax: number, az: number): number => Math.atan2(ax, az);

describe('chase cameras', () => {
  const cam = new GameCamera(scene, () => 0);
  // the aim point handed to Babylon (its getTarget() is only refreshed by a render)
  let aim = { x: 0, y: 0, z: 0 };
  const setTarget = cam.camera.setTarget.bind(cam.camera);
  cam.camera.setTarget = (t) => {
    aim = { x: t.x, y: t.y, z: t.z };
    setTarget(t);
  };

  it('far chase is higher and further back than near chase', () => {
    const at = (v: CameraView): { back: number; up: number } => {
      cam.view = v;
      const f = drive(cam, 0, 20, 6);
      const p = cam.camera.position;
      return { back: -((p.x - f.x) * f.fx + (p.z - f.z) * f.fz), up: p.y - f.y };
    };
    const near = at('chase');
    const far = at('chase-far');
    expect(near.back).toBeGreaterThan(CHASE_NEAR.backM - 0.1);
    expect(near.up).toBeCloseTo(CHASE_NEAR.heightM, 1);
    expect(far.back).toBeGreaterThan(near.back + 2);
    expect(far.up).toBeCloseTo(CHASE_FAR.heightM, 1);
  });

  for (const [name, rate] of [['left', 0.3], ['right', -0.3], ['straight', 0]] as const)
    it(`aims into the corner (${name})`, () => {
      cam.view = 'chase-far';
      const f = drive(cam, rate, 15, 8);
      const t = aim;
      const heading = angle(f.fx, f.fz);
      // the aim point relative to the car, as an angle against the car's heading
      let lead = angle(t.x - f.x, t.z - f.z) - heading;
      lead = Math.atan2(Math.sin(lead), Math.cos(lead));
      const want = Math.sign(rate) * Math.min(MAX_CORNER_LEAD_RAD, Math.abs(rate) * CORNER_LEAD_S);
      // the smoothed heading follows the car's at 6 1/s per frame (factor 1 − e^(−6 dt)): in a steady turn it lags
      // by rate·dt·e^(−6 dt)/(1 − e^(−6 dt)) ≈ rate/6, which the aim's angle against the car's heading loses
      const dt = 1 / 60;
      const lag = (rate * dt * Math.exp(-6 * dt)) / (1 - Math.exp(-6 * dt));
      expect(lead).toBeCloseTo(want - lag, 2);
    });
});

describe('cockpit', () => {
  for (const c of CARS())
    it(`${c.id}: the eye is inside the body, the wheel in front of it, turning by the ratio`, () => {
      const shape = carShape(c.id);
      const p = bodyProfile(shape);
      const L = cockpitLayout(shape);
      expect(Math.abs(L.eye.x)).toBeLessThan(shape.widthM / 2 - 0.2);
      expect(L.eye.y).toBeGreaterThan(p.beltY);
      expect(L.eye.y).toBeLessThan(p.roofY);
      expect(L.eye.z).toBeLessThan(p.frontZ);
      expect(L.eye.z).toBeGreaterThan(p.rearZ);
      expect(L.wheel.z).toBeGreaterThan(L.eye.z);
      expect(L.wheel.y).toBeLessThan(L.eye.y);
      // the dash stands ahead of the wheel (the rim's top leans toward it, but never into it)
      expect(L.dash.z - L.dash.depth / 2).toBeGreaterThan(L.wheel.z + 0.1);
      const v = new CockpitView(scene, shape, new TransformNode('carRoot', scene));
      v.update(true, 0.1);
      const spin = scene.getTransformNodeByName('steeringSpin')!;
      expect(Math.abs(spin.rotation.y)).toBeCloseTo(0.1 * STEERING_RATIO, 9);
      v.update(false, 0.1);
      expect(v.root.isEnabled(false)).toBe(false);
      v.dispose();
    });
});

describe('start gantry', () => {
  it('its beam is faded while the chase camera is behind the car on the line, opaque from afar', () => {
    const stage = loadStageFromDir('src/content/stages/test-short');
    const view = new StageView(scene, stage, null);
    const start = view.beams[0]!;
    const s = stage.start;
    view.updateVisibility(s.x - Math.sin(s.heading) * CHASE_FAR.backM, s.z - Math.cos(s.heading) * CHASE_FAR.backM);
    expect(start.visibility).toBe(GANTRY_FADED_VISIBILITY);
    view.updateVisibility(s.x + 300, s.z + 300);
    expect(start.visibility).toBe(1);
    view.dispose();
  });
});
