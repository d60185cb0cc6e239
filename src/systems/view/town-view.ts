/**
 * Draws a town run (issue 23, town mode): pavements, buildings and lane markings as thin-instanced boxes (one
 * draw call per kind, within the graphics presets' draw-call budgets), traffic-light heads whose colour follows
 * the simulated phase (`lightColour` at the traffic clock), and the traffic on the bicycle model as car bodies
 * instanced per vehicle type (traffic-bodies.ts; boxes far from the camera). Promoted vehicles (car entities of the world) are drawn by the caller like
 * the player's car; their instances are hidden here. Reads the town and the traffic state only.
 */
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import type { Scene } from '@babylonjs/core/scene';
import { LANE_WIDTH_M, lightColour, type Town } from '../../../terrain/town/index';
import type { TrafficSim } from '../../systems/sim/traffic/index';
import { TrafficBodies } from './traffic-bodies';
import type { CarShape } from './car/car-shape';

/** Light head colours by phase: green, yellow, red. */
const LIGHT_RGB: readonly [number, number, number][] = [[0.1, 1, 0.25], [1, 0.8, 0.05], [1, 0.08, 0.05]];
/** Light head height above the ground, m. */
const LIGHT_HEAD_Y_M = 3.2;
/** Lane marking: width, lift above the road (no z-fighting), m. */
const MARKING_WIDTH_M = 0.15;
const MARKING_LIFT_M = 0.03;
/** Boxes reach this far below the ground so the ground's relief leaves no gap under them, m. */
const BOX_EMBED_M = 0.6;

interface LightHead {
  light: NonNullable<Town['control']['lights'][number]>;
  axis: 0 | 1;
}

/** An instanced box mesh: matrices (and colours) in thin-instance buffers. */
function instancedBoxes(scene: Scene, name: string, count: number, rgb: [number, number, number], unlit = false): { mesh: Mesh; m: Float32Array; c: Float32Array } {
  const mesh = CreateBox(name, { size: 1 }, scene);
  const mat = new StandardMaterial(name, scene);
  mat.diffuseColor = new Color3(...rgb);
  mat.specularColor = new Color3(0.05, 0.05, 0.05);
  // unlit: the instance colour as is (light heads read at any sun angle)
  mat.disableLighting = unlit;
  mesh.material = mat;
  const m = new Float32Array(Math.max(1, count) * 16), c = new Float32Array(Math.max(1, count) * 4).fill(1);
  mesh.thinInstanceSetBuffer('matrix', m, 16, false);
  mesh.thinInstanceSetBuffer('color', c, 4, false);
  mesh.thinInstanceCount = count;
  mesh.alwaysSelectAsActiveMesh = true;
  return { mesh, m, c };
}

/** Writes a scaled, yaw-rotated, translated box matrix (column-major, Babylon's layout) at instance i. */
function setBox(m: Float32Array, i: number, x: number, y: number, z: number, sx: number, sy: number, sz: number, yaw = 0): void {
  const c = Math.cos(yaw), s = Math.sin(yaw), o = i * 16;
  m.set([c * sx, 0, -s * sx, 0, 0, sy, 0, 0, s * sz, 0, c * sz, 0, x, y, z, 1], o);
}

export class TownView {
  private readonly meshes: Mesh[] = [];
  private readonly lights: ReturnType<typeof instancedBoxes>;
  private readonly heads: LightHead[] = [];
  private readonly traffic: TrafficBodies;
  private readonly height: (x: number, z: number) => number;

  constructor(
    scene: Scene,
    private readonly town: Town,
    private readonly sim: TrafficSim,
    /** The car file's shape of each traffic vehicle type (null or absent: drawn from the type's dimensions). */
    shapes: readonly (CarShape | null)[] = [],
  ) {
    this.height = (x, z) => town.ground.height(x, z);
    this.buildScenery(scene);
    this.buildMarkings(scene);
    this.lights = this.buildLights(scene);
    this.traffic = new TrafficBodies(scene, sim, shapes, this.height);
    this.meshes.push(this.lights.mesh);
  }

