/**
 * Scheduling priority of the calling thread (Linux). A verification re-simulates for seconds on end; a board read
 * takes a tenth of a millisecond. On a machine with fewer free cores than verification threads the kernel would
 * share a core evenly between them, and a read would wait behind a time slice of re-simulation. Lowering the
 * verification threads' priority (a higher nice value) lets the event loop's reads run first; a verification
 * still gets every cycle nothing else wants. On Linux setpriority(PRIO_PROCESS, tid) sets one thread's nice value
 * (the thread id from /proc/thread-self); elsewhere nothing changes.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Nice value of the verification threads (0 = normal, 19 = lowest): reads preempt them. */
export const VERIFY_THREAD_NICE = 10;

/** The calling thread's kernel id, or null off Linux. */
export function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Sets the calling thread's nice value to `nice`, never raising its priority (an already lower one stays);
 * returns the thread's nice value afterwards, or null where it cannot be read or set.
 */
export function lowerThisThreadPriority(nice: number): number | null {
  const tid = currentThreadId();
  if (tid === null) return null;
  try {
    if (getPriority(tid) < nice) setPriority(tid, nice);
    return getPriority(tid);
  } catch {
    return null;
  }
}
