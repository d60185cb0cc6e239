/**
 * The traffic simulation of a town: the town, the vehicle types, the vehicle pool, the per-path lists, the
 * junction occupancy, the control zone and the run's counters. stepTraffic (step.ts) advances it.
 */
import type { Town } from '../../../../terrain/town/index';
import { TrafficState } from './state';
import { PathBuckets, type ExternalVehicle } from './buckets';
import type { TrafficVehicleType } from './vehicle-types';
import { ControlZone } from './zone';

/** Traffic step, s (the driver and the bicycle model run at 50 Hz, every 10th tick of the 500 Hz world). */
export const TRAFFIC_DT_S = 0.02;

export interface TrafficStats {
  /** Vehicles created so far (initial fill + spawns at the zone's entries). */
  spawned: number;
  removed: number;
  /** Distance driven by every vehicle, removed ones included, m. */
  distanceM: number;
  /** Times a vehicle came to a halt at a red or yellow light. */
  redLightStops: number;
  /** Vehicles whose front crossed a stop line on red (must stay 0). */
  redLightCrossings: number;
  /** Vehicles that drove onto a zebra crossing with a pedestrian on it (must stay 0). */
  crossingViolations: number;
  /** Contacts between two traffic vehicles (first overlap of a pair). */
  collisions: number;
  /** Contacts between a traffic vehicle and the player's car. */
  playerContacts: number;
  /** Lane changes made (Félez §6.3.1). */
  laneChanges: number;
  /** Contacts with an instructed or wrecked vehicle (accidents: off the rule count `collisions`). */
  accidentContacts: number;
  /** Red lights run by instructed vehicles (off the rule count `redLightCrossings`). */
  instructedRedCrossings: number;
}

/** The player's car as traffic sees it: its pose and where it is on the lane network. */
export interface PlayerPose extends ExternalVehicle {
  x: number;
  z: number;
  psi: number;
  widthM: number;
  /** The path after the one it is on (−1 unknown). */
  next1: number;
}

/** A contact between two traffic vehicles: when, who (serials), on which paths, where, relative speed (m/s). */
export interface TrafficContact {
  timeS: number;
  a: number;
  b: number;
  pathA: number;
  pathB: number;
  x: number;
  z: number;
  closingMS: number;
}

export interface TrafficOptions {
  /** Vehicles kept in the control zone. */
  cars: number;
  seed: number;
  /** Vehicle types; each vehicle draws one (uniformly). */
  types: readonly TrafficVehicleType[];
}

export class TrafficSim {
  readonly town: Town;
  readonly types: readonly TrafficVehicleType[];
  readonly target: number;
  readonly state: TrafficState;
  readonly buckets: PathBuckets;
  /** Vehicles granted each connector (junction occupancy). */
  readonly granted: Int32Array;
  /** Zebra crossings on each lane path: [s, crossing index] pairs. */
  readonly crossingsOn: number[][];
  readonly zone: ControlZone;
  /** Connectors leading into each lane path. */
  readonly feeders: number[][];
  player: PlayerPose | null = null;
  /** Connector the player's car holds (its autopilot asked for it like a traffic driver), −1. */
  playerHeld = -1;
  readonly stats: TrafficStats = { spawned: 0, removed: 0, distanceM: 0, redLightStops: 0, redLightCrossings: 0, crossingViolations: 0, collisions: 0, playerContacts: 0, laneChanges: 0, accidentContacts: 0, instructedRedCrossings: 0 };
  /** Pairs overlapping at the last check (serial keys), to count each contact once. */
  touching = new Set<number>();
  readonly contacts: TrafficContact[] = [];
  /** Vehicle came to a halt at its current red light (counted once per stop). */
  readonly haltedAtLight: Uint8Array;

  constructor(town: Town, opts: TrafficOptions) {
    if (opts.types.length === 0 || opts.types.length > 255) throw new RangeError('traffic: 1–255 vehicle types');
    this.town = town;
    this.types = opts.types;
    this.target = opts.cars;
    // room for the target plus the spawns of one pass before removals catch up
    this.state = new TrafficState(opts.cars + 16, opts.seed);
    this.buckets = new PathBuckets(town.paths.length, this.state.capacity);
    this.granted = new Int32Array(town.paths.length);
    this.crossingsOn = town.paths.map(() => []);
    for (const c of town.laneCrossings) this.crossingsOn[c.path]!.push(c.s, c.crossing);
    this.zone = new ControlZone(town);
    this.feeders = town.paths.map(() => []);
    for (const p of town.paths) if (p.kind === 'connector') this.feeders[p.next[0]!]!.push(p.id);
    this.haltedAtLight = new Uint8Array(this.state.capacity);
  }

  typeOf(k: number): TrafficVehicleType {
    return this.types[this.state.type[k]!]!;
  }

  /** Connector occupancy including the player's car. */
  occupancy(c: number): number {
    return this.granted[c]! + (this.player && (this.player.path === c || this.playerHeld === c) ? 1 : 0);
  }
}
