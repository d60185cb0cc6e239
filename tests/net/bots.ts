/**
 * Shared by the network tests: an in-process race room server on a free loopback port, and head-on bot cars
 * (NetCar, the real sim) driving a fixed plan that does not depend on the network.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as ColyseusServer } from '@colyseus/core';
import { attachRooms, type RoomsOptions } from '../../server/rooms/attach';
import { NET_SIM_DT_S, TICKS_PER_PACKET } from '../../server/rooms/race-room';
import { NetCar, type NetControls } from '../../src/net/net-car';
import type { RoomClient } from '../../src/net/room-client';
import type { CarState } from '../../src/net/packets';
import { BUILTIN_CARS } from '../../src/content/cars/index';
import type { RunCar } from '../../src/run/cars';

/** Wall time between packets, ms (62.5 Hz, the room's default rate; its flood limit is 1.5 × that). */
export const PACKET_WALL_MS = 16;
/** Full throttle for about a second, then coasting. */
const THROTTLE_PACKETS = 62;
/** Each car starts this far from the middle, m. */
const HALF_GAP_M = 8;

export interface RoomServer {
  url: string;
  close(): Promise<void>;
}

export async function startRoomServer(o: RoomsOptions = {}): Promise<RoomServer> {
  const http: HttpServer = createServer();
  const game: ColyseusServer = await attachRooms(http, o);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
    async close() {
      await game.gracefullyShutdown(false);
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

function runCar(id: string, x: number, heading: number): RunCar {
  const files = Object.fromEntries(BUILTIN_CARS.map((b) => [b.file, b.text]));
  return { id, role: 'player', main: 'hatch-gti.toml', files, pose: { x, y: 0, z: 0, heading } };
}

/** Two hatch-gti cars facing each other on flat ground, 2·HALF_GAP_M apart along x. */
export function headOnCars(): [NetCar, NetCar] {
  return [
    new NetCar(runCar('a', -HALF_GAP_M, Math.PI / 2), NET_SIM_DT_S, TICKS_PER_PACKET),
    new NetCar(runCar('b', HALF_GAP_M, -Math.PI / 2), NET_SIM_DT_S, TICKS_PER_PACKET),
  ];
}

export const plan = (k: number): NetControls => ({ steer: 0, throttle: k < THROTTLE_PACKETS ? 1 : 0, brake: 0 });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wall ms per round of packets in driveToFinish: 1000 packets/s per bot (rooms started with a raised flood margin). */
const ROUND_MS = 1;
/** Rounds between two waits on the wall clock (a timer per round would take ~1 ms or more each). */
const PACE_EVERY = 16;

/**
 * Steps the bots' cars, one packet each per round, sending each state (and keeping it in `sent`), until the room
 * lists each bot's slot in `finished()` or after `maxPackets` rounds. The pacing rule: at most one packet per bot
 * per ROUND_MS of wall time, and a late schedule restarts from now (no catch-up burst over the flood limit).
 */
export async function driveToFinish(
  bots: RoomClient[],
  cars: NetCar[],
  sent: CarState[][],
  finished: () => Set<number>,
  maxPackets: number,
  /** Called before bot `i` steps its packet of round `k` (a test's recovery). */
  beforeStep: (i: number, k: number) => void = () => undefined,
): Promise<void> {
  let next = Date.now();
  for (let k = 0; k < maxPackets; k++) {
    const done = finished();
    if (bots.every((b) => done.has(b.seat.slot))) return;
    bots.forEach((b, i) => {
      if (done.has(b.seat.slot)) return;
      beforeStep(i, k);
      const s = cars[i]!.step();
      cars[i]!.run.world.events.length = 0;
      sent[i]!.push(s);
      b.sendState(s);
    });
    // at most one packet per bot per ROUND_MS of wall time (under the raised flood limit); the messages go out.
    // A round late (a slow CPU) is not caught up with a burst: the schedule restarts from now.
    await new Promise((r) => setImmediate(r));
    if (k % PACE_EVERY === 0) {
      next += PACE_EVERY * ROUND_MS;
      const waitMs = next - Date.now();
      if (waitMs > 0) await sleep(waitMs);
      else next = Date.now();
    }
  }
}
