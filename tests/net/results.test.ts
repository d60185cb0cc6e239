/**
 * Results with the server's times over the network (issue #22): a "stage together" room on test-short with four
 * real clients on loopback — two AI bots that drive to the finish, a cheater whose states claim the finish right
 * after 'go' (it retires at the end), and a client whose connection drops for good. The room's reconnect window is shortened to
 * RECONNECT_TEST_S and its flood margin raised so the drive runs faster than real time (the CPU, not the clock,
 * paces it). Both bots receive the same final results; each bot's time is its finish tick × the sim step, the
 * tick within one of what its own NetCar's StageProgress says (and equal to what the room's tracker makes of that
 * bot's own packets); the cheater gets no time; the dropped client is DNF after the window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { Client } from 'colyseus.js';
import { loadStageFromDir } from '../../terrain/node';
import { RoomClient } from '../../src/net/room-client';
import { createStageBotCar } from '../../src/net/bot-car';
import { gridPose } from '../../src/net/grid';
import { netStageCourse, StageFinishTracker } from '../../src/net/stage-finish';
import type { RoomResults } from '../../src/net/results';
import type { CarState } from '../../src/net/packets';
import { NO_TICK } from '../../src/ecs/components/progress';
import { DEFAULT_ROOM_TIMING, type RaceRoom } from '../../server/rooms/race-room';
import { DEFAULT_ROOM_STAGE } from '../../server/rooms/stages';
import { driveToFinish, startRoomServer, sleep, type RoomServer } from './bots';

/** The shortened reconnect window, s. */
const RECONNECT_TEST_S = 1;
/** Packets allowed per second: 20 × the room's rate, so the CPU paces the drive. */
const FLOOD_MARGIN_TEST = 20;
/** A bot stops after this many packets without a result (about 80 s simulated; the AI needs about 55 s). */
const MAX_PACKETS = 5000;

let server: RoomServer;
beforeAll(async () => {
  server = await startRoomServer({ timing: { reconnectS: RECONNECT_TEST_S, floodMargin: FLOOD_MARGIN_TEST } });
});
afterAll(async () => {
  await server.close();
});

const stage = loadStageFromDir(join('src/content/stages', DEFAULT_ROOM_STAGE));

/** Four clients seated in one stage room, readied, after 'go'. */
async function seatRoom(): Promise<RoomClient[]> {
  const a = await RoomClient.connect({ url: server.url, kind: 'stage', car: 'rally-awd', name: 'bot <a>' });
  const others = [];
  for (const name of ['bot b', 'cheater', 'dropper']) others.push(await RoomClient.connect({ url: server.url, code: a.seat.code, car: 'rally-awd', name }));
  const clients = [a, ...others];
  const go = Promise.all(clients.map((c) => new Promise<void>((r) => (c.onGo = r))));
  for (const c of clients) c.ready();
  await go;
  return clients;
}

/** The state of a car standing at `pos` (the cheater's claims). */
const standing = (tick: number, pos: { x: number; z: number; heading: number }): CarState => ({
  tick, ackImpulse: 0, recoveries: 0, px: pos.x, py: 0.5, pz: pos.z, fx: Math.sin(pos.heading), fz: Math.cos(pos.heading), vx: 0, vz: 0, wy: 0, invIyy: 1e-3,
});

