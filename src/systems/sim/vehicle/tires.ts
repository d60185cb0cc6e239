/**
 * Pass 4: tyre forces, a Lacombe-style brush model (docs/physics.md "Tire"; Deák §5.7).
 *
 * Contact patch of half-length a, ξ = x/a ∈ [−1 (trailing), 1 (leading)]. Pressure q = N/(2a)·p(ξ) with
 *   p(ξ) = (1 − w)·(3/2)(1 − ξ²) + w        (parabolic blended with uniform: measured patches are flat-topped;
 *                                             w = `pressure_uniformity`, w = 0 is the classic parabolic brush)
 * Bristles enter at the leading edge undeflected; while sticking their deflection grows linearly with the
 * distance travelled through the patch (longitudinal: linear tread spring, C_x per unit slip; lateral: tread
 * + carcass beam in series, C_y per rad). Where the elastic stress would exceed μ·q they slide, carrying a
 * Coulomb stress μ·q against the patch's sliding velocity. Derivation (the scanned paper has no equations):
 * with S = |(C_x s_x, C_y s_y)|/(μN) the normalised stress and η = 1 − ξ_t the sticking length (0..2),
 * the transition S·η = p(1 − η) gives  A·η² − (2A − S)·η − w = 0,  A = 3(1 − w)/2, and
 *   F_stick / μN = S·η²/4                                  along the elastic deflection (C_x s_x, C_y s_y)
 *   F_slide / μN = 1 − ½(A η² − A η³/3 + w η)              along the sliding direction s/|s|
 * so longitudinal and lateral forces are coupled in the sliding region. For S ≤ w/2 the whole patch sticks
 * and F = (C_x s_x, C_y s_y) exactly (the linear range used by the bicycle-model test); for S → ∞ the
 * force tends to μN (full sliding). w = 0 reproduces F = μN(1 − (1 − S/3)³) of the parabolic brush.
 *
 * Slips come from a relaxation-length (damped bristle) formulation so the tyre is well behaved at standstill:
 *   u̇_x = (ωR − v_x) − (|v_x|/σ_x)·u_x,   u̇_y = −v_y − (|v_x|/σ_y)·u_y,   s_x = u_x/σ_x, s_y = u_y/σ_y
 * (steady state: s_x = slip ratio (ωR − v_x)/|v_x|, s_y = tan α). At v_x → 0 the deflection is a spring
 * k = C/σ, so a parked car is held without creep; a damper d·u̇ (ζ = 0.7 of the wheel-spin / corner-mass
 * mode) acts in the sticking part only and vanishes in steady state. Far past the peak (S > 3) the
 * deflection relaxes faster (bristles cannot store more than the friction allows).
 */
import type { SimWorld } from '../../../ecs/world';
import { vehicles, type CarRuntime } from './registry';
import { dcos, dsin } from '../../../../terrain/dmath';

export interface BrushOut {
  fx: number;
  fy: number;
  /** Sliding fraction of the patch length, 0 (all sticking) … 1. */
  phi: number;
}

/**
 * Brush forces for normalised slips sx (slip ratio), sy (tan α, + = force to the left), load N, friction μ,
 * slip stiffnesses cx, cy and pressure uniformity w.
 */
export function brushForce(
  sx: number,
  sy: number,
  n: number,
  mu: number,
  cx: number,
  cy: number,
  out: BrushOut,
  w = 0.6,
): BrushOut {
  const ex = cx * sx,
    ey = cy * sy;
  bin[0] = sx;
  bin[1] = sy;
  bin[2] = n;
  bin[3] = mu;
  bin[4] = cx;
  bin[5] = cy;
  bin[6] = w;
  bin[7] = Math.sqrt(ex * ex + ey * ey) / (mu * n);
  brushCore();
  out.fx = bout[0]!;
  out.fy = bout[1]!;
  out.phi = bout[2]!;
  return out;
}

