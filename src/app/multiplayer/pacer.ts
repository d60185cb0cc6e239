/**
 * Keeps a networked car on the room's timeline: the collider compares the cars' states at the same sim tick, so
 * every client must have simulated (go time + t) worth of ticks at wall time go + t, whatever its frame rate. The
 * game's FixedStepScheduler drops the backlog of a slow frame (the stage clock slows down instead); a client of a
 * room must not, or its ticks fall behind the others' and the collider no longer finds their states at one tick.
 * So the drive steps the packets due since the room's 'go', at most MAX_CATCH_UP_PACKETS in one frame (the rest
 * in the next frames: the backlog is kept, never dropped).
 */

/** Most packet intervals stepped in one frame (2 s at 62.5 Hz): a long stall is caught up over a few frames. */
export const MAX_CATCH_UP_PACKETS = 125;

export class RoomPacer {
  private goMs: number | null = null;
  /** Packet intervals stepped since 'go'. */
  stepped = 0;

  /** `packetS`: the room's packet interval, s (sim step × ticks per packet). */
  constructor(readonly packetS: number) {}

  get started(): boolean {
    return this.goMs !== null;
  }

  /** The room's 'go', received at local time `localMs`. */
  start(localMs: number): void {
    this.goMs ??= localMs;
  }

  /** Packet intervals due by local time `localMs` since 'go'. */
  due(localMs: number): number {
    return this.goMs === null ? 0 : Math.max(0, Math.floor((localMs - this.goMs) / 1000 / this.packetS));
  }

  /** How many packets to step now (due − stepped, capped); counts them as stepped. */
  take(localMs: number): number {
    const n = Math.min(MAX_CATCH_UP_PACKETS, Math.max(0, this.due(localMs) - this.stepped));
    this.stepped += n;
    return n;
  }

  /** Packet intervals still owed after this frame's steps (0 when caught up). */
  backlog(localMs: number): number {
    return Math.max(0, this.due(localMs) - this.stepped);
  }
}

/** Packets sent at most in a burst above the room's rate: 30 + 62.5/s stays under the room's 1.5 × rate per second. */
export const SEND_BURST_PACKETS = 30;
/** Coarsest send grid, in packet intervals (the room refuses a car that skips more than 60 packets). */
export const MAX_SEND_STRIDE = 32;

/**
 * Which of a frame's packets go to the room. A frame that steps a backlog (a slow or stalled frame) would send it
 * in one burst, and the room drops a client's packets past 1.5 × its rate as a flood (server/rooms/race-room.ts);
 * so sends are paced by a token bucket filled at the room's rate (SEND_BURST_PACKETS deep). When a frame has more
 * packets than tokens, only those on a coarser grid are sent: packet numbers that are multiples of a power of two,
 * so two clients that both thin out still share the ticks of the coarser grid (the collider compares the cars
 * at ticks both have sent).
 */
export class SendThrottle {
  private tokens = SEND_BURST_PACKETS;
  private lastMs: number | null = null;
  private stride = 1;

  constructor(readonly packetS: number) {}

  /** Starts a frame at local time `localMs` that will step `n` packets; picks the send grid for them. */
  beginFrame(localMs: number, n: number): void {
    if (this.lastMs !== null) this.tokens = Math.min(SEND_BURST_PACKETS, this.tokens + (localMs - this.lastMs) / 1000 / this.packetS);
    this.lastMs = localMs;
    const affordable = Math.max(1, Math.floor(this.tokens));
    this.stride = 1;
    while (this.stride < MAX_SEND_STRIDE && n / this.stride > affordable) this.stride *= 2;
  }

  /** Whether packet number `p` (its tick / ticks per packet) is sent; a sent packet uses a token. */
  send(p: number): boolean {
    if (p % this.stride !== 0 || this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
