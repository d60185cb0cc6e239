/**
 * "Stage together" rooms: AI-driven bots (the real client code over WebSocket on loopback, createStageBotCar) on a
 * shipped stage, all in one room with collisions on. Short (CI): 4 bots, 3 s of simulated driving; the 32-bot,
 * 2-minute soak is `npm run soak` (bench/soak.ts) on the same harness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { loadStageFromDir } from '../../terrain/node';
import { startRoomServer, type RoomServer } from './bots';
import { driveField, checkImpulses, leaveField } from './field';
import { gridPose, GRID_COLUMN_M, GRID_ROW_M } from '../../src/net/grid';
import type { RaceRoom } from '../../server/rooms/race-room';
import { DEFAULT_ROOM_STAGE } from '../../server/rooms/stages';

const BOTS = 4;
/** 187 packets × 8 ticks × 2 ms ≈ 3 s simulated. */
const PACKETS = 187;
/** Every shipped car accelerates from rest harder than this on a stage's first metres, m/s². */
const MIN_ACCEL_M_S2 = 2;

let server: RoomServer;
beforeAll(async () => {
  server = await startRoomServer();
});
afterAll(async () => {
  await server.close();
});

const ACCEPT_WAIT_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('stage room', () => {
  it('grid poses: two columns 2·GRID_COLUMN_M apart across the road, rows GRID_ROW_M apart along it', () => {
    const stage = loadStageFromDir(join('src/content/stages', DEFAULT_ROOM_STAGE));
    const [a, b, c] = [gridPose(stage, 0), gridPose(stage, 1), gridPose(stage, 2)];
    expect(Math.hypot(a.x - b.x, a.z - b.z)).toBeCloseTo(2 * GRID_COLUMN_M, 9);
    // across: a→b is perpendicular to the heading (forward is (sin h, cos h) in x, z)
    expect((b.x - a.x) * Math.sin(a.heading) + (b.z - a.z) * Math.cos(a.heading)).toBeCloseTo(0, 9);
    // along: slot 2's row is GRID_ROW_M of road from slot 0's (projection onto the polyline centreline: 5 cm)
    const proj = { distanceM: 0, lateralM: 0, index: 0 };
    const along = (p: { x: number; z: number }) => (stage.road.project(p.x, p.z, proj), proj.distanceM);
    expect(Math.abs(Math.abs(along(c) - along(a)) - GRID_ROW_M)).toBeLessThan(0.05);
  });

  it('AI bots drive the stage together: states relayed, every packet accepted, no impulse lost', async () => {
    const f = await driveField({ url: server.url, bots: BOTS, packets: PACKETS, paceMs: 16, cars: ['hatch-gti', 'rally-awd', 'classic-rwd'] });
    const seat = f.clients[0]!.seat;
    expect(seat.stage).toBe(DEFAULT_ROOM_STAGE);
    const room = matchMaker.getLocalRoomById(seat.code) as RaceRoom;
    expect(room.stage).toBe(DEFAULT_ROOM_STAGE);
    // honest clients: nothing dropped by the checks or the flood limit (on a loaded machine the last packets may
    // still be in the server's queue when the field stops: wait for them, bounded)
    for (let waitedMs = 0; room.collider.counters.accepted < BOTS * PACKETS && waitedMs < ACCEPT_WAIT_MS; waitedMs += 50) await sleep(50);
    await sleep(300); // the impulses of the last packets, on their way to the bots
    expect(room.collider.counters.accepted).toBe(BOTS * PACKETS);
    expect(room.floodDropped).toBe(0);
    const stage = loadStageFromDir(join('src/content/stages', DEFAULT_ROOM_STAGE));
    const tS = PACKETS * seat.ticksPerPacket * seat.simDtS;
    f.cars.forEach((car, i) => {
      const start = gridPose(stage, f.clients[i]!.seat.slot);
      const s = f.last[i]!;
      // driven forward by its AI: at least ½·a·t² from the grid
      expect(Math.hypot(s.px - start.x, s.pz - start.z)).toBeGreaterThan(0.5 * MIN_ACCEL_M_S2 * tS * tS);
      expect(car.tick).toBe(PACKETS * seat.ticksPerPacket);
    });
    const check = checkImpulses(f.cars, f.clients.map((c) => c.seat.slot));
    expect(check.lost).toEqual([]);
    expect(check.sent).toBe(room.collider.counters.impulses);
    await leaveField(f);
  }, 120_000);
});
