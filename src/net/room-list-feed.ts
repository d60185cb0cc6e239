/**
 * The live room list (issue #22 item 1): a client of Colyseus' built-in LobbyRoom ("lobby", server/rooms/attach.ts).
 * The race and stage rooms have realtime listing on, so every create, join, leave, lock, dispose and start is
 * published on the presence (with Redis: to every server process) and the lobby pushes it over this WebSocket:
 * 'rooms' (the whole list, once on join), '+' [roomId, listing] (a room added or changed), '-' roomId (gone). No
 * polling: a change reaches the list one presence hop and one driver read after it happened. Each listing is
 * untrusted and turned into an entry by roomListEntryOf (a malformed or private one is dropped).
 */
import { Client, type Room } from 'colyseus.js';
import { ROOM_LIST_MAX, roomListEntryOf, sortRoomList, type RoomListEntry } from './room-list';

/** The name the server defines Colyseus' LobbyRoom under. */
export const ROOM_LIST_LOBBY = 'lobby';
/** Most rooms the feed keeps (the server's room count is not trusted to be bounded). */
export const ROOM_LIST_FEED_MAX = 1000;

export class RoomListFeed {
  private readonly rooms = new Map<string, RoomListEntry>();
  /** Called with the sorted list (at most ROOM_LIST_MAX entries, joinable first) after every change. */
  onChange: (rooms: RoomListEntry[]) => void = () => undefined;
  /** Called once when the lobby connection ends without close() (server gone, network lost). */
  onLost: (code: number) => void = () => undefined;
  private closed = false;

  private constructor(
    /** The lobby room connection (tests cut it). */
    readonly room: Room,
  ) {
    room.onMessage('rooms', (all: unknown) => this.replaceAll(all));
    room.onMessage('+', (m: unknown) => this.upsert(m));
    room.onMessage('-', (id: unknown) => this.remove(id));
    room.onLeave((code) => !this.closed && this.onLost(code));
  }

  /** Joins the lobby of the server at `url` (ws://host:port); the first list follows as an onChange. */
  static async connect(url: string): Promise<RoomListFeed> {
    return new RoomListFeed(await new Client(url).joinOrCreate(ROOM_LIST_LOBBY));
  }

  /** The current list, sorted, joinable first. */
  list(): RoomListEntry[] {
    return sortRoomList([...this.rooms.values()]).slice(0, ROOM_LIST_MAX);
  }

  private replaceAll(all: unknown): void {
    this.rooms.clear();
    if (Array.isArray(all)) for (const l of all.slice(0, ROOM_LIST_FEED_MAX)) this.put(l);
    this.changed();
  }

  private upsert(m: unknown): void {
    if (!Array.isArray(m) || typeof m[0] !== 'string') return;
    const e = roomListEntryOf(m[1]);
    // a room that became private or malformed leaves the list
    if (!e) this.rooms.delete(m[0]);
    else if (this.rooms.has(m[0]) || this.rooms.size < ROOM_LIST_FEED_MAX) this.rooms.set(m[0], e);
    this.changed();
  }

  private remove(id: unknown): void {
    if (typeof id === 'string' && this.rooms.delete(id)) this.changed();
  }

  private put(listing: unknown): void {
    const id = (listing as { roomId?: unknown } | null)?.roomId;
    const e = roomListEntryOf(listing);
    if (typeof id === 'string' && e) this.rooms.set(id, e);
  }

  private changed(): void {
    this.onChange(this.list());
  }

  /** Leaves the lobby (no onLost after this). */
  async close(): Promise<void> {
    this.closed = true;
    await this.room.leave(true).catch(() => undefined);
  }
}
