/**
 * The cockpit camera's interior: a dashboard under the windscreen, a roof lining, and a steering wheel (rim,
 * three spokes, column) in front of the driver that turns with the front wheels' steer angle times the steering
 * ratio. Placed from the car's body profile (car/body-profile.ts: windscreen stations, belt and roof heights), on the
 * car view's root node, so it moves with the car; enabled only while the cockpit camera is on.
 */
import type { Scene } from '@babylonjs/core/scene';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateTorus } from '@babylonjs/core/Meshes/Builders/torusBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { bodyProfile } from './car/body-profile';
import type { CarShape } from './car/car-shape';
import type { BodyPoint } from './camera';

/** Steering wheel turns per road-wheel turn (a quick rally rack). */
export const STEERING_RATIO = 12;
/** Steering wheel rim diameter, m. */
const WHEEL_DIAMETER_M = 0.36;
/** The wheel's top leans toward the dash by this from vertical, rad (its axis points forward and down). */
const WHEEL_RAKE_RAD = 0.45;
/** Dashboard height, m, and its gap ahead of the steering wheel's hub, m. */
const DASH_HEIGHT_M = 0.14;
const DASH_CLEARANCE_M = 0.15;
/** The driver sits this share of the body width left of the centre line (+X left: a left-hand-drive car). */
const SEAT_OFFSET_OF_WIDTH = 0.22;

/** The driver's eye and the steering wheel's centre in the body frame, from the car's body profile. */
export function cockpitLayout(shape: CarShape): { eye: BodyPoint; wheel: BodyPoint; dash: { y: number; z: number; depth: number }; roofY: number } {
  const p = bodyProfile(shape);
  const x = SEAT_OFFSET_OF_WIDTH * shape.widthM;
  const eye = { x, y: p.beltY + 0.6 * (p.roofY - p.beltY), z: p.glass.top - 0.35 };
  const wheel = { x, y: p.beltY, z: eye.z + 0.45 };
  // the dash: its top on the belt line, from a hand's width ahead of the wheel to the windscreen base
  const dashRear = wheel.z + DASH_CLEARANCE_M;
  return { eye, wheel, dash: { y: p.beltY - DASH_HEIGHT_M / 2, z: (p.glass.base + dashRear) / 2, depth: Math.max(0.2, p.glass.base - dashRear) }, roofY: p.roofY };
}

export class CockpitView {
  readonly root: TransformNode;
  readonly eye: BodyPoint;
  private readonly spinner: TransformNode;
  private readonly meshes: Mesh[] = [];

  constructor(scene: Scene, shape: CarShape, parent: TransformNode) {
    const L = cockpitLayout(shape);
    this.eye = L.eye;
    this.root = new TransformNode('cockpit', scene);
    this.root.parent = parent;
    const dark = new StandardMaterial('cockpitDark', scene);
    dark.diffuseColor = new Color3(0.08, 0.08, 0.09);
    dark.specularColor = new Color3(0.1, 0.1, 0.1);
    const trim = new StandardMaterial('cockpitTrim', scene);
    trim.diffuseColor = new Color3(0.25, 0.25, 0.27);
    const dash = CreateBox('dash', { width: shape.widthM * 0.92, height: DASH_HEIGHT_M, depth: L.dash.depth }, scene);
    dash.position.set(0, L.dash.y, L.dash.z);
    const lining = CreateBox('roofLining', { width: shape.widthM * 0.9, height: 0.03, depth: 0.9 }, scene);
    lining.position.set(0, L.roofY - 0.08, L.eye.z - 0.35);
    // the wheel: a node at the hub whose local Y (the wheel's axis) points forward and down into the dash; the
    // rim and spokes turn about it
    const hub = new TransformNode('steeringHub', scene);
    hub.parent = this.root;
    hub.position.set(L.wheel.x, L.wheel.y, L.wheel.z);
    hub.rotation.x = Math.PI / 2 + WHEEL_RAKE_RAD;
    this.spinner = new TransformNode('steeringSpin', scene);
    this.spinner.parent = hub;
    const rim = CreateTorus('steeringRim', { diameter: WHEEL_DIAMETER_M, thickness: 0.03, tessellation: 20 }, scene);
    const spokes = [0, (2 * Math.PI) / 3, (4 * Math.PI) / 3].map((a, i) => {
      const s = CreateBox(`steeringSpoke${i}`, { width: WHEEL_DIAMETER_M / 2, height: 0.015, depth: 0.03 }, scene);
      s.rotation.y = a;
      s.position.set((Math.cos(a) * WHEEL_DIAMETER_M) / 4, 0, (-Math.sin(a) * WHEEL_DIAMETER_M) / 4);
      return s;
    });
    const column = CreateCylinder('steeringColumn', { height: 0.35, diameter: 0.05, tessellation: 8 }, scene);
    column.parent = hub;
    column.position.y = 0.18; // from the hub forward along the axis into the dash
    for (const m of [rim, ...spokes]) m.parent = this.spinner;
    for (const m of [dash, lining]) m.parent = this.root;
    for (const m of [dash, lining, rim, ...spokes, column]) {
      m.material = m === dash || m === column ? dark : trim;
      m.isPickable = false;
      this.meshes.push(m);
    }
    this.root.setEnabled(false);
  }

  /** Shown or hidden (the cockpit camera), and the wheel turned for the road-wheel steer angle (rad, + = left). */
  update(visible: boolean, steerRad: number): void {
    if (this.root.isEnabled(false) !== visible) this.root.setEnabled(visible);
    if (visible) this.spinner.rotation.y = -steerRad * STEERING_RATIO;
  }

  dispose(): void {
    for (const m of this.meshes) m.dispose(false, true);
    this.root.dispose();
  }
}