// brushCore's inputs (sx, sy, N, μ, C_x, C_y, w, normalised stress S = |(C_x s_x, C_y s_y)|/(μN)) and outputs
// (fx, fy, φ) live in typed arrays: passing doubles to (or returning them from) a call V8 does not inline boxes each on the heap.
const bin = new Float64Array(8);
const bout = new Float64Array(3);

/** The brush model proper (single implementation, used by `brushForce` and the tyre pass). */
function brushCore(): void {
  const sx = bin[0]!,
    sy = bin[1]!,
    n = bin[2]!,
    mu = bin[3]!,
    cx = bin[4]!,
    cy = bin[5]!,
    w = bin[6]!,
    S = bin[7]!;
  bout[0] = 0;
  bout[1] = 0;
  bout[2] = 0;
  if (!(n > 0) || !(mu > 0)) return;
  const muN = mu * n;
  const ex = cx * sx,
    ey = cy * sy;
  if (S === 0) return;
  if (S <= 0.5 * w) {
    bout[0] = ex;
    bout[1] = ey;
    return;
  }
  const A = 1.5 * (1 - w);
  let eta: number;
  if (A > 1e-12) {
    const bq = 2 * A - S;
    eta = (bq + Math.sqrt(bq * bq + 4 * A * w)) / (2 * A);
  } else eta = w / S;
  if (eta > 2) eta = 2;
  const e2 = eta * eta;
  // F_stick = μN·S·η²/4 along (ex, ey), whose length is μN·S: per unit of (ex, ey) that is η²/4.
  const stick = 0.25 * e2;
  const slide = muN * (1 - 0.5 * (A * e2 - A * e2 * eta * ONE_THIRD + w * eta));
  const slideUnit = slide / Math.sqrt(sx * sx + sy * sy); // per unit of (sx, sy)
  bout[0] = stick * ex + slideUnit * sx;
  bout[1] = stick * ey + slideUnit * sy;
  bout[2] = 1 - 0.5 * eta;
}

/**
 * Slip stiffness at load N, degressive in the load: C(N) = C0·x·(1 + k)/(1 + k·x), x = N/N0, k = (1 − p)/p,
 * so C(N0) = C0 and the local exponent d ln C / d ln N at N0 is p (a cheap rational stand-in for C0·x^p).
 */
export function stiffnessAtLoad(c0: number, n: number, n0: number, p: number): number {
  if (!(n > 0)) return 0;
  const x = n / n0;
  const k = (1 - p) / p;
  return (c0 * x * (1 + k)) / (1 + k * x);
}

/** Sliding-speed friction curve: μ(v_s) = μ_sl + (μ_st − μ_sl)/(1 + v_s/v_ref). */
export function slidingFriction(muStatic: number, muSliding: number, vRef: number, vs: number): number {
  return muSliding + (muStatic - muSliding) / (1 + vs / vRef);
}

/** Load-sensitive friction multiplier: 1 − k·(N − N0)/N0, clamped to [0.6, 1.3]. */
export function loadFactor(n: number, n0: number, k: number): number {
  const f = 1 - (k * (n - n0)) / n0;
  return f < 0.6 ? 0.6 : f > 1.3 ? 1.3 : f;
}

const ONE_THIRD = 1 / 3;
const OVERSLIDE_RATE = 60;
const OVERSLIDE_MAX = 250;

/** Named slots of the per-wheel scratch `wf` (the wheel's frame on the ground and its contact velocity). */
const F_X = 0, F_Y = 1, F_Z = 2; // heading f: wheel forward, projected on the ground plane (unit)
const L_X = 3, L_Y = 4, L_Z = 5; // left axis l = n × f
const R_X = 6, R_Y = 7, R_Z = 8; // contact point relative to the CG, m
const V_X = 9, V_Y = 10; // contact-point velocity along f and l, m/s
const TIRE_FX = 11, TIRE_FY = 12; // tyre force along f and l, N
const wf = new Float64Array(13);
/**
 * The car's body state the four wheels read (rotation R0..R8, CG position, velocity, angular velocity), loaded
 * once per car by `tiresCar`: one module array at constant indices instead of fifteen component arrays per wheel.
 */
