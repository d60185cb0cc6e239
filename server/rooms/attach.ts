/**
 * Realtime rooms on the BitRally server's http.Server (same port as the HTTP API): Colyseus 0.16 with its
 * WebSocketTransport, the "race" and "stage" rooms defined. Colyseus keeps one matchmaker per process, so attach once.
 */
import type { Server as HttpServer } from 'node:http';
import { Server as ColyseusServer } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RaceRoom, StageRoom } from './race-room';
import { STATE_PACKET_BYTES } from '../../src/net/packets';

/** Largest WebSocket frame accepted, bytes: a state packet plus Colyseus framing, with room for lobby JSON. */
export const MAX_FRAME_BYTES = Math.max(4096, STATE_PACKET_BYTES * 8);

export function attachRooms(httpServer: HttpServer): ColyseusServer {
  const game = new ColyseusServer({
    transport: new WebSocketTransport({ server: httpServer, maxPayload: MAX_FRAME_BYTES }),
    greet: false,
    gracefullyShutdown: false,
  });
  game.define('race', RaceRoom);
  game.define('stage', StageRoom);
  return game;
}
