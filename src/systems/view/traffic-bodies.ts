/**
 * The town's traffic on the bicycle model drawn as car bodies (issue 23): one thin-instanced mesh per vehicle
 * type, from the car body generator (car/traffic-body.ts: the type's car file shape, or for a type without one,
 * such as the van, a shape from its dimensions in the 'van' style), for the vehicles within NEAR_BODY_M of the
 * camera; farther ones are coloured boxes (one more draw call). Draw calls: vehicle types + 1; triangles about
 * 320 per near vehicle plus 12 per far one (docs/traffic.md "Drawing"). Paint per vehicle from its serial.
 */
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import type { Scene } from '@babylonjs/core/scene';
import type { TrafficSim, TrafficVehicleType } from '../../systems/sim/traffic/index';
import { buildTrafficBody } from './car/traffic-body';
import type { CarShape } from './car/car-shape';
import { meshFrom } from './car-view';

/** Vehicles nearer the camera than this are drawn with their body, farther ones as boxes, m. */
export const NEAR_BODY_M = 90;
/** Town paint colours, picked per vehicle by its serial (bodies are built white: the instance colour paints them). */
const PAINTS: readonly [number, number, number][] = [
  [0.75, 0.12, 0.1], [0.15, 0.35, 0.75], [0.2, 0.5, 0.3], [0.92, 0.92, 0.9], [0.85, 0.6, 0.1], [0.25, 0.25, 0.28], [0.6, 0.62, 0.66], [0.45, 0.1, 0.35],
];
/** Far boxes: drawn height of a car and of a van, m (a van is a type taller than VAN_MIN_HEIGHT_LENGTH_M long). */
const CAR_HEIGHT_M = 1.4;
const VAN_HEIGHT_M = 2.3;
/** A type without a car file is drawn as a van from this length up, m. */
const VAN_MIN_LENGTH_M = 5;
/** Wheels of a type without a car file: radius, width, inset of the tyre's outer wall from the body side, m (light-truck 215/65 R16). */
const TYPE_WHEEL_RADIUS_M = 0.34;
const TYPE_WHEEL_WIDTH_M = 0.215;
const TYPE_WHEEL_INSET_M = 0.06;
/** Boxes sit this far above the ground (the body's ground clearance), m. */
const BOX_CLEARANCE_M = 0.15;
const WHITE: [number, number, number] = [1, 1, 1];

/** The drawn shape of a vehicle type with no car file: its length and width, wheels on its axles, van style. */
export function vehicleTypeShape(t: TrafficVehicleType): CarShape {
  const van = t.lengthM >= VAN_MIN_LENGTH_M;
  const x = t.widthM / 2 - TYPE_WHEEL_INSET_M - TYPE_WHEEL_WIDTH_M / 2;
  const wheel = (sx: number, z: number) => ({ x: sx * x, y: TYPE_WHEEL_RADIUS_M, z, radiusM: TYPE_WHEEL_RADIUS_M, widthM: TYPE_WHEEL_WIDTH_M });
  return {
    lengthM: t.lengthM,
    widthM: t.widthM,
    heightM: van ? VAN_HEIGHT_M : CAR_HEIGHT_M,
    wheels: [wheel(1, t.aM), wheel(-1, t.aM), wheel(1, -t.bM), wheel(-1, -t.bM)],
    look: { style: van ? 'van' : 'hatch', wing: 'none', primary: WHITE, secondary: WHITE, stripe: WHITE },
  };
}

/** A car shape repainted white (instance colours paint it), without a wing. */
function whiteShape(s: CarShape): CarShape {
  return { ...s, look: { ...s.look, primary: WHITE, secondary: WHITE, stripe: WHITE, wing: 'none' } };
}

/** A thin-instanced mesh with room for `capacity` instances (matrix and colour buffers), none drawn yet. */
interface Instanced {
  mesh: Mesh;
  m: Float32Array;
  c: Float32Array;
  n: number;
  /** Drawn y of the instance origin above the ground, m (a body: its wheels' bottom on the ground). */
  lift: number;
}

