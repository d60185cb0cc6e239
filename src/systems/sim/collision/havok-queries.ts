/**
 * Car-edge queries through a Havok static world (issue 5 item 2: "edges queried against the Havok world").
 *
 * The query world is built from the yaw-plane scene (`SceneColliders`, the same data the TS fallback uses) with
 * shapes whose horizontal cross-section at any query height equals the TS outline exactly:
 *  • wall (zero-thickness segment, base..top) → a two-triangle vertical quad mesh (zero thickness);
 *  • box → a Havok box (exact);
 *  • cylinder → a vertical capsule whose segment spans base..top: a horizontal ray at a height inside
 *    [base, top] meets the exact circle of radius r. (Havok's `CreateCylinder` is a 16-sided convex polygon —
 *    hit normals come in 22.5° steps — which, with spheres for rocks and 0.1 m-thick boxes for walls, is why
 *    the old ray-vs-TS comparison agreed on only ~97 % of placements.) The capsule's rounded caps reach r
 *    beyond the prism, so a hit on obstacle i is accepted only from a ray cast at i's own query height, which
 *    lies inside [base, top].
 * Havok computes in float32: points differ from the float64 TS ones by ~1e-7 relative (≈ 1e-5 m at 100 m from
 * the origin); decisions differ only at exact tangency/edge-end coincidences within that tolerance.
 *
 * A query: the car's four edges at CG height (or, for an obstacle below/above the CG, at the middle of the
 * obstacle's overlap with the body box) as rays cast both ways (start→end gives the entries, end→start the
 * exits: together every crossing of the outline, also when a corner is inside the obstacle, since Havok does
 * not report a ray that starts inside a convex body). Knight's "line of interference" ends (a wall's ends inside
 * the car) come from the scene data, as in the TS path. Hits are sorted by obstacle id then cast order, so the
 * result does not depend on Havok's collector order (determinism).
 */
import type { HavokPhysicsWithBindings, HP_BodyId, HP_CollectorId, HP_ShapeId, HP_WorldId } from '@babylonjs/havok';
import { corners, insideRect, type CarPose } from './detect';
import { pushPoint, type PointList } from './contact-points';
import { CYLINDER, WALL, type SceneColliders } from './scene';
import { collisionRuntime } from './runtime';
import type { SimWorld } from '../../../ecs/world';

const ALL: [number, number] = [0xffffffff, 0xffffffff];
const NO_BODY: HP_BodyId = [BigInt(0)];

type Emscripten = HavokPhysicsWithBindings & { _malloc(n: number): number; _free(p: number): void; HEAPU8: Uint8Array };

export class HavokSceneQueries {
  readonly world: HP_WorldId;
  private readonly collector: HP_CollectorId;
  private readonly shapes: HP_ShapeId[] = [];
  private readonly bodies: HP_BodyId[] = [];
  /** Havok body id → obstacle index of `source`. */
  private readonly index = new Map<bigint, number>();
  /** The scene this world mirrors and how many of its obstacles are in. */
  source: SceneColliders | null = null;
  count = 0;
  /** Ray casts issued (for the bench and tests). */
  casts = 0;

  constructor(readonly hp: HavokPhysicsWithBindings) {
    this.world = this.ok(hp.HP_World_Create(), 'HP_World_Create');
    this.collector = this.ok(hp.HP_QueryCollector_Create(32), 'HP_QueryCollector_Create');
  }

  private ok<T>(r: [unknown, T], what: string): T {
    if (r[0] !== this.hp.Result.RESULT_OK) throw new Error(`havok queries: ${what} failed`);
    return r[1];
  }

  /** Mirror `scene` (rebuilds when the scene object changed, appends obstacles added since the last sync). */
  sync(scene: SceneColliders): void {
    if (this.source !== scene) {
      this.clear();
      this.source = scene;
    }
    for (let i = this.count; i < scene.n; i++) this.addObstacle(scene, i);
    this.count = scene.n;
  }

  private addBody(shape: HP_ShapeId, pos: [number, number, number], rotY: number, i: number): void {
    const hp = this.hp;
    this.shapes.push(shape);
    const body = this.ok(hp.HP_Body_Create(), 'HP_Body_Create');
    hp.HP_Body_SetShape(body, shape);
    hp.HP_Body_SetMotionType(body, hp.MotionType.STATIC);
    hp.HP_Body_SetQTransform(body, [pos, [0, Math.sin(rotY / 2), 0, Math.cos(rotY / 2)]]);
    hp.HP_World_AddBody(this.world, body, false);
    this.bodies.push(body);
    this.index.set(body[0], i);
  }

  private addObstacle(sc: SceneColliders, i: number): void {
    const hp = this.hp as Emscripten;
    const y0 = sc.yMin[i]!, y1 = sc.yMax[i]!;
    if (sc.kind[i] === WALL) {
      const ax = sc.p0[i]!, az = sc.p1[i]!, bx = sc.p2[i]!, bz = sc.p3[i]!;
      // vertices relative to the wall's first end (keeps float32 rounding of the vertices small)
      const vp = hp._malloc(12 * 4), tp = hp._malloc(6 * 4);
      new Float32Array(hp.HEAPU8.buffer, vp, 12).set([0, y0, 0, bx - ax, y0, bz - az, bx - ax, y1, bz - az, 0, y1, 0]);
      new Int32Array(hp.HEAPU8.buffer, tp, 6).set([0, 1, 2, 0, 2, 3]);
      const shape = this.ok(hp.HP_Shape_CreateMesh(vp, 4, tp, 2), 'HP_Shape_CreateMesh');
      hp._free(vp);
      hp._free(tp);
      this.addBody(shape, [ax, 0, az], 0, i);
    } else if (sc.kind[i] === CYLINDER) {
      const shape = this.ok(hp.HP_Shape_CreateCapsule([0, y0, 0], [0, y1, 0], sc.p2[i]!), 'HP_Shape_CreateCapsule');
      this.addBody(shape, [sc.p0[i]!, 0, sc.p1[i]!], 0, i);
    } else {
      const shape = this.ok(hp.HP_Shape_CreateBox([0, 0.5 * (y0 + y1), 0], [0, 0, 0, 1], [2 * sc.p2[i]!, y1 - y0, 2 * sc.p3[i]!]), 'HP_Shape_CreateBox');
      this.addBody(shape, [sc.p0[i]!, 0, sc.p1[i]!], sc.p4[i]!, i);
    }
  }

