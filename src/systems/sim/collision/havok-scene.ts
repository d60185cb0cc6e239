/**
 * Havok scene world (raw `@babylonjs/havok` API, no Babylon scene): static colliders for the stage's scenery
 * and obstacles, a ground, and dynamic props stepped at the simulation dt. Queries: `castSegment` (ray) against
 * the static world. Havok runs in float32 inside; results are copied into Float64 components by the caller.
 */
import type { HavokPhysicsWithBindings, HP_BodyId, HP_ShapeId, HP_WorldId, HP_CollectorId } from '@babylonjs/havok';
import type { ObstacleInit, SceneryLike } from './scene';
import { datan2, dcos, dsin } from '../../../../terrain/dmath';

export type PropKind = 'cone' | 'hay-bale' | 'barrel' | 'fence-post';
export const PROP_KINDS: readonly PropKind[] = ['cone', 'hay-bale', 'barrel', 'fence-post'];

/** Prop shapes and masses (our choice): footprint radius (m) and height (m) of a vertical cylinder or box. */
export const PROP_SPECS: Readonly<Record<PropKind, { shape: 'cylinder' | 'box'; radius: number; height: number; mass: number }>> = {
  cone: { shape: 'cylinder', radius: 0.15, height: 0.7, mass: 4 },
  'hay-bale': { shape: 'cylinder', radius: 0.6, height: 1.2, mass: 250 },
  barrel: { shape: 'cylinder', radius: 0.3, height: 0.9, mass: 25 },
  'fence-post': { shape: 'box', radius: 0.06, height: 1.2, mass: 8 },
};

export interface HavokPropState {
  p: [number, number, number];
  q: [number, number, number, number]; // w, x, y, z
  v: [number, number, number];
  w: [number, number, number];
}

const ALL: [number, number] = [0xffffffff, 0xffffffff];

export class HavokScene {
  readonly world: HP_WorldId;
  private readonly shapes: HP_ShapeId[] = [];
  private readonly statics: HP_BodyId[] = [];
  readonly props: HP_BodyId[] = [];
  private collector: HP_CollectorId;
  private instance: HavokPhysicsWithBindings | null;

  constructor(hp: HavokPhysicsWithBindings, gravity: number, dt: number) {
    this.instance = hp;
    this.world = this.ok(hp.HP_World_Create(), 'HP_World_Create');
    hp.HP_World_SetGravity(this.world, [0, -gravity, 0]);
    hp.HP_World_SetIdealStepTime(this.world, dt);
    this.collector = this.ok(hp.HP_QueryCollector_Create(16), 'HP_QueryCollector_Create');
  }

  /**
   * The Havok instance; throws once the world is disposed: a props world's instance then goes back to the pool
   * (havok-instance.ts) and may already serve another world, which a late call would corrupt silently.
   */
  get hp(): HavokPhysicsWithBindings {
    if (!this.instance) throw new Error('havok: this Havok world was disposed (its instance may serve another world now)');
    return this.instance;
  }

  private ok<T>(r: [unknown, T], what: string): T {
    if (r[0] !== this.hp.Result.RESULT_OK) throw new Error(`havok: ${what} failed`);
    return r[1];
  }

  private addStaticShape(shape: HP_ShapeId, pos: [number, number, number], rotY = 0): HP_BodyId {
    const hp = this.hp;
    this.shapes.push(shape);
    const body = this.ok(hp.HP_Body_Create(), 'HP_Body_Create');
    hp.HP_Body_SetShape(body, shape);
    hp.HP_Body_SetMotionType(body, hp.MotionType.STATIC);
    hp.HP_Body_SetQTransform(body, [pos, [0, dsin(rotY / 2), 0, dcos(rotY / 2)]]);
    hp.HP_World_AddBody(this.world, body, false);
    this.statics.push(body);
    return body;
  }

  /** A flat ground: a 4 km square slab whose top is at y. */
  addGroundPlane(y: number): void {
    this.addStaticShape(this.ok(this.hp.HP_Shape_CreateBox([0, -1, 0], [0, 0, 0, 1], [4000, 2, 4000]), 'box'), [0, y, 0]);
  }

