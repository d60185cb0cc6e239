/**
 * Wu's collider server (seed 001, ch. 7) for one room: every client simulates its own car and sends state
 * packets; the collider keeps each car's recent states by tick, and when the second car of a pair reports a tick
 * it runs the project's car–car detection and ONE response (src/systems/sim/collision/pair-solve.ts) on the two
 * states of that same tick, then sends +J to one car and −J to the other, stamped with that tick.
 *
 * One collision per contact: once an impulse is sent, a car's later states were simulated without it, so they are
 * not used (its history after the contact tick is dropped and its new packets are ignored) until the client's
 * packets acknowledge the impulse (`ackImpulse`). docs/multiplayer.md describes the protocol.
 */
import { decodeState, isOtherPacketVersion, STATE_PACKET_TYPE, type CarState, type ImpulsePacket } from '../../src/net/packets';
import { newPairContact, solveCarPair, type PairCar } from '../../src/systems/sim/collision/pair-solve';
import { newPose } from '../../src/systems/sim/collision/detect';
import { checkStart, checkState, type StateVerdict } from './state-check';

/** Packets of state kept per car: pairs are aligned within this window (1 s at 60 Hz covers 500 ms of skew). */
export const HISTORY_TICKS = 60;
/** The collision pass's sweep step (runtime.ts default): no corner moves more than 5 cm between tested poses. */
export const SWEEP_STEP_M = 0.05;

/** The car's yaw-plane rectangle and mass (from its car file: colliderParamsFromConfig). */
export interface CarShape {
  front: number;
  rear: number;
  halfWidth: number;
  massKg: number;
}

/** An impulse for one car of the room. */
export interface ColliderImpulse {
  to: number;
  packet: ImpulsePacket;
}

/**
 * Why a packet was dropped: a state check's verdict, 'version' (a state packet of another layout version: an old
 * client), 'malformed', 'unknown-car', or 'recovery' (a recovery the room does not take: the counter not one up,
 * a room without recoveries, or a state not reachable from the recovery pose).
 */
export type DropReason = Exclude<StateVerdict, 'ok'> | 'version' | 'malformed' | 'unknown-car' | 'recovery';

interface CarRecord {
  shape: CarShape;
  /** Where the car stands at tick 0 (a stage room's grid pose): its first state must be reachable from there. */
  start: { x: number; z: number } | null;
  last: CarState | null;
  history: Map<number, CarState>;
  /** Seq of the latest impulse sent to this car; its states count once it acknowledges it. */
  pendingSeq: number;
}

export interface ColliderCounters {
  accepted: number;
  /** Packets after an impulse, before the client acknowledged it. */
  stale: number;
  dropped: Partial<Record<DropReason, number>>;
  /** Contacts begun (a pair touching at a tick after not touching at its previous checked tick). */
  contacts: number;
  impulses: number;
}

const pairKey = (a: number, b: number): number => a * 65536 + b;

export class Collider {
  private readonly cars = new Map<number, CarRecord>();
  private readonly touching = new Set<number>();
  private readonly pc = newPairContact();
  private readonly pa: PairCar = { pose: newPose(), body: { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 }, cgY: 0 };
  private readonly pb: PairCar = { pose: newPose(), body: { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 }, cgY: 0 };
  private seq = 0;
  readonly counters: ColliderCounters = { accepted: 0, stale: 0, dropped: {}, contacts: 0, impulses: 0 };
  /** Called with each state that enters a car's history (accepted and not stale): the room's finish tracking. */
  onFresh: (slot: number, st: CarState) => void = () => undefined;
  /**
   * Where a car whose state counts one more recovery than `last` restarted (at rest, at last's tick); null: the
   * room takes no recoveries (the default, and stage rooms).
   */
  recoveryPose: (slot: number, last: CarState) => { x: number; z: number } | null = () => null;

  /**
   * `simDt`: the clients' fixed sim step, s; `ticksPerPacket`: sim ticks between two state packets. A pair is swept
   * over one packet interval (the time to the next packet), so a contact between packets is found.
   */
  constructor(
    readonly simDt: number,
    readonly ticksPerPacket: number,
  ) {}

  /** Seconds between two packets of a car. */
  get packetDt(): number {
    return this.simDt * this.ticksPerPacket;
  }

  /** `start`: where the car stands at tick 0 (null: anywhere, a race room's clients are on their own ground). */
  addCar(slot: number, shape: CarShape, start: { x: number; z: number } | null = null): void {
    this.cars.set(slot, { shape, start, last: null, history: new Map(), pendingSeq: 0 });
  }

  removeCar(slot: number): void {
    this.cars.delete(slot);
    for (const k of [...this.touching]) if (Math.floor(k / 65536) === slot || k % 65536 === slot) this.touching.delete(k);
  }