describe('results with the server times', () => {
  it('two bots finish ranked with server times; a cheater gets none; a dropped client is DNF', async () => {
    const [a, b, cheater, dropper] = await seatRoom();
    const room = matchMaker.getLocalRoomById(a!.seat.code) as RaceRoom;
    const results: RoomResults[][] = [[], [], []];
    [a!, b!, cheater!].forEach((c, i) => (c.onResults = (r) => results[i]!.push(r)));
    const bots = [a!, b!];
    const cars = bots.map((c) => createStageBotCar(stage, c.seat.slot, c.seat.car, c.seat.simDtS, c.seat.ticksPerPacket));
    bots.forEach((c, i) => (c.onImpulse = (p) => void cars[i]!.applyImpulse(p)));
    const tpp = a!.seat.ticksPerPacket;
    // the cheater: at the finish right after go (refused: not reachable from its grid pose), then on its grid,
    // then at the finish again (refused: a jump no car makes in one packet)
    const fin = stage.road.poseAt(stage.finish.distanceM);
    const grid = gridPose(stage, cheater!.seat.slot);
    cheater!.sendState(standing(tpp, { x: fin.x, z: fin.z, heading: fin.heading }));
    cheater!.sendState(standing(2 * tpp, grid));
    for (let k = 3; k < 10; k++) cheater!.sendState(standing(k * tpp, { x: fin.x, z: fin.z, heading: fin.heading }));
    // the dropper sends a packet from its grid, then its socket closes without a leave
    dropper!.sendState(standing(tpp, gridPose(stage, dropper!.seat.slot)));
    await sleep(50);
    dropper!.room.connection.close();
    const sent: CarState[][] = [[], []];
    const finishedSlots = (): Set<number> => new Set((results[0]!.at(-1)?.rows ?? []).filter((r) => r.status === 'finished').map((r) => r.slot));
    await driveToFinish(bots, cars, sent, finishedSlots, MAX_PACKETS);
    const c = room.collider.counters;
    expect(c.dropped.start).toBe(1);
    expect(c.dropped.jump).toBe(7);
    expect(room.floodDropped).toBe(0);
    // the cheater retires (it never had a time): the race is over, final results to everyone still in the room
    cheater!.retire();
    await sleep(300);
    const finals = results.map((list) => list.at(-1)!);
    expect(finals[0]!.final).toBe(true);
    expect(finals[1]).toEqual(finals[0]);
    expect(finals[2]).toEqual(finals[0]);
    const rows = finals[0]!.rows;
    expect(rows.map((r) => r.status)).toEqual(['finished', 'finished', 'dnf', 'dnf']);
    expect(rows.slice(2).map((r) => [r.slot, r.retired])).toEqual([[cheater!.seat.slot, 'retired'], [dropper!.seat.slot, 'disconnect']]);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, null, null]);
    expect(rows[0]!.finishTick!).toBeLessThanOrEqual(rows[1]!.finishTick!);
    // names come back as the players gave them (the game escapes them when it draws)
    expect(rows.find((r) => r.slot === a!.seat.slot)!.name).toBe('bot <a>');
    bots.forEach((bot, i) => {
      const row = rows.find((r) => r.slot === bot.seat.slot)!;
      const car = cars[i]!;
      const own = car.run.world.c.StageProgress.finishTick[car.eid]!;
      expect(own).not.toBe(NO_TICK);
      // time = finish tick × the sim step, on the server
      expect(row.timeS).toBe(row.finishTick! * bot.seat.simDtS);
      // the tracker on this bot's own packets (no impulse made any stale): exactly the room's tick
      const t = new StageFinishTracker(netStageCourse(stage), bot.seat.simDtS, gridPose(stage, bot.seat.slot));
      for (const s of sent[i]!) if (t.advanceTo(s) !== null) break;
      expect(t.finishTick).toBe(row.finishTick);
      // and within one sim tick of the car's own StageProgress (the interpolation between packets: stage-finish.test.ts)
      expect(Math.abs(row.finishTick! - own)).toBeLessThanOrEqual(1);
    });
    expect(c.impulses).toBe(0);
    // the room ends after the final results: the clients' connections close, and leaving then returns at once
    await sleep(1200);
    expect(matchMaker.getLocalRoomById(a!.seat.code)).toBeUndefined();
    expect(bots.map((x) => x.closed)).toEqual([true, true]);
    await Promise.all([a!.leave(), b!.leave(), cheater!.leave()]);
  }, 120_000);

  it('a client cannot set the room timing: the server definition overrides its create options', async () => {
    const room = await new Client(server.url).create('stage', { timing: { reconnectS: 999, raceCapS: 1e9, floodMargin: 1e6 } });
    const seat = await new Promise<{ code: string }>((r) => room.onMessage('seat', r));
    room.onMessage('lobby', () => undefined);
    const r = matchMaker.getLocalRoomById(seat.code) as RaceRoom;
    expect(r.timing).toEqual({ ...DEFAULT_ROOM_TIMING, reconnectS: RECONNECT_TEST_S, floodMargin: FLOOD_MARGIN_TEST });
    await room.leave();
  });
});
