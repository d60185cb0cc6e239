/**
 * A procedural rally car built from primitives: lower body, bonnet, cabin with glass, bumpers, roof vent,
 * spoiler, head/tail lights, number plates and four wheels (tyre + rim + spokes) that spin, steer and
 * follow the suspension. Body frame follows glTF (+Z forward, +Y up, +X left), like the simulation.
 * Crush: per-corner dents (0..1) push the nearest body corners in and darken them.
 */
import type { Scene } from '@babylonjs/core/scene';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import type { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';

export interface CarShape {
  lengthM: number;
  widthM: number;
  heightM: number;
  /** Body-frame wheel centres at static ride height (x left, y up, z forward), m. */
  wheels: { x: number; y: number; z: number; radiusM: number; widthM: number }[];
  color: [number, number, number];
}

/** Per-frame wheel state (from telemetry). */
export interface WheelPose {
  /** Steer angle, rad (+ = left). */
  steer: number;
  /** Accumulated spin angle, rad. */
  spin: number;
  /** Suspension compression from static, m (+ = wheel moved up). */
  travel: number;
}

function stdMat(scene: Scene, name: string, c: [number, number, number], spec = 0.1, emissive = 0): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(...c);
  m.specularColor = new Color3(spec, spec, spec);
  m.specularPower = 64;
  if (emissive) m.emissiveColor = new Color3(c[0] * emissive, c[1] * emissive, c[2] * emissive);
  return m;
}

/** The car's materials: paint in the car's colour, trim, glass, lights (brake lights lit by CarView) and wheels. */
function carMaterials(scene: Scene, color: CarShape['color']) {
  const paint = stdMat(scene, 'paint', color, 0.6);
  const dark = stdMat(scene, 'carDark', [0.06, 0.06, 0.07], 0.2);
  const glass = stdMat(scene, 'glass', [0.08, 0.12, 0.16], 0.9);
  glass.alpha = 0.85;
  const white = stdMat(scene, 'carWhite', [0.95, 0.95, 0.95], 0.3);
  const head = stdMat(scene, 'headlight', [1, 0.97, 0.85], 0.9, 0.9);
  const brake = stdMat(scene, 'taillight', [0.7, 0.02, 0.02], 0.5, 0.4);
  const tyre = stdMat(scene, 'tyre', [0.05, 0.05, 0.05], 0.05);
  const rim = stdMat(scene, 'rim', [0.75, 0.75, 0.78], 0.8);
  return { paint, dark, glass, white, head, brake, tyre, rim };
}
type CarMaterials = ReturnType<typeof carMaterials>;

export class CarView {
  readonly root: TransformNode;
  readonly body: TransformNode;
  readonly wheelNodes: { hub: TransformNode; spinner: TransformNode; base: Vector3 }[] = [];
  private readonly dentable: { mesh: Mesh; rest: Vector3; corner: number }[] = [];
  readonly meshes: Mesh[] = [];
  private readonly brakeMat: StandardMaterial;
  private readonly tyres: Mesh[] = [];

  constructor(
    scene: Scene,
    readonly shape: CarShape,
    shadows: ShadowGenerator | null,
  ) {
    this.root = new TransformNode('car', scene);
    this.body = new TransformNode('carBody', scene);
    this.body.parent = this.root;
    const mats = carMaterials(scene, shape.color);
    this.brakeMat = mats.brake;
    this.buildBody(scene, mats, shadows);
    this.buildWheels(scene, mats, shadows);
    this.root.rotationQuaternion = new Quaternion();
  }

