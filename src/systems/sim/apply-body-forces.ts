/**
 * First force pass: zero every body's force/torque accumulators, then add gravity and any constant applied
 * forces (scenario bodies). Later force passes (suspension, tires, aero…) add on top.
 */
import { entitiesWith } from '../../ecs/queries';
import type { SimWorld } from '../../ecs/world';
import { applyForceAtPoint } from '../../ecs/rigid-body';

export function applyBodyForces(world: SimWorld): void {
  const b = world.c.RigidBody;
  const g = world.gravity;
  for (const eid of entitiesWith(world, b)) {
    // a halted body (halt-guard.ts) gets no force: with zero momenta it stays where it stopped
    const m = b.halted[eid] === 0 ? b.mass[eid]! * b.gravity[eid]! : 0;
    b.fx[eid] = g.x * m;
    b.fy[eid] = g.y * m;
    b.fz[eid] = g.z * m;
    b.tx[eid] = 0;
    b.ty[eid] = 0;
    b.tz[eid] = 0;
  }
  const a = world.c.AppliedForce;
  for (const eid of entitiesWith(world, b, a)) {
    if (b.halted[eid] !== 0) continue;
    // Point of application given in the body frame, carried with the body.
    const ax = a.ax[eid]!,
      ay = a.ay[eid]!,
      az = a.az[eid]!;
    const px = b.px[eid]! + b.R0[eid]! * ax + b.R1[eid]! * ay + b.R2[eid]! * az;
    const py = b.py[eid]! + b.R3[eid]! * ax + b.R4[eid]! * ay + b.R5[eid]! * az;
    const pz = b.pz[eid]! + b.R6[eid]! * ax + b.R7[eid]! * ay + b.R8[eid]! * az;
    applyForceAtPoint(world, eid, a.fx[eid]!, a.fy[eid]!, a.fz[eid]!, px, py, pz);
    b.tx[eid] = b.tx[eid]! + a.tx[eid]!;
    b.ty[eid] = b.ty[eid]! + a.ty[eid]!;
    b.tz[eid] = b.tz[eid]! + a.tz[eid]!;
  }
}
