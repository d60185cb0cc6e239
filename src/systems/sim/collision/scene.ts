/**
 * Static scene colliders in the yaw plane, extruded vertically, with a uniform-grid broad phase.
 * Kinds: wall = segment (zero thickness) with a base and a height; box = oriented rectangle (half extents,
 * rotation about +Y); cylinder = circle. Trees → cylinders, rocks → boxes/cylinders, walls, fences, barriers →
 * walls or boxes (see `fromScenery`). Obstacles are queried in ascending id order (determinism).
 */
import { SCENE_CELL_M } from '../../../content/scenario-limits';
import { dcos, dsin } from '../../../../terrain/dmath';

export { SCENE_CELL_M };
export const WALL = 0;
export const BOX = 1;
export const CYLINDER = 2;
export type ObstacleKind = typeof WALL | typeof BOX | typeof CYLINDER;

export interface WallInit { kind: 'wall'; a: [number, number]; b: [number, number]; base_m?: number; height_m: number; id?: string }
export interface BoxInit { kind: 'box'; center: [number, number]; half_extents: [number, number]; rot_y_rad?: number; base_m?: number; height_m: number; id?: string }
export interface CylinderInit { kind: 'cylinder'; center: [number, number]; radius: number; base_m?: number; height_m: number; id?: string }
export type ObstacleInit = WallInit | BoxInit | CylinderInit;

const CELL = SCENE_CELL_M;
/** 30-bit cell key (a V8 small integer: fast Map hashing); cells 131 km apart share a key, harmless (AABB test). */
const cellKey = (ix: number, iz: number): number => ((ix & 0x7fff) << 15) | (iz & 0x7fff);

export class SceneColliders {
  n = 0;
  kind = new Uint8Array(16);
  /** wall: a=(p0,p1) b=(p2,p3); box: center (p0,p1), half extents (p2,p3), rot (p4); cylinder: center, radius p2. */
  p0 = new Float64Array(16);
  p1 = new Float64Array(16);
  p2 = new Float64Array(16);
  p3 = new Float64Array(16);
  p4 = new Float64Array(16);
  /** Precomputed cos/sin of the box rotation. */
  c = new Float64Array(16);
  s = new Float64Array(16);
  yMin = new Float64Array(16);
  yMax = new Float64Array(16);
  minX = new Float64Array(16);
  maxX = new Float64Array(16);
  minZ = new Float64Array(16);
  maxZ = new Float64Array(16);
  names: string[] = [];
  private grid = new Map<number, number[]>();
  private stamp = new Uint32Array(16);
  private stampGen = 0;

