/**
 * How a client draws another player's car (issue #22 item 2): snapshot interpolation between the two relayed
 * states that bracket the render tick, and dead reckoning past the newest one (position advanced with its
 * velocity, heading with its yaw rate) for at most MAX_DEAD_RECKONING_S. The render tick is the caller's: its own
 * sim tick minus an interpolation delay of about one packet interval plus the network jitter.
 */
import { dcos, dsin, datan2 } from '../../terrain/dmath';
import type { CarState } from './packets';

/** States kept per remote car (2 s at 62.5 Hz). */
export const REMOTE_BUFFER = 125;
/** Longest the view runs ahead of the newest state on dead reckoning, s; past it the car stops where it got. */
export const MAX_DEAD_RECKONING_S = 0.25;

/** Where to draw the car: CG position, heading (rad, atan2(fx, fz): 0 = +z, π/2 = +x). */
export interface RemotePose {
  x: number;
  y: number;
  z: number;
  heading: number;
  /** 'interpolated' between two states, 'extrapolated' past the newest, 'held' before the oldest or none yet. */
  mode: 'interpolated' | 'extrapolated' | 'held' | 'none';
}

const headingOf = (s: CarState): number => datan2(s.fx, s.fz);

/** Shortest signed angle from a to b. */
function angleDelta(a: number, b: number): number {
  let d = b - a;
  while (d > Math.PI) d -= 2 * Math.PI;
  while (d < -Math.PI) d += 2 * Math.PI;
  return d;
}

export class RemoteCarView {
  private readonly states: CarState[] = [];

  /** `dt`: the sim step, s (ticks in the states are sim ticks). */
  constructor(readonly dt: number) {}

  /** A relayed state; out-of-order or repeated ticks are ignored. */
  push(s: CarState): void {
    const last = this.states[this.states.length - 1];
    if (last && s.tick <= last.tick) return;
    this.states.push(s);
    if (this.states.length > REMOTE_BUFFER) this.states.shift();
  }

  /** The pose at a (fractional) sim tick. */
  sample(tick: number, out: RemotePose): RemotePose {
    const n = this.states.length;
    if (n === 0) {
      out.mode = 'none';
      return out;
    }
    const newest = this.states[n - 1]!;
    if (tick >= newest.tick) return this.reckon(newest, tick, out);
    let i = n - 1;
    while (i > 0 && this.states[i - 1]!.tick > tick) i--;
    if (i === 0) return this.hold(this.states[0]!, out);
    const a = this.states[i - 1]!, b = this.states[i]!;
    const u = (tick - a.tick) / (b.tick - a.tick);
    out.x = a.px + (b.px - a.px) * u;
    out.y = a.py + (b.py - a.py) * u;
    out.z = a.pz + (b.pz - a.pz) * u;
    const ha = headingOf(a);
    out.heading = ha + angleDelta(ha, headingOf(b)) * u;
    out.mode = 'interpolated';
    return out;
  }

  private hold(s: CarState, out: RemotePose): RemotePose {
    out.x = s.px;
    out.y = s.py;
    out.z = s.pz;
    out.heading = headingOf(s);
    out.mode = 'held';
    return out;
  }

  /** Dead reckoning from the newest state: constant velocity and yaw rate, capped in time. */
  private reckon(s: CarState, tick: number, out: RemotePose): RemotePose {
    const t = Math.min((tick - s.tick) * this.dt, MAX_DEAD_RECKONING_S);
    out.x = s.px + s.vx * t;
    out.y = s.py;
    out.z = s.pz + s.vz * t;
    // +ω_y turns +z toward +x (R_y convention): the heading atan2(fx, fz) grows by ω_y·t
    const h = headingOf(s) + s.wy * t;
    out.heading = datan2(dsin(h), dcos(h));
    out.mode = t > 0 ? 'extrapolated' : 'interpolated';
    return out;
  }
}
