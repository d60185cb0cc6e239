/**
 * Giving a rigid body a car collider (`CarCollider` + `Damage`), from explicit parameters or from a car config's
 * `body` block (issue 4's CarConfig: lengths in m, mass from the RigidBody).
 */
import { addComponent } from 'bitecs';
import type { SimWorld } from '../../../ecs/world';
import { identifyCrush, type CrushParams, type CrushTest } from './crush';

export type CollisionMethod = 'restitution' | 'energy';

export interface CarColliderParams {
  /** CG → front bumper, CG → rear bumper, full width, full height, CG height above the ground (m). */
  cgToFrontM: number;
  cgToRearM: number;
  widthM: number;
  heightM: number;
  cgHeightM: number;
  /** Ground clearance of the body box (m), default 0.12. */
  clearanceM?: number;
  method?: CollisionMethod;
  /** Crash tests for the crush identification (default: DEFAULT_TESTS), or ready parameters. */
  crushTests?: Partial<Record<'front' | 'rear' | 'side', CrushTest>>;
  crush?: CrushParams;
}

const crushCache = new Map<string, CrushParams>();

/** Identification is deterministic; cache it per (mass, tests). */
export function crushParamsFor(mass: number, tests: CarColliderParams['crushTests'] = {}): CrushParams {
  const key = JSON.stringify([mass, tests]);
  let p = crushCache.get(key);
  if (!p) crushCache.set(key, (p = identifyCrush(mass, tests)));
  return p;
}

export function attachCarCollider(world: SimWorld, eid: number, params: CarColliderParams): void {
  const need = { cgToFrontM: params.cgToFrontM, cgToRearM: params.cgToRearM, widthM: params.widthM, heightM: params.heightM };
  for (const [k, v] of Object.entries(need)) if (!(v > 0)) throw new Error(`attachCarCollider: ${k} must be > 0 m, found ${v}`);
  if (!(params.cgHeightM >= 0)) throw new Error(`attachCarCollider: cgHeightM must be ≥ 0 m, found ${params.cgHeightM}`);
  const c = world.c.CarCollider;
  addComponent(world, eid, c);
  addComponent(world, eid, world.c.Damage);
  c.front[eid] = params.cgToFrontM;
  c.rear[eid] = params.cgToRearM;
  c.halfWidth[eid] = 0.5 * params.widthM;
  c.height[eid] = params.heightM;
  c.cgHeight[eid] = params.cgHeightM;
  c.clearance[eid] = params.clearanceM ?? 0.12;
  c.method[eid] = params.method === 'energy' ? 1 : 0;
  const mass = world.c.RigidBody.mass[eid]!;
  const cp = params.crush ?? crushParamsFor(mass, params.crushTests);
  c.bumperLength[eid] = 0.15;
  c.kb[eid] = cp.bumper.kb;
  c.Cb[eid] = cp.bumper.Cb;
  c.gamma[eid] = cp.bumper.gamma;
  c.bumperCap[eid] = cp.bumper.cap;
  c.F0[eid] = cp.bumper.F0;
  c.kcF[eid] = cp.kcF;
  c.kcR[eid] = cp.kcR;
  c.kcS[eid] = cp.kcS;
  c.crushF[eid] = c.crushR[eid] = c.crushL[eid] = c.crushRt[eid] = 0;
  c.hits[eid] = 0;
  world.c.Damage.steerPullRad[eid] = 0;
  world.c.Damage.powerFactor[eid] = 1;
}

/**
 * The part of issue 4's CarConfig this needs (structural, so no import of the vehicle module). There
 * `cgToFrontM`/`cgToRearM` are CG → axle distances; Knight's rectangle needs CG → bumper, so the overhang
 * (lengthM − wheelbaseM) is split equally front and rear (our assumption, docs/collisions.md).
 */
export interface CarBodyConfigLike {
  body: { lengthM: number; wheelbaseM: number; widthM: number; heightM: number; cgToFrontM: number; cgToRearM: number; cgHeightM: number };
  collision?: { method?: CollisionMethod; crushTests?: CarColliderParams['crushTests'] };
}

export function colliderParamsFromConfig(config: CarBodyConfigLike): CarColliderParams {
  const b = config.body;
  const overhang = Math.max(0, b.lengthM - b.wheelbaseM) / 2;
  return {
    cgToFrontM: b.cgToFrontM + overhang,
    cgToRearM: b.cgToRearM + overhang,
    widthM: b.widthM,
    heightM: b.heightM,
    cgHeightM: b.cgHeightM,
    method: config.collision?.method,
    crushTests: config.collision?.crushTests,
  };
}

export function attachCarColliderFromConfig(world: SimWorld, eid: number, config: CarBodyConfigLike): void {
  attachCarCollider(world, eid, colliderParamsFromConfig(config));
}
