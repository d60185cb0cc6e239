/**
 * The live room list (src/net/room-list-feed.ts) on loopback: the real rooms (attachRooms, the "lobby" LobbyRoom and
 * realtime listing) and the real client code. A client watching the list sees, without asking again, a room
 * appear, fill (32 of 32: not joinable), open again, start (not joinable) and vanish when its last player leaves,
 * each within LIVE_LIST_LIMIT_MS of the action that caused it. The lobby takes no client filter (RoomListLobby).
 * Malformed listings are dropped by roomListEntryOf.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'colyseus.js';
import { RoomClient } from '../../src/net/room-client';
import { ROOM_LIST_LOBBY, RoomListFeed } from '../../src/net/room-list-feed';
import { roomListEntryOf } from '../../src/net/room-list';
import { MAX_CARS_PER_ROOM } from '../../server/rooms/race-room';
import { DEFAULT_ROOM_STAGE } from '../../server/rooms/stages';
import { startRoomServer, type RoomServer } from './bots';
import { listedWithin } from './live-list';

let server: RoomServer;
beforeAll(async () => {
  server = await startRoomServer();
}, 60_000);
afterAll(() => server.close());

describe('the live room list', () => {
  it('sees a room appear, fill, open, start and vanish without asking again', async () => {
    const feed = await RoomListFeed.connect(server.url);
    const a = await RoomClient.connect({ url: server.url, kind: 'stage', name: 'A' });
    const code = a.seat.code;
    const base = { code, kind: 'stage', stage: DEFAULT_ROOM_STAGE, maxSeats: MAX_CARS_PER_ROOM };
    expect(await listedWithin(feed, code, (e) => e?.seats === 1, 'created')).toEqual({ ...base, seats: 1, started: false, joinable: true });
    const b = await RoomClient.connect({ url: server.url, code, name: 'B' });
    expect(await listedWithin(feed, code, (e) => e?.seats === 2, 'second seat')).toMatchObject({ seats: 2, joinable: true });
    const others: RoomClient[] = [];
    for (let k = 2; k < MAX_CARS_PER_ROOM; k++) others.push(await RoomClient.connect({ url: server.url, code }));
    expect(await listedWithin(feed, code, (e) => e?.seats === MAX_CARS_PER_ROOM, 'full')).toMatchObject({ joinable: false, started: false });
    await Promise.all(others.map((c) => c.leave()));
    expect(await listedWithin(feed, code, (e) => e?.seats === 2, 'open again')).toMatchObject({ joinable: true });
    a.ready();
    b.ready();
    expect(await listedWithin(feed, code, (e) => e?.started === true, 'started')).toMatchObject({ seats: 2, joinable: false });
    await a.leave();
    await b.leave();
    expect(await listedWithin(feed, code, (e) => e === undefined, 'gone')).toBeUndefined();
    await feed.close();
  }, 90_000);

  it('a second watcher gets the whole list on joining the lobby', async () => {
    const a = await RoomClient.connect({ url: server.url, kind: 'race', name: 'A' });
    const first = await RoomListFeed.connect(server.url);
    await listedWithin(first, a.seat.code, (e) => e?.seats === 1, 'created');
    const late = await RoomListFeed.connect(server.url);
    expect(await listedWithin(late, a.seat.code, (e) => e !== undefined, 'initial list')).toMatchObject({ kind: 'race', seats: 1 });
    await a.leave();
    await Promise.all([first.close(), late.close()]);
  }, 30_000);

  it("takes no client filter: a join option's filter is ignored and a 'filter' message gets no answer", async () => {
    const a = await RoomClient.connect({ url: server.url, kind: 'stage', name: 'A' });
    const lobby = await new Client(server.url).joinOrCreate(ROOM_LIST_LOBBY, { filter: { name: 'no-such-kind' } });
    const lists: unknown[][] = [];
    const added: string[] = [];
    lobby.onMessage('rooms', (r: unknown[]) => lists.push(r));
    lobby.onMessage('+', ([id]: [string]) => added.push(id));
    lobby.onMessage('-', () => undefined);
    const watcher = await RoomListFeed.connect(server.url);
    await listedWithin(watcher, a.seat.code, (e) => e !== undefined, 'A listed');
    lobby.send('filter', { name: 'race' });
    // a room created after the 'filter' message: its '+' comes after any answer to it would have
    const b = await RoomClient.connect({ url: server.url, kind: 'stage', name: 'B' });
    await listedWithin(watcher, b.seat.code, (e) => e !== undefined, 'B listed');
    const deadline = Date.now() + 3000;
    while (!added.includes(b.seat.code) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(added).toContain(b.seat.code);
    expect(lists).toHaveLength(1);
    expect(lists[0]!.map((l) => (l as { roomId: string }).roomId)).toContain(a.seat.code);
    await Promise.all([a.leave(), b.leave(), lobby.leave(), watcher.close()]);
  }, 30_000);
});

describe('roomListEntryOf', () => {
  const listing = { name: 'stage', clients: 3, maxClients: 32, locked: false, private: false, metadata: { code: 'AB2CD', stage: DEFAULT_ROOM_STAGE, started: false } };
  it('makes the entry of a Colyseus listing', () => {
    expect(roomListEntryOf(listing)).toEqual({ code: 'AB2CD', kind: 'stage', stage: DEFAULT_ROOM_STAGE, seats: 3, maxSeats: 32, started: false, joinable: true });
    expect(roomListEntryOf({ ...listing, locked: true })?.joinable).toBe(false);
    expect(roomListEntryOf({ ...listing, clients: 32 })?.joinable).toBe(false);
  });
  it('drops private, foreign, malformed and oversized listings', () => {
    expect(roomListEntryOf({ ...listing, private: true })).toBeNull();
    expect(roomListEntryOf({ ...listing, name: 'lobby' })).toBeNull();
    expect(roomListEntryOf({ ...listing, clients: -1 })).toBeNull();
    expect(roomListEntryOf({ ...listing, metadata: { code: 'not a code', stage: 'x' } })).toBeNull();
    expect(roomListEntryOf({ ...listing, metadata: { code: 'AB2CD', stage: 'x'.repeat(65) } })).toBeNull();
    expect(roomListEntryOf(null)).toBeNull();
    expect(roomListEntryOf('rooms')).toBeNull();
  });
});
