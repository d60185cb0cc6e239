/**
 * A car drawn from its generated body (src/systems/view/car/car-body-mesh.ts: dimensions + `[look]` style and
 * livery) and four wheels (one generated wheel mesh per size, the others instances of it) that spin, steer and
 * follow the suspension. Draw calls: body, brake lights, and the wheels. Body frame follows glTF (+Z forward,
 * +Y up, +X left), like the simulation. Crush: per-corner dents (0..1) deform the panels nearest each corner.
 */
import type { Scene } from '@babylonjs/core/scene';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { InstancedMesh } from '@babylonjs/core/Meshes/instancedMesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';
import '@babylonjs/core/Meshes/instancedMesh';
import { buildCarBody } from './car/car-body-mesh';
import { buildWheel } from './car/wheel-mesh';
import { crushPositions } from './car/car-crush';
import type { MeshData } from './car/mesh-builder';
import type { CarShape } from './car/car-shape';

export type { CarShape } from './car/car-shape';

/** Per-frame wheel state (from telemetry). */
export interface WheelPose {
  /** Steer angle, rad (+ = left). */
  steer: number;
  /** Accumulated spin angle, rad. */
  spin: number;
  /** Suspension compression from static, m (+ = wheel moved up). */
  travel: number;
}

export interface CarViewOptions {
  /** Draw translucent (the ghost car): the same livery, seen through. */
  ghost?: boolean;
}

/** Ghost cars are drawn at this opacity. */
export const GHOST_VISIBILITY = 0.4;
/** A crush change smaller than this (0..1 per corner) does not re-upload the body. */
const CRUSH_EPS = 1e-3;

/** A Babylon mesh of generated geometry (vertex colours; the builder's winding turned to Babylon's). */
export function meshFrom(name: string, data: MeshData, scene: Scene, updatable: boolean): Mesh {
  const m = new Mesh(name, scene);
  const vd = new VertexData();
  vd.positions = data.positions;
  vd.normals = data.normals;
  vd.colors = data.colors;
  // the builder winds counter-clockwise seen from outside; Babylon's front faces wind the other way
  const idx = new Uint32Array(data.indices.length);
  for (let t = 0; t < idx.length; t += 3) {
    idx[t] = data.indices[t]!;
    idx[t + 1] = data.indices[t + 2]!;
    idx[t + 2] = data.indices[t + 1]!;
  }
  vd.indices = idx;
  vd.applyToMesh(m, updatable);
  m.isPickable = false;
  return m;
}

function vertexColourMat(scene: Scene, name: string, spec: number): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(1, 1, 1);
  m.specularColor = new Color3(spec, spec, spec);
  m.specularPower = 48;
  return m;
}

export class CarView {
  readonly root: TransformNode;
  readonly body: TransformNode;
  readonly wheelNodes: { hub: TransformNode; spinner: TransformNode; base: Vector3 }[] = [];
  readonly meshes: (Mesh | InstancedMesh)[] = [];
  private readonly brakeMat: StandardMaterial;
  private readonly tyres: (Mesh | InstancedMesh)[] = [];
  private readonly dentable: { mesh: Mesh; rest: Float32Array; pos: Float32Array; nrm: Float32Array }[] = [];
  private readonly crush = [0, 0, 0, 0];

  constructor(
    scene: Scene,
    readonly shape: CarShape,
    shadows: ShadowGenerator | null,
    opts: CarViewOptions = {},
  ) {
    this.root = new TransformNode('car', scene);
    this.body = new TransformNode('carBody', scene);
    this.body.parent = this.root;
    this.root.rotationQuaternion = new Quaternion();
    const gen = buildCarBody(shape);
    const body = meshFrom('carBodyMesh', gen.body, scene, true);
    body.material = vertexColourMat(scene, 'carPaint', 0.45);
    const lights = meshFrom('carBrakeLights', gen.brakeLights, scene, true);
    this.brakeMat = vertexColourMat(scene, 'carBrake', 0.3);
    lights.material = this.brakeMat;
    for (const m of [body, lights]) {
      m.parent = this.body;
      this.meshes.push(m);
      this.dentable.push({ mesh: m, rest: Float32Array.from(m.getVerticesData(VertexBuffer.PositionKind)!), pos: new Float32Array(m.getTotalVertices() * 3), nrm: new Float32Array(m.getTotalVertices() * 3) });
    }
    this.buildWheels(scene);
    for (const m of this.meshes) {
      if (shadows && !opts.ghost) shadows.addShadowCaster(m, false);
      if (opts.ghost) m.visibility = GHOST_VISIBILITY;
    }
  }

  /** Wheels on `this.root`: hub (steer + travel) → spinner (spin about local X) → wheel mesh (instances share one per size). */
  private buildWheels(scene: Scene): void {
    const masters = new Map<string, Mesh>();
    const mat = vertexColourMat(scene, 'carWheel', 0.25);
    for (const [i, w] of this.shape.wheels.entries()) {
      const hub = new TransformNode(`hub${i}`, scene);
      hub.parent = this.root;
      hub.position.set(w.x, w.y, w.z);
      const spinner = new TransformNode(`spin${i}`, scene);
      spinner.parent = hub;
      const key = `${w.radiusM}:${w.widthM}`;
      const master = masters.get(key);
      let wheel: Mesh | InstancedMesh;
      if (master) wheel = master.createInstance(`wheel${i}`);
      else {
        const m = meshFrom(`wheel${i}`, buildWheel(w.radiusM, w.widthM), scene, false);
        m.material = mat;
        masters.set(key, m);
        wheel = m;
      }
      wheel.parent = spinner;
      wheel.isPickable = false;
      this.tyres.push(wheel);
      this.meshes.push(wheel);
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
    this.brakeMat.emissiveColor.set(braking ? 1 : 0.25, braking ? 0.1 : 0.02, braking ? 0.1 : 0.02);
  }

  /** Tyre radius of each drawn wheel, m: half the wheel mesh's extent across its axle (mesh geometry, not `shape`). */
  drawnWheelRadii(): number[] {
    return this.tyres.map((t) => {
      const b = t.getBoundingInfo().boundingBox;
      // the axle is the mesh's local x; the tread circle spans local y and z
      return Math.max(b.maximum.y - b.minimum.y, b.maximum.z - b.minimum.z) / 2;
    });
  }

  /** Crush per corner (0 front-left, 1 front-right, 2 rear-left, 3 rear-right), each 0..1. */
  setCrush(corners: readonly number[]): void {
    let changed = false;
    for (let c = 0; c < 4; c++) {
      const v = corners[c] ?? 0;
      if (Math.abs(v - this.crush[c]!) > CRUSH_EPS) changed = true;
    }
    if (!changed) return;
    for (let c = 0; c < 4; c++) this.crush[c] = corners[c] ?? 0;
    for (const d of this.dentable) {
      crushPositions(d.rest, this.shape.lengthM, this.crush, d.pos, d.nrm);
      d.mesh.updateVerticesData(VertexBuffer.PositionKind, d.pos);
      d.mesh.updateVerticesData(VertexBuffer.NormalKind, d.nrm);
      d.mesh.refreshBoundingInfo();
    }
  }

  dispose(): void {
    const mats = new Set(this.meshes.map((m) => m.material).filter((m) => m !== null));
    this.root.dispose(false, false);
    for (const m of mats) m.dispose();
  }
}
