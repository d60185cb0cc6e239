/**
 * Pass 4: tyre forces, a Lacombe-style brush model (PHYSICS.md "Tire"; Deák seed 003 §5.7).
 *
 * Contact patch of half-length a with a parabolic pressure q(x) = 3N/(4a)·(1 − x²/a²). Bristles enter at the
 * leading edge undeflected; in the sticking region their deflection grows linearly (longitudinal: a linear
 * tread spring, stiffness C_x per unit slip; lateral: tread + carcass beam in series, C_y per rad). Where the
 * elastic stress would exceed μ·q(x) the bristles slide and carry a Coulomb force μ·q against the patch's
 * sliding velocity. With normalised slips s = (s_x, s_y) and θ_i = C_i / (3μN) (derived here; the scanned
 * paper has no equations):
 *   φ = |(θ_x s_x, θ_y s_y)|               (φ = 1: sticking region vanishes; sticking length fraction 1 − φ)
 *   F_total(φ) = μN·(1 − (1 − φ)³)          (classic parabolic brush)
 *   F_slide(φ) = μN·¾·(ξ − ξ³/3 + ⅔), ξ = 2φ − 1   (∫ of μq over the sliding region [−a, x_t], x_t = a·ξ)
 *   F_stick = F_total − F_slide, along the elastic deflection (θ_x s_x, θ_y s_y)/φ
 *   F_slide along the sliding direction s/|s|  → longitudinal and lateral forces coupled in the sliding region.
 * Small slip: F ≈ (C_x s_x, C_y s_y) — the slope used by the bicycle-model test.
 *
 * Slips come from a relaxation-length (damped bristle) formulation so the tyre is well behaved at standstill:
 *   u̇_x = (ωR − v_x) − (|v_x|/σ_x)·u_x,   u̇_y = −v_y − (|v_x|/σ_y)·u_y,   s_x = u_x/σ_x, s_y = u_y/σ_y
 * (steady state: s_x = slip ratio (ωR − v_x)/|v_x|, s_y = tan α). At v_x → 0 the deflection is a spring
 * k = C/σ, so a parked car is held without creep; a damper d·u̇ (ζ = 0.7 of the wheel-spin / corner-mass
 * mode) acts in the sticking region only and vanishes in steady state. Past full sliding (φ > 1) the
 * deflection relaxes quickly (bristles cannot store more than μN/k).
 */
import type { SimWorld } from '../../../ecs/world';
import { applyForceAtPoint } from '../rigid-body';
import { vehicles } from './registry';

export interface BrushOut {
  fx: number;
  fy: number;
  /** 0..1: 1 − sticking-region fraction. */
  phi: number;
}

/** Brush forces for normalised slips sx (slip ratio), sy (tan α, + = force to the left), load N, friction μ. */
export function brushForce(sx: number, sy: number, n: number, mu: number, cx: number, cy: number, out: BrushOut): BrushOut {
  out.fx = 0;
  out.fy = 0;
  out.phi = 0;
  if (!(n > 0) || !(mu > 0)) return out;
  const muN = mu * n;
  const ex = (cx / (3 * muN)) * sx;
  const ey = (cy / (3 * muN)) * sy;
  const phi = Math.sqrt(ex * ex + ey * ey);
  if (phi === 0) return out;
  const s = Math.sqrt(sx * sx + sy * sy);
  if (phi >= 1) {
    out.fx = (muN * sx) / s;
    out.fy = (muN * sy) / s;
    out.phi = 1;
    return out;
  }
  const om = 1 - phi;
  const total = muN * (1 - om * om * om);
  const xi = 2 * phi - 1;
  const slide = muN * 0.75 * (xi - (xi * xi * xi) / 3 + 2 / 3);
  const stick = total - slide;
  out.fx = (stick * ex) / phi + (slide * sx) / s;
  out.fy = (stick * ey) / phi + (slide * sy) / s;
  out.phi = phi;
  return out;
}

/** Slip stiffness at load N: C(N) = C0·(N/N0)^p. */
export function stiffnessAtLoad(c0: number, n: number, n0: number, p: number): number {
  return n > 0 ? c0 * Math.pow(n / n0, p) : 0;
}

/** Load-sensitive friction multiplier: 1 − k·(N − N0)/N0, clamped to [0.6, 1.3]. */
export function loadFactor(n: number, n0: number, k: number): number {
  const f = 1 - (k * (n - n0)) / n0;
  return f < 0.6 ? 0.6 : f > 1.3 ? 1.3 : f;
}

const ZETA = 0.7;
const OVERSLIDE_RATE = 60;
const OVERSLIDE_MAX = 250;
const brush: BrushOut = { fx: 0, fy: 0, phi: 0 };

