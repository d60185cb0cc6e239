/** Waits on the live room list (RoomListFeed) in the room-list and scale-out tests. */
import type { RoomListFeed } from '../../src/net/room-list-feed';
import type { RoomListEntry } from '../../src/net/room-list';

/**
 * Bound on one change's trip to the list, ms: a presence publish, one driver read and one WebSocket message, a few
 * ms on loopback; the bound leaves room for a machine shared by several test runs.
 */
export const LIVE_LIST_LIMIT_MS = 3000;

/** Resolves with the entry of `code` (undefined: not listed) once `ok` holds for it; rejects after the bound. */
export function listedWithin(feed: RoomListFeed, code: string, ok: (e: RoomListEntry | undefined) => boolean, what: string): Promise<RoomListEntry | undefined> {
  const find = (rooms: RoomListEntry[]) => rooms.find((r) => r.code === code);
  return new Promise((resolve, reject) => {
    const check = (rooms: RoomListEntry[]): boolean => {
      if (!ok(find(rooms))) return false;
      clearTimeout(timer);
      feed.onChange = () => undefined;
      resolve(find(rooms));
      return true;
    };
    const timer = setTimeout(() => reject(new Error(`live room list: "${what}" not seen within ${LIVE_LIST_LIMIT_MS} ms`)), LIVE_LIST_LIMIT_MS);
    feed.onChange = check;
    check(feed.list());
  });
}