const body = new Float64Array(18);
const B_R = 0; // R0..R8 at 0..8
const B_P = 9; // px, py, pz
const B_V = 12; // vx, vy, vz
const B_W = 15; // wx, wy, wz

/** The car's body state into `body`. */
function loadBody(b: SimWorld['c']['RigidBody'], eid: number): void {
  body[B_R] = b.R0[eid]!;
  body[B_R + 1] = b.R1[eid]!;
  body[B_R + 2] = b.R2[eid]!;
  body[B_R + 3] = b.R3[eid]!;
  body[B_R + 4] = b.R4[eid]!;
  body[B_R + 5] = b.R5[eid]!;
  body[B_R + 6] = b.R6[eid]!;
  body[B_R + 7] = b.R7[eid]!;
  body[B_R + 8] = b.R8[eid]!;
  body[B_P] = b.px[eid]!;
  body[B_P + 1] = b.py[eid]!;
  body[B_P + 2] = b.pz[eid]!;
  body[B_V] = b.vx[eid]!;
  body[B_V + 1] = b.vy[eid]!;
  body[B_V + 2] = b.vz[eid]!;
  body[B_W] = b.wx[eid]!;
  body[B_W + 1] = b.wy[eid]!;
  body[B_W + 2] = b.wz[eid]!;
}
/** The four wheels' force and moment on the chassis (N, N·m), summed and added to the accumulators once. */
const chassis = new Float64Array(6);

/**
 * Pass 4 for one car: per grounded wheel, its frame, the brush force, and its share on the chassis. Where the world
 * has the WebAssembly force kernel (force-kernel.ts) it runs this pass instead, with the same bits.
 */
export function tiresCar(world: SimWorld, rt: CarRuntime): void {
  const b = world.c.RigidBody;
  const W = world.c.Wheel;
  const eid = rt.eid;
  chassis.fill(0);
  loadBody(b, eid);
  for (let i = 0; i < 4; i++) {
    const w = rt.wheels[i]!;
    if (!W.grounded[w]) {
      relaxAirborne(W, w);
      continue;
    }
    wheelFrame(world, rt, i, w);
    wheelBrush(world, rt, i, w);
    addWheelToChassis(world, rt, i, w);
  }
  b.fx[eid] = b.fx[eid]! + chassis[0]!;
  b.fy[eid] = b.fy[eid]! + chassis[1]!;
  b.fz[eid] = b.fz[eid]! + chassis[2]!;
  b.tx[eid] = b.tx[eid]! + chassis[3]!;
  b.ty[eid] = b.ty[eid]! + chassis[4]!;
  b.tz[eid] = b.tz[eid]! + chassis[5]!;
}

/** A wheel off the ground: no force, and its unloaded bristles relax back to zero deflection. */
function relaxAirborne(W: SimWorld['c']['Wheel'], w: number): void {
  W.fx[w] = 0;
  W.fy[w] = 0;
  W.vx[w] = 0;
  W.vy[w] = 0;
  W.slipRatio[w] = 0;
  W.tireAxis[w] = 0;
  W.dux[w] = -W.ux[w]! * OVERSLIDE_MAX;
  W.duy[w] = -W.uy[w]! * OVERSLIDE_MAX;
}

/**
 * Wheel heading in the body frame (sin δ, 0, cos δ), to world, projected on the ground plane → f; l = n × f; the
 * contact point's velocity v + ω × r along both (into `wf`). sin/cos only when the steer angle changed (it is set
 * once per tick by the tick logic).
 */
