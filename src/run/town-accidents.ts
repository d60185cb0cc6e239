/**
 * Accidents in the town (issue 23 item 4). The instructor (Félez et al. §1: accidents happen only when the
 * instructor picks a vehicle and switches off its references to nearby vehicles) blinds a traffic vehicle:
 * it keeps its path and speed but no longer sees vehicles, lights, signs or crossings (drive.ts). It is
 * promoted to the full car model at once, and so are its neighbours (town-lod.ts), so the collision is resolved
 * by the project's collision models in the run world: Wu's impulse car–car, Knight's restitution against
 * buildings and poles, Tongue's crush (src/systems/sim/collision). Every collision event of the world is
 * logged here with the parties, the closing speed, each party's delta-v summed over the first ticks of its
 * contacts (the collision pass adds impulses straight to the momenta, so over such a tick m Δv is the impulse
 * plus one tick of tyre and ground forces), the crush and the tick; contacts of a pair within ACCIDENT_MERGE_S are one
 * accident. Traffic parties become wrecked (they brake to a halt and stay off the rule counts).
 */
import type { SimWorld } from '../ecs/world';
import { findLeader, INCIDENT_BLIND, INCIDENT_NONE, INCIDENT_WRECKED, type Leader, type TrafficSim } from '../systems/sim/traffic/index';

/** One party of an accident: a traffic vehicle (its serial), the player, or a piece of scenery. */
export interface AccidentParty {
  /** 'traffic <serial>', 'player', 'building <i>', 'pole <i>'. */
  id: string;
  massKg: number;
  /** Velocity change over the accident's contact ticks (x, z), m/s; 0 for scenery. */
  dvx: number;
  dvz: number;
  /** Crush added to the struck end by the accident's contacts, m. */
  crushM: number;
  /** The struck end (front, rear, left, right). */
  end: string;
}

export interface Accident {
  tick: number;
  timeS: number;
  /** 'car-car' (two traffic vehicles), 'car-player', 'car-building', 'car-pole'. */
  kind: string;
  /** Whether an instructed (blind) vehicle is a party. */
  instructed: boolean;
  /** Closing speed along the contact normal before the contact, m/s. */
  closingMS: number;
  /** Sum of the contact impulses' magnitudes, N·s. */
  impulseNs: number;
  /** Contacts merged into this accident (the pair touching again within ACCIDENT_MERGE_S). */
  contacts: number;
  x: number;
  z: number;
  parties: AccidentParty[];
}

/** An instructor action: which vehicle (serial) was blinded, when and where. */
export interface InstructorPick {
  timeS: number;
  serial: number;
  x: number;
  z: number;
}

/** A vehicle is picked only while it drives at least this fast with a vehicle ahead within PICK_GAP_M. */
const PICK_MIN_SPEED_MS = 5;
const PICK_GAP_M = 40;
/** A leader slower than this stands, m/s. */
const PICK_LEADER_STANDING_MS = 0.5;
/** Contacts of the same pair within this time of the last belong to one accident (the bodies bounce and touch again), s. */
const ACCIDENT_MERGE_S = 2;
/** Most accidents kept in the log (the counts go on). */
const ACCIDENT_LOG_CAP = 1000;

const leader: Leader = { gap: Infinity, u: 0, slot: -1 };

/**
 * The instructor's choice: among the vehicles that can be promoted (`canPromote`), moving, with a standing
 * vehicle ahead within PICK_GAP_M (a queue at a light or a sign), the one nearest to it; ties by slot. −1 if
 * none (the instructor tries again at the next step).
 */
export function pickVehicle(sim: TrafficSim, canPromote: (k: number) => boolean): number {
  const st = sim.state;
  let best = -1, bestGap = Infinity;
  for (let k = 0; k < st.capacity; k++) {
    if (!st.alive[k] || st.incident[k] !== INCIDENT_NONE || st.u[k]! < PICK_MIN_SPEED_MS || !canPromote(k)) continue;
    findLeader(sim, k, leader);
    if (!(leader.gap < PICK_GAP_M) || leader.u > PICK_LEADER_STANDING_MS) continue;
    const t = leader.gap;
    if (t < bestGap) [best, bestGap] = [k, t];
  }
  return best;
}

/** Blinds vehicle k (the instructor action); returns the record of the pick. */
export function instructVehicle(sim: TrafficSim, k: number): InstructorPick {
  const st = sim.state;
  st.incident[k] = INCIDENT_BLIND;
  return { timeS: st.timeS, serial: st.serial[k]!, x: st.x[k]!, z: st.z[k]! };
}

/** An accident still open (its pair may touch again): the time of its last contact, the residual crush before it. */
interface OpenAccident {
  accident: Accident;
  lastS: number;
  crush0: [number, number];
}

const CRUSH_FIELDS = ['crushF', 'crushR', 'crushL', 'crushRt'] as const;
const END_INDEX: Record<string, number> = { front: 0, rear: 1, left: 2, right: 3 };

/**
 * Collects the world's collision events into the accident log. Each party's delta-v is summed over the first
 * ticks of the pair's contacts (where the collision model's restitution impulse acts; the resting impulses of
 * the following ticks of a lasting contact are small and not separable from the braking tyres).
 */
export class AccidentLog {
  readonly accidents: Accident[] = [];
  /** Accidents by kind (every one, past the log cap too). */
  readonly byKind = new Map<string, number>();
  private readonly open = new Map<string, OpenAccident>();
  private vx = new Float64Array(64);
  private vz = new Float64Array(64);

