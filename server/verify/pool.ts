/**
 * The verification worker pool (piscina). Each verification runs in a worker thread with a heap cap and a
 * wall-time limit: a file that makes a worker run out of memory or run past the limit costs that one thread
 * (piscina replaces it) and gets a `verifier-crashed` verdict; the server process and the other verifications
 * go on.
 */
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import { MAX_REPLAY_CAR_TICKS } from '../../src/replay/limits';
import type { VerifyLimits } from './verify-submission';
import { reject } from './verdict';
import type { TimedVerdict, VerifyTask } from './worker';

/** Heap of one worker, MiB: the replay decoder's documented cap (MAX_REPLAY_LOAD_BYTES, 524 MiB) plus a world. */
export const WORKER_HEAP_MB = 768;
/** Default wall-time limit of one verification, s (a 3-minute stage re-simulates in a few seconds). */
export const DEFAULT_VERIFY_WALL_S = 120;
/** Longest run the server ranks: 30 minutes at 500 Hz, one car (car-ticks). */
export const DEFAULT_MAX_CAR_TICKS = Math.min(MAX_REPLAY_CAR_TICKS, 30 * 60 * 500);
/** Extra time the pool allows a worker past its own wall budget before it is terminated (setup, decode), s. */
const HARD_TIMEOUT_MARGIN_S = 30;

export interface PoolOptions {
  threads?: number;
  limits?: Partial<VerifyLimits>;
}

export type { TimedVerdict };

export class VerifierPool {
  private readonly pool: Piscina<VerifyTask, TimedVerdict>;
  readonly limits: VerifyLimits;
  readonly threads: number;

  constructor(o: PoolOptions = {}) {
    this.threads = Math.max(1, o.threads ?? Math.max(1, availableParallelism() - 1));
    this.limits = { maxCarTicks: o.limits?.maxCarTicks ?? DEFAULT_MAX_CAR_TICKS, maxWallSeconds: o.limits?.maxWallSeconds ?? DEFAULT_VERIFY_WALL_S };
    this.pool = new Piscina({
      filename: fileURLToPath(new URL('./worker-entry.mjs', import.meta.url)),
      minThreads: 1,
      maxThreads: this.threads,
      // workers keep their warmed JIT and loaded stages between files
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }

  /** The verdict for `bytes`; never throws for anything the file does. */
  async verify(bytes: Uint8Array): Promise<TimedVerdict> {
    const t0 = performance.now();
    const signal = AbortSignal.timeout((this.limits.maxWallSeconds + HARD_TIMEOUT_MARGIN_S) * 1000);
    try {
      const copy = bytes.slice();
      return await this.pool.run({ bytes: copy, limits: this.limits }, { signal, transferList: [copy.buffer] });
    } catch (e) {
      const why = signal.aborted ? `terminated after ${this.limits.maxWallSeconds + HARD_TIMEOUT_MARGIN_S} s` : (e as Error).message;
      return { ...reject('verifier-crashed', `the verifier stopped on this file: ${why}`), wallMs: performance.now() - t0, cpuMs: null, cpuWaitMs: null, threadNice: null };
    }
  }

  get busy(): number {
    return this.pool.threads.length - this.pool.idleThreads;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
