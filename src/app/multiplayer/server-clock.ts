/**
 * The room's clock as this page sees it: every 'lobby' message carries the server clock when it was sent (`now`),
 * so the page keeps the offset from its own clock to the server's and shows the countdown to the server's
 * `startsAt`. The offset is off by the message's one-way delay (the countdown ends that much late on screen); the
 * car is released by the room's 'go' message, never by this clock.
 */
import { normaliseServerUrl } from '../online/api';

/** Offset from this page's clock to the room's (ms), from the newest sample. */
export class ServerClock {
  private offsetMs: number | null = null;

  /** A server time sample `serverMs`, received at local time `localMs`. The newest sample wins. */
  sample(serverMs: number, localMs: number): void {
    if (Number.isFinite(serverMs) && Number.isFinite(localMs)) this.offsetMs = serverMs - localMs;
  }

  /** The server clock at local time `localMs` (null before the first sample). */
  serverTime(localMs: number): number | null {
    return this.offsetMs === null ? null : localMs + this.offsetMs;
  }

  /** Whole seconds left to the server time `startsAt`, rounded up (3, 2, 1, 0), or null when unknown. */
  countdownS(startsAt: number | null, localMs: number): number | null {
    const now = this.serverTime(localMs);
    if (startsAt === null || now === null) return null;
    return Math.max(0, Math.ceil((startsAt - now) / 1000));
  }
}

/**
 * The WebSocket URL of the rooms on the BitRally server whose HTTP URL is `httpUrl` (the rooms share the API's
 * host and port: http → ws, https → wss); null when it is not an http(s) URL.
 */
export function roomServerUrl(httpUrl: string): string | null {
  const base = normaliseServerUrl(httpUrl);
  if (!base) return null;
  const u = new URL(base);
  return `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.host}`;
}