export function vehicleTires(world: SimWorld): void {
  const res = vehicles(world);
  const b = world.c.RigidBody;
  const W = world.c.Wheel;
  const surfaces = res.surfaces;
  for (const rt of res.list) {
    const eid = rt.eid;
    const cfg = rt.cfg;
    const px = b.px[eid]!,
      py = b.py[eid]!,
      pz = b.pz[eid]!;
    const vx0 = b.vx[eid]!,
      vy0 = b.vy[eid]!,
      vz0 = b.vz[eid]!;
    const wx = b.wx[eid]!,
      wy = b.wy[eid]!,
      wz = b.wz[eid]!;
    const R0 = b.R0[eid]!,
      R2 = b.R2[eid]!,
      R3 = b.R3[eid]!,
      R5 = b.R5[eid]!,
      R6 = b.R6[eid]!,
      R8 = b.R8[eid]!;
    const cornerMass = cfg.body.massKg / 4;
    for (let i = 0; i < 4; i++) {
      const w = rt.wheels[i]!;
      if (!W.grounded[w]) {
        W.fx[w] = 0;
        W.fy[w] = 0;
        W.vx[w] = 0;
        W.vy[w] = 0;
        W.slipRatio[w] = 0;
        W.slipAngle[w] = 0;
        // Unloaded bristles relax back to zero deflection.
        W.dux[w] = -W.ux[w]! * OVERSLIDE_MAX;
        W.duy[w] = -W.uy[w]! * OVERSLIDE_MAX;
        continue;
      }
      const tc = cfg.wheels[i]!.front ? cfg.tires.front : cfg.tires.rear;
      const n = W.load[w]!;
      const nx = W.nx[w]!,
        ny = W.ny[w]!,
        nz = W.nz[w]!;
      // Wheel heading in the body frame (sin δ, 0, cos δ), to world, projected on the ground plane.
      const d = W.steer[w]!;
      const sd = Math.sin(d),
        cd = Math.cos(d);
      let fx = R0 * sd + R2 * cd,
        fy = R3 * sd + R5 * cd,
        fz = R6 * sd + R8 * cd;
      const fn = fx * nx + fy * ny + fz * nz;
      fx -= fn * nx;
      fy -= fn * ny;
      fz -= fn * nz;
      const fl = Math.sqrt(fx * fx + fy * fy + fz * fz);
      fx /= fl;
      fy /= fl;
      fz /= fl;
      // Left axis l = n × f.
      const lx = ny * fz - nz * fy,
        ly = nz * fx - nx * fz,
        lz = nx * fy - ny * fx;
      const cx = W.cx[w]!,
        cy = W.cy[w]!,
        cz = W.cz[w]!;
      const rx = cx - px,
        ry = cy - py,
        rz = cz - pz;
      const vcx = vx0 + wy * rz - wz * ry,
        vcy = vy0 + wz * rx - wx * rz,
        vcz = vz0 + wx * ry - wy * rx;
      const vx = vcx * fx + vcy * fy + vcz * fz;
      const vy = vcx * lx + vcy * ly + vcz * lz;
      const R = tc.radius;
      const omega = W.omega[w]!;
      const vsx = omega * R - vx; // patch slip velocity (traction +)
      const vsy = -vy;
      const sf = surfaces[W.surface[w]!] ?? surfaces[0]!;
      const vs = Math.sqrt(vsx * vsx + vsy * vsy);
      const mu = tc.grip * (sf.muSliding + (sf.muStatic - sf.muSliding) * Math.exp(-vs / sf.slidingSpeedRef)) * loadFactor(n, tc.nominalLoad, tc.loadSensitivity);
      const cxs = stiffnessAtLoad(tc.longStiffness, n, tc.nominalLoad, tc.stiffnessLoadExponent) * sf.stiffnessScale;
      const cys = stiffnessAtLoad(tc.corneringStiffness, n, tc.nominalLoad, tc.stiffnessLoadExponent) * sf.stiffnessScale;
      const ux = W.ux[w]!,
        uy = W.uy[w]!;
      const sx = ux / tc.relaxLong,
        sy = uy / tc.relaxLat;
      brushForce(sx, sy, n, mu, cxs, cys, brush);
      // Relaxation rates; quicker relaxation when pushed past full sliding.
      const muN = mu * n;
      const ex = (cxs / (3 * muN)) * sx,
        ey = (cys / (3 * muN)) * sy;
      const phiRaw = Math.sqrt(ex * ex + ey * ey);
      let extra = phiRaw > 1 ? OVERSLIDE_RATE * (phiRaw - 1) : 0;
      if (extra > OVERSLIDE_MAX) extra = OVERSLIDE_MAX;
      const avx = Math.abs(vx);
      const dux = vsx - (avx / tc.relaxLong + extra) * ux;
      const duy = vsy - (avx / tc.relaxLat + extra) * uy;
      W.dux[w] = dux;
      W.duy[w] = duy;
      // Bristle damping in the sticking region (critical-ish for the wheel-spin and corner-mass modes).
      const stick = 1 - brush.phi;
      const kx = cxs / tc.relaxLong,
        ky = cys / tc.relaxLat;
      let Fx = brush.fx + stick * ZETA * 2 * Math.sqrt(kx * tc.inertia) / R * dux;
      let Fy = brush.fy + stick * ZETA * 2 * Math.sqrt(ky * cornerMass) * duy;
      const F = Math.sqrt(Fx * Fx + Fy * Fy);
      if (F > muN) {
        Fx *= muN / F;
        Fy *= muN / F;
      }
      W.fx[w] = Fx;
      W.fy[w] = Fy;
      W.vx[w] = vx;
      W.vy[w] = vy;
      W.fwx[w] = fx;
      W.fwy[w] = fy;
      W.fwz[w] = fz;
      W.lfx[w] = lx;
      W.lfy[w] = ly;
      W.lfz[w] = lz;
      const den = avx > 0.5 ? avx : 0.5;
      W.slipRatio[w] = vsx / den;
      W.slipAngle[w] = Math.atan2(-vy, den);
      applyForceAtPoint(world, eid, n * nx + Fx * fx + Fy * lx, n * ny + Fx * fy + Fy * ly, n * nz + Fx * fz + Fy * lz, cx, cy, cz);
      W.torque[w] = W.torque[w]! - Fx * R;
    }
  }
}
