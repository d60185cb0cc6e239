/**
 * Pass 2: wheel–terrain contact and suspension (Deák §5.6).
 *
 * Each wheel moves only along the body's Y axis â; `travel` s (m, + = compressed, 0 = full droop) and its rate
 * ṡ are integrable state: the wheel has its own unsprung mass m_u (Deák §5.1, the 5-body car), integrated by
 * `unsprungCar` (unsprung.ts) once every force on the car is known. This pass computes the contact and the
 * suspension force F_s pushing the wheel down and the body up along â:
 *   N      = k_t·δ·(1 + δ/0.1 m)                          tyre radial spring, δ = R − d (d: centre–ground distance)
 *   F_k(s) = k·s + k₂·s² + bump stop k_bs·e·(1 + e/gap)   e = s − (travel − gap) > 0
 *   F_arb  = k_arb·(s − s_other)                          anti-roll bar on the same axle
 *   F_d    = c·ṡ, c = bump (ṡ > 0) or rebound (ṡ < 0) rate
 *   F_stop = −(k_ds·s + c_ds·ṡ) ≥ 0 for s < 0              droop stop (critically damped, ω_ds = 200 rad/s)
 *   F_s    = F_k + F_arb + F_d − F_stop
 * F_s acts on the chassis at the wheel centre along +â (the tyre's force along â goes into the wheel, tires.ts).
 * The droop stop is a stiff spring rather than a hard limit, so s can read a fraction of a millimetre below 0
 * while a wheel hangs. Stability at 500 Hz: the stiffest wheel mode (tyre + bump stop + droop stop over m_u)
 * stays below ω·dt ≈ 0.5 for the shipped cars.
 */
import type { SimWorld } from '../../../ecs/world';
import { forceStage, groundPatch, type GroundPatch } from '../../../ecs/ground';
import { springForce } from '../../../content/spring-force';
import type { CarRuntime } from './registry';

const gs = groundPatch();
/** The wheel centre (x, y, z) handed to `tyreContact` and the ground in an array, not as boxed double arguments. */
const centre = new Float64Array(3);

/**
 * CarCache.contactPatch, per wheel at [PATCH_STRIDE·i …]: the start-of-step sample point x, z, then h, ∂h/∂x,
 * ∂h/∂z, h_xx, h_xz, h_zz there, the surface code, and 1 when the patch was written this tick (else 0).
 */
export const PATCH_STRIDE = 10;
/**
 * Farthest (horizontally) the midpoint stage's wheel centre may be from its start-of-step sample for the patch to
 * stand in for a fresh sample, m. Half a tick at 500 Hz is 0.1 m at 100 m/s; a centre moved further between the
 * two evaluations (a collision's position correction) is sampled afresh.
 */
const PATCH_REACH_M = 0.25;

/**
 * The ground under the wheel centre into `gs`. With the midpoint integrator the start-of-step evaluation samples
 * the ground's patch (height, gradient, second derivatives) and keeps it; the midpoint stage reads the ground
 * from that patch's second-order Taylor expansion at the staged centre (`groundFromPatch`) instead of sampling
 * again. Other integrators sample at every evaluation.
 */
function groundAtWheel(world: SimWorld, patch: Float64Array, o: number): void {
  const g = world.ground;
  if (forceStage.midpointStage) {
    if (patch[o + 9] === 1 && groundFromPatch(patch, o, centre, gs)) return;
  } else if (world.integrator === 'midpoint' && g.samplePatchAt) {
    g.samplePatchAt(centre, gs);
    keepPatch(patch, o, centre[0]!, centre[2]!, gs);
    return;
  } else {
    patch[o + 9] = 0;
  }
  if (g.sampleAt) g.sampleAt(centre, gs);
  else g.sample(centre[0]!, centre[2]!, gs);
}

/**
 * The patch `p` sampled at (x, z) into `patch` at [o …] (PATCH_STRIDE doubles, valid = 1); the force kernel keeps
 * its copy the same way (force-kernel.ts).
 */
export function keepPatch(patch: Float64Array, o: number, x: number, z: number, p: GroundPatch): void {
  patch[o] = x;
  patch[o + 1] = z;
  patch[o + 2] = p.h;
  patch[o + 3] = p.dhdx;
  patch[o + 4] = p.dhdz;
  patch[o + 5] = p.hxx;
  patch[o + 6] = p.hxz;
  patch[o + 7] = p.hzz;
  patch[o + 8] = p.surface;
  patch[o + 9] = 1;
}

/**
 * The ground at (x, z) = (at[0], at[2]) from the patch at [o …]: h₀ + g·Δ + ½ΔᵀHΔ and its gradient g + HΔ (Δ =
 * (x, z) − the sample point), the normal from that gradient, the patch's surface code. Error O(|Δ|³) in height and
 * O(|Δ|²) in the gradient (the third derivatives times |Δ|³/6 and |Δ|²/2): over half a tick's travel that keeps the
 * midpoint method second order. False (nothing written) when Δ is beyond PATCH_REACH_M. The point comes in an
 * array (x, y, z), not as double arguments, which a call the JIT did not inline boxes on the heap.
 */
