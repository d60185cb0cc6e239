/**
 * Telemetry of a whole run, kept with the run: samples at a fixed decimation (every `every` ticks), stored
 * per channel as Float32Array (a 5-minute stage at 20 Hz is 6000 samples × 45 channels ≈ 1 MB).
 * Serialises to a plain object for IndexedDB (typed arrays are structured-cloneable).
 */
import { CHANNELS, NCH } from './channels';

export interface RunMeta {
  id: string;
  stageId: string;
  carId: string;
  /** Label shown in the analysis screen ("hatch r3 · 2:31.4"). */
  label: string;
  /** Finish time (s) or null if the run did not finish. */
  timeS: number | null;
  /** Car file text the run was driven with (so "before/after a tweak" can be diffed). */
  carText: string | null;
  /** Monotonic counter used for ordering. */
  seq: number;
}

export interface StoredRun extends RunMeta {
  channels: string[];
  samples: number;
  /** channel-major: data[c * samples + i]. */
  data: Float32Array;
}

export class RunLog {
  private buf: Float32Array;
  n = 0;

  constructor(
    readonly every = 6,
    initialCapacity = 4096,
  ) {
    this.buf = new Float32Array(initialCapacity * NCH);
  }

  private tick = 0;

  /** Offer one tick's sample; keeps every `every`-th. */
  offer(sample: ArrayLike<number>): void {
    if (this.tick++ % this.every !== 0) return;
    if ((this.n + 1) * NCH > this.buf.length) {
      const nb = new Float32Array(this.buf.length * 2);
      nb.set(this.buf);
      this.buf = nb;
    }
    for (let c = 0; c < NCH; c++) this.buf[this.n * NCH + c] = sample[c]!;
    this.n++;
  }

  /** Channel c as a Float64Array (sample order). */
  channel(c: number): Float64Array {
    const out = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.buf[i * NCH + c]!;
    return out;
  }

  toStored(meta: RunMeta): StoredRun {
    const data = new Float32Array(this.n * NCH);
    for (let c = 0; c < NCH; c++) for (let i = 0; i < this.n; i++) data[c * this.n + i] = this.buf[i * NCH + c]!;
    return { ...meta, channels: [...CHANNELS], samples: this.n, data };
  }
}

/** Channel `name` of a stored run (Float64Array), or null if the run has no such channel. */
export function runChannel(r: StoredRun, name: string): Float64Array | null {
  const c = r.channels.indexOf(name);
  if (c < 0) return null;
  return Float64Array.from(r.data.subarray(c * r.samples, (c + 1) * r.samples));
}
