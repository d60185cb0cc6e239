/**
 * Car–scene detection through a Havok static world (issue 5 item 2: "edges queried against the Havok world"),
 * bit-identical with the pure-TS path.
 *
 * Havok FINDS the obstacles near a car; the crossing points, normal and depth are then computed in float64 from
 * the scene data by the same code the TS path runs (detect.ts `obstaclePoints`). Havok computes in float32, so
 * letting it compute the crossings (the previous version: rays along the four edges) gave contacts that agreed
 * with the TS ones to ~1e-7 relative only, and cost ≈ 2.8× the TS path (one embind call per ray and per hit).
 *
 * The query world mirrors `SceneColliders` with shapes that CONTAIN each obstacle's prism (outline × [base, top]):
 * walls → zero-thickness two-triangle quads, boxes → boxes, cylinders → vertical capsules spanning base..top.
 * One query per car: a point-proximity query at the centre of the car's swept region (the axis-aligned box the
 * TS grid would be asked for: the CG's path over the tick widened by the bounding radius R, and the body box
 * [ground + clearance, ground + height]) with a distance that covers that region widened by a margin
 * (`MARGIN_M` horizontally, `VMARGIN_M` vertically) plus a float32 tolerance. Every obstacle whose prism comes
 * within the region has a Havok distance ≤ the distance to its prism (the Havok shape contains the prism)
 * ≤ hypot(horizontal, vertical) ≤ the query distance, so the set Havok returns CONTAINS every obstacle that
 * can touch the car during the tick (the car's outline at every sub-pose lies inside the swept box, inside the
 * circle the query covers). The result is cached per car with the region it covers; while the next tick's swept
 * region stays inside it (the margin lasts ≈ 50 ticks at 30 m/s and 500 Hz) no Havok call is made: a fat bound,
 * as Havok's own broad phase keeps. The cached set is filtered by the exact float64 AABB test the TS grid
 * applies, in ascending obstacle id: it may lack an obstacle whose AABB (not outline) reaches the swept box, and
 * such an obstacle gives no crossing, so the sub-pose search finds the same first hit, the same obstacles in the
 * same order, and the float64 narrow phase gives identical contacts, impulses and state bits (tested:
 * tests/collision/havok-queries.test.ts, a fast-check property test, the scenarios and system tests).
 * Should a query overflow the collector (`CAPACITY` hits: a dense forest), it is retried without the margin;
 * if it overflows again, that car uses the TS grid this tick (`fallbacks`; same result either way).
 */
import type { HavokPhysicsWithBindings, HP_BodyId, HP_CollectorId, HP_ShapeId, HP_WorldId } from '@babylonjs/havok';
import { CYLINDER, WALL, type SceneColliders } from './scene';
import { collisionRuntime, type SceneQueries } from './runtime';
import type { SimWorld } from '../../../ecs/world';
import { dcos, dsin } from '../../../../terrain/dmath';

const ALL: [number, number] = [0xffffffff, 0xffffffff];
const NO_BODY: HP_BodyId = [BigInt(0)];
/** Horizontal / vertical margin of a cached candidate region beyond the swept region (m). */
export const MARGIN_M = 3;
export const VMARGIN_M = 1;
/** Hits one collector holds; a query that fills it is retried without the margin, then falls back to the TS grid. */
const CAPACITY = 256;

type Emscripten = HavokPhysicsWithBindings & { _malloc(n: number): number; _free(p: number): void; HEAPU8: Uint8Array };

/** A cached candidate region: centre (x, y, z), horizontal radius r, vertical half-extent h, obstacle ids. */
interface Region {
  x: number;
  y: number;
  z: number;
  r: number;
  h: number;
  ids: number[];
}

export class HavokSceneQueries implements SceneQueries {
  readonly world: HP_WorldId;
  private readonly collector: HP_CollectorId;
  private readonly shapes: HP_ShapeId[] = [];
  private readonly bodies: HP_BodyId[] = [];
  /** Havok body id → obstacle index of `source`. */
  private readonly index = new Map<bigint, number>();
  /** Cached candidate region per car entity (not sim state: the candidate list does not depend on it). */
  private readonly regions = new Map<number, Region>();
  /** The scene this world mirrors and how many of its obstacles are in. */
  source: SceneColliders | null = null;
  count = 0;
  /** Havok proximity queries issued, hits read, cache reuses, TS-grid fallbacks (bench and tests). */
  queries = 0;
  hitsRead = 0;
  reused = 0;
  fallbacks = 0;

  constructor(readonly hp: HavokPhysicsWithBindings) {
    this.world = this.ok(hp.HP_World_Create(), 'HP_World_Create');
    this.collector = this.ok(hp.HP_QueryCollector_Create(CAPACITY), 'HP_QueryCollector_Create');
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
    if (this.count === scene.n) return;
    for (let i = this.count; i < scene.n; i++) this.addObstacle(scene, i);
    this.count = scene.n;
    this.regions.clear(); // cached sets predate the new obstacles
  }