  private grow(): void {
    const cap = this.kind.length * 2;
    const g = <T extends Float64Array | Uint8Array | Uint32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(cap);
      b.set(a);
      return b;
    };
    this.kind = g(this.kind);
    for (const k of ['p0', 'p1', 'p2', 'p3', 'p4', 'c', 's', 'yMin', 'yMax', 'minX', 'maxX', 'minZ', 'maxZ'] as const) this[k] = g(this[k]);
    this.stamp = g(this.stamp);
  }

  add(o: ObstacleInit): number {
    if (this.n === this.kind.length) this.grow();
    const i = this.n++;
    const base = o.base_m ?? 0;
    if (!(o.height_m > 0)) throw new Error(`obstacle ${o.id ?? i}: height_m must be > 0, found ${o.height_m}`);
    this.yMin[i] = base;
    this.yMax[i] = base + o.height_m;
    this.names.push(o.id ?? `${o.kind}${i}`);
    if (o.kind === 'wall') {
      this.kind[i] = WALL;
      [this.p0[i], this.p1[i]] = o.a;
      [this.p2[i], this.p3[i]] = o.b;
      this.minX[i] = Math.min(o.a[0], o.b[0]);
      this.maxX[i] = Math.max(o.a[0], o.b[0]);
      this.minZ[i] = Math.min(o.a[1], o.b[1]);
      this.maxZ[i] = Math.max(o.a[1], o.b[1]);
      if (Math.hypot(o.b[0] - o.a[0], o.b[1] - o.a[1]) === 0) throw new Error(`obstacle ${this.names[i]}: wall ends a and b coincide`);
    } else if (o.kind === 'box') {
      this.kind[i] = BOX;
      const rot = o.rot_y_rad ?? 0;
      [this.p0[i], this.p1[i]] = o.center;
      [this.p2[i], this.p3[i]] = o.half_extents;
      if (!(o.half_extents[0] > 0 && o.half_extents[1] > 0)) throw new Error(`obstacle ${this.names[i]}: half_extents must be > 0`);
      this.p4[i] = rot;
      // Box local axes: u = (cos, −sin) … we use world = R_y(rot)·local, R_y: (x,z) → (x cos + z sin, −x sin + z cos)
      this.c[i] = dcos(rot);
      this.s[i] = dsin(rot);
      const ex = Math.abs(this.c[i]!) * o.half_extents[0] + Math.abs(this.s[i]!) * o.half_extents[1];
      const ez = Math.abs(this.s[i]!) * o.half_extents[0] + Math.abs(this.c[i]!) * o.half_extents[1];
      this.minX[i] = o.center[0] - ex;
      this.maxX[i] = o.center[0] + ex;
      this.minZ[i] = o.center[1] - ez;
      this.maxZ[i] = o.center[1] + ez;
    } else {
      this.kind[i] = CYLINDER;
      if (!(o.radius > 0)) throw new Error(`obstacle ${this.names[i]}: radius must be > 0, found ${o.radius}`);
      [this.p0[i], this.p1[i]] = o.center;
      this.p2[i] = o.radius;
      this.minX[i] = o.center[0] - o.radius;
      this.maxX[i] = o.center[0] + o.radius;
      this.minZ[i] = o.center[1] - o.radius;
      this.maxZ[i] = o.center[1] + o.radius;
    }
    for (let ix = Math.floor(this.minX[i]! / CELL); ix <= Math.floor(this.maxX[i]! / CELL); ix++)
      for (let iz = Math.floor(this.minZ[i]! / CELL); iz <= Math.floor(this.maxZ[i]! / CELL); iz++) {
        const k = cellKey(ix, iz);
        let cell = this.grid.get(k);
        if (!cell) this.grid.set(k, (cell = []));
        cell.push(i);
      }
    return i;
  }

  /** Box corner j (0..3) in world coordinates, counter-clockwise seen from above. */
  boxCorner(i: number, j: number, out: { x: number; z: number }): void {
    const hx = j === 0 || j === 3 ? this.p2[i]! : -this.p2[i]!;
    const hz = j < 2 ? this.p3[i]! : -this.p3[i]!;
    const c = this.c[i]!, s = this.s[i]!;
    out.x = this.p0[i]! + hx * c + hz * s;
    out.z = this.p1[i]! - hx * s + hz * c;
  }

  /** Obstacles whose AABB meets [x0,x1]×[z0,z1], ascending ids, into `out` (returns the count). */
  query(x0: number, z0: number, x1: number, z1: number, out: number[]): number {
    out.length = 0;
    this.stampGen = (this.stampGen + 1) >>> 0;
    if (this.stampGen === 0) {
      this.stamp.fill(0);
      this.stampGen = 1;
    }
    const ix0 = Math.floor(x0 / CELL), ix1 = Math.floor(x1 / CELL);
    const iz0 = Math.floor(z0 / CELL), iz1 = Math.floor(z1 / CELL);
    if ((ix1 - ix0 + 1) * (iz1 - iz0 + 1) > 4096) {
      for (let i = 0; i < this.n; i++) if (this.maxX[i]! >= x0 && this.minX[i]! <= x1 && this.maxZ[i]! >= z0 && this.minZ[i]! <= z1) out.push(i);
      return out.length;
    }
    for (let ix = ix0; ix <= ix1; ix++)
      for (let iz = iz0; iz <= iz1; iz++) {
        const cell = this.grid.get(cellKey(ix, iz));
        if (!cell) continue;
        for (const i of cell) {
          if (this.stamp[i] === this.stampGen) continue;
          this.stamp[i] = this.stampGen;
          if (this.maxX[i]! >= x0 && this.minX[i]! <= x1 && this.maxZ[i]! >= z0 && this.minZ[i]! <= z1) out.push(i);
        }
      }
    out.sort((a, b) => a - b);
    return out.length;
  }
}

/** Terrain's stage scenery item (terrain/stage.ts SceneryItem), restated so the collision code needs no terrain import. */
export interface SceneryLike {
  kind: string;
  x: number;
  y: number;
  z: number;
  rotY: number;
  radius: number;
  height: number;
}

/**
 * Stage scenery → colliders: trees, markers and edge posts → cylinders (trunk radius = 0.25 of the canopy radius
 * for trees, at least 0.1 m), rocks → cylinders of their radius, fences → walls of length 2·radius along rotY,
 * arches → two posts; bushes do not stop a car (skipped).
 */
export function fromScenery(items: readonly SceneryLike[], scene = new SceneColliders()): SceneColliders {
  for (let n = 0; n < items.length; n++) {
    const it = items[n]!;
    const base = it.y;
    const id = `${it.kind}#${n}`;
    switch (it.kind) {
      case 'tree':
        scene.add({ kind: 'cylinder', center: [it.x, it.z], radius: Math.max(0.1, 0.25 * it.radius), base_m: base, height_m: it.height, id });
        break;
      case 'rock':
      case 'marker':
      case 'post':
        scene.add({ kind: 'cylinder', center: [it.x, it.z], radius: Math.max(0.05, it.radius), base_m: base, height_m: it.height, id });
        break;
      case 'fence': {
        const c = dcos(it.rotY), s = dsin(it.rotY);
        const r = it.radius;
        scene.add({ kind: 'wall', a: [it.x - r * c, it.z + r * s], b: [it.x + r * c, it.z - r * s], base_m: base, height_m: it.height, id });
        break;
      }
      case 'arch': {
        const c = dcos(it.rotY), s = dsin(it.rotY);
        const r = it.radius;
        scene.add({ kind: 'cylinder', center: [it.x - r * c, it.z + r * s], radius: 0.3, base_m: base, height_m: it.height, id: `${id}/left` });
        scene.add({ kind: 'cylinder', center: [it.x + r * c, it.z - r * s], radius: 0.3, base_m: base, height_m: it.height, id: `${id}/right` });
        break;
      }
      default:
        break;
    }
  }
  return scene;
}
