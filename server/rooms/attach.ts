/**
 * Realtime rooms on the BitRally server's http.Server (same port as the HTTP API): Colyseus 0.16 with its
 * WebSocketTransport, the "race" and "stage" rooms defined. Colyseus keeps one matchmaker per process, so attach
 * once. With a Redis URL, Colyseus' RedisPresence and RedisDriver let several server processes share one room list:
 * a client asks any process to join a room by code, that process reserves the seat on the room's own process
 * (presence IPC), and the client's WebSocket then connects to the owner's `publicAddress`. Colyseus' LobbyRoom
 * ("lobby", as RoomListLobby) is the live room list (src/net/room-list-feed.ts).
 */
import type { Server as HttpServer } from 'node:http';
import { Server as ColyseusServer, matchMaker, type Presence, type MatchMakerDriver } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisPresence } from '@colyseus/redis-presence';
import { RedisDriver } from '@colyseus/redis-driver';
import { DEFAULT_ROOM_TIMING, RaceRoom, StageRoom, type RoomTiming } from './race-room';
import { STATE_PACKET_BYTES } from '../../src/net/packets';
import { ROOM_LIST_LOBBY } from '../../src/net/room-list-feed';
import { RoomListLobby } from './room-list-lobby';

/** Largest WebSocket frame accepted, bytes: a state packet plus Colyseus framing, with room for lobby JSON. */
export const MAX_FRAME_BYTES = Math.max(4096, STATE_PACKET_BYTES * 8);
/** How long the Redis connections may take to become ready at start-up, ms. */
export const REDIS_READY_TIMEOUT_MS = 20_000;

export interface RoomsOptions {
  /** redis://host:port: share rooms with the other processes on that Redis (default: this process only). */
  redisUrl?: string;
  /** host:port where clients reach THIS process's WebSocket (needed with Redis: rooms live on one process). */
  publicAddress?: string;
  /** The rooms' reconnect window, race cap and flood margin (tests shorten them); DEFAULT_ROOM_TIMING otherwise. */
  timing?: Partial<RoomTiming>;
}

/** The part of an ioredis connection this file reads (RedisPresence and RedisDriver keep theirs unexported). */
interface RedisConnection {
  status: string;
  once(event: 'ready', cb: () => void): unknown;
}

/** Resolves when the ioredis connection has passed its ready check (rejects after REDIS_READY_TIMEOUT_MS). */
function redisReady(conn: RedisConnection, what: string): Promise<void> {
  if (conn.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`rooms: the Redis ${what} connection was not ready in ${REDIS_READY_TIMEOUT_MS} ms`)), REDIS_READY_TIMEOUT_MS);
    conn.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The presence and driver on `redisUrl`, once all three of their connections are ready. Why wait: a room subscribes
 * its IPC channel on the presence's subscriber connection when it is created; ioredis (5.x) writes a SUBSCRIBE at
 * once while the connection is still in its handshake ("connect", before the INFO ready check), which puts the
 * connection in subscriber mode, makes the ready check fail ("Connection in subscriber mode") and reconnects it; the
 * room's seat reservations from other processes are lost meanwhile ("process … is not available" / "socket hang
 * up" on the first cross-process join right after start). No room can exist before this resolves.
 */
async function readyRedis(redisUrl: string): Promise<{ presence: Presence; driver: MatchMakerDriver }> {
  const presence = new RedisPresence(redisUrl);
  const driver = new RedisDriver(redisUrl);
  const inner = presence as unknown as { sub: RedisConnection; pub: RedisConnection };
  const store = (driver as unknown as { _client: RedisConnection })._client;
  await Promise.all([redisReady(inner.sub, 'subscriber'), redisReady(inner.pub, 'publisher'), redisReady(store, 'room list')]);
  return { presence, driver };
}

/**
 * Starts the rooms on `httpServer` and resolves once they accept clients: with Redis, after the connections are
 * ready; then the matchmaker's `accept()` (what Colyseus' own `listen()` does, which this server does not call
 * because Fastify owns the port) subscribes this process's IPC channel, so other processes' health checks get an
 * answer instead of evicting this process's rooms. Rooms are created on the process the client asked.
 */
export async function attachRooms(httpServer: HttpServer, o: RoomsOptions = {}): Promise<ColyseusServer> {
  const shared = o.redisUrl ? await readyRedis(o.redisUrl) : {};
  const game = new ColyseusServer({
    transport: new WebSocketTransport({ server: httpServer, maxPayload: MAX_FRAME_BYTES }),
    greet: false,
    gracefullyShutdown: false,
    publicAddress: o.redisUrl ? o.publicAddress : undefined,
    selectProcessIdToCreateRoom: () => Promise.resolve(matchMaker.processId),
    ...shared,
  });
  // the definition's options override the client's create options of the same key, so a client cannot set these
  const timing: RoomTiming = { ...DEFAULT_ROOM_TIMING, ...o.timing };
  // realtime listing: every create, join, leave, lock and dispose (and RaceRoom's 'started') is published on the
  // presence (Redis: to every process), and each process's lobby room pushes the change to its clients
  game.define('race', RaceRoom, { timing }).enableRealtimeListing();
  game.define('stage', StageRoom, { timing }).enableRealtimeListing();
  game.define(ROOM_LIST_LOBBY, RoomListLobby);
  await matchMaker.accept();
  return game;
}
