/**
 * The live room list that stays live (docs/multiplayer.md "The live room list"): a RoomListFeed that, when its
 * lobby connection is lost (server process restarted, network gone) or cannot be made, connects again by itself
 * after a bounded exponential backoff (FEED_RETRY_FIRST_MS, doubling, at most FEED_RETRY_MAX_MS; back to the first
 * delay once connected) and tells its status each time, until close() (the screen closed).
 */
import { RoomListFeed } from './room-list-feed';
import type { RoomListEntry } from './room-list';

/** The first retry after a lost or failed lobby connection, ms. */
export const FEED_RETRY_FIRST_MS = 1000;
/** The longest wait between two tries, ms. */
export const FEED_RETRY_MAX_MS = 15_000;

/** The wait before try `attempt` (1, 2, 3…) after a loss: 1, 2, 4, 8, 15, 15… s. */
export function feedRetryDelayMs(attempt: number): number {
  return Math.min(FEED_RETRY_MAX_MS, FEED_RETRY_FIRST_MS * 2 ** Math.max(0, attempt - 1));
}

/** What the list's status line says: connecting, live, or waiting to try again (why, which try, in how long). */
export type LiveListStatus =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'retrying'; attempt: number; inMs: number; reason: string };

export class LiveRoomList {
  /** The sorted list after every change (and once on each connect). */
  onChange: (rooms: RoomListEntry[]) => void = () => undefined;
  onStatus: (s: LiveListStatus) => void = () => undefined;
  /** Lobby connections made so far (the first one and every reconnect). */
  connects = 0;
  private feed: RoomListFeed | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly connectFeed: (url: string) => Promise<RoomListFeed> = (u) => RoomListFeed.connect(u),
  ) {}

  /** Connects (retrying by itself from then on); resolves after the first try, made or not. */
  start(): Promise<void> {
    return this.tryConnect();
  }

  /** The connected feed (null while waiting to try again). */
  get current(): RoomListFeed | null {
    return this.feed;
  }

  private async tryConnect(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    this.onStatus({ state: 'connecting' });
    let feed: RoomListFeed;
    try {
      feed = await this.connectFeed(this.url);
    } catch (e) {
      return this.retryLater((e as Error).message || 'no answer');
    }
    if (this.stopped) return void feed.close();
    this.feed = feed;
    this.attempt = 0;
    this.connects++;
    feed.onChange = (rooms) => this.onChange(rooms);
    feed.onLost = (code) => {
      if (this.feed !== feed) return;
      this.feed = null;
      this.retryLater(`connection lost (${code})`);
    };
    this.onStatus({ state: 'live' });
    this.onChange(feed.list());
  }

  private retryLater(reason: string): void {
    if (this.stopped) return;
    this.attempt++;
    const inMs = feedRetryDelayMs(this.attempt);
    this.onStatus({ state: 'retrying', attempt: this.attempt, inMs, reason });
    this.timer = setTimeout(() => void this.tryConnect(), inMs);
  }

  /** Stops trying and leaves the lobby. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const f = this.feed;
    this.feed = null;
    await f?.close();
  }
}