  private addBody(shape: HP_ShapeId, pos: [number, number, number], rotY: number, i: number): void {
    const hp = this.hp;
    this.shapes.push(shape);
    const body = this.ok(hp.HP_Body_Create(), 'HP_Body_Create');
    hp.HP_Body_SetShape(body, shape);
    hp.HP_Body_SetMotionType(body, hp.MotionType.STATIC);
    hp.HP_Body_SetQTransform(body, [pos, [0, dsin(rotY / 2), 0, dcos(rotY / 2)]]);
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
   * Obstacles whose AABB meets [x0,x1]×[z0,z1], found through Havok among those within the cylinder around that
   * box spanning the vertical band [y0, y1], ascending ids, into `out` (returns the count): every obstacle of
   * the TS grid's `scene.query` answer whose outline reaches the box and whose prism reaches the band. `key`
   * names the cache slot (the car entity).
   */
  candidates(key: number, x0: number, z0: number, x1: number, z1: number, y0: number, y1: number, out: number[]): number {
    const sc = this.source!;
    const mx = 0.5 * (x0 + x1), mz = 0.5 * (z0 + z1), my = 0.5 * (y0 + y1);
    const hr = 0.5 * Math.sqrt((x1 - x0) * (x1 - x0) + (z1 - z0) * (z1 - z0)), hh = 0.5 * (y1 - y0);
    let reg = this.regions.get(key);
    const inside = reg !== undefined && Math.sqrt((mx - reg.x) * (mx - reg.x) + (mz - reg.z) * (mz - reg.z)) + hr <= reg.r && Math.abs(my - reg.y) + hh <= reg.h;
    if (inside) this.reused++;
    else {
      reg ??= { x: 0, y: 0, z: 0, r: 0, h: 0, ids: [] };
      if (!this.query(mx, my, mz, hr + MARGIN_M, hh + VMARGIN_M, reg) && !this.query(mx, my, mz, hr, hh, reg)) {
        this.regions.delete(key);
        this.fallbacks++;
        return sc.query(x0, z0, x1, z1, out);
      }
      this.regions.set(key, reg);
    }
    // the exact float64 AABB test of the TS grid, on the (ascending) cached ids
    out.length = 0;
    for (const i of reg!.ids) if (sc.maxX[i]! >= x0 && sc.minX[i]! <= x1 && sc.maxZ[i]! >= z0 && sc.minZ[i]! <= z1) out.push(i);
    return out.length;
  }

  /** One Havok point-proximity query covering the cylinder (centre, radius r, half-height h); false on overflow. */
  private query(x: number, y: number, z: number, r: number, h: number, reg: Region): boolean {
    const hp = this.hp;
    // float32 rounding of the query and the shapes (relative 6e-8 of the coordinates), and Havok's convex
    // radius rounding box corners (a rounded corner lies inside the box: up to (√3 − 1)·0.05 m from it)
    const tol = 0.1 + 1e-6 * (Math.abs(x) + Math.abs(y) + Math.abs(z));
    this.queries++;
    hp.HP_World_PointProximityWithCollector(this.world, this.collector, [[x, y, z], Math.sqrt(r * r + h * h) + tol, ALL, false, NO_BODY]);
    const n = this.ok(hp.HP_QueryCollector_GetNumHits(this.collector), 'GetNumHits');
    if (n >= CAPACITY) return false;
    const ids = reg.ids;
    ids.length = 0;
    for (let k = 0; k < n; k++) {
      const [, cp] = this.ok(hp.HP_QueryCollector_GetPointProximityResult(this.collector, k), 'GetPointProximityResult');
      const i = this.index.get(cp[0][0]);
      if (i !== undefined) ids.push(i);
    }
    this.hitsRead += n;
    ids.sort((a, b) => a - b); // independent of Havok's collector order
    reg.x = x;
    reg.y = y;
    reg.z = z;
    reg.r = r;
    reg.h = h;
    return true;
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
    this.regions.clear();
    this.count = 0;
  }

  dispose(): void {
    this.clear();
    this.hp.HP_QueryCollector_Release(this.collector);
    this.hp.HP_World_Release(this.world);
  }
}

/**
 * Route this world's car–scene broad phase through Havok (idempotent). The static query world mirrors
 * `collisionRuntime(world).scene` and follows it (obstacles added later, a scene replaced by setSceneColliders).
 * The contacts are bit-identical with the TS path, so a replay verifies on either.
 */
export function useHavokSceneQueries(world: SimWorld, hp: HavokPhysicsWithBindings): HavokSceneQueries {
  const rt = collisionRuntime(world);
  const q = rt.queries instanceof HavokSceneQueries ? rt.queries : new HavokSceneQueries(hp);
  if (rt.queries !== q) {
    rt.queries?.dispose();
    rt.queries = q;
  }
  q.sync(rt.scene);
  return q;
}

/** Back to the pure-TS grid (releases the Havok query world). */
export function useTsSceneQueries(world: SimWorld): void {
  const rt = collisionRuntime(world);
  rt.queries?.dispose();
  rt.queries = null;
}
