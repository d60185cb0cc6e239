/**
 * GET /api/rooms: the open rooms, for the game's room list (src/net/room-list.ts). Colyseus' matchmaker query reads
 * the room list of its driver, so with Redis it lists the rooms of every server process. 503 until the rooms have
 * started (server/rooms/attach.ts).
 */
import type { FastifyInstance } from 'fastify';
import { matchMaker, type IRoomCache } from '@colyseus/core';
import { ROOM_LIST_MAX, ROOM_LIST_PATH, sortRoomList, type RoomListEntry } from '../../src/net/room-list';
import { ROOM_KINDS } from '../../src/net/room-kind';

/** A room's list entry from its matchmaker listing (metadata set by RaceRoom), or null for other rooms. */
export function roomListEntryOf(r: IRoomCache): RoomListEntry | null {
  const kind = ROOM_KINDS.find((k) => k === r.name);
  const meta = (r.metadata ?? {}) as { code?: unknown; stage?: unknown; started?: unknown };
  if (!kind || r.private || typeof meta.code !== 'string' || typeof meta.stage !== 'string') return null;
  const started = meta.started === true;
  return { code: meta.code, kind, stage: meta.stage, seats: r.clients, maxSeats: r.maxClients, started, joinable: !r.locked && !started && r.clients < r.maxClients };
}

export function registerRoomListRoutes(app: FastifyInstance, roomsReady: () => boolean): void {
  app.get(ROOM_LIST_PATH, async (_req, reply) => {
    if (!roomsReady()) return reply.code(503).send({ error: 'rooms are starting' });
    const rooms = (await matchMaker.query({})).map(roomListEntryOf).filter((e): e is RoomListEntry => e !== null);
    return { rooms: sortRoomList(rooms).slice(0, ROOM_LIST_MAX) };
  });
}