  /** Body boxes on `this.body`: corner pieces (dented by crush), cabin, roof, spoiler, bumpers, lights. */
  private buildBody(scene: Scene, mats: CarMaterials, shadows: ShadowGenerator | null): void {
    const { shape } = this;
    const { lengthM: L, widthM: W, heightM: H } = shape;
    const { paint, dark, glass, white, head } = mats;
    const groundY = Math.min(...shape.wheels.map((w) => w.y - w.radiusM));
    const floor = groundY + 0.18; // underbody clearance
    const bodyH = H * 0.45;
    const add = (m: Mesh, x: number, y: number, z: number, material: StandardMaterial, corner = -1): Mesh => {
      m.position.set(x, y, z);
      m.parent = this.body;
      m.material = material;
      m.isPickable = false;
      shadows?.addShadowCaster(m, false);
      this.meshes.push(m);
      if (corner >= 0) this.dentable.push({ mesh: m, rest: m.position.clone(), corner });
      return m;
    };
    // lower body split into 4 corner pieces + centre so crush can dent corners
    const cl = L * 0.28;
    const cw = W * 0.5;
    for (let c = 0; c < 4; c++) {
      const sx = c % 2 === 0 ? 1 : -1; // 0,2 left; 1,3 right
      const sz = c < 2 ? 1 : -1; // 0,1 front; 2,3 rear
      add(CreateBox(`body_c${c}`, { width: cw, height: bodyH, depth: cl }, scene), (sx * cw) / 2, floor + bodyH / 2, sz * (L / 2 - cl / 2), paint, c);
    }
    add(CreateBox('body_mid', { width: W, height: bodyH, depth: L - 2 * cl + 0.02 }, scene), 0, floor + bodyH / 2, 0, paint);
    // bonnet slope and boot
    const bonnet = add(CreateBox('bonnet', { width: W * 0.96, height: 0.08, depth: L * 0.3 }, scene), 0, floor + bodyH + 0.02, L * 0.3, paint);
    bonnet.rotation.x = 0.06;
    // cabin (glass) + roof
    const cabH = H - bodyH - 0.18;
    const cabin = add(CreateBox('cabin', { width: W * 0.84, height: cabH, depth: L * 0.42 }, scene), 0, floor + bodyH + cabH / 2, -L * 0.05, glass);
    cabin.scaling.set(1, 1, 1);
    add(CreateBox('roof', { width: W * 0.8, height: 0.06, depth: L * 0.36 }, scene), 0, floor + bodyH + cabH + 0.03, -L * 0.07, paint);
    add(CreateBox('pillarL', { width: 0.06, height: cabH, depth: L * 0.4 }, scene), W * 0.42, floor + bodyH + cabH / 2, -L * 0.05, paint);
    add(CreateBox('pillarR', { width: 0.06, height: cabH, depth: L * 0.4 }, scene), -W * 0.42, floor + bodyH + cabH / 2, -L * 0.05, paint);
    add(CreateBox('roofVent', { width: 0.35, height: 0.07, depth: 0.3 }, scene), 0, floor + bodyH + cabH + 0.09, L * 0.02, dark);
    // spoiler
    add(CreateBox('spoiler', { width: W * 0.9, height: 0.05, depth: 0.3 }, scene), 0, floor + bodyH + cabH * 0.7, -L * 0.47, paint);
    add(CreateBox('spoilerPostL', { width: 0.05, height: cabH * 0.3, depth: 0.1 }, scene), W * 0.3, floor + bodyH + cabH * 0.55, -L * 0.45, dark);
    add(CreateBox('spoilerPostR', { width: 0.05, height: cabH * 0.3, depth: 0.1 }, scene), -W * 0.3, floor + bodyH + cabH * 0.55, -L * 0.45, dark);
    // bumpers, lights, plates, side stripe
    add(CreateBox('bumperF', { width: W * 1.01, height: 0.16, depth: 0.12 }, scene), 0, floor + 0.08, L / 2 + 0.02, dark, -1);
    add(CreateBox('bumperR', { width: W * 1.01, height: 0.16, depth: 0.12 }, scene), 0, floor + 0.08, -L / 2 - 0.02, dark, -1);
    for (const s of [1, -1]) {
      add(CreateBox('headlight', { width: 0.32, height: 0.12, depth: 0.04 }, scene), s * W * 0.33, floor + bodyH * 0.7, L / 2 + 0.01, head);
      add(CreateBox('spotlight', { width: 0.18, height: 0.18, depth: 0.05 }, scene), s * W * 0.13, floor + bodyH * 0.5, L / 2 + 0.04, head);
      add(CreateBox('taillight', { width: 0.3, height: 0.1, depth: 0.04 }, scene), s * W * 0.35, floor + bodyH * 0.75, -L / 2 - 0.01, mats.brake);
      add(CreateBox('stripe', { width: 0.02, height: 0.12, depth: L * 0.9 }, scene), s * (W / 2 + 0.005), floor + bodyH * 0.55, 0, white);
    }
    add(CreateBox('plateF', { width: 0.5, height: 0.12, depth: 0.02 }, scene), 0, floor + 0.2, L / 2 + 0.015, white);
    add(CreateBox('plateR', { width: 0.5, height: 0.12, depth: 0.02 }, scene), 0, floor + 0.25, -L / 2 - 0.015, white);
  }

