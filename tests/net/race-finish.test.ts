/**
 * A race room's lap timing (src/net/race-finish.ts) against the offline race rules run by the car itself: a bot's
 * NetCar on the default circuit carries the RaceProgress pass (advanceRace every sim tick, on the room's course),
 * and the tracker sees only its state packets, one every TICKS_PER_PACKET ticks. The finish tick agrees within one
 * sim tick (the interpolation between packets), the laps, jokers and penalties exactly; a skipped joker costs
 * JOKER_PENALTY_S; a recovery costs RECOVER_PENALTY_S once and puts the car on netRecoveryPose; the collider lets
 * a recovered car jump there and nowhere else.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { createRaceBotCar } from '../../src/net/bot-car';
import { gridPose } from '../../src/net/grid';
import { netRecoveryPose, RaceFinishTracker } from '../../src/net/race-finish';
import { encodeState, type CarState } from '../../src/net/packets';
import type { NetCar } from '../../src/net/net-car';
import { raceRunOf } from '../../src/run/race-progress';
import { JOKER_PENALTY_S, raceResultS } from '../../src/run/race-rules';
import { RECOVER_PENALTY_S } from '../../src/systems/sim/vehicle/recovery';
import { NO_TICK } from '../../src/ecs/components';
import { Collider } from '../../server/rooms/collider';
import { RaceFinishWatch } from '../../server/rooms/race-finish-watch';
import { carShapeOf, NET_SIM_DT_S as DT, TICKS_PER_PACKET as TPP } from '../../server/rooms/race-room';
import { DEFAULT_RACE_CIRCUIT } from '../../server/rooms/stages';

const stage = loadStageFromDir(join('src/content/stages', DEFAULT_RACE_CIRCUIT));
/** A bound on any test drive, packets (2 laps of ~36 s are ~4 500 packets). */
const MAX_PACKETS = 8000;
/** How far aside of a placing pose the CG may stand: CG height ~0.5 m × a ground slope under 10 %, m. */
const CG_ASIDE_M = 0.05;

/** Steps the car (every state to the tracker) until both its own rules and the tracker saw the flag. */
function driveToFlag(car: NetCar, tracker: RaceFinishTracker, onPacket: (k: number, s: CarState) => void = () => undefined): void {
  for (let k = 0; k < MAX_PACKETS; k++) {
    const s = car.step();
    car.run.world.events.length = 0;
    tracker.advanceTo(s);
    onPacket(k, s);
    if (tracker.finish && raceRunOf(car.run.world, car.eid).phase === 'finished') return;
  }
}

/** The tracker's result against the car's own race rules: same laps, jokers, penalties; flag within one tick. */
function expectSameRace(car: NetCar, tracker: RaceFinishTracker): void {
  const own = raceRunOf(car.run.world, car.eid);
  const ownTick = car.run.world.c.RaceProgress.finishTick[car.eid]!;
  expect(ownTick).not.toBe(NO_TICK);
  const f = tracker.finish!;
  expect(Math.abs(f.tick - ownTick)).toBeLessThanOrEqual(1);
  // one tick of race clock apart at most (the clock is a sum of dt: a few ulps on top)
  expect(Math.abs(f.timeS - raceResultS(own)!)).toBeLessThanOrEqual(DT * (1 + 1e-9));
  expect([tracker.run.lap, tracker.run.jokers, tracker.run.recoveries, f.penaltyS]).toEqual([own.lap, own.jokers, own.recoveries, own.penaltyS]);
}

