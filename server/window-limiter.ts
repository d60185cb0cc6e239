/**
 * A fixed-window counter per key (the submissions per player key): @fastify/rate-limit runs one limiter per
 * request, and that one is the per-IP limit, so the per-key limit is this second, independent counter.
 */

/** Keys tracked at most; past it the windows start over (bounded memory under a flood of fresh keys). */
export const MAX_TRACKED_KEYS = 100_000;

export class WindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request for `key`: null when allowed, else the seconds until its window ends. */
  take(key: string): number | null {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      if (!w && this.windows.size >= MAX_TRACKED_KEYS) this.windows.clear();
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    if (w.count >= this.max) return Math.ceil((w.start + this.windowMs - t) / 1000);
    w.count++;
    return null;
  }
}
