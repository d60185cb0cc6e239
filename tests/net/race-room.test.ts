/**
 * A rallycross race room over the network (issue #22): real server, real RoomClients on loopback, two AI bots
 * driving the default circuit (createRaceBotCar: the offline race's AI entrant in a NetCar) over a short race (the
 * room's `laps` create option), and a cheater. The room's flood margin is raised so the drive runs faster than real
 * time, paced as in results.test.ts (driveToFinish: no catch-up bursts). Both bots finish; each one's server time,
 * finish tick and penalty are exactly what the offline race rules give on its own packets (RaceFinishTracker), and
 * within one sim tick of what its car's own RaceProgress says; the bot that skips the joker gets JOKER_PENALTY_S;
 * the other is recovered once by the test (a player's press) and gets RECOVER_PENALTY_S; the cheater's recovery
 * flag with a teleport far along the circuit is refused, and its layout-1 packet is dropped with a 'refused' message.
 * Every row of the results carries the laps the room counted. The live standings the room sends meanwhile rank the
 * cars by the race rules' laps and distance on their own packets (checkStandings); a client refuses a malformed
 * standings message with its reason and goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { loadStageFromDir } from '../../terrain/node';
import { RoomClient } from '../../src/net/room-client';
import { createRaceBotCar } from '../../src/net/bot-car';
import { gridPose } from '../../src/net/grid';
import { netRaceCourse, RaceFinishTracker } from '../../src/net/race-finish';
import type { ResultRow, RoomResults } from '../../src/net/results';
import { STANDINGS_HZ, STANDINGS_PROGRESS_STEP_M, type Standings } from '../../src/net/standings';
import { PACKET_VERSION, STATE_PACKET_BYTES, STATE_PACKET_TYPE, type CarState } from '../../src/net/packets';
import type { NetCar } from '../../src/net/net-car';
import { raceRunOf } from '../../src/run/race-progress';
import { JOKER_PENALTY_S } from '../../src/run/race-rules';
import { RECOVER_PENALTY_S } from '../../src/systems/sim/vehicle/recovery';
import { DEFAULT_RACE_LAPS, type RaceRoom } from '../../server/rooms/race-room';
import { DEFAULT_RACE_CIRCUIT } from '../../server/rooms/stages';
import { driveToFinish, startRoomServer, sleep, type RoomServer } from './bots';

/** Packets allowed per second: 20 × the room's rate, so the CPU paces the drive. */
const FLOOD_MARGIN_TEST = 20;
/** The short race: two laps of the ~900 m circuit (the AI laps it in about 36 s). */
const LAPS = 2;
/** A bot stops after this many packets without a result (about 144 s simulated, twice what two laps take). */
const MAX_PACKETS = 9000;
/** How far along the circuit the cheater's fake recovery puts it, m. */
const CHEAT_AHEAD_M = 400;
/** Bot a is recovered from this packet on (about 5 s into the race)… */
const RECOVER_FROM_PACKET = 300;
/** …once bot b is this far ahead of it along the circuit, m. */
const RECOVER_GAP_M = 40;

/**
 * The standings bot a saw: at most STANDINGS_HZ per second of wall time and each one new; every racing row's laps
 * and distance are the race rules' on that bot's own packets after one of them (RaceFinishTracker), so the order
 * by laps then distance is the cars' progress; finished cars lead by their time (the results' order); the
 * cheater, retired, is last.
 */
function checkStandings(got: { s: Standings; atMs: number }[], goMs: number, bots: RoomClient[], sent: CarState[][], results: ResultRow[], cheaterSlot: number): void {
  expect(got.length).toBeGreaterThan(2);
  const spanS = (got.at(-1)!.atMs - goMs) / 1000;
  expect(got.length).toBeLessThanOrEqual(Math.ceil(spanS * STANDINGS_HZ) + 1);
  got.forEach((m, i) => i > 0 && expect(m.s).not.toEqual(got[i - 1]!.s));
  const course = netRaceCourse(stage, LAPS);
  const roundM = (m: number): number => Math.round(m / STANDINGS_PROGRESS_STEP_M) * STANDINGS_PROGRESS_STEP_M;
  // where the grid slot stands from the start line (behind it: below 0), as the race rules measure it
  const cheaterGridM = roundM(new RaceFinishTracker(course, bots[0]!.seat.simDtS, gridPose(stage, cheaterSlot)).run.progressM);
  const seen = bots.map((bot, i) => {
    const t = new RaceFinishTracker(course, bot.seat.simDtS, gridPose(stage, bot.seat.slot));
    const states = new Set([`0:${roundM(t.run.progressM)}`]);
    for (const s of sent[i]!) {
      t.advanceTo(s);
      states.add(`${t.run.lap}:${roundM(t.run.progressM)}`);
      if (t.finish) break;
    }
    return { slot: bot.seat.slot, states };
  });
  let ahead = 0;
  for (const { s } of got) {
    expect(s.rows.map((r) => r.slot).sort()).toEqual([0, 1, 2]);
    // the cheater stood on its grid (its teleport refused) until it retired
    expect(s.rows.at(-1)!).toMatchObject({ slot: cheaterSlot, laps: 0, progressM: cheaterGridM });
    const racing = s.rows.filter((r) => r.status === 'racing' && r.slot !== cheaterSlot);
    for (const r of racing) expect(seen.find((x) => x.slot === r.slot)!.states.has(`${r.laps}:${r.progressM}`)).toBe(true);
    for (let k = 1; k < racing.length; k++) {
      const [p, q] = [racing[k - 1]!, racing[k]!];
      expect(p.laps > q.laps || (p.laps === q.laps && p.progressM >= q.progressM)).toBe(true);
    }
    const fin = s.rows.filter((r) => r.status === 'finished');
    expect(s.rows.slice(0, fin.length)).toEqual(fin);
    expect(fin.map((r) => r.slot)).toEqual(results.filter((r) => fin.some((f) => f.slot === r.slot)).map((r) => r.slot));
    for (const r of fin) expect(r.timeS).toBe(results.find((x) => x.slot === r.slot)!.timeS);
    if (racing.length === 2 && racing[0]!.progressM > racing[1]!.progressM) ahead |= 1 << racing[0]!.slot;
  }
  // at least one message had one bot ahead of the other on the road (the order above then is a real ranking)
  expect(ahead).toBeGreaterThan(0);
}