function instanced(mesh: Mesh, capacity: number, spec: number, lift: number): Instanced {
  const mat = new StandardMaterial(mesh.name, mesh.getScene());
  mat.diffuseColor = new Color3(1, 1, 1);
  mat.specularColor = new Color3(spec, spec, spec);
  mesh.material = mat;
  const m = new Float32Array(Math.max(1, capacity) * 16), c = new Float32Array(Math.max(1, capacity) * 4).fill(1);
  mesh.thinInstanceSetBuffer('matrix', m, 16, false);
  mesh.thinInstanceSetBuffer('color', c, 4, false);
  mesh.thinInstanceCount = 0;
  mesh.alwaysSelectAsActiveMesh = true;
  return { mesh, m, c, n: 0, lift };
}

/** Appends an instance: yaw ψ (forward (sin ψ, cos ψ)), scale (sx, sy, sz), at (x, y, z), painted `rgb`. */
function push(k: Instanced, x: number, y: number, z: number, psi: number, sx: number, sy: number, sz: number, rgb: readonly number[]): void {
  const c = Math.cos(psi), s = Math.sin(psi), o = k.n * 16;
  k.m.set([c * sx, 0, -s * sx, 0, 0, sy, 0, 0, s * sz, 0, c * sz, 0, x, y, z, 1], o);
  k.c.set([rgb[0]!, rgb[1]!, rgb[2]!, 1], k.n * 4);
  k.n++;
}

export class TrafficBodies {
  private readonly bodies: Instanced[];
  private readonly boxes: Instanced;

  /** `shapes[type]`: the car file's shape of each vehicle type (null: drawn from the type's dimensions). */
  constructor(
    scene: Scene,
    private readonly sim: TrafficSim,
    shapes: readonly (CarShape | null)[],
    private readonly height: (x: number, z: number) => number,
  ) {
    const cap = sim.state.capacity;
    this.bodies = sim.types.map((t, i) => {
      const shape = whiteShape(shapes[i] ?? vehicleTypeShape(t));
      const groundY = Math.min(...shape.wheels.map((w) => w.y - w.radiusM));
      return instanced(meshFrom(`town-traffic-${t.id}`, buildTrafficBody(shape), scene, false), cap, 0.35, -groundY);
    });
    this.boxes = instanced(CreateBox('town-traffic-far', { size: 1 }, scene), cap, 0.05, BOX_CLEARANCE_M);
  }

  /** Draw calls this draws with (a type with no near vehicle draws nothing). */
  get meshes(): Mesh[] {
    return [...this.bodies.map((b) => b.mesh), this.boxes.mesh];
  }

  /** Places the vehicles on the bicycle model (promoted ones are drawn as cars elsewhere) seen from (eyeX, eyeZ). */
  update(eyeX: number, eyeZ: number): void {
    const st = this.sim.state;
    for (const k of [...this.bodies, this.boxes]) k.n = 0;
    const near2 = NEAR_BODY_M * NEAR_BODY_M;
    for (let k = 0; k < st.capacity; k++) {
      if (!st.alive[k] || st.eid[k]! >= 0) continue;
      const x = st.x[k]!, z = st.z[k]!, psi = st.psi[k]!, g = this.height(x, z);
      const paint = PAINTS[st.serial[k]! % PAINTS.length]!;
      const type = st.type[k]!;
      if ((x - eyeX) ** 2 + (z - eyeZ) ** 2 <= near2) {
        const b = this.bodies[type]!;
        push(b, x, g + b.lift, z, psi, 1, 1, 1, paint);
      } else {
        const t = this.sim.types[type]!, h = t.lengthM >= VAN_MIN_LENGTH_M ? VAN_HEIGHT_M : CAR_HEIGHT_M;
        push(this.boxes, x, g + this.boxes.lift + h / 2, z, psi, t.widthM, h, t.lengthM, paint);
      }
    }
    for (const k of [...this.bodies, this.boxes]) {
      k.mesh.thinInstanceCount = k.n;
      k.mesh.thinInstanceBufferUpdated('matrix');
      k.mesh.thinInstanceBufferUpdated('color');
    }
  }

  /** Vehicles drawn with their body and as boxes at the last update. */
  counts(): { near: number; far: number } {
    return { near: this.bodies.reduce((s, b) => s + b.n, 0), far: this.boxes.n };
  }

  dispose(): void {
    for (const m of this.meshes) {
      m.material?.dispose();
      m.dispose();
    }
  }
}
