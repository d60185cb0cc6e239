/**
 * The BitRally server with rooms on (`npm run server`): the HTTP API and the race room's WebSocket share one port;
 * a client creates a room, a second joins it by its code and both get seats; the lobby's countdown starts when
 * both are ready and 'go' arrives after COUNTDOWN_MS of server clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBitRallyServer, type BitRallyServer } from '../../server/server';
import { RoomClient, type Lobby } from '../../src/net/room-client';
import { normaliseRoomCode } from '../../src/net/room-code';
import { COUNTDOWN_MS, FLOOD_MARGIN, packetLimitPerSecond, TICKS_PER_PACKET } from '../../server/rooms/race-room';

let server: BitRallyServer;
let base: string;
const dir = mkdtempSync(join(tmpdir(), 'bitrally-rooms-'));

beforeAll(async () => {
  server = await createBitRallyServer({ dataDir: dir, logger: false, verifier: { threads: 1 }, rooms: true });
  base = await server.listen(0, '127.0.0.1');
}, 60_000);

afterAll(async () => {
  await server.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

describe('rooms on the API server', () => {
  it('serves the API and the race room on one port; join by code, ready, countdown, go', async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const url = base.replace(/^http/, 'ws');
    const a = await RoomClient.connect({ url, car: 'rally-awd', name: 'A' });
    const b = await RoomClient.connect({ url, car: 'nope', name: 'B', code: a.seat.code });
    expect(a.seat.code).toMatch(/^[A-Z2-9]{5}$/);
    expect(b.seat.code).toBe(a.seat.code);
    expect([a.seat.slot, b.seat.slot]).toEqual([0, 1]);
    expect(a.seat.car).toBe('rally-awd');
    expect(b.seat.car).toBe('classic-rwd'); // an unknown car falls back to the first built-in one
    expect(normaliseRoomCode(a.seat.code)).toBe(a.seat.code); // the game's code entry accepts every code the room makes
    const lobbies: Lobby[] = [];
    a.onLobby = (l) => lobbies.push(l);
    const t0 = Date.now();
    const go = Promise.all([new Promise<void>((r) => (a.onGo = r)), new Promise<void>((r) => (b.onGo = r))]);
    a.ready();
    b.ready();
    await go;
    // the countdown runs on the server clock: no earlier than COUNTDOWN_MS after the last ready (minus a tick)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(COUNTDOWN_MS - 50);
    // the lobby that starts the countdown carries the server clock it was sent at: startsAt is exactly COUNTDOWN_MS later
    const starting = lobbies.find((l) => l.startsAt !== null)!;
    expect(starting.startsAt! - starting.now).toBe(COUNTDOWN_MS);
    expect(lobbies.every((l) => Number.isFinite(l.now))).toBe(true);
    await a.leave();
    await b.leave();
  }, 30_000);

  it('the packet rate is a room option, refused values fall back to the default', async () => {
    const url = base.replace(/^http/, 'ws');
    const fast = await RoomClient.connect({ url, ticksPerPacket: 4 });
    const joiner = await RoomClient.connect({ url, code: fast.seat.code });
    const odd = await RoomClient.connect({ url, ticksPerPacket: 1000 });
    expect([fast.seat.ticksPerPacket, joiner.seat.ticksPerPacket, odd.seat.ticksPerPacket]).toEqual([4, 4, TICKS_PER_PACKET]);
    expect(packetLimitPerSecond(4)).toBe(Math.ceil(FLOOD_MARGIN * 125)); // 4 × 2 ms = 125 packets/s
    await Promise.all([fast.leave(), joiner.leave(), odd.leave()]);
  }, 30_000);
});