export function groundFromPatch(patch: Float64Array, o: number, at: Float64Array, out: GroundPatch): boolean {
  const dx = at[0]! - patch[o]!,
    dz = at[2]! - patch[o + 1]!;
  if (dx * dx + dz * dz > PATCH_REACH_M * PATCH_REACH_M) return false;
  const hxx = patch[o + 5]!,
    hxz = patch[o + 6]!,
    hzz = patch[o + 7]!;
  const gx0 = patch[o + 3]!,
    gz0 = patch[o + 4]!;
  const hx = hxx * dx + hxz * dz,
    hz = hxz * dx + hzz * dz;
  const gx = gx0 + hx,
    gz = gz0 + hz;
  out.h = patch[o + 2]! + dx * (gx0 + 0.5 * hx) + dz * (gz0 + 0.5 * hz);
  out.dhdx = gx;
  out.dhdz = gz;
  out.hxx = hxx;
  out.hxz = hxz;
  out.hzz = hzz;
  const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
  out.nx = -gx * inv;
  out.ny = inv;
  out.nz = -gz * inv;
  out.surface = patch[o + 8]!;
  return true;
}

/**
 * The tyre of wheel `w` (centre in `centre`) on the ground: radial load from its deflection below the ground's
 * tangent plane (stiffening with deflection), contact point, normal and surface.
 */
function tyreContact(world: SimWorld, w: number, tc: CarRuntime['cache']['tire'][number], patch: Float64Array, o: number): void {
  const W = world.c.Wheel;
  const cx = centre[0]!,
    cy = centre[1]!,
    cz = centre[2]!;
  groundAtWheel(world, patch, o);
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
}

/**
 * Suspension force of wheel i at travel s (m), N along the suspension axis: spring (above full droop), anti-roll
 * bar against the other wheel of the axle, bump/rebound damping, and the droop stop below full droop.
 */
function suspensionForce(W: SimWorld['c']['Wheel'], rt: CarRuntime, i: number, s: number): number {
  const kc = rt.cache;
  const sc = kc.susp[i]!;
  const w = rt.wheels[i]!;
  const sOther = W.travel[rt.wheels[i ^ 1]!]!;
  const v = W.travelRate[w]!;
  let fs = springForce(sc, s > 0 ? s : 0) + sc.antiRoll * (s - sOther) + (v > 0 ? sc.bumpDamping : sc.reboundDamping) * v;
  if (s < 0) {
    const stop = -(kc.dropK[i]! * s + kc.dropC[i]! * v);
    if (stop > 0) fs -= stop;
  }
  return fs;
}

/**
 * The drive sums the drivetrain pass adds to (the engine's acceleration torque, each wheel's torque and drive torque),
 * zeroed: the first thing pass 2 does; the force kernel's path (forces.ts) calls it alone, before the drivetrain.
 */
export function clearDriveSums(world: SimWorld, rt: CarRuntime): void {
  const W = world.c.Wheel;
  world.c.Car.engineAcc[rt.eid] = 0;
  for (let i = 0; i < 4; i++) {
    const w = rt.wheels[i]!;
    W.torque[w] = 0;
    W.driveTorque[w] = 0;
  }
}

/** Pass 2 for one car (the merged per-car force pass, forces.ts, calls the four passes car by car). */
export function suspensionCar(world: SimWorld, rt: CarRuntime): void {
  const b = world.c.RigidBody;
  const W = world.c.Wheel;
  clearDriveSums(world, rt);
  {
    const eid = rt.eid;
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
    let sFx = 0,
      sFy = 0,
      sFz = 0,
      sTx = 0,
      sTy = 0,
      sTz = 0;
    for (let i = 0; i < 4; i++) {
      const w = rt.wheels[i]!;
      const kc = rt.cache;
      const tc = kc.tire[i]!;
      const s = W.travel[w]!;
      // Wheel centre in the body frame at travel s, then to world (config position and static travel copied
      // into the runtime cache: monomorphic reads).
      const wp = kc.wheelPos;
      const bx = wp[i * 4]!,
        by = wp[i * 4 + 1]! + (s - wp[i * 4 + 3]!),
        bz = wp[i * 4 + 2]!;
      const cx = px + R0 * bx + R1 * by + R2 * bz;
      const cy = py + R3 * bx + R4 * by + R5 * bz;
      const cz = pz + R6 * bx + R7 * by + R8 * bz;
      centre[0] = cx;
      centre[1] = cy;
      centre[2] = cz;
      tyreContact(world, w, tc, kc.contactPatch, i * PATCH_STRIDE);
      // Suspension force on the wheel (down along â) and on the body (up along â, at the wheel centre).
      const fs = suspensionForce(W, rt, i, s);
      W.suspForce[w] = fs;
      // Suspension axis â = body +Y in world = (R1, R4, R7); moment about the CG (r × F) with r = centre − CG.
      sFx += fs * R1;
      sFy += fs * R4;
      sFz += fs * R7;
      const rx = cx - px,
        ry = cy - py,
        rz = cz - pz;
      const am = kc.axisMoment;
      am[i * 3] = ry * R7 - rz * R4;
      am[i * 3 + 1] = rz * R1 - rx * R7;
      am[i * 3 + 2] = rx * R4 - ry * R1;
      sTx += fs * am[i * 3]!;
      sTy += fs * am[i * 3 + 1]!;
      sTz += fs * am[i * 3 + 2]!;
    }
    b.fx[eid] = b.fx[eid]! + sFx;
    b.fy[eid] = b.fy[eid]! + sFy;
    b.fz[eid] = b.fz[eid]! + sFz;
    b.tx[eid] = b.tx[eid]! + sTx;
    b.ty[eid] = b.ty[eid]! + sTy;
    b.tz[eid] = b.tz[eid]! + sTz;
  }
}
