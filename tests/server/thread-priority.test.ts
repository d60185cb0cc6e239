/** Verification threads run below the event loop's priority (server/thread-priority.ts), so reads preempt them. */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { getPriority } from 'node:os';
import { VerifierPool } from '../../server/verify/pool';
import { currentThreadId, VERIFY_THREAD_NICE } from '../../server/thread-priority';

const linux = existsSync('/proc/thread-self');

describe.runIf(linux)('verification thread priority (Linux)', () => {
  const pool = new VerifierPool({ threads: 1 });
  afterAll(() => pool.close());

  it('a verdict comes from a thread niced to VERIFY_THREAD_NICE; the calling thread keeps its own priority', async () => {
    const tid = currentThreadId()!;
    const before = getPriority(tid);
    const v = await pool.verify(new TextEncoder().encode('not a replay'));
    expect(v.status).toBe('rejected');
    // the worker lowers only itself (a thread already niced lower stays so)
    expect(v.threadNice).toBe(Math.max(VERIFY_THREAD_NICE, before));
    expect(getPriority(tid)).toBe(before);
  }, 60_000);
});
