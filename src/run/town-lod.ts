/**
 * Level of detail of the town traffic (issue 23 item 3): a traffic vehicle near the player's car, or near a
 * vehicle taking part in an accident, is promoted from Félez's bicycle model (§5, eqs 1–5, on the traffic
 * arrays) to the full car model (a car entity of the run world with its collider, so the project's collision
 * models act on it), and demoted back beyond a larger radius (hysteresis). The driver stays the traffic
 * driver (§6): a promoted vehicle's steering angle and pedals drive the full model through its input source.
 * Both switches keep the position, the body-frame velocity (u, v), the heading and the yaw rate; the full
 * model starts with its suspension at static deflection and its wheels rolling at u / radius (spawnCar).
 * Vans have no car file and stay on the bicycle model.
 */
import type { CarConfig } from '../content/car-schema';
import type { SimWorld } from '../ecs/world';
import { quantizeInput, setInputSource, controlsResources, type InputSource, type QuantizedInput } from '../ecs/controls';
import { updateDerived } from '../ecs/rigid-body';
import { despawnCar, spawnCar } from '../systems/sim/vehicle/prefab-car';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import { collisionRuntime } from '../systems/sim/collision/runtime';
import { INCIDENT_BLIND, INCIDENT_WRECKED, type TrafficSim } from '../systems/sim/traffic/index';
import { datan2, dcos, dsin } from '../../terrain/dmath';

/** Promotion radius around the player's car (and a moving accident vehicle), m; demotion radius (hysteresis), m. */
export const PROMOTE_RADIUS_M = 15;
export const DEMOTE_RADIUS_M = 22;
/** A wrecked vehicle keeps its neighbours on the full model while it still moves faster than this, m/s. */
const WRECK_FOCUS_SPEED_MS = 0.5;

/** Feeds a promoted vehicle's traffic-driver controls (δ and the pedals of its last step) to its full model. */
class TrafficInput implements InputSource {
  constructor(
    private readonly sim: TrafficSim,
    private readonly slot: number,
    private readonly maxSteerRad: number,
  ) {}

  next(): QuantizedInput {
    const st = this.sim.state, k = this.slot;
    return quantizeInput({ steer: st.delta[k]! / this.maxSteerRad, throttle: st.throttle[k]!, brake: st.brake[k]!, clutch: 0, handbrake: 0 });
  }
}

export class TownLod {
  /** Promotions and demotions so far. */
  promotions = 0;
  demotions = 0;
  private readonly focus: number[] = [];

  /** `configs[type]`: the car file of each traffic vehicle type (null: stays on the bicycle model). */
  constructor(
    private readonly world: SimWorld,
    private readonly sim: TrafficSim,
    private readonly configs: readonly (CarConfig | null)[],
  ) {}

  /** Whether vehicle k's type has a car file (a van stays on the bicycle model). */
  canPromote(k: number): boolean {
    return this.configs[this.sim.state.type[k]!] != null;
  }

  /** Puts vehicle k on the full model: a car entity with the vehicle's pose, velocities and yaw rate. */
  promote(k: number): boolean {
    const st = this.sim.state, w = this.world;
    const cfg = this.configs[st.type[k]!];
    if (!cfg || st.eid[k]! >= 0) return false;
    const psi = st.psi[k]!, u = st.u[k]!, v = st.v[k]!, r = st.r[k]!;
    const e = spawnCar(w, cfg, { x: st.x[k]!, z: st.z[k]!, heading: psi, speed: u });
    attachCarColliderFromConfig(w, e, cfg);
    const b = w.c.RigidBody, m = b.mass[e]!;
    // the CG over the traffic position exactly (spawnCar offsets it along the ground normal)
    b.px[e] = st.x[k]!;
    b.pz[e] = st.z[k]!;
    // world velocity u·forward + v·left, forward (sin ψ, cos ψ), left (cos ψ, −sin ψ); vertical momentum kept
    const sp = dsin(psi), cp = dcos(psi);
    b.Px[e] = m * (u * sp + v * cp);
    b.Pz[e] = m * (u * cp - v * sp);
    setYawRate(w, e, r);
    w.c.Car.steerAngle[e] = st.delta[k]!;
    updateDerived(w, e);
    setInputSource(w, e, new TrafficInput(this.sim, k, cfg.steering.maxAngle));
    collisionRuntime(w).names.set(e, `traffic ${st.serial[k]!}`);
    st.eid[k] = e;
    this.promotions++;
    return true;
  }