  /** Forget a car's states (a reconnected client): its next packet is checked as a first one. */
  resync(slot: number): void {
    const car = this.cars.get(slot);
    if (!car) return;
    car.last = null;
    car.history.clear();
    // it drove on while away: its next state may be anywhere the speed check allows
    car.start = null;
  }

  hasCar(slot: number): boolean {
    return this.cars.has(slot);
  }

  /** The latest accepted state of a car (null before its first packet). */
  lastState(slot: number): CarState | null {
    return this.cars.get(slot)?.last ?? null;
  }

  private drop(reason: DropReason): ColliderImpulse[] {
    this.counters.dropped[reason] = (this.counters.dropped[reason] ?? 0) + 1;
    return [];
  }

  /** One state packet from the car in `slot`: the impulses to send (none when dropped or nothing touches). */
  receive(slot: number, bytes: Uint8Array): ColliderImpulse[] {
    const car = this.cars.get(slot);
    if (!car) return this.drop('unknown-car');
    const st = decodeState(bytes);
    if (!st) return this.drop(isOtherPacketVersion(bytes, STATE_PACKET_TYPE) ? 'version' : 'malformed');
    const verdict = this.verdictOf(slot, car, st);
    if (verdict !== 'ok') return this.drop(verdict);
    car.last = st;
    this.counters.accepted++;
    if (st.ackImpulse < car.pendingSeq) {
      this.counters.stale++;
      return [];
    }
    car.history.set(st.tick, st);
    this.onFresh(slot, st);
    // ticks arrive in order, so the Map's first key is the oldest
    while (car.history.size > HISTORY_TICKS) car.history.delete(car.history.keys().next().value!);
    const out: ColliderImpulse[] = [];
    for (const [other, rec] of this.cars) {
      if (other === slot) continue;
      const os = rec.history.get(st.tick);
      if (os) this.checkPair(slot < other ? slot : other, slot < other ? other : slot, st.tick, out);
    }
    return out;
  }

  /**
   * The state checks against the car's last state, or, when `st` counts one more recovery, against the car at
   * rest on the room's recovery pose at the last state's tick (a recovered car may jump there, nowhere else).
   */
  private verdictOf(slot: number, car: CarRecord, st: CarState): StateVerdict | 'recovery' {
    const last = car.last;
    if (!last) {
      // a first state (or the first after a resync) is checked against the start; it sets the recovery count
      const v = checkState(null, st, this.simDt, this.ticksPerPacket);
      return v === 'ok' && car.start ? (st.recoveries === 0 ? checkStart(car.start, st, this.simDt) : 'recovery') : v;
    }
    if (st.recoveries === last.recoveries) return checkState(last, st, this.simDt, this.ticksPerPacket);
    const pose = st.recoveries === last.recoveries + 1 ? this.recoveryPose(slot, last) : null;
    if (!pose) return 'recovery';
    const v = checkState({ ...last, px: pose.x, py: st.py, pz: pose.z }, st, this.simDt, this.ticksPerPacket);
    return v === 'jump' ? 'recovery' : v;
  }

  private loadPairCar(rec: CarRecord, s: CarState, out: PairCar): void {
    const p = out.pose;
    p.cx = s.px;
    p.cz = s.pz;
    p.fx = s.fx;
    p.fz = s.fz;
    p.front = rec.shape.front;
    p.rear = rec.shape.rear;
    p.hw = rec.shape.halfWidth;
    out.body.invMass = 1 / rec.shape.massKg;
    out.body.invI = s.invIyy;
    out.body.vx = s.vx;
    out.body.vz = s.vz;
    out.body.r = s.wy;
    out.cgY = s.py;
  }

  /** Slots a < b, both with a state at `tick`: detection, one response, ±J stamped with the tick. */
  private checkPair(a: number, b: number, tick: number, out: ColliderImpulse[]): void {
    const ra = this.cars.get(a)!, rb = this.cars.get(b)!;
    this.loadPairCar(ra, ra.history.get(tick)!, this.pa);
    this.loadPairCar(rb, rb.history.get(tick)!, this.pb);
    const key = pairKey(a, b);
    if (!solveCarPair(this.pa, this.pb, this.packetDt, SWEEP_STEP_M, this.pc)) {
      this.touching.delete(key);
      return;
    }
    if (!this.touching.has(key)) this.counters.contacts++;
    this.touching.add(key);
    const r = this.pc.res;
    if (!(r.jn > 0)) return;
    const seq = ++this.seq;
    this.counters.impulses++;
    for (const rec of [ra, rb]) {
      rec.pendingSeq = seq;
      // states after the contact tick were simulated without this impulse
      for (const t of [...rec.history.keys()]) if (t > tick) rec.history.delete(t);
    }
    const { x, y, z } = this.pc;
    out.push({ to: a, packet: { seq, tick, other: b, jx: r.jx, jz: r.jz, x, y, z } });
    out.push({ to: b, packet: { seq, tick, other: a, jx: -r.jx, jz: -r.jz, x, y, z } });
  }
}
