/**
 * GET /api/rooms: the open rooms in one answer (src/net/room-list.ts; the game reads the live feed of the "lobby"
 * room instead, server/rooms/attach.ts). Colyseus' matchmaker query reads the room list of its driver, so with
 * Redis it lists the rooms of every server process. 503 until the rooms have started (server/rooms/attach.ts).
 */
import type { FastifyInstance } from 'fastify';
import { matchMaker } from '@colyseus/core';
import { ROOM_LIST_MAX, ROOM_LIST_PATH, roomListEntryOf, sortRoomList, type RoomListEntry } from '../../src/net/room-list';

export function registerRoomListRoutes(app: FastifyInstance, roomsReady: () => boolean): void {
  app.get(ROOM_LIST_PATH, async (_req, reply) => {
    if (!roomsReady()) return reply.code(503).send({ error: 'rooms are starting' });
    const rooms = (await matchMaker.query({})).map(roomListEntryOf).filter((e): e is RoomListEntry => e !== null);
    return { rooms: sortRoomList(rooms).slice(0, ROOM_LIST_MAX) };
  });
}
