/**
 * Swapping the configuration of a car that is driving (garage "apply", dev live reload), keeping where the
 * car is and how it moves.
 *
 * Kept: position, orientation, linear velocity v and angular velocity ω of the body (the momenta are
 * recomputed with the new mass and inertia, P = m·v, L = R·I·Rᵀ·ω, Deák §4.2 state), each wheel's contact
 * speed ω_w·r (ω_w rescaled when the tyre radius changes), suspension travel (clamped into the new travel),
 * tyre deflections, engine speed, gear (clamped to the new gearbox), crush damage. Changed: every parameter
 * the vehicle passes read from the car's runtime config (springs, tyres, engine, …) and the collider's box.
 *
 * The swap is a pure function of (world state, config): the same swap at the same tick gives the same bits.
 * Replays record it (format 2 'config' edit with the full car text, via the hook in live-car.ts
 * `applyCarText` → src/replay/car-swap.ts `carConfigSwapped`) and re-apply it at the same tick on playback.
 */
import { hasComponent } from 'bitecs';
import type { SimWorld } from '../../../ecs/world';
import type { CarConfig } from '../../../content/car-schema';
import { setAngularVelocity } from '../../../ecs/prefabs';
import { updateDerived } from '../../../ecs/rigid-body';
import { carRuntime, openSplit } from './registry';
import { attachCarColliderFromConfig } from '../collision/car-collider';

export function reconfigureCar(world: SimWorld, eid: number, cfg: CarConfig): void {
  const rt = carRuntime(world, eid);
  const old = rt.cfg;
  const b = world.c.RigidBody;
  updateDerived(world, eid);
  const vx = b.vx[eid]!, vy = b.vy[eid]!, vz = b.vz[eid]!;
  const wx = b.wx[eid]!, wy = b.wy[eid]!, wz = b.wz[eid]!;
  const m = cfg.body.massKg;
  b.mass[eid] = m;
  b.Ixx[eid] = cfg.body.inertia[0];
  b.Iyy[eid] = cfg.body.inertia[1];
  b.Izz[eid] = cfg.body.inertia[2];
  b.Px[eid] = m * vx;
  b.Py[eid] = m * vy;
  b.Pz[eid] = m * vz;
  setAngularVelocity(world, eid, wx, wy, wz); // L from the new inertia; calls updateDerived

  const W = world.c.Wheel;
  for (let k = 0; k < 4; k++) {
    const w = rt.wheels[k]!;
    const rOld = (old.wheels[k]!.front ? old.tires.front : old.tires.rear).radius;
    const nw = cfg.wheels[k]!;
    const rNew = (nw.front ? cfg.tires.front : cfg.tires.rear).radius;
    W.omega[w] = (W.omega[w]! * rOld) / rNew;
    const travel = (nw.front ? cfg.suspension.front : cfg.suspension.rear).travel;
    W.travel[w] = Math.min(Math.max(W.travel[w]!, 0), travel);
  }

  const C = world.c.Car;
  const n = cfg.gearbox.forwardGears;
  const clampGear = (g: number): number => Math.max(-1, Math.min(n, g));
  C.gear[eid] = clampGear(C.gear[eid]!);
  C.shiftTarget[eid] = clampGear(C.shiftTarget[eid]!);
  C.omegaE[eid] = Math.min(C.omegaE[eid]!, cfg.engine.limiter);

  rt.cfg = cfg;
  rt.split = openSplit(cfg);

  if (hasComponent(world, eid, world.c.CarCollider)) {
    const cc = world.c.CarCollider;
    const d = world.c.Damage;
    const keep = [cc.crushF[eid]!, cc.crushR[eid]!, cc.crushL[eid]!, cc.crushRt[eid]!, cc.hits[eid]!, d.steerPullRad[eid]!, d.powerFactor[eid]!];
    attachCarColliderFromConfig(world, eid, cfg);
    [cc.crushF[eid], cc.crushR[eid], cc.crushL[eid], cc.crushRt[eid], cc.hits[eid], d.steerPullRad[eid], d.powerFactor[eid]] = keep;
  }
}