function wheelFrame(world: SimWorld, rt: CarRuntime, i: number, w: number): void {
  const W = world.c.Wheel;
  const k = rt.cache;
  const nx = W.nx[w]!,
    ny = W.ny[w]!,
    nz = W.nz[w]!;
  const d = W.steer[w]!;
  if (d !== k.steerIn[i]) {
    k.steerIn[i] = d;
    k.steerSin[i] = d === 0 ? 0 : dsin(d);
    k.steerCos[i] = d === 0 ? 1 : dcos(d);
  }
  const sd = k.steerSin[i]!,
    cd = k.steerCos[i]!;
  let fx = body[B_R]! * sd + body[B_R + 2]! * cd,
    fy = body[B_R + 3]! * sd + body[B_R + 5]! * cd,
    fz = body[B_R + 6]! * sd + body[B_R + 8]! * cd;
  const fn = fx * nx + fy * ny + fz * nz;
  fx -= fn * nx;
  fy -= fn * ny;
  fz -= fn * nz;
  const ifl = 1 / Math.sqrt(fx * fx + fy * fy + fz * fz);
  fx *= ifl;
  fy *= ifl;
  fz *= ifl;
  const lx = ny * fz - nz * fy,
    ly = nz * fx - nx * fz,
    lz = nx * fy - ny * fx;
  const rx = W.cx[w]! - body[B_P]!,
    ry = W.cy[w]! - body[B_P + 1]!,
    rz = W.cz[w]! - body[B_P + 2]!;
  const wx = body[B_W]!,
    wy = body[B_W + 1]!,
    wz = body[B_W + 2]!;
  const vcx = body[B_V]! + wy * rz - wz * ry,
    vcy = body[B_V + 1]! + wz * rx - wx * rz,
    vcz = body[B_V + 2]! + wx * ry - wy * rx;
  wf[F_X] = fx;
  wf[F_Y] = fy;
  wf[F_Z] = fz;
  wf[L_X] = lx;
  wf[L_Y] = ly;
  wf[L_Z] = lz;
  wf[R_X] = rx;
  wf[R_Y] = ry;
  wf[R_Z] = rz;
  wf[V_X] = vcx * fx + vcy * fy + vcz * fz;
  wf[V_Y] = vcx * lx + vcy * ly + vcz * lz;
}

/**
 * The brush force of wheel i from its bristle deflection, load and surface (into `wf` and the Wheel fields): μ =
 * grip·μ(v_s)·load factor and C(N)/C0 (slidingFriction, loadFactor, stiffnessAtLoad written out with x = N/N0
 * computed once), the bristles' relaxation rates, sticking-region damping, the friction-circle clamp, and the
 * ABS peak-slip estimate.
 */