  constructor(
    private readonly world: SimWorld,
    private readonly sim: TrafficSim,
    /** The world entity of a party named in an event, or −1 for scenery and vehicles no longer promoted. */
    private readonly entityOf: (name: string) => number,
  ) {}

  /** Records the velocities of the cars that can collide (call before the world tick). */
  beforeTick(cars: readonly number[]): void {
    const b = this.world.c.RigidBody;
    for (const e of cars) {
      if (e >= this.vx.length) this.grow(e);
      this.vx[e] = b.vx[e]!;
      this.vz[e] = b.vz[e]!;
    }
  }

  private grow(e: number): void {
    const n = Math.max(2 * this.vx.length, e + 1);
    const [vx, vz] = [new Float64Array(n), new Float64Array(n)];
    vx.set(this.vx);
    vz.set(this.vz);
    [this.vx, this.vz] = [vx, vz];
  }

  /** Logs the tick just run (new accidents, contact ticks of open ones), clears the world's events. */
  afterTick(): void {
    const w = this.world;
    for (const ev of w.events) if (ev.kind === 'collision') this.onEvent(ev as unknown as CollisionEvent);
    w.events.length = 0;
    for (const [key, o] of this.open) if (w.time - o.lastS > ACCIDENT_MERGE_S) this.open.delete(key);
  }

  private onEvent(ev: CollisionEvent): void {
    const key = ev.ids.join('|'), t = this.world.time;
    const prev = this.open.get(key);
    const eA = this.entityOf(ev.ids[0]), eB = this.entityOf(ev.ids[1]);
    if (prev && t - prev.lastS <= ACCIDENT_MERGE_S) {
      // the pair touching again: the same accident
      prev.lastS = t;
      prev.accident.impulseNs += ev.impulse_ns;
      prev.accident.contacts++;
      this.addContactTick(prev, eA, eB);
      return;
    }
    const [nx, nz] = [ev.normal[0], ev.normal[2]];
    const vBx = eB >= 0 ? this.vx[eB]! : 0, vBz = eB >= 0 ? this.vz[eB]! : 0;
    const b = this.world.c.RigidBody;
    const party = (e: number, i: number): AccidentParty => ({ id: ev.ids[i]!, massKg: e >= 0 ? b.mass[e]! : Infinity, dvx: 0, dvz: 0, crushM: 0, end: ev.end[i] ?? '' });
    const kind = accidentKind(ev.ids[0], ev.ids[1]);
    const marked = [this.markWrecked(ev.ids[0]), this.markWrecked(ev.ids[1])];
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
    if (this.accidents.length >= ACCIDENT_LOG_CAP) return;
    const accident: Accident = {
      tick: this.world.tick,
      timeS: t,
      kind,
      instructed: marked[0]! || marked[1]!,
      closingMS: Math.abs((this.vx[eA]! - vBx) * nx + (this.vz[eA]! - vBz) * nz),
      impulseNs: ev.impulse_ns,
      contacts: 1,
      x: ev.point[0],
      z: ev.point[2],
      parties: [party(eA, 0), party(eB, 1)],
    };
    this.accidents.push(accident);
    const crush0: [number, number] = [this.crushOf(eA, ev.end[0]) - (ev.crush_added_m[0] ?? 0), this.crushOf(eB, ev.end[1]) - (ev.crush_added_m[1] ?? 0)];
    const o: OpenAccident = { accident, lastS: t, crush0 };
    this.open.set(key, o);
    this.addContactTick(o, eA, eB);
  }

  /** Residual crush of one end of car e, m (0 for scenery). */
  private crushOf(e: number, end: string | undefined): number {
    const i = end === undefined ? -1 : (END_INDEX[end] ?? -1);
    return e >= 0 && i >= 0 ? this.world.c.CarCollider[CRUSH_FIELDS[i]!][e]! : 0;
  }

  /** Adds the contact tick's velocity change and the crush so far to an accident. */
  private addContactTick(o: OpenAccident, eA: number, eB: number): void {
    const b = this.world.c.RigidBody;
    const ps = o.accident.parties;
    [eA, eB].forEach((e, i) => {
      if (e < 0) return;
      const p = ps[i]!;
      p.dvx += b.vx[e]! - this.vx[e]!;
      p.dvz += b.vz[e]! - this.vz[e]!;
      p.crushM = this.crushOf(e, p.end) - o.crush0[i]!;
    });
  }

  /** A traffic party becomes wrecked; returns whether it was already in an incident (instructed, or wrecked by one). */
  private markWrecked(id: string): boolean {
    const serial = trafficSerial(id);
    if (serial < 0) return false;
    const st = this.sim.state;
    for (let k = 0; k < st.capacity; k++) {
      if (!st.alive[k] || st.serial[k] !== serial) continue;
      const before = st.incident[k] !== INCIDENT_NONE;
      st.incident[k] = INCIDENT_WRECKED;
      return before;
    }
    return false;
  }
}

interface CollisionEvent {
  kind: 'collision';
  type: 'car' | 'scene';
  ids: [string, string];
  point: [number, number, number];
  normal: [number, number, number];
  impulse_ns: number;
  end: string[];
  crush_added_m: number[];
}

/** 'traffic <serial>' → serial, else −1. */
export function trafficSerial(id: string): number {
  return id.startsWith('traffic ') ? Number(id.slice(8)) : -1;
}

function accidentKind(a: string, b: string): string {
  const has = (prefix: string): boolean => a.startsWith(prefix) || b.startsWith(prefix);
  if (has('building')) return 'car-building';
  if (has('pole')) return 'car-pole';
  if (has('player')) return 'car-player';
  return 'car-car';
}
