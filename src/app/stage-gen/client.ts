/**
 * `getGeneratedStage(params, { onProgress, signal })`: a generated stage from the cache, or from the generator
 * running in a Web Worker (comlink) with its progress reported; an abort ends the worker. Results are cached by
 * (generator version, parameters), so a second call with the same parameters returns at once without
 * generating. `createStageGenerator` takes the cache and the worker as arguments (tests pass their own).
 */
import { proxy, wrap, type Remote } from 'comlink';
import { GENERATOR_VERSION } from '../../../terrain/generate';
import type { GeneratedStageData, StageGenApi, StageGenProgress } from './generate-api';
import { checkStageGenParams, stageGenCacheKey, type StageGenParams } from './params';

export interface StageGenCache {
  get(key: string): Promise<GeneratedStageData | undefined>;
  put(key: string, stage: GeneratedStageData): Promise<void>;
}

/** A started generator: its API (comlink remote or the module itself) and how to end it. */
export interface StageGenWorker {
  api: Remote<StageGenApi> | StageGenApi;
  terminate(): void;
}

export interface StageGenDeps {
  cache: StageGenCache;
  startWorker(): StageGenWorker;
}

export interface GetStageOptions {
  onProgress?: StageGenProgress;
  signal?: AbortSignal;
}

export interface GeneratedStageResult extends GeneratedStageData {
  /** True when the stage came from the cache (nothing was generated). */
  cached: boolean;
}

function abortError(): Error {
  return new DOMException('stage generation cancelled', 'AbortError');
}

/** Runs one generation in a fresh worker, ending it when done or when `signal` aborts. */
async function runInWorker(deps: StageGenDeps, params: StageGenParams, o: GetStageOptions): Promise<GeneratedStageData> {
  if (o.signal?.aborted) throw abortError();
  const w = deps.startWorker();
  let onAbort: (() => void) | null = null;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      w.terminate();
      reject(abortError());
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const progress = o.onProgress ? proxy(o.onProgress) : undefined;
    return await Promise.race([Promise.resolve(w.api.generate(params, progress)), aborted]);
  } finally {
    if (onAbort) o.signal?.removeEventListener('abort', onAbort);
    w.terminate();
  }
}

/** A `getGeneratedStage` over the given cache and worker. */
export function createStageGenerator(deps: StageGenDeps): (params: StageGenParams, o?: GetStageOptions) => Promise<GeneratedStageResult> {
  return async (params, o = {}) => {
    const checked = checkStageGenParams(params);
    const key = stageGenCacheKey(GENERATOR_VERSION, checked);
    const hit = await deps.cache.get(key);
    if (hit) {
      o.onProgress?.('files', 1);
      return { ...hit, cached: true };
    }
    const stage = await runInWorker(deps, checked, o);
    await deps.cache.put(key, stage);
    return { ...stage, cached: false };
  };
}

/** The browser's generator worker (Vite bundles worker.ts and its imports as a module worker). */
export function startBrowserWorker(): StageGenWorker {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  return { api: wrap<StageGenApi>(worker), terminate: () => worker.terminate() };
}
