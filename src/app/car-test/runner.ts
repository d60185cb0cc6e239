/**
 * Runs car tests in a Web Worker (falls back to the main thread where workers are unavailable) and caches
 * results by car file text, so "previous version" results are computed once.
 */
import type { CarConfig } from '../../content/car-schema';
import type { CarTestResult } from '../../run/car-test';
import type { CarTestReply, CarTestRequest } from './worker';

export class CarTestRunner {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (r: CarTestResult[]) => void; reject: (e: Error) => void }>();
  private readonly cache = new Map<string, Promise<CarTestResult[]>>();

  private ensureWorker(): Worker | null {
    if (this.worker || typeof Worker === 'undefined') return this.worker;
    try {
      this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e: MessageEvent<CarTestReply>) => {
        const p = this.pending.get(e.data.id);
        if (!p) return;
        this.pending.delete(e.data.id);
        if (e.data.ok) p.resolve(e.data.results);
        else p.reject(new Error(e.data.error));
      };
      this.worker.onerror = (e) => {
        for (const p of this.pending.values()) p.reject(new Error(`car test worker: ${e.message}`));
        this.pending.clear();
      };
    } catch {
      this.worker = null;
    }
    return this.worker;
  }

  /** Results for `config`; `key` (the file text) caches them. */
  run(config: CarConfig, key: string): Promise<CarTestResult[]> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const w = this.ensureWorker();
    let p: Promise<CarTestResult[]>;
    if (w) {
      const id = ++this.seq;
      p = new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        const req: CarTestRequest = { id, config };
        w.postMessage(req);
      });
    } else {
      p = import('../../run/car-test').then((m) => m.runCarTests(config));
    }
    p.catch(() => this.cache.delete(key));
    this.cache.set(key, p);
    return p;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) p.reject(new Error('car test cancelled'));
    this.pending.clear();
  }
}
