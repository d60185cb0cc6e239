/**
 * Web Worker running the vehicle's headless car tests (0–100 km/h, braking, skidpad, understeer gradient)
 * off the UI thread. Input: a validated CarConfig (plain data, structured-cloned); output: the results.
 */
import { runCarTests, type CarTestResult } from '../../run/car-test';
import type { CarConfig } from '../../content/car-schema';

export interface CarTestRequest {
  id: number;
  config: CarConfig;
}

export type CarTestReply = { id: number; ok: true; results: CarTestResult[]; ms: number } | { id: number; ok: false; error: string };

const ctx = self as unknown as { onmessage: ((e: MessageEvent<CarTestRequest>) => void) | null; postMessage(m: CarTestReply): void };

ctx.onmessage = (e) => {
  const { id, config } = e.data;
  const t0 = performance.now();
  try {
    const results = runCarTests(config);
    ctx.postMessage({ id, ok: true, results, ms: performance.now() - t0 });
  } catch (err) {
    ctx.postMessage({ id, ok: false, error: (err as Error).message });
  }
};
