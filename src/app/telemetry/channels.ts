/**
 * Telemetry channels and the sampler that reads them from the simulation stores (read-only, like every view).
 * One sample per simulation tick (or per frame): speed, rpm, gear, driver inputs, per-wheel slip ratio,
 * slip angle, load, suspension travel and tyre force coefficients, and the CG acceleration in g.
 *
 * The car's body-frame CG acceleration comes from the vehicle block (Car.accX left, Car.accZ forward) when the
 * car has one; otherwise (or before the first evaluation) it is the finite difference of the world velocity
 * projected on the body axes (R columns 0 = left, 2 = forward, glTF body frame).
 */
import type { SimWorld } from '../../ecs/world';
import { STANDARD_GRAVITY_M_S2 } from '../../content/world-constants';
import { slipAngleOf } from '../../systems/sim/vehicle/telemetry';

/** "g", the unit the CG acceleration is shown in (standard gravity), m/s². */
export const G = STANDARD_GRAVITY_M_S2;
/** rad/s → rev/min. */
export const RAD_S_TO_RPM = 30 / Math.PI;
const WHEELS = ['fl', 'fr', 'rl', 'rr'] as const;

/** Channel names, in storage order. */
export const CHANNELS = [
  't',
  'dist',
  'speed',
  'rpm',
  'gear',
  'throttle',
  'brake',
  'steer',
  'latG',
  'longG',
  ...WHEELS.map((w) => `slip_${w}`),
  ...WHEELS.map((w) => `alpha_${w}`),
  ...WHEELS.map((w) => `load_${w}`),
  ...WHEELS.map((w) => `travel_${w}`),
  ...WHEELS.map((w) => `fxn_${w}`),
  ...WHEELS.map((w) => `fyn_${w}`),
  ...WHEELS.map((w) => `mu_${w}`),
] as const;

export type Channel = (typeof CHANNELS)[number];
export const NCH = CHANNELS.length;
export const CH: Record<Channel, number> = Object.fromEntries(CHANNELS.map((c, i) => [c, i])) as Record<Channel, number>;

/** Units for labels. */
export const UNITS: Partial<Record<string, string>> = { t: 's', dist: 'm', speed: 'km/h', rpm: 'rpm', latG: 'g', longG: 'g', steer: '', throttle: '', brake: '' };

export interface SurfaceMu {
  /** Peak friction coefficient of a surface code (for the friction circle radius). */
  (surface: number): number;
}

/**
 * Reads one telemetry sample of car `eid` into `out` (length NCH). `distM` is the distance along the stage
 * (road projection), `t` the simulation time. Keeps the previous velocity for the finite-difference g.
 */
export class TelemetrySampler {
  private readonly prevV = new Float64Array(3);
  private prevT = Number.NaN;

  constructor(
    readonly eid: number,
    private readonly surfaceMu: SurfaceMu = () => 1,
  ) {}

  sample(world: SimWorld, distM: number, out: Float64Array, time = world.time): Float64Array {
    const e = this.eid;
    const b = world.c.RigidBody;
    const c = world.c as unknown as Record<string, Record<string, ArrayLike<number>> | undefined>;
    const car = c['Car'];
    const wheel = c['Wheel'];
    const ctl = world.c.Controls;
    const vx = b.vx[e]!, vy = b.vy[e]!, vz = b.vz[e]!;
    out.fill(0);
    out[CH.t] = time;
    out[CH.dist] = distM;
    out[CH.speed] = Math.hypot(vx, vy, vz) * 3.6;
    out[CH.throttle] = ctl.throttle[e]!;
    out[CH.brake] = ctl.brake[e]!;
    out[CH.steer] = ctl.steer[e]!;
    // CG acceleration in the body frame, in g
    let accLeft = Number.NaN, accFwd = Number.NaN;
    const dt = time - this.prevT;
    if (dt > 0) {
      const ax = (vx - this.prevV[0]!) / dt, ay = (vy - this.prevV[1]!) / dt, az = (vz - this.prevV[2]!) / dt;
      accLeft = b.R0[e]! * ax + b.R3[e]! * ay + b.R6[e]! * az;
      accFwd = b.R2[e]! * ax + b.R5[e]! * ay + b.R8[e]! * az;
    }
    this.prevV[0] = vx;
    this.prevV[1] = vy;
    this.prevV[2] = vz;
    this.prevT = time;
    const isCar = !!car && !!wheel && car['w0'] !== undefined && (car['w0'][e] ?? 0) !== (car['w1']?.[e] ?? 0);
    if (isCar) {
      out[CH.rpm] = car['omegaE']![e]! * RAD_S_TO_RPM;
      out[CH.gear] = car['gear']![e]!;
      const aX = car['accX']?.[e], aZ = car['accZ']?.[e];
      if (aX !== undefined && aZ !== undefined && (aX !== 0 || aZ !== 0)) {
        accLeft = aX;
        accFwd = aZ;
      }
      for (let k = 0; k < 4; k++) {
        const w = car[`w${k}`]![e]!;
        const w2 = WHEELS[k]!;
        const n = wheel['load']![w]!;
        out[CH[`slip_${w2}`]] = wheel['slipRatio']![w]!;
        out[CH[`alpha_${w2}`]] = (slipAngleOf(wheel['grounded']![w]!, wheel['vx']![w]!, wheel['vy']![w]!) * 180) / Math.PI;
        out[CH[`load_${w2}`]] = n;
        out[CH[`travel_${w2}`]] = wheel['travel']![w]! * 1000;
        out[CH[`fxn_${w2}`]] = n > 1 ? wheel['fx']![w]! / n : 0;
        out[CH[`fyn_${w2}`]] = n > 1 ? wheel['fy']![w]! / n : 0;
        out[CH[`mu_${w2}`]] = this.surfaceMu(wheel['surface']![w]!);
      }
    }
    out[CH.latG] = Number.isFinite(accLeft) ? accLeft / G : 0;
    out[CH.longG] = Number.isFinite(accFwd) ? accFwd / G : 0;
    return out;
  }
}
