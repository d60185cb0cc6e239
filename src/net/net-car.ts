/**
 * A client's own car in a networked race (Wu's architecture, issue #22 items 2–3): the real simulation of one car
 * (buildRunWorld, stepRun) at the room's fixed tick, the state packet of each tick, and the collider's impulses
 * applied at their stamped tick. An impulse stamped with a past tick rewinds the car to that tick (a snapshot is
 * kept per tick), adds J at the contact point and re-simulates to the present with the recorded controls; the
 * simulation is deterministic, so the car ends where it would have been had the impulse arrived at once.
 * The sim runs at its own fixed step (1/500 s); one packet goes out every `ticksPerPacket` sim ticks, and the
 * snapshots are kept at those ticks (the collider stamps impulses with packet ticks).
 */
import { Button, HeldInput, quantizeInput, setInputSource, type InputSource } from '../ecs/controls';
import { saveSnapshot, type WorldSnapshot } from '../ecs/snapshot';
import { applyImpulseAtPoint } from '../ecs/rigid-body';
import { buildRunWorld, type RunWorld } from '../run/run-world';
import { restoreSnapshot } from '../run/snapshot';
import { stepRun } from '../run/step';
import type { RunCar } from '../run/cars';
import { yawBodyOf } from '../systems/sim/collision/system';
import type { YawBody } from '../systems/sim/collision/impulse';
import type { CarState, ImpulsePacket } from './packets';
import type { Stage } from '../../terrain/stage';
import { RecordedInput } from './recorded-input';
import { netStageCourse } from './stage-finish';
import { attachStageProgress } from '../run/stage-progress';
import { vehicleCarAdapter } from '../run/cars';
import { attachRaceProgress, resetRaceLocation, setRaceCourse } from '../run/race-progress';
import { isClosedStage } from '../systems/sim/ai/stage-path';
import { netRaceCourse, netRecoveryPose, type NetRaceCourse } from './race-finish';

/** Packets of snapshots and controls kept: the oldest impulse that can still be applied exactly (2 s at 62.5 Hz). */
export const REWIND_PACKETS = 125;

/** The driver's input for one tick (quantised like every input source: src/ecs/controls.ts). */
export interface NetControls {
  steer: number;
  throttle: number;
  brake: number;
}

export interface NetCarOptions {
  /** The stage the car drives on (its ground and scenery colliders); without it, flat ground at 0 m. */
  stage?: Stage | null;
  /** Who drives, tick by tick (the AI driver); without it, the controls given to `step`. */
  driver?: InputSource;
  /**
   * A race room's laps (its seat's `laps`): on a closed circuit the car then races by the offline race rules from
   * 'go' (the RaceProgress pass on the room's course: src/net/race-finish.ts), and `recover` puts it back.
   */
  laps?: number | null;
}

export type ImpulseOutcome = 'applied' | 'rewound' | 'too-old' | 'duplicate';

export class NetCar {
  readonly run: RunWorld;
  readonly eid: number;
  /** Snapshot after sim tick t (a packet tick), by t. */
  private readonly snaps = new Map<number, WorldSnapshot>();
  private lastSeq = 0;
  private readonly held = new HeldInput();
  /** Every tick's input, live or replayed on a rewind. */
  private readonly input: RecordedInput;
  private readonly yb: YawBody = { invMass: 0, invI: 0, vx: 0, vz: 0, r: 0 };
  /** Impulses received and how each was applied (tests, the game's event log). */
  readonly applied: { packet: ImpulsePacket; outcome: ImpulseOutcome; atTick: number; before: CarState | null; after: CarState | null }[] = [];
  /** The car's state at the last impulse's stamped tick, just before and just after it was added. */
  private beforeImpulse: CarState | null = null;
  private afterImpulse: CarState | null = null;
  /** The race room's course (a circuit with laps), null on a stage. */
  readonly raceCourse: NetRaceCourse | null = null;
  /** Recoveries since 'go' (sent in every state packet). */
  recoveries = 0;

  constructor(car: RunCar, dt: number, readonly ticksPerPacket: number, opts: NetCarOptions = {}) {
    const stage = opts.stage ?? null;
    this.run = buildRunWorld({ dt, integrator: 'midpoint', seed: 1, gravity_m_s2: 9.81, ground: stage ? null : { kind: 'flat', height_m: 0 }, cars: [car] }, stage);
    this.eid = this.run.cars[0]!;
    if (stage) {
      // timed from 'go' (tick 0) with the room's course, the one its finish tracker times it on
      this.run.world.course = netStageCourse(stage);
      attachStageProgress(this.run.world, this.eid);
      if (opts.laps && isClosedStage(stage)) this.raceCourse = this.attachRace(stage, opts.laps);
    }
    this.input = new RecordedInput(opts.driver ?? this.held);
    setInputSource(this.run.world, this.eid, this.input);
    this.remember();
  }

