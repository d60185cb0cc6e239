/**
 * Traffic state: a fixed-capacity pool of automatic vehicles in structure-of-arrays form (Float64Array for
 * physics, so the state hash is bit-exact). Slot order is the iteration order, a free slot is reused by the
 * next spawn. Each vehicle holds what the level-of-detail switch to the full car model needs: position (x, z),
 * heading ψ, body-frame velocities u (forward), v (left) and yaw rate r (Félez §5), steering angle δ.
 * Why a pool and not bitecs entities: vehicles are created and destroyed all the time at the control zone's
 * edge (Félez §3), and stepping them at the traffic rate over plain arrays keeps 200 of them far below a
 * millisecond per step; docs/traffic.md.
 */
import { Prng } from '../../../../terrain/prng';

/** Approach state at the next junction or crossing. */
export const APPROACH_FREE = 0;
/** Decided to go through a yellow (too close to stop comfortably). */
export const APPROACH_COMMITTED = 1;

/** Incident state: a normal driver; instructed (its references to nearby vehicles, lights, signs and crossings switched off, Félez §1); wrecked (took part in an accident: brakes held, off the rule counts). */
export const INCIDENT_NONE = 0;
export const INCIDENT_BLIND = 1;
export const INCIDENT_WRECKED = 2;

export class TrafficState {
  readonly capacity: number;
  readonly alive: Uint8Array;
  /** Index into the run's vehicle-type table. */
  readonly type: Uint8Array;
  /** Serial number of the vehicle (unique over the run). */
  readonly serial: Uint32Array;
  /** Driver aggressiveness in [0, 1] (0 passive, 1 aggressive). */
  readonly aggr: Float64Array;
  readonly x: Float64Array;
  readonly z: Float64Array;
  readonly psi: Float64Array;
  readonly u: Float64Array;
  readonly v: Float64Array;
  readonly r: Float64Array;
  readonly delta: Float64Array;
  /** Previous δ_P and a_r (the derivatives of eqs 8 and 10). */
  readonly prevDeltaP: Float64Array;
  readonly prevAr: Float64Array;
  /** Route: current path, arc length on it, the next two paths. */
  readonly path: Int32Array;
  readonly s: Float64Array;
  readonly next1: Int32Array;
  readonly next2: Int32Array;
  /** Signed lateral offset from the path, m (+ left). */
  readonly lateral: Float64Array;
  /** Connector whose junction this vehicle holds (granted on approach, released when its tail is out), −1. */
  readonly held: Int32Array;
  /** Lane a lane change started from (the vehicle still counts there until it is across), −1. */
  readonly ghost: Int32Array;
  readonly approach: Uint8Array;
  /** Time stopped at the current stop line, s; time since the last lane change, s. */
  readonly waitS: Float64Array;
  readonly laneChangeS: Float64Array;
  /** Objective speed (street × aggressiveness × type), m/s; time headway of the gap law, s. */
  readonly uObj: Float64Array;
  readonly headwayS: Float64Array;
  readonly odometerM: Float64Array;
  /** Full-model car entity of a promoted vehicle (level of detail, src/run/town-lod.ts), −1 on the bicycle model. */
  readonly eid: Int32Array;
  /** INCIDENT_NONE / INCIDENT_BLIND / INCIDENT_WRECKED. */
  readonly incident: Uint8Array;
  /** Pedals the driver chose at its last step (what a promoted vehicle's full model is driven with), 0…1. */
  readonly throttle: Float64Array;
  readonly brake: Float64Array;
  count = 0;
  nextSerial = 1;
  /** Traffic time, s, and steps so far. */
  timeS = 0;
  steps = 0;
  readonly rng: Prng;

  constructor(capacity: number, seed: number) {
    this.capacity = capacity;
    const f = (): Float64Array => new Float64Array(capacity);
    const i = (): Int32Array => new Int32Array(capacity).fill(-1);
    this.alive = new Uint8Array(capacity);
    this.type = new Uint8Array(capacity);
    this.serial = new Uint32Array(capacity);
    this.approach = new Uint8Array(capacity);
    this.incident = new Uint8Array(capacity);
    [this.throttle, this.brake] = [f(), f()];
    [this.aggr, this.x, this.z, this.psi, this.u, this.v, this.r, this.delta, this.prevDeltaP, this.prevAr] = [f(), f(), f(), f(), f(), f(), f(), f(), f(), f()];
    [this.s, this.lateral, this.waitS, this.laneChangeS, this.uObj, this.headwayS, this.odometerM] = [f(), f(), f(), f(), f(), f(), f()];
    [this.path, this.next1, this.next2, this.held, this.ghost, this.eid] = [i(), i(), i(), i(), i(), i()];
    this.rng = new Prng(seed);
  }

  /** A free slot (lowest index), or −1 when full. */
  freeSlot(): number {
    for (let k = 0; k < this.capacity; k++) if (!this.alive[k]) return k;
    return -1;
  }
}

/** The float fields of a vehicle, in hash order. */
const FLOAT_FIELDS = ['aggr', 'x', 'z', 'psi', 'u', 'v', 'r', 'delta', 'prevDeltaP', 'prevAr', 's', 'lateral', 'waitS', 'laneChangeS', 'uObj', 'headwayS', 'odometerM', 'throttle', 'brake'] as const;
const INT_FIELDS = ['type', 'serial', 'path', 'next1', 'next2', 'held', 'ghost', 'approach', 'eid', 'incident'] as const;

/** Feeds every live vehicle's state (slot order), the time, and the PRNG to `word`/`num`. */
export function hashTraffic(t: TrafficState, word: (w: number) => void, num: (v: number) => void): void {
  num(t.timeS);
  word(t.steps);
  word(t.nextSerial);
  for (let k = 0; k < 4; k++) word(t.rng.s[k]!);
  for (let k = 0; k < t.capacity; k++) {
    if (!t.alive[k]) continue;
    word(k);
    for (const f of INT_FIELDS) word(t[f][k]! >>> 0);
    for (const f of FLOAT_FIELDS) num(t[f][k]!);
  }
}