let server: RoomServer;
beforeAll(async () => {
  server = await startRoomServer({ timing: { floodMargin: FLOOD_MARGIN_TEST } });
});
afterAll(async () => {
  await server.close();
});

const stage = loadStageFromDir(join('src/content/stages', DEFAULT_RACE_CIRCUIT));

/** The state of a car standing at `pos`. */
const standing = (tick: number, pos: { x: number; z: number; heading: number }, recoveries: number): CarState => ({
  tick, ackImpulse: 0, recoveries, px: pos.x, py: 0.5, pz: pos.z, fx: Math.sin(pos.heading), fz: Math.cos(pos.heading), vx: 0, vz: 0, wy: 0, invIyy: 1e-3,
});

describe('race room: laps timed by the server', () => {
  it('two bots race two laps with the server times of the race rules; a recovery and a skipped joker cost their penalties; a fake recovery is refused', async () => {
    const a = await RoomClient.connect({ url: server.url, kind: 'race', car: 'rally-awd', name: 'bot a', laps: LAPS });
    const b = await RoomClient.connect({ url: server.url, code: a.seat.code, car: 'rally-awd', name: 'bot b' });
    const cheater = await RoomClient.connect({ url: server.url, code: a.seat.code, car: 'rally-awd', name: 'cheater' });
    expect([a.seat.stage, a.seat.laps, b.seat.laps]).toEqual([DEFAULT_RACE_CIRCUIT, LAPS, LAPS]);
    const room = matchMaker.getLocalRoomById(a.seat.code) as RaceRoom;
    const clients = [a, b, cheater];
    // the live standings bot a receives from 'go' on, with the wall time each arrived
    const standings: { s: Standings; atMs: number }[] = [];
    a.onStandings = (s) => standings.push({ s, atMs: Date.now() });
    const go = Promise.all(clients.map((c) => new Promise<void>((r) => (c.onGo = r))));
    for (const c of clients) c.ready();
    await go;
    const goMs = Date.now();
    const results: RoomResults[][] = [[], []];
    [a, b].forEach((c, i) => (c.onResults = (r) => results[i]!.push(r)));
    const tpp = a.seat.ticksPerPacket;
    // the cheater: standing on its grid, then "recovered" CHEAT_AHEAD_M further along the circuit (refused)
    const course = netRaceCourse(stage, LAPS);
    const grid = gridPose(stage, cheater.seat.slot);
    const ahead = [0, 0];
    const aheadS = course.path.locate(grid.x, grid.z).s + CHEAT_AHEAD_M;
    course.path.pointAt(aheadS, ahead);
    cheater.sendState(standing(tpp, grid, 0));
    cheater.sendState(standing(2 * tpp, { x: ahead[0]!, z: ahead[1]!, heading: course.path.headingAt(aheadS) }, 1));
    // and a state packet of layout 1 (84 bytes, no recovery counter): dropped as 'version', and the room says why
    const refused = new Promise<string>((r) => (cheater.onRefused = r));
    const old = new Uint8Array(STATE_PACKET_BYTES - 4);
    old.set([STATE_PACKET_TYPE, 1]);
    cheater.sendRaw(old);
    expect(await refused).toBe(`packet layout version 1, expected ${PACKET_VERSION} (client and server differ)`);
    cheater.retire();
    // bot a takes the joker on its first lap, bot b never does
    const bots = [a, b];
    const jokerLaps = [0, Infinity];
    const cars = bots.map((c, i) => createRaceBotCar(stage, c.seat.slot, c.seat.car, c.seat.simDtS, tpp, c.seat.laps!, jokerLaps[i]));
    bots.forEach((c, i) => (c.onImpulse = (p) => void cars[i]!.applyImpulse(p)));
    const sent: CarState[][] = [[], []];
    const finishedSlots = (): Set<number> => new Set((results[0]!.at(-1)?.rows ?? []).filter((r) => r.status === 'finished').map((r) => r.slot));
    // the player of bot a presses Recover once (bots never do by themselves), with bot b well ahead so that the
    // put-back (5 m back, at rest) meets no car: the room takes it
    const progressOf = (car: NetCar): number => raceRunOf(car.run.world, car.eid).progressM;
    await driveToFinish(bots, cars, sent, finishedSlots, MAX_PACKETS, (i, k) => {
      if (i === 0 && k >= RECOVER_FROM_PACKET && cars[0]!.recoveries === 0 && progressOf(cars[1]!) - progressOf(cars[0]!) > RECOVER_GAP_M) cars[0]!.recover();
    });
    await sleep(300);
    const c = room.collider.counters;
    // only the cheater's fake recovery is dropped; bot a's real one is taken
    expect(c.dropped).toEqual({ recovery: 1, version: 1 });
    expect(sent[0]!.at(-1)!.recoveries).toBe(1);
    expect(room.floodDropped).toBe(0);
    // no contact made a state stale: the room's trackers saw every packet the bots sent
    expect(c.impulses).toBe(0);
    const finals = results.map((list) => list.at(-1)!);
    expect(finals[0]!.final).toBe(true);
    expect(finals[1]).toEqual(finals[0]);
    const rows = finals[0]!.rows;
    expect(rows.map((r) => r.status)).toEqual(['finished', 'finished', 'dnf']);
    // the laps the room counted, for every car: the cheater retired standing on its grid
    expect(rows.map((r) => r.laps)).toEqual([LAPS, LAPS, 0]);
    expect(rows[0]!.timeS!).toBeLessThanOrEqual(rows[1]!.timeS!);
    bots.forEach((bot, i) => {
      const row = rows.find((r) => r.slot === bot.seat.slot)!;
      // the offline race rules on this bot's own packets: exactly the room's finish, time and penalty
      const t = new RaceFinishTracker(course, bot.seat.simDtS, gridPose(stage, bot.seat.slot));
      for (const s of sent[i]!) if (t.advanceTo(s) !== null) break;
      expect([row.finishTick, row.timeS, row.penaltyS]).toEqual([t.finish!.tick, t.finish!.timeS, t.finish!.penaltyS]);
      expect(row.penaltyS).toBe(i === 0 ? RECOVER_PENALTY_S : JOKER_PENALTY_S);
      // and the car's own RaceProgress (every sim tick): the same laps and penalty, the flag within one tick
      const car = cars[i]!;
      const own = raceRunOf(car.run.world, car.eid);
      expect([own.lap, own.penaltyS]).toEqual([LAPS, row.penaltyS]);
      expect(Math.abs(row.finishTick! - car.run.world.c.RaceProgress.finishTick[car.eid]!)).toBeLessThanOrEqual(1);
    });
    checkStandings(standings, goMs, bots, sent, rows, cheater.seat.slot);
    expect(a.standingsProblem).toBeNull();
    await sleep(1200);
    expect(matchMaker.getLocalRoomById(a.seat.code)).toBeUndefined();
    await Promise.all(clients.map((x) => x.leave()));
  }, 120_000);

  it('a client refuses a malformed standings message with its reason and takes the next good one', async () => {
    const c = await RoomClient.connect({ url: server.url, kind: 'race' });
    const room = matchMaker.getLocalRoomById(c.seat.code) as RaceRoom;
    const good = new Promise<Standings>((r) => (c.onStandings = r));
    room.broadcast('standings', { rows: [{ slot: 0, name: 'x', status: 'racing', laps: 'many', progressM: 0, timeS: null }] });
    room.broadcast('standings', { rows: [{ slot: 0, name: 'x', status: 'racing', laps: 1, progressM: 12, timeS: null }] });
    expect((await good).rows).toEqual([{ slot: 0, name: 'x', status: 'racing', laps: 1, progressM: 12, timeS: null }]);
    expect(c.standingsProblem).toBe('standings message: rows[0].laps: expected a whole number of laps ≥ 0, found "many"');
    await c.leave();
  });

  it('the server checks the laps a client asks for: an integer in range, else the default; stage rooms have none', async () => {
    const seats = [];
    for (const laps of [5, 0, 2.5, 999]) {
      const c = await RoomClient.connect({ url: server.url, kind: 'race', laps });
      seats.push(c.seat.laps);
      await c.leave();
    }
    expect(seats).toEqual([5, DEFAULT_RACE_LAPS, DEFAULT_RACE_LAPS, DEFAULT_RACE_LAPS]);
    const st = await RoomClient.connect({ url: server.url, kind: 'stage', laps: 5 });
    expect(st.seat.laps).toBeNull();
    await st.leave();
  });
});