  /** Wheels on `this.root`: hub (steer + travel) → spinner (spin about local X) → tyre + rim + spokes. */
  private buildWheels(scene: Scene, mats: CarMaterials, shadows: ShadowGenerator | null): void {
    const { tyre, rim, dark } = mats;
    // wheels: hub (steer + travel) → spinner (spin about local X) → tyre + rim + spokes
    for (const [i, w] of this.shape.wheels.entries()) {
      const hub = new TransformNode(`hub${i}`, scene);
      hub.parent = this.root;
      hub.position.set(w.x, w.y, w.z);
      const spinner = new TransformNode(`spin${i}`, scene);
      spinner.parent = hub;
      const t = CreateCylinder(`tyre${i}`, { height: w.widthM, diameter: 2 * w.radiusM, tessellation: 18 }, scene);
      t.rotation.z = Math.PI / 2;
      t.parent = spinner;
      t.material = tyre;
      this.tyres.push(t);
      const r = CreateCylinder(`rim${i}`, { height: w.widthM + 0.02, diameter: 1.25 * w.radiusM, tessellation: 12 }, scene);
      r.rotation.z = Math.PI / 2;
      r.parent = spinner;
      r.material = rim;
      for (let k = 0; k < 3; k++) {
        const sp = CreateBox(`spoke${i}_${k}`, { width: w.widthM + 0.04, height: 1.2 * w.radiusM, depth: 0.07 }, scene);
        sp.rotation.x = (k * Math.PI) / 3;
        sp.parent = spinner;
        sp.material = dark;
        this.meshes.push(sp);
      }
      for (const m of [t, r]) {
        m.isPickable = false;
        shadows?.addShadowCaster(m, false);
        this.meshes.push(m);
      }
      this.wheelNodes.push({ hub, spinner, base: new Vector3(w.x, w.y, w.z) });
    }
  }

  /** Place the car (interpolated pose) and its wheels. */
  update(px: number, py: number, pz: number, q: { w: number; x: number; y: number; z: number }, wheels: readonly WheelPose[], braking: boolean): void {
    this.root.position.set(px, py, pz);
    this.root.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
    for (let i = 0; i < this.wheelNodes.length; i++) {
      const n = this.wheelNodes[i]!;
      const w = wheels[i];
      if (!w) continue;
      n.hub.position.y = n.base.y + w.travel;
      n.hub.rotation.y = w.steer;
      n.spinner.rotation.x = w.spin;
    }
    this.brakeMat.emissiveColor.set(braking ? 1 : 0.25, 0.02, 0.02);
  }

  /** Tyre radius of each drawn wheel, m: half the tyre mesh's extent across its axle (mesh geometry, not `shape`). */
  drawnWheelRadii(): number[] {
    return this.tyres.map((t) => {
      const b = t.getBoundingInfo().boundingBox;
      // the cylinder's axis is its local y; the tread circle spans local x and z
      return Math.max(b.maximum.x - b.minimum.x, b.maximum.z - b.minimum.z) / 2;
    });
  }

  /** Crush per corner (0 front-left, 1 front-right, 2 rear-left, 3 rear-right), each 0..1. */
  setCrush(corners: readonly number[]): void {
    for (const d of this.dentable) {
      const c = Math.max(0, Math.min(1, corners[d.corner] ?? 0));
      const sz = d.corner < 2 ? -1 : 1;
      const sx = d.corner % 2 === 0 ? -1 : 1;
      d.mesh.position.set(d.rest.x + sx * 0.08 * c, d.rest.y - 0.05 * c, d.rest.z + sz * 0.25 * c);
      d.mesh.scaling.set(1, 1 - 0.25 * c, 1 - 0.4 * c);
      d.mesh.rotation.z = sx * 0.15 * c;
    }
  }

  dispose(): void {
    this.root.dispose(false, true);
  }
}
