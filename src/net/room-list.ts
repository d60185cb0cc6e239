/**
 * The room list (issue #22 item 1, "join by code or list"): every open room of every server process sharing the
 * room list (Colyseus' matchmaker listing; with Redis, the rooms of all processes). Two ways to read it: the live
 * feed of the server's "lobby" room (room-list-feed.ts, what the game shows) and `GET /api/rooms`
 * (server/routes/rooms.ts, one answer). Both turn a Colyseus room listing into an entry with roomListEntryOf.
 * What a client receives is untrusted: each entry is checked and a malformed one is left out, never shown.
 */
import { z } from 'zod';
import { normaliseRoomCode } from './room-code';
import { ROOM_KINDS, type RoomKind } from './room-kind';

/** The HTTP path of the list on the BitRally server. */
export const ROOM_LIST_PATH = '/api/rooms';
/** Most rooms one answer lists (the joinable ones first). */
export const ROOM_LIST_MAX = 50;

/** One room as the list shows it. */
export interface RoomListEntry {
  code: string;
  kind: RoomKind;
  /** The shipped stage (a rallycross circuit for a race room). */
  stage: string;
  seats: number;
  maxSeats: number;
  /** Everyone was ready: the countdown or the race is on. */
  started: boolean;
  /** Open for a join by this code now: not full, not started, not locked. */
  joinable: boolean;
}

const entrySchema = z.object({
  code: z.string().refine((c) => normaliseRoomCode(c) === c),
  kind: z.enum(ROOM_KINDS as [RoomKind, ...RoomKind[]]),
  stage: z.string().max(64),
  seats: z.number().int().min(0).max(1000),
  maxSeats: z.number().int().min(1).max(1000),
  started: z.boolean(),
  joinable: z.boolean(),
});

/** The fields of a Colyseus room listing (IRoomCache) an entry is made of; metadata as RaceRoom sets it. */
const listingSchema = z.object({
  name: z.string(),
  clients: z.number().int().min(0).max(1000),
  maxClients: z.number().int().min(1).max(1000),
  locked: z.boolean().optional(),
  private: z.boolean().optional(),
  metadata: z.object({ code: z.string(), stage: z.string(), started: z.boolean().optional() }).passthrough(),
});

/** A room's entry from its Colyseus listing, or null for a private room, another kind of room or a malformed one. */
export function roomListEntryOf(listing: unknown): RoomListEntry | null {
  const l = listingSchema.safeParse(listing);
  if (!l.success || l.data.private === true) return null;
  const kind = ROOM_KINDS.find((k) => k === l.data.name);
  const { clients, maxClients, metadata } = l.data;
  if (!kind) return null;
  const started = metadata.started === true;
  const e = { code: metadata.code, kind, stage: metadata.stage, seats: clients, maxSeats: maxClients, started, joinable: l.data.locked !== true && !started && clients < maxClients };
  return entrySchema.safeParse(e).success ? e : null;
}

/** Joinable rooms first, then by code (a stable order for the list on screen). */
export function sortRoomList(rooms: RoomListEntry[]): RoomListEntry[] {
  return rooms.sort((a, b) => Number(b.joinable) - Number(a.joinable) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** The well-formed entries of an untrusted answer (anything else: an empty list). */
export function parseRoomList(body: unknown): RoomListEntry[] {
  const rooms = (body as { rooms?: unknown } | null)?.rooms;
  if (!Array.isArray(rooms)) return [];
  const out: RoomListEntry[] = [];
  for (const r of rooms.slice(0, ROOM_LIST_MAX)) {
    const e = entrySchema.safeParse(r);
    if (e.success) out.push(e.data);
  }
  return sortRoomList(out);
}

/** An HTTP GET (the page's or Node's fetch: src/net is headless and takes it from its caller). */
export type HttpGet = (url: string) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** Fetches the list from the server at `httpBase` (its API's base URL); throws with the status on an HTTP error. */
export async function fetchRoomList(httpBase: string, fetchFn: HttpGet): Promise<RoomListEntry[]> {
  const res = await fetchFn(`${httpBase.replace(/\/+$/, '')}${ROOM_LIST_PATH}`);
  if (!res.ok) throw new Error(`room list: HTTP ${res.status}`);
  return parseRoomList(await res.json());
}
