/**
 * The verification queue: submission ids waiting for a worker, at most one verification per pool thread in
 * flight. The rows are the durable queue (status 'pending'); this in-memory list is rebuilt from them at start
 * (`resume`), so a crash or a shutdown with work in flight loses nothing: the unfinished rows are still pending
 * and are verified after the restart.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from './store';
import type { VerifierPool } from './verify/pool';
import type { Verdict } from './verify/verdict';

export class VerificationQueue {
  private readonly waiting: number[] = [];
  private readonly queued = new Set<number>();
  private readonly inFlight = new Map<number, Promise<void>>();
  private stopped = false;
  /** Called after each verdict is stored (the leaderboard cache listens). */
  onVerified: ((id: number, verdict: Verdict) => void) | null = null;

  constructor(
    private readonly store: Store,
    private readonly pool: VerifierPool,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Re-queues every pending row (at start). */
  async resume(): Promise<number> {
    const ids = await this.store.pendingIds();
    for (const id of ids) this.enqueue(id);
    return ids.length;
  }

  enqueue(id: number): void {
    if (this.stopped || this.queued.has(id) || this.inFlight.has(id)) return;
    this.queued.add(id);
    this.waiting.push(id);
    this.pump();
  }

  get depth(): number {
    return this.waiting.length + this.inFlight.size;
  }

  private pump(): void {
    while (!this.stopped && this.inFlight.size < this.pool.threads && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.queued.delete(id);
      const p = this.verifyOne(id).finally(() => {
        this.inFlight.delete(id);
        this.pump();
      });
      this.inFlight.set(id, p);
    }
  }

  private async verifyOne(id: number): Promise<void> {
    try {
      const bytes = await this.store.submissionBytes(id, false);
      if (!bytes) return;
      const v = await this.pool.verify(bytes);
      await this.store.recordVerdict(id, v, v.wallMs);
      this.log.info({ submission: id, status: v.status, code: v.status === 'rejected' ? v.code : undefined, stageTimeS: v.status === 'accepted' ? v.stageTimeS : undefined, verifyMs: Math.round(v.wallMs), verifyCpuMs: v.cpuMs === null ? undefined : Math.round(v.cpuMs) }, 'verified');
      this.onVerified?.(id, v);
    } catch (e) {
      // a database failure: the row stays pending and is verified again after the next start
      this.log.error({ submission: id, err: e }, 'verification not stored');
    }
  }

  /**
   * Stops taking work and waits up to `graceMs` for the verifications in flight; what is not finished by then
   * stays pending in the database and is re-queued at the next start.
   */
  async drain(graceMs: number): Promise<{ finished: number; left: number }> {
    this.stopped = true;
    const left = this.waiting.length;
    this.waiting.length = 0;
    this.queued.clear();
    const running = [...this.inFlight.values()];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((res) => (timer = setTimeout(() => res('timeout'), graceMs)));
    const outcome = await Promise.race([Promise.all(running).then(() => 'done' as const), timeout]);
    clearTimeout(timer);
    const unfinished = outcome === 'done' ? 0 : this.inFlight.size;
    return { finished: running.length - unfinished, left: left + unfinished };
  }
}