describe('race room lap timing', () => {
  it('two laps timed from every 8th tick as the car times them itself; a skipped joker costs JOKER_PENALTY_S', () => {
    for (const jokerLap of [0, Infinity]) {
      const car = createRaceBotCar(stage, 0, 'rally-awd', DT, TPP, 2, jokerLap);
      const tracker = new RaceFinishTracker(car.raceCourse!, DT, gridPose(stage, 0));
      driveToFlag(car, tracker);
      expectSameRace(car, tracker);
      expect(tracker.log.filter((e) => e.event === 'lap')).toHaveLength(2);
      expect(tracker.run.jokers).toBe(jokerLap === 0 ? 1 : 0);
      expect(tracker.finish!.penaltyS).toBe(jokerLap === 0 ? 0 : JOKER_PENALTY_S);
      expect(tracker.finish!.timeS).toBe(tracker.run.finishTimeS! + tracker.finish!.penaltyS);
    }
  });

  it('a recovery: the car at rest on netRecoveryPose, RECOVER_PENALTY_S once, in the tick after it', () => {
    const car = createRaceBotCar(stage, 0, 'rally-awd', DT, TPP, 1, 0);
    const tracker = new RaceFinishTracker(car.raceCourse!, DT, gridPose(stage, 0));
    /** The packet after which the car is put back (about 5 s into the lap). */
    const RECOVER_AFTER = 300;
    let recoveredAt = -1;
    driveToFlag(car, tracker, (k, s) => {
      if (k !== RECOVER_AFTER) return;
      const pose = netRecoveryPose(car.raceCourse!, s.px, s.pz);
      car.recover();
      recoveredAt = s.tick;
      const now = car.state();
      // the CG stands on the ground normal through the pose (spawnCar): on the circuit's gentle slopes a few mm aside
      expect(Math.hypot(now.px - pose.x, now.pz - pose.z)).toBeLessThan(CG_ASIDE_M);
      expect([Math.hypot(now.vx, now.vz), now.recoveries]).toEqual([0, 1]);
    });
    expectSameRace(car, tracker);
    expect(tracker.run.recoveries).toBe(1);
    expect(tracker.finish!.penaltyS).toBe(RECOVER_PENALTY_S);
    expect(tracker.log.filter((e) => e.event === 'recover')).toEqual([{ tick: recoveredAt + 1, event: 'recover' }]);
  });

  it("the collider takes a recovered car's jump to its recovery pose, and refuses any other", () => {
    const watch = new RaceFinishWatch(stage, 1, DT);
    const c = new Collider(DT, TPP);
    c.recoveryPose = (slot, last) => watch.recoveryPose(slot, last);
    c.addCar(0, carShapeOf('rally-awd'), gridPose(stage, 0));
    const car = createRaceBotCar(stage, 0, 'rally-awd', DT, TPP, 1, 0);
    for (let k = 0; k < 300; k++) c.receive(0, encodeState(car.step()));
    expect(c.counters.accepted).toBe(300);
    const last = c.lastState(0)!;
    // a fake recovery: one more in the counter, but the car far along the circuit
    const course = watch.course;
    const far = [0, 0];
    course.path.pointAt(course.path.locate(last.px, last.pz).s + 300, far);
    c.receive(0, encodeState({ ...last, tick: last.tick + TPP, px: far[0]!, pz: far[1]!, recoveries: 1 }));
    // two recoveries at once, even at the recovery pose
    const pose = netRecoveryPose(course, last.px, last.pz);
    c.receive(0, encodeState({ ...last, tick: last.tick + TPP, px: pose.x, pz: pose.z, vx: 0, vz: 0, recoveries: 2 }));
    expect(c.counters.dropped.recovery).toBe(2);
    // the real one is taken, and so are the states after it
    car.recover();
    for (let k = 0; k < 10; k++) c.receive(0, encodeState(car.step()));
    expect(c.counters.accepted).toBe(310);
    // a room without recoveries (a stage room's collider) drops the same put-back
    const stageRoom = new Collider(DT, TPP);
    stageRoom.addCar(0, carShapeOf('rally-awd'));
    stageRoom.receive(0, encodeState(last));
    stageRoom.receive(0, encodeState({ ...last, tick: last.tick + TPP, px: pose.x, pz: pose.z, vx: 0, vz: 0, recoveries: 1 }));
    expect(stageRoom.counters.dropped.recovery).toBe(1);
  });

  it('a first state down the circuit gives no progress; the race clock still runs over the ticks it skipped; recoveries in such a state each cost their penalty', () => {
    const watch = new RaceFinishWatch(stage, 1, DT);
    watch.watch(0);
    const t = watch.trackerOf(0)!;
    const grid = gridPose(stage, 0);
    const course = watch.course;
    const far = [0, 0];
    const farS = course.path.locate(grid.x, grid.z).s + 300;
    course.path.pointAt(farS, far);
    const before = t.run.progressM;
    const at = (tick: number, x: number, z: number): CarState => ({ tick, ackImpulse: 0, recoveries: 0, px: x, py: 0.5, pz: z, fx: 0, fz: 1, vx: 0, vz: 0, wy: 0, invIyy: 1e-3 });
    expect(watch.follow(0, at(TPP, far[0]!, far[1]!))).toBeNull();
    expect(watch.follow(0, at(2 * TPP, far[0]!, far[1]!))).toBeNull();
    expect(t.run.progressM).toBe(before);
    // tick 1 is the lights-out tick; ticks 2…16 ran the clock
    expect(t.run.timeS).toBeCloseTo((2 * TPP - 1) * DT, 12);
    // two recoveries the room saw in one state (the ones between were stale): two penalties, still no progress
    expect(watch.follow(0, { ...at(3 * TPP, far[0]!, far[1]!), recoveries: 2 })).toBeNull();
    expect([t.run.recoveries, t.run.penaltyS, t.run.progressM]).toEqual([2, 2 * RECOVER_PENALTY_S, before]);
  });
});
