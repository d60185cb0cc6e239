/**
 * Realtime rooms on the BitRally server's http.Server (same port as the HTTP API): Colyseus 0.16 with its
 * WebSocketTransport, the "race" and "stage" rooms defined. Colyseus keeps one matchmaker per process, so attach
 * once. With a Redis URL, Colyseus' RedisPresence and RedisDriver let several server processes share one room list:
 * a client asks any process to join a room by code, that process reserves the seat on the room's own process
 * (presence IPC), and the client's WebSocket then connects to the owner's `publicAddress`.
 */
import type { Server as HttpServer } from 'node:http';
import { Server as ColyseusServer, type Presence, type MatchMakerDriver } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisPresence } from '@colyseus/redis-presence';
import { RedisDriver } from '@colyseus/redis-driver';
import { DEFAULT_ROOM_TIMING, RaceRoom, StageRoom, type RoomTiming } from './race-room';
import { STATE_PACKET_BYTES } from '../../src/net/packets';

/** Largest WebSocket frame accepted, bytes: a state packet plus Colyseus framing, with room for lobby JSON. */
export const MAX_FRAME_BYTES = Math.max(4096, STATE_PACKET_BYTES * 8);

export interface RoomsOptions {
  /** redis://host:port: share rooms with the other processes on that Redis (default: this process only). */
  redisUrl?: string;
  /** host:port where clients reach THIS process's WebSocket (needed with Redis: rooms live on one process). */
  publicAddress?: string;
  /** The rooms' reconnect window, race cap and flood margin (tests shorten them); DEFAULT_ROOM_TIMING otherwise. */
  timing?: Partial<RoomTiming>;
}

export function attachRooms(httpServer: HttpServer, o: RoomsOptions = {}): ColyseusServer {
  const shared: { presence?: Presence; driver?: MatchMakerDriver } = o.redisUrl ? { presence: new RedisPresence(o.redisUrl), driver: new RedisDriver(o.redisUrl) } : {};
  const game = new ColyseusServer({
    transport: new WebSocketTransport({ server: httpServer, maxPayload: MAX_FRAME_BYTES }),
    greet: false,
    gracefullyShutdown: false,
    publicAddress: o.redisUrl ? o.publicAddress : undefined,
    ...shared,
  });
  // the definition's options override the client's create options of the same key, so a client cannot set these
  const timing: RoomTiming = { ...DEFAULT_ROOM_TIMING, ...o.timing };
  game.define('race', RaceRoom, { timing });
  game.define('stage', StageRoom, { timing });
  return game;
}
