/**
 * The room list (issue #22 item 1): a room one client creates shows in the list another client reads from the
 * server's GET /api/rooms (the real server, rooms on, loopback), with its kind, stage and seats; it stops being
 * joinable when it is full or started (and a join by its code is refused then), and it leaves the list when its
 * last player leaves. parseRoomList keeps only well-formed entries of an untrusted answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBitRallyServer, type BitRallyServer } from '../../server/server';
import { RoomClient } from '../../src/net/room-client';
import { fetchRoomList, parseRoomList, type RoomListEntry } from '../../src/net/room-list';
import { MAX_CARS_PER_ROOM } from '../../server/rooms/race-room';
import { DEFAULT_RACE_CIRCUIT, DEFAULT_ROOM_STAGE } from '../../server/rooms/stages';
import { sleep } from './bots';

let server: BitRallyServer;
let base: string;
let ws: string;
const dir = mkdtempSync(join(tmpdir(), 'bitrally-roomlist-'));

beforeAll(async () => {
  server = await createBitRallyServer({ dataDir: dir, logger: false, verifier: { threads: 1 }, rooms: true });
  base = await server.listen(0, '127.0.0.1');
  ws = base.replace(/^http/, 'ws');
}, 60_000);

afterAll(async () => {
  await server.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

const entryOf = async (code: string): Promise<RoomListEntry | undefined> => (await fetchRoomList(base, fetch)).find((r) => r.code === code);

/** The listing is saved by the room after the seat's join: poll until `ok` holds (bounded). */
async function listedWhen(code: string, ok: (e: RoomListEntry | undefined) => boolean): Promise<RoomListEntry | undefined> {
  for (let i = 0; i < 50; i++) {
    const e = await entryOf(code);
    if (ok(e)) return e;
    await sleep(20);
  }
  return entryOf(code);
}

describe('the room list', () => {
  it('lists a stage room another client created; started rooms are not joinable', async () => {
    const a = await RoomClient.connect({ url: ws, kind: 'stage', name: 'A' });
    const listed = await listedWhen(a.seat.code, (e) => e?.seats === 1);
    expect(listed).toEqual({ code: a.seat.code, kind: 'stage', stage: DEFAULT_ROOM_STAGE, seats: 1, maxSeats: MAX_CARS_PER_ROOM, started: false, joinable: true });
    const b = await RoomClient.connect({ url: ws, code: a.seat.code, name: 'B' });
    expect((await listedWhen(a.seat.code, (e) => e?.seats === 2))?.seats).toBe(2);
    const go = new Promise<void>((r) => (a.onGo = r));
    a.ready();
    b.ready();
    const started = await listedWhen(a.seat.code, (e) => e?.started === true);
    expect(started).toMatchObject({ seats: 2, started: true, joinable: false });
    await expect(RoomClient.connect({ url: ws, code: a.seat.code })).rejects.toThrow(/locked/);
    await go;
    await a.leave();
    await b.leave();
    expect(await listedWhen(a.seat.code, (e) => e === undefined)).toBeUndefined();
  }, 30_000);

  it('lists a race room on its circuit; a full room is not joinable', async () => {
    const first = await RoomClient.connect({ url: ws, kind: 'race', stage: 'not-a-circuit' });
    const code = first.seat.code;
    expect(first.seat.stage).toBe(DEFAULT_RACE_CIRCUIT);
    const others = [];
    for (let k = 1; k < MAX_CARS_PER_ROOM; k++) others.push(await RoomClient.connect({ url: ws, code }));
    const full = await listedWhen(code, (e) => e?.seats === MAX_CARS_PER_ROOM);
    expect(full).toEqual({ code, kind: 'race', stage: DEFAULT_RACE_CIRCUIT, seats: MAX_CARS_PER_ROOM, maxSeats: MAX_CARS_PER_ROOM, started: false, joinable: false });
    await expect(RoomClient.connect({ url: ws, code })).rejects.toThrow();
    await others.pop()!.leave();
    expect(await listedWhen(code, (e) => e?.joinable === true)).toMatchObject({ seats: MAX_CARS_PER_ROOM - 1, joinable: true });
    await Promise.all([first, ...others].map((c) => c.leave()));
  }, 60_000);
});

describe('parseRoomList', () => {
  const good: RoomListEntry = { code: 'ABCDE', kind: 'race', stage: 'rallycross-bitring', seats: 2, maxSeats: 32, started: false, joinable: true };
  it('keeps well-formed entries, joinable first, and drops the rest', () => {
    const full = { ...good, code: 'AAAAA', seats: 32, joinable: false };
    const bad = [{ ...good, code: 'abc' }, { ...good, code: 'ABCD0' }, { ...good, kind: 'lobby' }, { ...good, seats: -1 }, { ...good, started: 'no' }, null, 'ABCDE'];
    expect(parseRoomList({ rooms: [full, ...bad, good] })).toEqual([good, full]);
    expect(parseRoomList({ rooms: 'x' })).toEqual([]);
    expect(parseRoomList(null)).toEqual([]);
  });
});
