/**
 * Fixed-capacity ring buffer of telemetry samples (NCH channels each) for the live panel: push one sample
 * per tick, read the last N seconds as per-channel arrays in time order (uPlot's aligned data).
 */
import { NCH } from './channels';

export class TelemetryRing {
  readonly data: Float64Array;
  private head = 0;
  count = 0;
  /** Total samples ever pushed (lets the panel redraw only when something changed). */
  pushed = 0;

  constructor(
    readonly capacity: number,
    readonly nch = NCH,
  ) {
    this.data = new Float64Array(capacity * nch);
  }

  push(sample: ArrayLike<number>): void {
    this.data.set(sample.length > this.nch ? Array.prototype.slice.call(sample, 0, this.nch) : sample, this.head * this.nch);
    this.head = (this.head + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
    this.pushed++;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /** Value of channel `ch` of the i-th oldest sample (0 ≤ i < count). */
  at(i: number, ch: number): number {
    const idx = (this.head - this.count + i + this.capacity) % this.capacity;
    return this.data[idx * this.nch + ch]!;
  }

  /** Index of the oldest sample whose channel `ch` (time) is ≥ from, by binary search (time increases). */
  lowerBound(ch: number, from: number): number {
    let lo = 0, hi = this.count;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (this.at(m, ch) < from) lo = m + 1;
      else hi = m;
    }
    return lo;
  }

  /**
   * Channels `chs` of the samples with time channel `tch` ≥ latest − window, in order. `out` arrays are
   * reused when long enough (views are allocation-free per frame apart from resizing).
   */
  window(tch: number, seconds: number, chs: readonly number[], out: Float64Array[] = []): Float64Array[] {
    if (this.count === 0) return chs.map(() => new Float64Array(0));
    const last = this.at(this.count - 1, tch);
    const start = this.lowerBound(tch, last - seconds);
    const n = this.count - start;
    return chs.map((ch, j) => {
      let a = out[j];
      if (!a || a.length !== n) a = out[j] = new Float64Array(n);
      for (let i = 0; i < n; i++) a[i] = this.at(start + i, ch);
      return a;
    });
  }
}
