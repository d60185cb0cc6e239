/**
 * A car's damage as one value: the residual crush of its four ends (m) and its collision count. Everything
 * else the player feels from damage (`Damage.steerPullRad`, `Damage.powerFactor`) is derived from the crush by
 * `damageFromCrush`, so these five numbers are the whole damage state. A rally carries it from one stage to the
 * next (src/run/rally/), a replay header car holds it when the car started damaged (src/replay/format.ts).
 */
import type { SimWorld } from '../../../ecs/world';
import { damageFromCrush } from './crush';

export interface CarDamage {
  /** Residual crush of the front, rear, left and right ends, m (CarCollider.crushF/R/L/Rt). */
  crushFrontM: number;
  crushRearM: number;
  crushLeftM: number;
  crushRightM: number;
  /** Collisions the car took part in (CarCollider.hits). */
  hits: number;
}

/** An undamaged car. */
export const NO_DAMAGE: Readonly<CarDamage> = Object.freeze({ crushFrontM: 0, crushRearM: 0, crushLeftM: 0, crushRightM: 0, hits: 0 });

/** The damage of car `eid` (a car with a collider). */
export function readCarDamage(world: SimWorld, eid: number): CarDamage {
  const c = world.c.CarCollider;
  return { crushFrontM: c.crushF[eid]!, crushRearM: c.crushR[eid]!, crushLeftM: c.crushL[eid]!, crushRightM: c.crushRt[eid]!, hits: c.hits[eid]! };
}

/** Gives car `eid` (a car with a collider) exactly `d`, and the steering pull and power loss that follow from it. */
export function applyCarDamage(world: SimWorld, eid: number, d: CarDamage): void {
  const c = world.c.CarCollider;
  c.crushF[eid] = d.crushFrontM;
  c.crushR[eid] = d.crushRearM;
  c.crushL[eid] = d.crushLeftM;
  c.crushRt[eid] = d.crushRightM;
  c.hits[eid] = d.hits;
  const effect = damageFromCrush(d.crushFrontM, d.crushRearM, d.crushLeftM, d.crushRightM);
  world.c.Damage.steerPullRad[eid] = effect.steerPullRad;
  world.c.Damage.powerFactor[eid] = effect.powerFactor;
}

/** True when the car has no residual crush (collision count aside). */
export function isUndamaged(d: CarDamage): boolean {
  return d.crushFrontM === 0 && d.crushRearM === 0 && d.crushLeftM === 0 && d.crushRightM === 0;
}
