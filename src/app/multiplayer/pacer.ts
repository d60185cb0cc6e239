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