  /**
   * A square heightfield patch sampling `heightAt` (the sim's ground: flat, slope or a stage's B-spline) around
   * (cx, cz): half size `half` m, sample spacing `spacing` m. Havok's heightfield is centred on its body and
   * reads its buffer x-major (index = ix·n + iz; checked by a test); heights are absolute world y.
   */
  addGroundPatch(heightAt: (x: number, z: number) => number, cx: number, cz: number, half: number, spacing: number): void {
    const hp = this.hp as HavokPhysicsWithBindings & { _malloc(n: number): number; _free(p: number): void; HEAPU8: Uint8Array };
    const n = 2 * Math.ceil(half / spacing) + 1;
    const h0 = ((n - 1) / 2) * spacing;
    const ptr = hp._malloc(n * n * 4);
    const buf = new Float32Array(hp.HEAPU8.buffer, ptr, n * n);
    for (let ix = 0; ix < n; ix++) for (let iz = 0; iz < n; iz++) buf[ix * n + iz] = heightAt(cx - h0 + ix * spacing, cz - h0 + iz * spacing);
    const shape = this.ok(hp.HP_Shape_CreateHeightField(n, n, [spacing, 1, spacing], ptr), 'HP_Shape_CreateHeightField');
    hp._free(ptr);
    this.addStaticShape(shape, [cx, 0, cz]);
  }

  /** A static obstacle of the yaw-plane scene (same data as SceneColliders). */
  addObstacle(o: ObstacleInit): void {
    const hp = this.hp;
    const base = o.base_m ?? 0, h = o.height_m;
    if (o.kind === 'cylinder') {
      this.addStaticShape(this.ok(hp.HP_Shape_CreateCylinder([0, 0, 0], [0, h, 0], o.radius), 'cylinder'), [o.center[0], base, o.center[1]]);
    } else if (o.kind === 'box') {
      const [hx, hz] = o.half_extents;
      this.addStaticShape(
        this.ok(hp.HP_Shape_CreateBox([0, h / 2, 0], [0, 0, 0, 1], [2 * hx, h, 2 * hz]), 'box'),
        [o.center[0], base, o.center[1]],
        o.rot_y_rad ?? 0,
      );
    } else {
      // a wall segment → a 0.1 m thick box along the segment
      const dx = o.b[0] - o.a[0], dz = o.b[1] - o.a[1];
      const len = Math.hypot(dx, dz);
      const rot = datan2(dx, dz); // box local +Z along the wall
      this.addStaticShape(
        this.ok(hp.HP_Shape_CreateBox([0, h / 2, 0], [0, 0, 0, 1], [0.1, h, len]), 'box'),
        [(o.a[0] + o.b[0]) / 2, base, (o.a[1] + o.b[1]) / 2],
        rot,
      );
    }
  }

  /** Stage scenery → static colliders: trees → cylinder trunks, rocks → spheres, fences → boxes, markers, edge posts and arches → posts. */
  addScenery(items: readonly SceneryLike[]): void {
    const hp = this.hp;
    for (const it of items) {
      if (it.kind === 'rock') {
        this.addStaticShape(this.ok(hp.HP_Shape_CreateSphere([0, 0, 0], Math.max(0.05, it.radius)), 'sphere'), [it.x, it.y, it.z]);
      } else if (it.kind === 'tree' || it.kind === 'marker' || it.kind === 'post') {
        const r = it.kind === 'tree' ? Math.max(0.1, 0.25 * it.radius) : Math.max(0.05, it.radius);
        this.addStaticShape(this.ok(hp.HP_Shape_CreateCylinder([0, 0, 0], [0, it.height, 0], r), 'cylinder'), [it.x, it.y, it.z]);
      } else if (it.kind === 'fence') {
        this.addStaticShape(
          this.ok(hp.HP_Shape_CreateBox([0, it.height / 2, 0], [0, 0, 0, 1], [2 * it.radius, it.height, 0.1]), 'box'),
          [it.x, it.y, it.z],
          it.rotY,
        );
      } else if (it.kind === 'arch') {
        const c = dcos(it.rotY), s = dsin(it.rotY), r = it.radius;
        for (const sg of [-1, 1])
          this.addStaticShape(this.ok(hp.HP_Shape_CreateCylinder([0, 0, 0], [0, it.height, 0], 0.3), 'cylinder'), [it.x + sg * r * c, it.y, it.z - sg * r * s]);
      }
    }
  }

