/**
 * The live room list that reconnects by itself (src/net/live-room-list.ts) on loopback, real server and client
 * code: its lobby socket cut on the server (terminated, as when the network drops), it tries again after
 * FEED_RETRY_FIRST_MS, says so meanwhile, and the list is live again (a room created after the cut appears);
 * with no server to reach it backs off 1, 2, 4… s and stops trying once closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchMaker } from '@colyseus/core';
import { FEED_RETRY_FIRST_MS, FEED_RETRY_MAX_MS, feedRetryDelayMs, LiveRoomList, type LiveListStatus } from '../../src/net/live-room-list';
import type { RoomListEntry } from '../../src/net/room-list';
import { RoomClient } from '../../src/net/room-client';
import { sleep, startRoomServer, type RoomServer } from './bots';
import { LIVE_LIST_LIMIT_MS } from './live-list';

/** setTimeout may fire this much early on Node's timer rounding, ms. */
const TIMER_SLACK_MS = 2;

let server: RoomServer;
beforeAll(async () => {
  server = await startRoomServer();
}, 60_000);
afterAll(() => server.close());

async function until(ok: () => boolean, what: string, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`live room list: "${what}" not seen within ${withinMs} ms`);
    await sleep(10);
  }
}

describe('the live room list reconnects by itself', () => {
  it('waits 1, 2, 4, 8 s, then at most 15 s between tries', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(feedRetryDelayMs)).toEqual([1000, 2000, 4000, 8000, FEED_RETRY_MAX_MS, FEED_RETRY_MAX_MS, FEED_RETRY_MAX_MS]);
  });

  it('comes back after its lobby connection is cut, says so meanwhile, and the list is live again', async () => {
    const live = new LiveRoomList(server.url);
    const statuses: LiveListStatus[] = [];
    let rooms: RoomListEntry[] = [];
    live.onStatus = (s) => statuses.push(s);
    live.onChange = (r) => (rooms = r);
    await live.start();
    expect(statuses).toEqual([{ state: 'connecting' }, { state: 'live' }]);
    const first = live.current!;
    const lobby = matchMaker.getLocalRoomById(first.room.roomId)!;
    const socket = lobby.clients.find((c) => c.sessionId === first.room.sessionId)!.ref as unknown as { terminate(): void };
    const cutAt = Date.now();
    socket.terminate();
    await until(() => live.connects === 2, 'reconnected', FEED_RETRY_FIRST_MS + LIVE_LIST_LIMIT_MS);
    expect(Date.now() - cutAt).toBeGreaterThanOrEqual(FEED_RETRY_FIRST_MS - TIMER_SLACK_MS);
    expect(statuses.slice(2)).toEqual([
      { state: 'retrying', attempt: 1, inMs: FEED_RETRY_FIRST_MS, reason: expect.stringMatching(/^connection lost \(\d+\)$/) },
      { state: 'connecting' },
      { state: 'live' },
    ]);
    expect(live.current).not.toBe(first);
    const a = await RoomClient.connect({ url: server.url, kind: 'race', name: 'A' });
    await until(() => rooms.some((r) => r.code === a.seat.code), 'a room created after the reconnect', LIVE_LIST_LIMIT_MS);
    await a.leave();
    await until(() => !rooms.some((r) => r.code === a.seat.code), 'the room gone', LIVE_LIST_LIMIT_MS);
    await live.close();
  }, 30_000);

  it('backs off while no server answers and stops trying once closed', async () => {
    // port 1: nothing listens, every try is refused at once
    const live = new LiveRoomList('ws://127.0.0.1:1');
    const retries: number[] = [];
    live.onStatus = (s) => s.state === 'retrying' && retries.push(s.inMs);
    await live.start();
    await until(() => retries.length === 3, 'three tries', feedRetryDelayMs(1) + feedRetryDelayMs(2) + LIVE_LIST_LIMIT_MS);
    expect(retries).toEqual([1000, 2000, 4000]);
    await live.close();
    await sleep(feedRetryDelayMs(3) + 500); // the fourth try would have come by now
    expect(retries).toHaveLength(3);
    expect(live.connects).toBe(0);
  }, 30_000);
});
