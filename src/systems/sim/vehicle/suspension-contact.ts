/**
 * Pass 2: wheel–terrain contact and suspension (Deák seed 003 §5.6).
 *
 * Each wheel moves only along the body's Y axis; `travel` s (m, + = compressed, 0 = full droop) is
 * integrable state. The wheel is massless (its mass is lumped in the chassis, Deák §5.1), so the radial tyre
 * spring and the suspension (progressive spring + bump stop + anti-roll bar ∥ damper) are in series:
 *   N      = k_t·δ·(1 + δ/0.1 m)                          tyre radial spring, δ = R − d (d: centre–ground distance)
 *   F_s(s) = k·s + k₂·s² + bump stop k_bs·e·(1 + e/gap)   e = s − (travel − gap) > 0
 *   F_arb  = k_arb·(s − s_other)                          anti-roll bar on the same axle
 *   c(ṡ)·ṡ = N·(n·a) − F_s − F_arb                         ⇒ ṡ, with c = bump (ṡ > 0) or rebound (ṡ < 0) rate
 * which is the quarter-car with a massless wheel: the damper carries what the springs do not. The normal load
 * N acts on the chassis at the contact point along the ground normal (roll centre at ground level, Deák §5.6).
 * Stability at 500 Hz needs (k_t + k_bs)/c·dt < 2, true for any real damper (c > 1000 N·s/m).
 */
import type { SimWorld } from '../../../ecs/world';
import { groundSample } from '../../../ecs/ground';
import { springForce } from '../../../content/car-schema';
import { vehicles, type CarRuntime } from './registry';

const gs = groundSample();

export function vehicleSuspension(world: SimWorld): void {
  for (const rt of vehicles(world).list) suspensionCar(world, rt);
}

/** Pass 2 for one car (the merged per-car force pass, forces.ts, calls the four passes car by car). */
export function suspensionCar(world: SimWorld, rt: CarRuntime): void {
  const b = world.c.RigidBody;
  const W = world.c.Wheel;
  const C = world.c.Car;
  const ground = world.ground;
  {
    const eid = rt.eid;
    C.engineAcc[eid] = 0;
    const px = b.px[eid]!,
      py = b.py[eid]!,
      pz = b.pz[eid]!;
    const R0 = b.R0[eid]!,
      R1 = b.R1[eid]!,
      R2 = b.R2[eid]!,
      R3 = b.R3[eid]!,
      R4 = b.R4[eid]!,
      R5 = b.R5[eid]!,
      R6 = b.R6[eid]!,
      R7 = b.R7[eid]!,
      R8 = b.R8[eid]!;
    for (let i = 0; i < 4; i++) {
      const w = rt.wheels[i]!;
      W.torque[w] = 0;
      W.driveTorque[w] = 0;
      const kc = rt.cache;
      const sc = kc.susp[i]!;
      const tc = kc.tire[i]!;
      const s = W.travel[w]!;
      const sOther = W.travel[rt.wheels[i ^ 1]!]!;
      // Wheel centre in the body frame at travel s, then to world (config position and static travel copied
      // into the runtime cache: monomorphic reads).
      const wp = kc.wheelPos;
      const bx = wp[i * 4]!,
        by = wp[i * 4 + 1]! + (s - wp[i * 4 + 3]!),
        bz = wp[i * 4 + 2]!;
      const cx = px + R0 * bx + R1 * by + R2 * bz;
      const cy = py + R3 * bx + R4 * by + R5 * bz;
      const cz = pz + R6 * bx + R7 * by + R8 * bz;
      ground.sample(cx, cz, gs);
      const d = (cy - gs.h) * gs.ny; // distance from the ground's tangent plane
      const delta = tc.radius - d;
      let n = 0;
      if (delta > 0) {
        n = tc.radialStiffness * delta * (1 + delta / 0.1);
        W.grounded[w] = 1;
      } else {
        W.grounded[w] = 0;
      }
      W.load[w] = n;
      W.surface[w] = gs.surface;
      W.nx[w] = gs.nx;
      W.ny[w] = gs.ny;
      W.nz[w] = gs.nz;
      W.cx[w] = cx - gs.nx * d;
      W.cy[w] = cy - gs.ny * d;
      W.cz[w] = cz - gs.nz * d;
      // Suspension axis a = body +Y in world = (R1, R4, R7).
      const na = gs.nx * R1 + gs.ny * R4 + gs.nz * R7;
      const net = n * na - springForce(sc, s > 0 ? s : 0) - sc.antiRoll * (s - sOther);
      let ds = net > 0 ? net / sc.bumpDamping : net / sc.reboundDamping;
      if (s <= 0 && ds < 0) ds = 0;
      W.dTravel[w] = ds;
    }
  }
}