  /** A dynamic prop standing on the ground at (x, y, z); returns its index. */
  addProp(kind: PropKind, x: number, y: number, z: number, rotY = 0): number {
    const hp = this.hp;
    const spec = PROP_SPECS[kind];
    const shape =
      spec.shape === 'cylinder'
        ? this.ok(hp.HP_Shape_CreateCylinder([0, 0, 0], [0, spec.height, 0], spec.radius), 'cylinder')
        : this.ok(hp.HP_Shape_CreateBox([0, spec.height / 2, 0], [0, 0, 0, 1], [2 * spec.radius, spec.height, 2 * spec.radius]), 'box');
    hp.HP_Shape_SetMaterial(shape, [0.6, 0.5, 0.2, hp.MaterialCombine.GEOMETRIC_MEAN, hp.MaterialCombine.MAXIMUM]);
    this.shapes.push(shape);
    const body = this.ok(hp.HP_Body_Create(), 'HP_Body_Create');
    hp.HP_Body_SetShape(body, shape);
    hp.HP_Body_SetMotionType(body, hp.MotionType.DYNAMIC);
    const mp = this.ok(hp.HP_Shape_BuildMassProperties(shape), 'HP_Shape_BuildMassProperties');
    hp.HP_Body_SetMassProperties(body, [mp[0], spec.mass, mp[2], mp[3]]);
    hp.HP_Body_SetQTransform(body, [[x, y, z], [0, dsin(rotY / 2), 0, dcos(rotY / 2)]]);
    // added asleep (Havok still wakes it on its first ground contact; it settles, then rests until touched:
    // fewer Havok steps, whose results depend on the wasm heap's history — docs/collisions.md)
    hp.HP_World_AddBody(this.world, body, true);
    this.props.push(body);
    return this.props.length - 1;
  }

  /** Inertia of a prop about the vertical axis through its centre of mass (kg·m²), from Havok's mass properties. */
  propYawInertia(kind: PropKind): number {
    const s = PROP_SPECS[kind];
    return s.shape === 'cylinder' ? 0.5 * s.mass * s.radius * s.radius : (s.mass * (2 * s.radius) ** 2) / 6;
  }

  applyPropImpulse(i: number, at: [number, number, number], j: [number, number, number]): void {
    this.hp.HP_Body_ApplyImpulse(this.props[i]!, at, j);
  }

  /** Place a prop: position, quaternion (w, x, y, z), linear and angular velocity. */
  setProp(i: number, p: [number, number, number], q: [number, number, number, number], v: [number, number, number], w: [number, number, number]): void {
    const hp = this.hp, b = this.props[i]!;
    hp.HP_Body_SetQTransform(b, [p, [q[1], q[2], q[3], q[0]]]);
    hp.HP_Body_SetLinearVelocity(b, v);
    hp.HP_Body_SetAngularVelocity(b, w);
  }

  /** False while Havok has the prop asleep (at rest). */
  isActive(i: number): boolean {
    const r = this.hp.HP_Body_GetActivationState(this.props[i]!);
    return r[1] === this.hp.ActivationState.ACTIVE;
  }

  readProp(i: number, out: HavokPropState): HavokPropState {
    const hp = this.hp, b = this.props[i]!;
    const [pos, q] = this.ok(hp.HP_Body_GetQTransform(b), 'HP_Body_GetQTransform');
    const v = this.ok(hp.HP_Body_GetLinearVelocity(b), 'HP_Body_GetLinearVelocity');
    const w = this.ok(hp.HP_Body_GetAngularVelocity(b), 'HP_Body_GetAngularVelocity');
    out.p = [pos[0], pos[1], pos[2]];
    out.q = [q[3], q[0], q[1], q[2]];
    out.v = [v[0], v[1], v[2]];
    out.w = [w[0], w[1], w[2]];
    return out;
  }

  step(dt: number): void {
    this.hp.HP_World_Step(this.world, dt);
  }

  /** First static hit along a segment: fraction in [0, 1], point and normal; null when nothing is hit. */
  castSegment(a: [number, number, number], b: [number, number, number]): { fraction: number; point: number[]; normal: number[] } | null {
    const hp = this.hp;
    hp.HP_World_CastRayWithCollector(this.world, this.collector, [a, b, ALL, false, [BigInt(0)]]);
    const n = this.ok(hp.HP_QueryCollector_GetNumHits(this.collector), 'GetNumHits');
    let best: { fraction: number; point: number[]; normal: number[] } | null = null;
    for (let i = 0; i < n; i++) {
      const [fraction, cp] = this.ok(hp.HP_QueryCollector_GetCastRayResult(this.collector, i), 'GetCastRayResult');
      if (!best || fraction < best.fraction) best = { fraction, point: [...cp[3]], normal: [...cp[4]] };
    }
    return best;
  }

  get disposed(): boolean {
    return this.instance === null;
  }

  /** Frees every body, shape and the world (once; later calls do nothing). */
  dispose(): void {
    if (!this.instance) return;
    const hp = this.instance;
    for (const b of [...this.props, ...this.statics]) {
      hp.HP_World_RemoveBody(this.world, b);
      hp.HP_Body_Release(b);
    }
    for (const s of this.shapes) hp.HP_Shape_Release(s);
    hp.HP_QueryCollector_Release(this.collector);
    hp.HP_World_Release(this.world);
    this.instance = null;
  }
}
