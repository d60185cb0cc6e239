/**
 * The RaceProgress pass (src/run/race-progress.ts) in a race world: the component follows the race rules
 * (src/run/race-rules.ts) bit for bit on a driven car, its `race-*` events arrive in the tick they happen, and
 * everything the pass carries is state: a race restored from a snapshot taken mid-lap runs on bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { quantizeInput } from '../../src/ecs/controls';
import { stateHash } from '../../src/ecs/hash';
import { saveSnapshot } from '../../src/ecs/snapshot';
import { restoreSnapshot } from '../../src/run/snapshot';
import { RallycrossRace } from '../../src/run/race';
import { advanceRace, initialRaceState, type RaceEvent } from '../../src/run/race-rules';
import { raceEventsOf, raceRunOf } from '../../src/run/race-progress';
import { RACE_PHASE_RACING } from '../../src/ecs/components';

const stage = loadStageFromDir('src/content/stages/rallycross-bitring');
const car = loadBuiltinCar('rally-awd');
/** Countdown, s, and ticks of it at the race's 500 Hz. */
const COUNTDOWN_S = 0.2;
const COUNTDOWN_TICKS = Math.round(COUNTDOWN_S / 0.002);
/** Throttle held from the lights (the player's own car, no AI state outside the world). */
const DRIVE = quantizeInput({ steer: 0, throttle: 0.5, brake: 0, clutch: 0, handbrake: 0 });

/** A one-car race, the player's car driven straight on half throttle from the lights. */
function soloRace(): RallycrossRace {
  return new RallycrossRace({ stage, cars: [car], laps: 1, playerIndex: 0, countdownS: COUNTDOWN_S, seed: 4, integrator: 'euler', collisions: false });
}

function tickDriven(race: RallycrossRace): RaceEvent[] {
  if (race.phase !== 'countdown') race.playerInput.input = DRIVE;
  const from = race.world.events.length;
  race.tick();
  const evs = raceEventsOf(race.world.events.slice(from), race.entrants[0]!.eid);
  race.world.events.length = 0;
  return evs;
}

describe('RaceProgress pass', () => {
  it('follows the race rules bit for bit on a driven car; the start event after the countdown, in its tick', () => {
    const race = soloRace();
    const eid = race.entrants[0]!.eid;
    const course = race.world.runtime.raceCourse!;
    const b = race.world.c.RigidBody;
    // the same rules fed the same path positions, beside the pass
    const mirror = initialRaceState(course, course.startS, raceRunOf(race.world, eid).pathS);
    let startTick = -1;
    for (let k = 1; k <= COUNTDOWN_TICKS + 1000; k++) {
      const evs = tickDriven(race);
      const ev: RaceEvent[] = [];
      const loc = course.path.locate(b.px[eid]!, b.pz[eid]!);
      advanceRace(mirror, course, { dt: race.world.dt, pathS: loc.s, x: b.px[eid]!, z: b.pz[eid]!, recover: false }, ev);
      expect(evs).toEqual(ev);
      if (evs.includes('start')) startTick = k;
    }
    expect(startTick).toBe(COUNTDOWN_TICKS);
    const run = raceRunOf(race.world, eid);
    expect(run).toEqual(mirror);
    // the race clock is Σ dt since the lights: 1000 ticks
    expect(run.timeS).toBeCloseTo(1000 * race.world.dt, 9);
    // the car moved off (2.4 m in the first 2 s at half throttle from the standing start): the rules saw it move
    expect(run.progressM - run.gridProgressM).toBeGreaterThan(1);
  });

  it('a race restored from a snapshot taken mid-lap runs on bit for bit (every RaceProgress field a tick reads is state)', () => {
    const a = soloRace();
    for (let k = 0; k < COUNTDOWN_TICKS + 700; k++) tickDriven(a);
    expect(a.world.c.RaceProgress.phase[a.entrants[0]!.eid]).toBe(RACE_PHASE_RACING);
    const snap = saveSnapshot(a.world);
    const b = soloRace();
    restoreSnapshot(b.world, snap);
    expect(stateHash(b.world)).toBe(stateHash(a.world));
    for (let k = 0; k < 300; k++) {
      tickDriven(a);
      tickDriven(b);
      expect(stateHash(b.world)).toBe(stateHash(a.world));
    }
    expect(raceRunOf(b.world, b.entrants[0]!.eid)).toEqual(raceRunOf(a.world, a.entrants[0]!.eid));
  });
});