  /** Pavements (kerb-high grey slabs) and buildings (boxes in a few facade tones). */
  private buildScenery(scene: Scene): void {
    const { pavements, buildings } = this.town.scenery;
    const pav = instancedBoxes(scene, 'town-pavements', pavements.length, [0.62, 0.62, 0.6]);
    pavements.forEach((p, i) => {
      const g = this.height(p.x, p.z);
      setBox(pav.m, i, p.x, g + (p.heightM - BOX_EMBED_M) / 2, p.z, 2 * p.halfX, p.heightM + BOX_EMBED_M, 2 * p.halfZ);
    });
    const bld = instancedBoxes(scene, 'town-buildings', buildings.length, [1, 1, 1]);
    buildings.forEach((b, i) => {
      const g = this.height(b.x, b.z);
      setBox(bld.m, i, b.x, g + (b.heightM - BOX_EMBED_M) / 2, b.z, 2 * b.halfX, b.heightM + BOX_EMBED_M, 2 * b.halfZ);
      const tone = 0.45 + 0.3 * (((i * 2654435761) >>> 0) / 4294967296);
      bld.c.set([tone, tone * 0.92, tone * 0.82, 1], i * 4);
    });
    for (const k of [pav, bld]) {
      k.mesh.thinInstanceBufferUpdated('matrix');
      k.mesh.thinInstanceBufferUpdated('color');
      k.mesh.freezeWorldMatrix();
      this.meshes.push(k.mesh);
    }
  }

  /** The centre line of every street and the dividers of two-lane directions, as thin white strips. */
  private buildMarkings(scene: Scene): void {
    const net = this.town.network;
    const strips: [number, number, number, number][] = [];
    for (const e of net.edges) {
      const a = net.nodes[e.a]!, b = net.nodes[e.b]!;
      // strips stop short of the junction boxes (the crossing streets' lanes)
      const offsets = e.lanes === 2 ? [0, LANE_WIDTH_M, -LANE_WIDTH_M] : [0];
      for (const off of offsets) strips.push(e.axis === 0 ? [a.x, a.z + off, b.x, b.z + off] : [a.x + off, a.z, b.x + off, b.z]);
    }
    const mk = instancedBoxes(scene, 'town-markings', strips.length, [0.95, 0.95, 0.9]);
    const inset = 2 * LANE_WIDTH_M + 2;
    strips.forEach(([x0, z0, x1, z1], i) => {
      const len = Math.max(0, Math.hypot(x1 - x0, z1 - z0) - 2 * inset);
      const cx = (x0 + x1) / 2, cz = (z0 + z1) / 2;
      const alongX = Math.abs(x1 - x0) > Math.abs(z1 - z0);
      setBox(mk.m, i, cx, this.height(cx, cz) + MARKING_LIFT_M, cz, alongX ? len : MARKING_WIDTH_M, 0.02, alongX ? MARKING_WIDTH_M : len);
    });
    mk.mesh.thinInstanceBufferUpdated('matrix');
    mk.mesh.freezeWorldMatrix();
    this.meshes.push(mk.mesh);
  }

  /** One head above every light pole; the pole's arm gives the phase axis (arms along X: phase A). */
  private buildLights(scene: Scene): ReturnType<typeof instancedBoxes> {
    const net = this.town.network, ctl = this.town.control;
    const at: { x: number; z: number }[] = [];
    for (const p of this.town.scenery.poles) {
      if (p.kind !== 'light') continue;
      let best = net.nodes[0]!, bestD = Infinity;
      for (const n of net.nodes) if (ctl.lights[n.id] && Math.hypot(n.x - p.x, n.z - p.z) < bestD) [best, bestD] = [n, Math.hypot(n.x - p.x, n.z - p.z)];
      // the pole stands beside arm d, |Δ| largest along the arm's axis
      const axis: 0 | 1 = Math.abs(p.x - best.x) > Math.abs(p.z - best.z) ? 0 : 1;
      this.heads.push({ light: ctl.lights[best.id]!, axis });
      at.push(p);
    }
    const k = instancedBoxes(scene, 'town-lights', at.length, [1, 1, 1], true);
    at.forEach((p, i) => setBox(k.m, i, p.x, this.height(p.x, p.z) + LIGHT_HEAD_Y_M, p.z, 0.5, 0.9, 0.5));
    k.mesh.thinInstanceBufferUpdated('matrix');
    return k;
  }

  /** The colour index (0 green, 1 yellow, 2 red) each light head shows at traffic time `tS`. */
  lightStates(tS = this.sim.state.timeS): number[] {
    return this.heads.map((h) => lightColour(h.light, h.axis, tS));
  }

  /** Light colours and traffic bodies at the traffic's latest step, the bodies' detail by distance from (eyeX, eyeZ). */
  update(eyeX: number, eyeZ: number): void {
    this.lightStates().forEach((c, i) => this.lights.c.set([...LIGHT_RGB[c]!, 1], i * 4));
    this.lights.mesh.thinInstanceBufferUpdated('color');
    this.traffic.update(eyeX, eyeZ);
  }

  /** Traffic vehicles drawn with their body and as boxes at the last update. */
  trafficDetail(): { near: number; far: number } {
    return this.traffic.counts();
  }

  dispose(): void {
    this.traffic.dispose();
    for (const m of this.meshes) {
      m.material?.dispose();
      m.dispose();
    }
  }
}
