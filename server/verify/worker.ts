/**
 * The verification worker (one per piscina thread): loads Havok (the stages' props), the shipped stages and
 * car classes once, then verifies the files it is handed. Its memory is capped by the pool's resource limits,
 * so a file that makes it allocate too much kills this thread only.
 */
import '../../src/systems/sim/collision/havok-preload-node';
import { performance } from 'node:perf_hooks';
import { shippedCarClasses } from './car-classes';
import { StageCatalog } from './stage-catalog';
import { verifySubmission, type VerifyLimits } from './verify-submission';
import { readThreadTimes, threadTimesSince } from '../thread-cpu';
import { lowerThisThreadPriority, VERIFY_THREAD_NICE } from '../thread-priority';
import type { Verdict } from './verdict';

export interface VerifyTask {
  bytes: Uint8Array;
  limits: VerifyLimits;
}

const stages = StageCatalog.shipped();
const cars = shippedCarClasses();
/** This thread's nice value (null where it cannot be set): board reads on the event loop preempt verifications. */
const threadNice = lowerThisThreadPriority(VERIFY_THREAD_NICE);

/**
 * A verdict with what it cost this worker thread: wall time, and CPU time and wait for a CPU where known (ms); the
 * thread's nice value (null where unknown).
 */
export type TimedVerdict = Verdict & { wallMs: number; cpuMs: number | null; cpuWaitMs: number | null; threadNice: number | null };

export default async function verifyTask(task: VerifyTask): Promise<TimedVerdict> {
  const t0 = performance.now();
  const thread0 = readThreadTimes();
  const v = await verifySubmission(task.bytes, { stages, cars, limits: task.limits, nowSeconds: () => performance.now() / 1000 });
  const thread = threadTimesSince(thread0);
  return { ...v, wallMs: performance.now() - t0, cpuMs: thread?.cpuMs ?? null, cpuWaitMs: thread?.waitMs ?? null, threadNice };
}