function wheelBrush(world: SimWorld, rt: CarRuntime, i: number, w: number): void {
  const W = world.c.Wheel;
  const surfaces = vehicles(world).surfaces;
  const tc = rt.cache.tire[i]!;
  const td = rt.cache.tireD[i]!;
  const n = W.load[w]!;
  const vx = wf[V_X]!,
    vy = wf[V_Y]!;
  const vsx = W.omega[w]! * tc.radius - vx; // patch slip velocity (traction +)
  const vsy = -vy;
  const sf = surfaces[W.surface[w]!] ?? surfaces[0]!;
  const vs = Math.sqrt(vsx * vsx + vsy * vsy);
  const x = n * td.invNominalLoad;
  let lfac = 1 - tc.loadSensitivity * (x - 1);
  lfac = lfac < 0.6 ? 0.6 : lfac > 1.3 ? 1.3 : lfac;
  // μ_sl + (μ_st − μ_sl)/(1 + v_s/v_ref), written with one division.
  const vRef = sf.slidingSpeedRef;
  const mu = tc.grip * (sf.muSliding + ((sf.muStatic - sf.muSliding) * vRef) / (vRef + vs)) * lfac;
  const sk = td.stiffK;
  const lf = (sf.stiffnessScale * x * (1 + sk)) / (1 + sk * x); // C(N)/C0 × surface
  const cxs = tc.longStiffness * lf;
  const cys = tc.corneringStiffness * lf;
  const ux = W.ux[w]!,
    uy = W.uy[w]!;
  const sx = ux * td.invRelaxLong,
    sy = uy * td.invRelaxLat;
  const ex = cxs * sx,
    ey = cys * sy;
  const muN = mu * n;
  const S = Math.sqrt(ex * ex + ey * ey) / muN; // normalised stress
  bin[0] = sx;
  bin[1] = sy;
  bin[2] = n;
  bin[3] = mu;
  bin[4] = cxs;
  bin[5] = cys;
  bin[6] = tc.pressureUniformity;
  bin[7] = S;
  brushCore();
  // Relaxation rates; quicker relaxation far past the peak (normalised stress S > 3).
  const S3 = S * ONE_THIRD;
  let extra = S3 > 1 ? OVERSLIDE_RATE * (S3 - 1) : 0;
  if (extra > OVERSLIDE_MAX) extra = OVERSLIDE_MAX;
  const avx = vx < 0 ? -vx : vx;
  const dux = vsx - (avx * td.invRelaxLong + extra) * ux;
  const duy = vsy - (avx * td.invRelaxLat + extra) * uy;
  W.dux[w] = dux;
  W.duy[w] = duy;
  // Bristle damping in the sticking region (ζ = 0.7 of the wheel-spin and corner-mass modes):
  // 2ζ√(k·m) with k = C(N)/σ = lf·C0/σ ⇒ d₀·√lf.
  const stick = (1 - bout[2]!) * Math.sqrt(lf);
  let Fx = bout[0]! + stick * td.dampX * dux;
  let Fy = bout[1]! + stick * td.dampY * duy;
  const F2 = Fx * Fx + Fy * Fy;
  if (F2 > muN * muN) {
    const r = muN / Math.sqrt(F2);
    Fx *= r;
    Fy *= r;
  }
  W.fx[w] = Fx;
  W.fy[w] = Fy;
  W.vx[w] = vx;
  W.vy[w] = vy;
  // Slip ratio near the peak of the longitudinal curve (normalised stress S = 2.5), for the ABS assist.
  W.peakSlip[w] = cxs > 0 ? (2.5 * muN) / cxs : 0.1;
  W.slipRatio[w] = vsx / (avx > 0.5 ? avx : 0.5);
  wf[TIRE_FX] = Fx;
  wf[TIRE_FY] = Fy;
}

/**
 * Force at the contact point: normal load + tyre force. Its component along the suspension axis â moves the wheel on
 * its travel (unsprung.ts; the body gets the suspension force instead, suspension-contact.ts); the rest reaches the
 * body through the wheel's guide, summed into `chassis` with its moment about the CG r × F. The tyre's reaction
 * torque −F_x·R goes on the wheel.
 */
function addWheelToChassis(world: SimWorld, rt: CarRuntime, i: number, w: number): void {
  const W = world.c.Wheel;
  const n = W.load[w]!;
  const Fx = wf[TIRE_FX]!,
    Fy = wf[TIRE_FY]!;
  let Fwx = n * W.nx[w]! + Fx * wf[F_X]! + Fy * wf[L_X]!,
    Fwy = n * W.ny[w]! + Fx * wf[F_Y]! + Fy * wf[L_Y]!,
    Fwz = n * W.nz[w]! + Fx * wf[F_Z]! + Fy * wf[L_Z]!;
  const R1 = body[B_R + 1]!,
    R4 = body[B_R + 4]!,
    R7 = body[B_R + 7]!;
  const Fa = Fwx * R1 + Fwy * R4 + Fwz * R7;
  W.tireAxis[w] = Fa;
  Fwx -= Fa * R1;
  Fwy -= Fa * R4;
  Fwz -= Fa * R7;
  const rx = wf[R_X]!,
    ry = wf[R_Y]!,
    rz = wf[R_Z]!;
  chassis[0] = chassis[0]! + Fwx;
  chassis[1] = chassis[1]! + Fwy;
  chassis[2] = chassis[2]! + Fwz;
  chassis[3] = chassis[3]! + (ry * Fwz - rz * Fwy);
  chassis[4] = chassis[4]! + (rz * Fwx - rx * Fwz);
  chassis[5] = chassis[5]! + (rx * Fwy - ry * Fwx);
  W.torque[w] = W.torque[w]! - Fx * rt.cache.tire[i]!.radius;
}
