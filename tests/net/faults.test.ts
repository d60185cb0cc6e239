/**
 * Issue #22 fault tests (room side): while two bots drive head-on, a third client in the room sends garbage,
 * wrong-size packets, a teleport, impossible speeds and a flood; its packets are dropped and counted, and the bots'
 * contacts each get one impulse pair between the two of them, equal and opposite. A frame over the transport limit closes the sender's
 * connection; a bot killed mid-race (socket closed) leaves the room going on for the others, and reconnecting within
 * RECONNECT_S resumes its car.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchMaker } from '@colyseus/core';
import { packetLimitPerSecond, TICKS_PER_PACKET, type RaceRoom } from '../../server/rooms/race-room';
import { MAX_FRAME_BYTES } from '../../server/rooms/attach';
import { RoomClient } from '../../src/net/room-client';
import { encodeState, STATE_PACKET_BYTES } from '../../src/net/packets';
import { headOnCars, PACKET_WALL_MS, plan, sleep, startRoomServer, type RoomServer } from './bots';

const MAX_PACKETS = 240;
let server: RoomServer;

beforeAll(async () => {
  server = await startRoomServer();
});
afterAll(async () => {
  await server.close();
});

/** One bad packet per packet tick, cycling through the kinds the room must refuse. */
function badPacket(k: number): Uint8Array {
  const good = { tick: 8 * (k + 1), ackImpulse: 0, recoveries: 0, px: 0, py: 0.5, pz: 30, fx: 1, fz: 0, vx: 0, vz: 0, wy: 0, invIyy: 1e-3 };
  switch (k % 5) {
    case 0:
      return Uint8Array.from({ length: STATE_PACKET_BYTES }, (_, i) => (i * 37 + k) & 255); // garbage
    case 1:
      return new Uint8Array(STATE_PACKET_BYTES + 1); // wrong size
    case 2:
      return encodeState({ ...good, px: 1000 * k }); // teleports
    case 3:
      return encodeState({ ...good, vx: 500 }); // impossible speed
    default:
      return encodeState({ ...good, tick: 3 }); // not a packet tick
  }
}

describe('a misbehaving client does not affect the others', () => {
  it('garbage, teleports and a flood are dropped; the bots still collide once, equal and opposite', async () => {
    // the room must know the car each bot simulates (its rectangle and mass come from the car chosen at join)
    const a = await RoomClient.connect({ url: server.url, car: 'hatch-gti' });
    const b = await RoomClient.connect({ url: server.url, car: 'hatch-gti', code: a.seat.code });
    const bad = await RoomClient.connect({ url: server.url, code: a.seat.code });
    const room = matchMaker.getLocalRoomById(a.seat.code) as RaceRoom;
    const cars = headOnCars();
    a.onImpulse = (p) => cars[0].applyImpulse(p);
    b.onImpulse = (p) => cars[1].applyImpulse(p);
    let doneAt = -1;
    for (let t = 0; t < MAX_PACKETS && (doneAt < 0 || t < doneAt + 10); t++) {
      a.sendState(cars[0].step(plan(t)));
      b.sendState(cars[1].step(plan(t)));
      bad.sendRaw(badPacket(t));
      if (doneAt < 0 && cars.every((c) => c.applied.length > 0)) doneAt = t;
      await sleep(PACKET_WALL_MS);
    }
    // a flood: twice the per-second limit in one burst
    for (let i = 0; i < 2 * packetLimitPerSecond(TICKS_PER_PACKET); i++) bad.sendRaw(badPacket(i));
    await sleep(100);
    const c = room.collider.counters;
    // every contact got one impulse pair, only between the two bots, equal and opposite (the bad car is far away)
    expect(c.contacts).toBe(1);
    expect(c.impulses).toBe(1);
    expect(cars.map((car) => car.applied.length)).toEqual([c.impulses, c.impulses]);
    cars[0].applied.forEach((x, i) => {
      const y = cars[1].applied[i]!;
      expect([x.packet.other, y.packet.other]).toEqual([1, 0]);
      expect(x.packet.seq).toBe(y.packet.seq);
      expect(Math.abs(x.packet.jx + y.packet.jx)).toBeLessThanOrEqual(1e-9 * Math.hypot(x.packet.jx, x.packet.jz));
    });
    expect(c.dropped.malformed).toBeGreaterThan(0);
    expect(c.dropped.jump).toBeGreaterThan(0);
    expect(c.dropped.speed).toBeGreaterThan(0);
    expect(c.dropped.tick).toBeGreaterThan(0);
    expect(room.floodDropped).toBeGreaterThan(0);
    await Promise.all([a.leave(), b.leave(), bad.leave()]);
  }, 30_000);

  it('a frame over the limit closes the sender; a killed bot leaves the room going on, and resumes on reconnect', async () => {
    const a = await RoomClient.connect({ url: server.url });
    const b = await RoomClient.connect({ url: server.url, code: a.seat.code });
    const huge = await RoomClient.connect({ url: server.url, code: a.seat.code });
    const room = matchMaker.getLocalRoomById(a.seat.code) as RaceRoom;
    const left = new Promise<number>((r) => huge.room.onLeave((code) => r(code)));
    huge.sendRaw(new Uint8Array(MAX_FRAME_BYTES * 4));
    expect(await left).toBeGreaterThan(1000); // a WebSocket close code, not a consented leave
    const cars = headOnCars();
    for (let t = 0; t < 20; t++) {
      a.sendState(cars[0].step(plan(t)));
      b.sendState(cars[1].step(plan(t)));
      await sleep(PACKET_WALL_MS);
    }
    // kill bot b: its socket goes away without a leave message
    b.room.connection.close();
    await sleep(200);
    const before = room.collider.counters.accepted;
    for (let t = 20; t < 40; t++) {
      a.sendState(cars[0].step(plan(t)));
      await sleep(PACKET_WALL_MS);
    }
    await sleep(100);
    expect(room.collider.counters.accepted - before).toBe(20);
    expect(room.clients.length).toBe(1);
    // the killed bot comes back within RECONNECT_S: same seat, its car resumes (a fresh tick sequence is accepted)
    expect(room.collider.hasCar(b.seat.slot)).toBe(true);
    const back = await RoomClient.resume(server.url, b);
    const accepted = room.collider.counters.accepted;
    for (let t = 20; t < 30; t++) {
      back.sendState(cars[1].step(plan(t)));
      await sleep(PACKET_WALL_MS);
    }
    await sleep(100);
    expect(room.collider.counters.accepted - accepted).toBe(10);
    expect(room.clients.length).toBe(2);
    await back.leave();
    // a consented leave retires the car at once
    await sleep(100);
    expect(room.collider.hasCar(b.seat.slot)).toBe(false);
    await a.leave();
  }, 30_000);
});
