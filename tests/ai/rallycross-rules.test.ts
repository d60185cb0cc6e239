/**
 * Rallycross rules and racecraft (issue 8), headless on the shipped circuit:
 *  - joker branch geometry: longer than the main line it replaces, rejoins the racing line at both ends, its gate
 *    off the main road;
 *  - jump start: the player's throttle before the lights go out moves the car → +JUMP_START_PENALTY_S, shown as an
 *    event; a player who waits gets none;
 *  - joker: an AI that takes it once has no penalty, one that never takes it gets JOKER_PENALTY_S at the flag, and
 *    the result order counts the penalty;
 *  - following / overtaking (Félez §6.3): a fast AI starting behind a slow one passes it without contact.
 */
import { describe, expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { JOKER_PENALTY_S, JUMP_START_PENALTY_S, JUMP_START_TOLERANCE_M, racePositions, RallycrossRace } from '../../src/run/race';
import { raceResultS } from '../../src/run/race-rules';
import { RECOVER_PENALTY_S } from '../../src/systems/sim/vehicle/recovery';
import { quantizeInput } from '../../src/ecs/controls';
import { stateHash } from '../../src/ecs/hash';

const stage = loadStageFromDir('src/content/stages/rallycross-bitring');

function contacts(race: RallycrossRace): number {
  let n = 0;
  for (const ev of race.world.events) if (String(ev.kind).startsWith('collision')) n++;
  race.world.events.length = 0;
  return n;
}

describe('rallycross rules', () => {
  it('joker branch (stage.toml [joker]): ≥ 5 m longer than the main line, joins the racing line at both ends, gate ≥ 9 m off the road centre', () => {
    const race = new RallycrossRace({ stage, cars: [loadBuiltinCar('rally-awd')], laps: 1, countdownS: 0.1, integrator: 'euler' });
    const J = race.joker!;
    expect(J).not.toBeNull();
    expect(J.extraM).toBeGreaterThan(5);
    // the branch path starts and ends on the main racing line (offset bump is 0 outside the span)
    const main = race.path;
    const a = [0, 0], b = [0, 0];
    J.path.pointAt(0, a);
    main.pointAt(J.entryS - J.leadM, b);
    expect(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!)).toBeLessThan(0.05);
    J.path.pointAt(J.path.lengthM, a);
    main.pointAt(J.exitS + J.leadM, b);
    expect(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!)).toBeLessThan(2.1); // last 2 m sample of the branch
    // the gate (the middle of the stage's [joker] road) is 16 m from the road centreline (lateral from the racing
    // line + the racing line's offset); a car whose centre is on the road (≤ 6.5 m from the centreline, plus half
    // a car width 0.9 m) is never inside it
    const loc = main.locate(J.gateX, J.gateZ);
    expect(Math.abs(loc.lateral + main.offset[loc.index]!)).toBeGreaterThan(15.9);
    expect(J.gateX).toBe(stage.joker!.gateX);
    expect(Math.abs(loc.lateral + main.offset[loc.index]!) - 6.5 - 0.9).toBeGreaterThan(J.gateRadiusM);
  });

  it('jump start: throttle before the lights → moved > 0.5 m → +5 s penalty and an event; waiting → none', () => {
    const cars = [loadBuiltinCar('hatch-gti'), loadBuiltinCar('rally-awd')];
    const run = (throttle: number): RallycrossRace => {
      const race = new RallycrossRace({ stage, cars, laps: 1, countdownS: 2, playerIndex: 1, seed: 2, integrator: 'euler' });
      race.playerInput.input = quantizeInput({ steer: 0, throttle, brake: 0, clutch: 0, handbrake: 0 });
      for (let k = 0; k < 1000; k++) race.tick(); // the 2 s countdown
      return race;
    };
    const jumped = run(1);
    const me = jumped.runOf(1);
    expect(me.jumpStart).toBe(true);
    expect(me.progressM - me.gridProgressM).toBeGreaterThan(JUMP_START_TOLERANCE_M);
    expect(me.penaltyS).toBe(JUMP_START_PENALTY_S);
    expect(jumped.events.filter((e) => e.kind === 'jump-start').map((e) => e.entrant)).toEqual([1]);
    // the AI on the brakes did not jump
    expect(jumped.runOf(0).jumpStart).toBe(false);
    const waited = run(0);
    const still = waited.runOf(1);
    expect(still.jumpStart).toBe(false);
    expect(still.penaltyS).toBe(0);
    expect(Math.abs(still.progressM - still.gridProgressM)).toBeLessThan(0.05);
  });

  it('results count penalties: a car 3 s ahead on the road with a 5 s penalty is classified behind', () => {
    const a = { finishTimeS: 40, penaltyS: JUMP_START_PENALTY_S, progressM: 900 }, b = { finishTimeS: 43, penaltyS: 0, progressM: 900 };
    expect(racePositions([a, b])).toEqual([1, 0]);
    expect(raceResultS(a)).toBe(45);
  });

  it('joker once → no penalty; never → +30 s at the flag; a fast AI behind a slow one overtakes without contact (§6.3)', { timeout: 240000 }, () => {
    // grid: slow hatch (cautious novice) on pole, fast rally car (aggressive expert) behind it; 2 laps
    const cars = [loadBuiltinCar('hatch-gti'), loadBuiltinCar('rally-awd')];
    const drivers = [{ aggressiveness: 0, skill: 0, name: 'slow' }, { aggressiveness: 1, skill: 1, name: 'fast' }];
    // one file: the fast car 12 m straight behind the slow one, on the same line
    const race = new RallycrossRace({ stage, cars, drivers, laps: 2, countdownS: 1, seed: 3, integrator: 'euler', jokerLaps: [Infinity, 1], grid: { halfSpacingM: 0, rowGapM: 24 } });
    let hits = 0;
    let passed = -1;
    let passing = false;
    for (let k = 0; k < 500 * 200 && race.phase !== 'finished'; k++) {
      race.tick();
      hits += contacts(race);
      if (race.entrants[1]!.raceDriver!.main.passEid >= 0) passing = true;
      if (passed < 0 && race.phase === 'racing' && race.positions()[0] === 1) passed = race.raceTimeS;
    }
    expect(race.phase).toBe('finished');
    const [slow, fast] = [race.runOf(0), race.runOf(1)];
    // the pass happened in the first lap (lap ≈ 40 s), in a passing lane, with no contact all race
    expect(passing).toBe(true);
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(40);
    expect(hits).toBe(0);
    // the fast car took the joker once (on its second lap, its strategy): no penalty
    expect(fast.jokers).toBe(1);
    expect(fast.jokerLap).toBe(1);
    expect(fast.penaltyS).toBe(0);
    // the slow car never took it: +30 s at the flag
    expect(slow.jokers).toBe(0);
    expect(slow.penaltyS).toBe(JOKER_PENALTY_S);
    expect(race.events.some((e) => e.kind === 'joker-penalty' && e.entrant === 0)).toBe(true);
    expect(race.positions()).toEqual([1, 0]);
    expect(raceResultS(slow)).toBe(slow.finishTimeS! + JOKER_PENALTY_S);
  });

  it('no room to pass (road narrowed for the follower): it follows at a safe gap, no contact, no pass', { timeout: 120000 }, () => {
    const cars = [loadBuiltinCar('hatch-gti'), loadBuiltinCar('rally-awd')];
    const drivers = [{ aggressiveness: 0, skill: 0, name: 'slow' }, { aggressiveness: 1, skill: 1, name: 'fast' }];
    const race = new RallycrossRace({ stage, cars, drivers, laps: 1, countdownS: 1, seed: 3, integrator: 'euler', joker: false, grid: { halfSpacingM: 0, rowGapM: 24 } });
    const follower = race.entrants[1]!.raceDriver!.main;
    // a passing lane must stay 1.3 m inside the road edge: a road 2 m wide (as the follower sees it) has none
    follower.halfWidthM = 1;
    let hits = 0, followed = 0, minGap = Infinity;
    const b = race.world.c.RigidBody;
    const [e0, e1] = race.entrants;
    for (let k = 0; k < 500 * 31; k++) {
      race.tick();
      hits += contacts(race);
      if (follower.traffic.following) followed++;
      const d = Math.hypot(b.px[e0!.eid]! - b.px[e1!.eid]!, b.pz[e0!.eid]! - b.pz[e1!.eid]!);
      minGap = Math.min(minGap, d);
      expect(follower.passEid).toBe(-1);
    }
    expect(hits).toBe(0);
    // it caught up and spent a real share of the 30 s following
    expect(followed).toBeGreaterThan(500 * 5);
    // never closer than a car length + 1 m centre to centre (bodies 4.2–4.6 m long)
    expect(minGap).toBeGreaterThan(5.5);
    expect(race.positions()).toEqual([0, 1]);
  });

  it('8 AI cars, 1 lap, collisions on: everyone finishes, takes the joker once, no Recover; same seed → same bits', { timeout: 300000 }, () => {
    const ids = ['rally-awd', 'hatch-gti', 'classic-rwd'];
    const cars = Array.from({ length: 8 }, (_, k) => loadBuiltinCar(ids[k % 3]!));
    const mk = (): RallycrossRace => new RallycrossRace({ stage, cars, laps: 1, countdownS: 1, seed: 3, integrator: 'euler' });
    const race = mk();
    let hashAt3000 = '';
    // every car passes the joker gate well inside its radius (passing lanes included), not by a whisker
    const b = race.world.c.RigidBody;
    const J = race.joker!;
    const gateMin = race.entrants.map(() => Infinity);
    for (let k = 0; k < 500 * 150 && race.phase !== 'finished'; k++) {
      race.tick();
      race.world.events.length = 0;
      if (k === 2999) hashAt3000 = stateHash(race.world);
      race.entrants.forEach((e, i) => {
        gateMin[i] = Math.min(gateMin[i]!, Math.hypot(b.px[e.eid]! - J.gateX, b.pz[e.eid]! - J.gateZ));
      });
    }
    expect(race.phase).toBe('finished');
    for (const d of gateMin) expect(d).toBeLessThan(J.gateRadiusM - 1);
    race.entrants.forEach((e, i) => {
      const r = race.runOf(i);
      expect(r.jokers).toBe(1);
      expect(r.penaltyS).toBe(0);
      expect(e.driver!.recoveries + (e.raceDriver!.joker?.recoveries ?? 0)).toBe(0);
      // a lap (≈ 900 m) from a standing start in traffic: between 30 s and 90 s
      expect(r.finishTimeS!).toBeGreaterThan(30);
      expect(r.finishTimeS!).toBeLessThan(90);
    });
    // the first 6 s (launch, first corner, the tightest pack) again: bit-identical state
    const again = mk();
    for (let k = 0; k < 3000; k++) {
      again.tick();
      again.world.events.length = 0;
    }
    expect(stateHash(again.world)).toBe(hashAt3000);
  });

  it('Recover in the race (player button or a stuck AI): back on the racing line 5 m behind, at rest, facing along, +5 s', { timeout: 60000 }, () => {
    const cars = [loadBuiltinCar('hatch-gti'), loadBuiltinCar('rally-awd')];
    const race = new RallycrossRace({ stage, cars, laps: 1, countdownS: 0.5, playerIndex: 1, seed: 2, integrator: 'euler' });
    const drive = quantizeInput({ steer: 0, throttle: 0.6, brake: 0, clutch: 0, handbrake: 0 });
    for (let k = 0; k < 250; k++) race.tick(); // countdown
    race.playerInput.input = drive;
    for (let k = 0; k < 1500; k++) race.tick(); // 3 s of throttle
    const me = race.entrants[1]!;
    const b = race.world.c.RigidBody;
    const s0 = race.runOf(1).pathS, p0 = race.runOf(1).progressM;
    expect(Math.hypot(b.vx[me.eid]!, b.vz[me.eid]!)).toBeGreaterThan(5);
    race.playerInput.input = quantizeInput({ steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 0, recover: true });
    race.tick();
    // placed after this tick's controls: at rest on the racing line, 5 m back along the path, heading along it
    expect(race.events.filter((e) => e.kind === 'recover').map((e) => e.entrant)).toEqual([1]);
    expect(race.runOf(1).penaltyS).toBe(RECOVER_PENALTY_S);
    expect(Math.hypot(b.vx[me.eid]!, b.vy[me.eid]!, b.vz[me.eid]!)).toBe(0);
    const loc = race.path.locate(b.px[me.eid]!, b.pz[me.eid]!);
    let ds = loc.s - s0;
    ds -= race.path.lengthM * Math.round(ds / race.path.lengthM);
    // s0 was read before the last tick (≤ 1 tick × ~15 m/s ≈ 3 cm of travel): 5 m back within 5 cm
    expect(Math.abs(ds + 5)).toBeLessThan(0.05);
    expect(Math.abs(loc.lateral)).toBeLessThan(0.01);
    // heading along the path (headingAt is piecewise over 2 m segments; the located s may sit a hair off the placed s)
    expect(Math.abs(Math.atan2(b.R2[me.eid]!, b.R8[me.eid]!) - race.path.headingAt(loc.s))).toBeLessThan(1e-3);
    // held button: one recovery only; the next ticks the car drives on and progress continues from ~5 m back
    race.tick();
    expect(race.runOf(1).penaltyS).toBe(RECOVER_PENALTY_S);
    expect(race.runOf(1).recoveries).toBe(1);
    race.tick();
    race.tick();
    expect(Math.abs(race.runOf(1).progressM - (p0 - 5))).toBeLessThan(0.2);
  });
});
