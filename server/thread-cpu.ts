/**
 * CPU time of the calling thread (Linux). Node 20 has process.cpuUsage (every thread of the process together) but
 * no per-thread figure, and a verification worker shares its process with the event loop; the kernel's
 * /proc/thread-self/schedstat gives the calling thread's time on a CPU and its wait for one, in ns. Null where
 * the file is absent (another OS, or a kernel without scheduler statistics).
 */
import { readFileSync } from 'node:fs';

export interface ThreadTimes {
  /** Time this thread ran on a CPU, ms. */
  cpuMs: number;
  /** Time it was ready to run but waited for a CPU, ms (a loaded machine). */
  waitMs: number;
}

const SCHEDSTAT = '/proc/thread-self/schedstat';
const NS_PER_MS = 1e6;

export function readThreadTimes(): ThreadTimes | null {
  let text: string;
  try {
    text = readFileSync(SCHEDSTAT, 'latin1');
  } catch {
    return null;
  }
  const [run, wait] = text.split(' ').map(Number);
  return Number.isFinite(run) && Number.isFinite(wait) ? { cpuMs: run! / NS_PER_MS, waitMs: wait! / NS_PER_MS } : null;
}

/** The times spent between two readings (null when either is). */
export function threadTimesSince(start: ThreadTimes | null, end: ThreadTimes | null = readThreadTimes()): ThreadTimes | null {
  return start && end ? { cpuMs: end.cpuMs - start.cpuMs, waitMs: end.waitMs - start.waitMs } : null;
}
