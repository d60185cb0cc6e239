/**
 * Issue #22 Must-show 1 (server side): two bot clients, each simulating its own car with the real sim (NetCar) and
 * talking to an in-process race room over WebSocket on loopback, drive head-on. At simulated one-way delays of 0,
 * 25 and 75 ms the server sees one collision, both bots receive impulses equal and opposite to 1e-9 stamped with
 * the same contact tick, and the post-collision velocities agree with the 0 ms run to 2 % (here: exactly, since
 * each bot rewinds to the stamped tick and the simulation is deterministic). Bounded: at most MAX_PACKETS packets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchMaker } from '@colyseus/core';
import type { RaceRoom } from '../../server/rooms/race-room';
import { RoomClient } from '../../src/net/room-client';
import { headOnCars, PACKET_WALL_MS, plan, sleep, startRoomServer, type RoomServer } from './bots';

const MAX_PACKETS = 240;

let server: RoomServer;
let url: string;

beforeAll(async () => {
  server = await startRoomServer();
  url = server.url;
});

afterAll(async () => {
  await server.close();
});

async function headOn(delayMs: number) {
  const a = await RoomClient.connect({ url, car: 'hatch-gti', delayMs });
  const b = await RoomClient.connect({ url, car: 'hatch-gti', code: a.seat.code, delayMs });
  const cars = headOnCars();
  a.onImpulse = (p) => cars[0]!.applyImpulse(p);
  b.onImpulse = (p) => cars[1]!.applyImpulse(p);
  const room = matchMaker.getLocalRoomById(a.seat.code) as RaceRoom;
  const relayed: number[][] = [[], []];
  a.onRemote = (slot, s) => slot === 1 && relayed[0]!.push(s.tick);
  b.onRemote = (slot, s) => slot === 0 && relayed[1]!.push(s.tick);
  // drive until both cars have their impulse and a margin of 30 ticks has passed (bounded by MAX_TICKS)
  let doneAt = -1;
  for (let t = 0; t < MAX_PACKETS && (doneAt < 0 || t < doneAt + 30); t++) {
    a.sendState(cars[0]!.step(plan(t)));
    b.sendState(cars[1]!.step(plan(t)));
    if (doneAt < 0 && cars.every((c) => c.applied.length > 0)) doneAt = t;
    await sleep(PACKET_WALL_MS);
  }
  await sleep(2 * delayMs + 50);
  const counters = { ...room.collider.counters };
  await a.leave();
  await b.leave();
  return { cars, counters, relayed, bytes: a.bytesSent };
}

describe('two bots head-on over WebSocket', () => {
  const results: Awaited<ReturnType<typeof headOn>>[] = [];
  it.each([0, 25, 75])('one collision, equal and opposite impulses at %i ms one-way delay', async (delayMs) => {
    const r = await headOn(delayMs);
    results.push(r);
    expect(r.counters.contacts).toBe(1);
    expect(r.counters.impulses).toBe(1);
    const [ia, ib] = r.cars.map((c) => c.applied);
    expect(ia).toHaveLength(1);
    expect(ib).toHaveLength(1);
    const pa = ia![0]!.packet, pb = ib![0]!.packet;
    expect(pa.tick).toBe(pb.tick);
    const scale = Math.hypot(pa.jx, pa.jz);
    expect(scale).toBeGreaterThan(1000); // a real hit: 1.2 t at several m/s
    expect(Math.abs(pa.jx + pb.jx)).toBeLessThanOrEqual(1e-9 * scale);
    expect(Math.abs(pa.jz + pb.jz)).toBeLessThanOrEqual(1e-9 * scale);
    // what the two clients did: the pair's linear momentum across the impulse, m·Δv_A + m·Δv_B = 0 (same car, same
    // mass), each Δv = J/m of its own impulse
    const { before: a0, after: a1 } = ia![0]!, { before: b0, after: b1 } = ib![0]!;
    const dvA = [a1!.vx - a0!.vx, a1!.vz - a0!.vz], dvB = [b1!.vx - b0!.vx, b1!.vz - b0!.vz];
    const dv = Math.hypot(dvA[0]!, dvA[1]!);
    expect(dv).toBeGreaterThan(1);
    expect(Math.hypot(dvA[0]! + dvB[0]!, dvA[1]! + dvB[1]!)).toBeLessThanOrEqual(1e-9 * dv);
    const va = a1!, vb = b1!;
    expect(va.vx).toBeLessThan(vb.vx + 1e-9); // no longer approaching along x (A drives +x, B −x)
    // each bot received the other's accepted states, relayed in tick order (for drawing the remote car)
    for (const ticks of r.relayed) {
      expect(ticks.length).toBeGreaterThan(50);
      expect(ticks.every((t, i) => i === 0 || t > ticks[i - 1]!)).toBe(true);
    }
    if (delayMs > 0) {
      // the impulse arrived after the contact packet: both cars rewound, and the room ignored the unacknowledged packets
      expect(ia![0]!.outcome).toBe('rewound');
      expect(ib![0]!.outcome).toBe('rewound');
      expect(r.counters.stale).toBeGreaterThan(0);
    }
  }, 30_000);

  it('post-collision velocities at 25 and 75 ms within 2 % of the 0 ms run', () => {
    expect(results).toHaveLength(3);
    const ref = results[0]!.cars.map((c) => c.applied[0]!.after!);
    for (const r of results.slice(1)) {
      r.cars.forEach((c, k) => {
        const v = c.applied[0]!.after!, v0 = ref[k]!;
        const speed0 = Math.hypot(v0.vx, v0.vz);
        expect(Math.hypot(v.vx - v0.vx, v.vz - v0.vz)).toBeLessThanOrEqual(0.02 * speed0 + 1e-9);
      });
    }
  });
});