  /**
   * Crossings of the car outline (pose, at height y) with the obstacles i for which accept(i) is true, into
   * per-obstacle lists: `out.get(i)` gets the points and, for each point, Havok's surface normal there
   * (`nx`/`nz`, used for the one-point case). Obstacles are reported in ascending id order via `ids`.
   */
  edgeHits(pose: CarPose, y: number, accept: (i: number) => boolean, sink: HitSink): void {
    corners(pose, cxs, czs);
    for (let e = 0; e < 4; e++) {
      const ax = cxs[e]!, az = czs[e]!, bx = cxs[(e + 1) & 3]!, bz = czs[(e + 1) & 3]!;
      this.cast(ax, y, az, bx, bz, accept, sink, true);
      this.cast(bx, y, bz, ax, az, accept, sink, false);
    }
  }

  /** `forward`: a zero-thickness wall is hit once from either side, so walls count on the forward cast only. */
  private cast(ax: number, y: number, az: number, bx: number, bz: number, accept: (i: number) => boolean, sink: HitSink, forward: boolean): void {
    const hp = this.hp;
    this.casts++;
    hp.HP_World_CastRayWithCollector(this.world, this.collector, [[ax, y, az], [bx, y, bz], ALL, false, NO_BODY]);
    const n = this.ok(hp.HP_QueryCollector_GetNumHits(this.collector), 'GetNumHits');
    for (let k = 0; k < n; k++) {
      const [fraction, cp] = this.ok(hp.HP_QueryCollector_GetCastRayResult(this.collector, k), 'GetCastRayResult');
      const i = this.index.get(cp[0][0]);
      if (i === undefined || !accept(i) || (!forward && this.source!.kind[i] === WALL)) continue;
      // the point from the fraction along the float64 ray (not Havok's float32 position): exact ends, and the
      // same expression whichever way the edge was cast
      sink.add(i, ax + fraction * (bx - ax), az + fraction * (bz - az), cp[4][0], cp[4][2], fraction);
    }
  }

  private clear(): void {
    const hp = this.hp;
    for (const b of this.bodies) {
      hp.HP_World_RemoveBody(this.world, b);
      hp.HP_Body_Release(b);
    }
    for (const s of this.shapes) hp.HP_Shape_Release(s);
    this.bodies.length = 0;
    this.shapes.length = 0;
    this.index.clear();
    this.count = 0;
  }

  dispose(): void {
    this.clear();
    this.hp.HP_QueryCollector_Release(this.collector);
    this.hp.HP_World_Release(this.world);
  }
}

const cxs = new Float64Array(4), czs = new Float64Array(4);

/** Collected hits: per hit the obstacle, point, Havok normal; `sorted()` orders them by obstacle then cast order. */
export class HitSink {
  n = 0;
  obs: number[] = [];
  x: number[] = [];
  z: number[] = [];
  nx: number[] = [];
  nz: number[] = [];
  private order: number[] = [];
  reset(): void {
    this.n = 0;
  }
  add(i: number, x: number, z: number, nx: number, nz: number, _fraction: number): void {
    const k = this.n++;
    this.obs[k] = i;
    this.x[k] = x;
    this.z[k] = z;
    this.nx[k] = nx;
    this.nz[k] = nz;
  }
  /** Hit indices sorted by (obstacle id, insertion order): a stable, collector-order-independent sequence. */
  sorted(): number[] {
    const o = this.order;
    o.length = this.n;
    for (let k = 0; k < this.n; k++) o[k] = k;
    o.sort((a, b) => this.obs[a]! - this.obs[b]! || a - b);
    return o;
  }
}

/** The wall ends of obstacle i inside the car (Knight's line of interference), as the TS path adds them. */
export function wallEndsInside(scene: SceneColliders, i: number, p: CarPose, l: PointList): void {
  if (scene.kind[i] !== WALL) return;
  if (insideRect(p, scene.p0[i]!, scene.p1[i]!)) pushPoint(l, scene.p0[i]!, scene.p1[i]!);
  if (insideRect(p, scene.p2[i]!, scene.p3[i]!)) pushPoint(l, scene.p2[i]!, scene.p3[i]!);
}

/**
 * Route this world's car-edge queries through Havok (idempotent). The static query world mirrors
 * `collisionRuntime(world).scene` and follows it (obstacles added later, a scene replaced by setSceneColliders).
 * Choose it when the world is built and keep it for the whole run: the Havok (float32) and TS (float64) paths
 * give the same contacts to ~1e-7 relative, not the same bits, so a replay must be verified on the same path.
 */
export function useHavokSceneQueries(world: SimWorld, hp: HavokPhysicsWithBindings): HavokSceneQueries {
  const rt = collisionRuntime(world);
  if (!rt.queries) rt.queries = new HavokSceneQueries(hp);
  rt.queries.sync(rt.scene);
  return rt.queries;
}

/** Back to the pure-TS narrow phase (releases the Havok query world). */
export function useTsSceneQueries(world: SimWorld): void {
  const rt = collisionRuntime(world);
  rt.queries?.dispose();
  rt.queries = null;
}