  /** Copies a promoted vehicle's full-model state into its traffic slot (planar pose, u, v, r). */
  readBack(k: number): void {
    const st = this.sim.state, b = this.world.c.RigidBody, e = st.eid[k]!;
    const fx = b.R2[e]!, fz = b.R8[e]!, lx = b.R0[e]!, lz = b.R6[e]!;
    st.x[k] = b.px[e]!;
    st.z[k] = b.pz[e]!;
    st.psi[k] = datan2(fx, fz);
    st.u[k] = Math.max(0, fx * b.vx[e]! + fz * b.vz[e]!);
    st.v[k] = lx * b.vx[e]! + lz * b.vz[e]!;
    st.r[k] = b.wy[e]!;
  }

  /** Puts vehicle k back on the bicycle model with the full model's state; removes its car entity. */
  demote(k: number): void {
    const st = this.sim.state, e = st.eid[k]!;
    if (e < 0) return;
    this.readBack(k);
    controlsResources(this.world).sources.delete(e);
    collisionRuntime(this.world).names.delete(e);
    despawnCar(this.world, e);
    st.eid[k] = -1;
    this.demotions++;
  }

  /** Reads every promoted vehicle back (call after the world tick, before the traffic step). */
  readBackAll(): void {
    const st = this.sim.state;
    for (let k = 0; k < st.capacity; k++) if (st.alive[k] && st.eid[k]! >= 0) this.readBack(k);
  }

  /** Promotes the vehicles near a focus (the player, a vehicle in an accident), demotes those far from all. */
  update(): void {
    const st = this.sim.state, pl = this.sim.player;
    const f = this.focus;
    f.length = 0;
    if (pl) f.push(pl.x, pl.z, -1);
    for (let k = 0; k < st.capacity; k++) {
      if (st.alive[k] && (st.incident[k] === INCIDENT_BLIND || (st.incident[k] === INCIDENT_WRECKED && st.u[k]! > WRECK_FOCUS_SPEED_MS))) f.push(st.x[k]!, st.z[k]!, k);
    }
    for (let k = 0; k < st.capacity; k++) {
      if (!st.alive[k]) continue;
      let d2 = Infinity;
      for (let i = 0; i < f.length; i += 3) {
        if (f[i + 2] === k) d2 = 0;
        else d2 = Math.min(d2, (st.x[k]! - f[i]!) ** 2 + (st.z[k]! - f[i + 1]!) ** 2);
      }
      if (st.eid[k]! < 0 && d2 < PROMOTE_RADIUS_M * PROMOTE_RADIUS_M) this.promote(k);
      else if (st.eid[k]! >= 0 && d2 > DEMOTE_RADIUS_M * DEMOTE_RADIUS_M) this.demote(k);
    }
  }

  /** Vehicles on the full model now. */
  promotedCount(): number {
    let n = 0;
    const st = this.sim.state;
    for (let k = 0; k < st.capacity; k++) if (st.alive[k] && st.eid[k]! >= 0) n++;
    return n;
  }
}

/** Sets the angular momentum of body e to a pure yaw rate r about world +Y: L = R I Rᵀ (0, r, 0). */
function setYawRate(w: SimWorld, e: number, r: number): void {
  const b = w.c.RigidBody;
  const R = [b.R0[e]!, b.R1[e]!, b.R2[e]!, b.R3[e]!, b.R4[e]!, b.R5[e]!, b.R6[e]!, b.R7[e]!, b.R8[e]!];
  const I = [b.Ixx[e]!, b.Iyy[e]!, b.Izz[e]!];
  // body-frame ω = Rᵀ (0, r, 0) = r·(row 1 of R); L_body = I ω_body; L = R L_body
  const lb = [I[0]! * R[3]! * r, I[1]! * R[4]! * r, I[2]! * R[5]! * r];
  b.Lx[e] = R[0]! * lb[0]! + R[1]! * lb[1]! + R[2]! * lb[2]!;
  b.Ly[e] = R[3]! * lb[0]! + R[4]! * lb[1]! + R[5]! * lb[2]!;
  b.Lz[e] = R[6]! * lb[0]! + R[7]! * lb[1]! + R[8]! * lb[2]!;
}
