/**
 * The room's finish detection and results without the network: a StageFinishTracker fed a bot car's own states
 * finds the tick its StageProgress finished in (exactly with a state every sim tick; within one tick when the
 * states come every 8 ticks and the ticks between are interpolated), the start check refuses a first state down
 * the road, a reconnect's jump gives no progress, and the results rank by finish tick with DNF last.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { createStageBotCar } from '../../src/net/bot-car';
import { gridPose } from '../../src/net/grid';
import { netStageCourse, StageFinishTracker, stageTimeOfTick } from '../../src/net/stage-finish';
import { rankResults } from '../../src/net/results';
import type { RaceFinish } from '../../src/net/race-finish';
import { NO_TICK } from '../../src/ecs/components/progress';
import { NET_SIM_DT_S } from '../../server/rooms/race-room';
import { checkStart, MAX_CAR_SPEED_MS, POSITION_SLACK_M } from '../../server/rooms/state-check';
import { FinishWatch } from '../../server/rooms/finish-watch';
import { RaceResults } from '../../server/rooms/race-results';
import { DEFAULT_ROOM_STAGE } from '../../server/rooms/stages';
import type { CarState } from '../../src/net/packets';
import { stepRun } from '../../src/run/step';

const stage = loadStageFromDir(join('src/content/stages', DEFAULT_ROOM_STAGE));
const dt = NET_SIM_DT_S;
/** The room's default packet interval, sim ticks. */
const TPP = 8;
/** The AI's rally-awd finishes test-short in about 38 s simulated; this bounds the loop. */
const MAX_TICKS = 60 / dt;