  /** The car races `laps` laps on circuit `stage` by the room's course (the one its lap timing uses). */
  private attachRace(stage: Stage, laps: number): NetRaceCourse {
    const course = netRaceCourse(stage, laps);
    setRaceCourse(this.run.world, { ...course.rules, path: course.path, startS: course.startS });
    attachRaceProgress(this.run.world, this.eid);
    return course;
  }

  /**
   * The player (or the game) recovers the car, between two packets: it stands at rest on the recovery pose of its
   * present position (netRecoveryPose, the pose the room checks), Recover is pressed in the next tick (the race
   * rules add the penalty, as the room's walk does), and the next packets count one more recovery. Impulses
   * stamped before now can no longer be re-simulated over the put-back: the snapshots before it are dropped (such
   * an impulse is acknowledged, not applied).
   */
  recover(): void {
    const course = this.raceCourse;
    if (!course) throw new Error('NetCar.recover: only a race room car (a circuit with laps) recovers');
    const b = this.run.world.c.RigidBody;
    vehicleCarAdapter.place(this.run.world, this.eid, { ...netRecoveryPose(course, b.px[this.eid]!, b.pz[this.eid]!), y: 0 });
    resetRaceLocation(this.run.world, this.eid);
    this.input.pressNext(Button.Recover);
    this.recoveries++;
    this.snaps.clear();
    this.remember();
  }

  get tick(): number {
    return this.run.world.tick;
  }

  private remember(): void {
    const t = this.run.world.tick;
    this.snaps.set(t, saveSnapshot(this.run.world));
    const old = t - (REWIND_PACKETS + 1) * this.ticksPerPacket;
    this.snaps.delete(old);
    this.input.forget(old - this.ticksPerPacket, old);
  }

  private stepPacket(): void {
    for (let k = 0; k < this.ticksPerPacket; k++) stepRun(this.run.world);
  }

  /**
   * One packet interval (ticksPerPacket sim ticks), held at these controls (or driven by the car's driver when
   * it has one and no controls are given); returns the state packet after it.
   */
  step(c?: NetControls): CarState {
    if (c) this.held.input = quantizeInput({ steer: c.steer, throttle: c.throttle, brake: c.brake, clutch: 0, handbrake: 0 });
    this.stepPacket();
    this.remember();
    return this.state();
  }

  /** The car's state now, as the collider reads it. */
  state(): CarState {
    const b = this.run.world.c.RigidBody, e = this.eid;
    const n = Math.hypot(b.R2[e]!, b.R8[e]!);
    yawBodyOf(this.run.world, e, this.yb);
    return {
      tick: this.run.world.tick, ackImpulse: this.lastSeq, recoveries: this.recoveries, px: b.px[e]!, py: b.py[e]!, pz: b.pz[e]!,
      fx: b.R2[e]! / n, fz: b.R8[e]! / n, vx: b.vx[e]!, vz: b.vz[e]!, wy: b.wy[e]!, invIyy: this.yb.invI,
    };
  }

  /** Applies the collider's impulse at its stamped tick (rewinding and re-simulating when it is in the past). */
  applyImpulse(p: ImpulsePacket): ImpulseOutcome {
    const now = this.run.world.tick;
    this.beforeImpulse = this.afterImpulse = null;
    const outcome = this.applyAt(p, now);
    this.applied.push({ packet: p, outcome, atTick: now, before: this.beforeImpulse, after: this.afterImpulse });
    return outcome;
  }

  private applyAt(p: ImpulsePacket, now: number): ImpulseOutcome {
    if (p.seq <= this.lastSeq) return 'duplicate';
    const snap = this.snaps.get(p.tick);
    // an impulse older than the window (or from the future) cannot be placed: acknowledged, not applied
    this.lastSeq = p.seq;
    if (!snap || p.tick > now) return 'too-old';
    const w = this.run.world;
    if (p.tick < now) restoreSnapshot(w, snap);
    this.beforeImpulse = this.state();
    applyImpulseAtPoint(w, this.eid, p.jx, 0, p.jz, p.x, p.y, p.z);
    this.afterImpulse = this.state();
    this.remember();
    this.input.replaying = true;
    for (let t = p.tick + this.ticksPerPacket; t <= now; t += this.ticksPerPacket) {
      this.stepPacket();
      this.remember();
    }
    this.input.replaying = false;
    return p.tick < now ? 'rewound' : 'applied';
  }
}
