/**
 * The server benchmark's measuring side (bench/suites/server.ts): the load client in a child process
 * (bench/server-load-client.mjs), the CPU time of the server's main thread, the server-side time of each request (request received → response written,
 * taken on the server's http.Server, so the clients' own scheduling is not in it), the server's event-loop delay
 * and busy share, and percentiles.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { readThreadTimes, threadTimesSince } from '../server/thread-cpu';

/** The q-quantile of sorted values (nearest rank). */
export const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Load client in its own process: `run` sends one batch of URL lists (one per client) and resolves to its timings. */
export class LoadClient {
  private readonly child: ChildProcess;

  constructor() {
    this.child = fork(new URL('./server-load-client.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
  }

  run(perClient: string[][]): Promise<{ times: number[]; cpuMs: number }> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`bench: the load client exited (${code})`));
      this.child.once('exit', onExit);
      this.child.once('message', (m: { times: number[]; cpuMs: number; error?: string }) => {
        this.child.off('exit', onExit);
        if (m.error) reject(new Error(m.error));
        else resolve(m);
      });
      this.child.send({ perClient });
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

export interface ServerSideStats {
  /** Request in → response written on the server, per request, sorted, ms. */
  times: number[];
  /** The event loop's busy share over the window, 0–1. */
  busy: number;
  /** p99 of the event loop's scheduling delay over the window, ms (how long a ready callback waited). */
  loopDelayP99Ms: number;
  /** The server process's CPU time over the window (every thread: main and verification workers), ms. */
  cpuMs: number;
  /** CPU time of the server's main thread (event loop: HTTP, routes, database) over the window, ms; null off Linux. */
  mainThreadCpuMs: number | null;
  /** How long that thread was ready to run but waited for a core over the window, ms; null off Linux. */
  mainThreadWaitMs: number | null;
  /** The window's length, ms. */
  wallMs: number;
}

/** Measures the server side of one window of requests on `server`; call the returned stop() at its end. */
export function watchServer(server: Server): () => ServerSideStats {
  const times: number[] = [];
  const onRequest = (_req: unknown, res: { once(e: 'finish', f: () => void): void }): void => {
    const t0 = performance.now();
    res.once('finish', () => times.push(performance.now() - t0));
  };
  server.prependListener('request', onRequest);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const thread0 = readThreadTimes();
  const t0 = performance.now();
  return () => {
    const thread = threadTimesSince(thread0);
    server.off('request', onRequest);
    delay.disable();
    const cpu = process.cpuUsage(cpu0);
    return {
      times: times.sort((a, b) => a - b),
      busy: performance.eventLoopUtilization(elu0).utilization,
      loopDelayP99Ms: delay.percentile(99) / 1e6,
      cpuMs: (cpu.user + cpu.system) / 1000,
      mainThreadCpuMs: thread?.cpuMs ?? null,
      mainThreadWaitMs: thread?.waitMs ?? null,
      wallMs: performance.now() - t0,
    };
  };
}