describe('finish tracking from state packets', () => {
  it('finds the StageProgress finish tick: exactly from every tick, within one tick from every 8th', () => {
    const car = createStageBotCar(stage, 0, 'rally-awd', dt, TPP);
    const every = new StageFinishTracker(netStageCourse(stage), dt, gridPose(stage, 0));
    const eighth = new StageFinishTracker(netStageCourse(stage), dt, gridPose(stage, 0));
    const sp = car.run.world.c.StageProgress;
    let packetTick = 0;
    while (eighth.finishTick === null && car.tick < MAX_TICKS) {
      // one sim tick at a time (NetCar.step would step a packet and keep a snapshot)
      stepRun(car.run.world);
      const s = car.state();
      every.advanceTo(s);
      if (s.tick % TPP === 0) {
        eighth.advanceTo(s);
        if (eighth.finishTick !== null) packetTick = s.tick;
      }
      car.run.world.events.length = 0;
    }
    const f = sp.finishTick[car.eid]!;
    expect(f).not.toBe(NO_TICK);
    // every tick's position through the same rules (stageTickAt, advanceStageRun): the same tick
    expect(every.finishTick).toBe(f);
    expect(every.checkpoints).toBe(stage.checkpoints.length);
    // StageRun's clock starts the tick after the lights go out (tick 1): it reads (f − 1) ticks, summed
    expect(sp.finishTimeS[car.eid]).toBeCloseTo((f - 1) * dt, 9);
    expect(stageTimeOfTick(f, dt)).toBe(f * dt);
    // every 8th tick: the crossing lies in the interval that ends at the finishing packet; interpolating the
    // CG linearly over 16 ms errs by a·h²/8 (0.3 mm at 10 m/s²), far under one tick's travel at race speed
    expect(packetTick - TPP).toBeLessThan(f);
    expect(f).toBeLessThanOrEqual(packetTick);
    expect(Math.abs(eighth.finishTick! - f)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('a first state down the road is refused; a jump after a reconnect gives no progress', () => {
    const start = gridPose(stage, 0);
    const fin = stage.road.poseAt(stage.finish.distanceM);
    const at = (tick: number, x: number, z: number): CarState => ({ tick, ackImpulse: 0, recoveries: 0, px: x, py: 0, pz: z, fx: 0, fz: 1, vx: 0, vz: 0, wy: 0, invIyy: 1e-3 });
    expect(checkStart(start, at(TPP, fin.x, fin.z), dt)).toBe('start');
    expect(checkStart(start, at(TPP, start.x, start.z), dt)).toBe('ok');
    // the limit: MAX_CAR_SPEED_MS × elapsed + slack from the grid pose
    const reach = MAX_CAR_SPEED_MS * TPP * dt + POSITION_SLACK_M;
    expect(checkStart(start, at(TPP, start.x + reach * 0.999, start.z), dt)).toBe('ok');
    expect(checkStart(start, at(TPP, start.x + reach * 1.001, start.z), dt)).toBe('start');
    const watch = new FinishWatch(stage, dt);
    watch.watch(0);
    const before = watch.trackerOf(0)!.progressM;
    expect(watch.follow(0, at(TPP, fin.x, fin.z))).toBeNull();
    expect(watch.follow(0, at(2 * TPP, fin.x, fin.z + 0.01))).toBeNull();
    expect(watch.trackerOf(0)!.progressM).toBe(before);
  });
});

describe('results', () => {
  /** A finish at `tick` with `penaltyS` added to the tick's time (a race room's rules; 0 on a stage). */
  const fin = (tick: number, penaltyS = 0): RaceFinish => ({ tick, timeS: tick * dt + penaltyS, penaltyS });

  it('ranks finished cars by finish tick, then racing, then DNF; done when none races', () => {
    const r = new RaceResults();
    r.add(0, 'a', 'rally-awd', null);
    r.add(1, 'b', 'hatch-gti', null);
    r.add(2, 'c', 'hatch-gti', null);
    r.add(3, 'd', 'hatch-gti', null);
    expect(r.finish(2, fin(9000))).toBe(true);
    expect(r.retire(1, 'disconnect')).toBe(true);
    expect(r.finish(1, fin(100))).toBe(false); // retired cars do not finish
    expect(r.done).toBe(false);
    expect(r.finish(0, fin(8000))).toBe(true);
    expect(r.retire(0, 'left')).toBe(false); // a finished car leaving keeps its time
    const m = r.message(false);
    expect(m.rows.map((x) => [x.slot, x.rank, x.status])).toEqual([[0, 1, 'finished'], [2, 2, 'finished'], [3, null, 'racing'], [1, null, 'dnf']]);
    expect(m.rows[0]!.timeS).toBe(8000 * dt);
    expect(m.rows[3]!.retired).toBe('disconnect');
    r.retireAll('time-limit');
    expect(r.done).toBe(true);
    expect(r.message(true).rows.map((x) => x.retired)).toEqual([null, null, 'disconnect', 'time-limit']);
    // equal ticks: the lower slot first
    expect(rankResults([{ slot: 5, name: '', car: '', status: 'finished', finishTick: 7, timeS: 7 * dt, penaltyS: 0, retired: null, laps: null }, { slot: 4, name: '', car: '', status: 'finished', finishTick: 7, timeS: 7 * dt, penaltyS: 0, retired: null, laps: null }]).map((x) => x.slot)).toEqual([4, 5]);
  });

  it('ranks by time with penalties: an earlier flag with a penalty can finish behind', () => {
    const r = new RaceResults();
    r.add(0, 'a', 'rally-awd', null);
    r.add(1, 'b', 'rally-awd', null);
    // a: flag at 8000 ticks (16 s) + a 5 s recovery = 21 s; b: flag at 9000 ticks = 18 s, no penalty
    r.finish(0, fin(8000, 5));
    r.finish(1, fin(9000));
    const rows = r.message(true).rows;
    expect(rows.map((x) => [x.slot, x.rank, x.penaltyS])).toEqual([[1, 1, 0], [0, 2, 5]]);
    expect(rows[1]!.timeS).toBe(8000 * dt + 5);
  });
});
