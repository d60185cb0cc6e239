/**
 * Pass 5: brakes, handbrake, rolling resistance, aerodynamics.
 *
 * Brakes are a torque per wheel (Deák §5.1): capacity = pedal·max_torque·bias/2 (front_bias to the front
 * axle), handbrake adds handbrake_torque/2 on each rear wheel. Rolling resistance is a resisting torque
 * C_rr·N·R at the wheel (C_rr = tyre + surface). Both are Coulomb: the resisting torque is whatever stops
 * the wheel within this step, clamped to the capacity,
 *   T = −clamp(I_w·ω/dt + T_other, ±T_cap)
 * so a locked wheel stays exactly locked (no sign chatter) and a parked car does not creep.
 * Aero (Deák §5.1): drag −½ρC_dA|v|v at the CG; optional downforce ½ρ(C_LA)v² along body −Y at the axles.
 */
import type { SimWorld } from '../../../ecs/world';
import { applyForceAtPoint } from '../../../ecs/rigid-body';
import { AIR_DENSITY, vehicles, type CarRuntime } from './registry';

/** Pass 5 for one car: brake torques on the wheels, then drag and downforce on the body. */
export function brakesAeroCar(world: SimWorld, rt: CarRuntime): void {
  brakeWheels(world, rt);
  applyAero(world, rt);
}

/**
 * Brake, handbrake and rolling-resistance torque on each wheel: at most what stops the wheel within this step
 * (a brake never drives a wheel backwards), and with ABS no more than keeps the slip below the tyre's peak.
 */
function brakeWheels(world: SimWorld, rt: CarRuntime): void {
  const W = world.c.Wheel;
  const ctl = world.c.Controls;
  const invDt = 1 / world.dt;
  const surfaces = vehicles(world).surfaces;
  const eid = rt.eid;
  const brake = ctl.brake[eid]!;
  const hand = ctl.handbrake[eid]!;
  const abs = world.c.Car.abs[eid] === 1;
  const kc = rt.cache;
  for (let i = 0; i < 4; i++) {
    const w = rt.wheels[i]!;
    const tc = kc.tire[i]!;
    // kc.brakeMax[i] = max_torque·(front_bias or 1 − front_bias)/2, kc.handMax[i] = handbrake_torque/2 (rear).
    const handCap = hand * kc.handMax[i]!;
    let cap = brake * kc.brakeMax[i]! + handCap;
    const n = W.load[w]!;
    if (n > 0) {
      const sf = surfaces[W.surface[w]!] ?? surfaces[0]!;
      cap += (tc.rollingResistance + sf.rollingResistance) * n * tc.radius;
    }
    if (cap <= 0) continue;
    const omega = W.omega[w]!;
    const iOverDt = tc.inertia * invDt; // the torque that stops 1 rad/s of spin within the step
    let t = iOverDt * omega + W.torque[w]!;
    if (abs && W.grounded[w]) {
      // ABS: the brake may not pull the wheel below (1 − κ*)·v_x/R within this step, κ* = the slip ratio
      // near the tyre's longitudinal peak (tires.ts), clamped to 5…20 %.
      const vx = W.vx[w]!;
      const av = vx > 0 ? vx : -vx;
      if (av > 1) {
        let ks = W.peakSlip[w]!;
        ks = ks < 0.05 ? 0.05 : ks > 0.2 ? 0.2 : ks;
        const target = ((1 - ks) * vx) / tc.radius;
        const tAbs = iOverDt * (omega - target) + W.torque[w]!;
        const limit = (vx > 0 ? tAbs : -tAbs) > 0 ? (vx > 0 ? tAbs : -tAbs) : 0;
        if (cap > limit + handCap) cap = limit + handCap;
      }
    }
    t = t > cap ? cap : t < -cap ? -cap : t;
    W.torque[w] = W.torque[w]! - t;
  }
}

/** Aerodynamic drag against the velocity and downforce split between the axles (at the axle positions). */
function applyAero(world: SimWorld, rt: CarRuntime): void {
  const b = world.c.RigidBody;
  const eid = rt.eid;
  const vx = b.vx[eid]!,
    vy = b.vy[eid]!,
    vz = b.vz[eid]!;
  const v2 = vx * vx + vy * vy + vz * vz;
  if (v2 > 0) {
    const v = Math.sqrt(v2);
    const kc = rt.cache;
    const k = kc.dragK * v; // ½ρ·C_d·A·v
    b.fx[eid] = b.fx[eid]! - k * vx;
    b.fy[eid] = b.fy[eid]! - k * vy;
    b.fz[eid] = b.fz[eid]! - k * vz;
    const cla = kc.downforceClA;
    if (cla > 0) {
      const down = 0.5 * AIR_DENSITY * cla * v2;
      const ff = kc.downforceFront;
      // Body −Y in world = −(R1, R4, R7); front axle at z = a, rear at z = −b (body frame).
      const ux = -b.R1[eid]!,
        uy = -b.R4[eid]!,
        uz = -b.R7[eid]!;
      const zf = kc.cgToFront,
        zr = -kc.cgToRear;
      const px = b.px[eid]!,
        py = b.py[eid]!,
        pz = b.pz[eid]!;
      applyForceAtPoint(
        world,
        eid,
        ux * down * ff,
        uy * down * ff,
        uz * down * ff,
        px + b.R2[eid]! * zf,
        py + b.R5[eid]! * zf,
        pz + b.R8[eid]! * zf,
      );
      const fr = 1 - ff;
      applyForceAtPoint(
        world,
        eid,
        ux * down * fr,
        uy * down * fr,
        uz * down * fr,
        px + b.R2[eid]! * zr,
        py + b.R5[eid]! * zr,
        pz + b.R8[eid]! * zr,
      );
    }
  }
}
