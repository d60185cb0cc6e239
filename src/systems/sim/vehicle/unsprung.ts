/**
 * Pass 5b: the wheels' own travel dynamics (Deák §5.1: chassis + four wheels, each wheel with a travel
 * DOF along the suspension axis â = body +Y). Runs per car after every other force on the car is known.
 *
 * The chassis RigidBody keeps the car's total mass M, so its translation perpendicular to â carries the wheels
 * (they move with the body across their guides). Along â the wheels move on their own:
 *   m_u,i·(a_body·â + s̈_i) = T_i − F_s,i + m_u,i·g·â          T_i: tyre force along â (tires.ts), F_s,i: suspension
 *   m_s·(a_body·â − g·â)   = F′·â                              F′: every non-gravity force on the body (F_s,i included,
 *                                                               T_i not) ; m_s = M − Σ m_u
 * so with f = F′·â / m_s (the body's specific force along â):
 *   s̈_i = (T_i − F_s,i)/m_u,i − f
 * and the body, integrated with mass M, gets back each wheel's inertial share m_u,i·f·â at that wheel's centre
 * (Σ = (Σ m_u / m_s)·(F′·â)·â, so its acceleration along â is f + g·â; at the wheel centres so that at rest the
 * tyre loads split by the total CG of the config, the wheels' weight on their own tyres). Together, M·a_body + Σ m_u·s̈_i·â = ΣF_external: linear momentum of the
 * five bodies is conserved exactly. Neglected: the mount's rotational acceleration (α × r + ω × (ω × r)) in the
 * wheel's equation and the wheels' share of the chassis's rotational inertia about its own axes.
 */
import type { SimWorld } from '../../../ecs/world';
import type { CarRuntime } from './registry';

export function unsprungCar(world: SimWorld, rt: CarRuntime): void {
  const b = world.c.RigidBody;
  const W = world.c.Wheel;
  const g = world.gravity;
  const eid = rt.eid;
  const k = rt.cache;
  const ax = b.R1[eid]!,
    ay = b.R4[eid]!,
    az = b.R7[eid]!;
  const gm = b.mass[eid]! * b.gravity[eid]!;
  // F′·â: the accumulators hold M·g (apply-body-forces.ts) plus every force pass's contribution.
  const Fa = (b.fx[eid]! - g.x * gm) * ax + (b.fy[eid]! - g.y * gm) * ay + (b.fz[eid]! - g.z * gm) * az;
  const f = Fa * k.invSprung;
  const am = k.axisMoment;
  let sF = 0,
    sTx = 0,
    sTy = 0,
    sTz = 0;
  const wheels = rt.wheels;
  for (let i = 0; i < 4; i++) {
    const w = wheels[i]!;
    const inv = k.invUnsprung[i]!;
    W.dTravelRate[w] = (W.tireAxis[w]! - W.suspForce[w]!) * inv - f;
    const share = f / inv; // m_u,i·f
    sF += share;
    sTx += share * am[i * 3]!;
    sTy += share * am[i * 3 + 1]!;
    sTz += share * am[i * 3 + 2]!;
  }
  b.fx[eid] = b.fx[eid]! + sF * ax;
  b.fy[eid] = b.fy[eid]! + sF * ay;
  b.fz[eid] = b.fz[eid]! + sF * az;
  b.tx[eid] = b.tx[eid]! + sTx;
  b.ty[eid] = b.ty[eid]! + sTy;
  b.tz[eid] = b.tz[eid]! + sTz;
}
