/**
 * The offline queue of submissions: a finished run is stored here first (IndexedDB in the browser,
 * queue-idb.ts) and only removed once the server has acknowledged it (202/200 with a submission id), so a run
 * finished while the server is down or unreachable is never lost; `flush` sends what waits, and the app calls
 * it at start and periodically. Sending the same file again is idempotent on the server (one row per SHA-256).
 */
import { ApiError, OfflineError, type SubmissionInfo } from './api';

export interface QueuedRun {
  /** Local id (order of arrival). */
  localId: number;
  bytes: Uint8Array;
  /** The server it is for and the key it is submitted with (settings may change meanwhile). */
  serverUrl: string;
  key: string;
  stageId: string | null;
  /** ISO time it was queued (display). */
  queuedAt: string;
}

/** Where queued runs are kept: IndexedDB in the browser, a Map in tests. */
export interface QueueStore {
  all(): Promise<QueuedRun[]>;
  put(run: QueuedRun): Promise<void>;
  remove(localId: number): Promise<void>;
}

/** What the queue needs of the API client for one run's server and key. */
export interface SubmitClient {
  submit(bytes: Uint8Array): Promise<SubmissionInfo>;
}

/** The outcome of one send: acknowledged (with the server's row), kept for later, or refused for good. */
export type SendOutcome = { kind: 'sent'; info: SubmissionInfo } | { kind: 'kept'; reason: string } | { kind: 'refused'; reason: string };

export class MemoryQueueStore implements QueueStore {
  private readonly runs = new Map<number, QueuedRun>();
  all(): Promise<QueuedRun[]> {
    return Promise.resolve([...this.runs.values()].sort((a, b) => a.localId - b.localId));
  }
  put(run: QueuedRun): Promise<void> {
    this.runs.set(run.localId, run);
    return Promise.resolve();
  }
  remove(localId: number): Promise<void> {
    this.runs.delete(localId);
    return Promise.resolve();
  }
}

export class SubmissionQueue {
  /** Called after every send attempt of a run (the finish screen follows its own run's id). */
  onOutcome: ((run: QueuedRun, outcome: SendOutcome) => void) | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly store: QueueStore,
    /** The client for a run's server and key; it registers the player first when needed. */
    private readonly clientFor: (run: QueuedRun) => Promise<SubmitClient>,
  ) {}

  /** Stores the run (before any network), then tries to send everything waiting; resolves to the stored run. */
  async add(bytes: Uint8Array, serverUrl: string, key: string, stageId: string | null, queuedAt: string): Promise<QueuedRun> {
    const last = (await this.store.all()).at(-1);
    const run: QueuedRun = { localId: (last?.localId ?? 0) + 1, bytes, serverUrl, key, stageId, queuedAt };
    await this.store.put(run);
    return run;
  }

  pending(): Promise<QueuedRun[]> {
    return this.store.all();
  }

  /** Sends every waiting run, oldest first; one flush at a time (a second call shares the first). */
  flush(): Promise<void> {
    this.flushing ??= this.sendAll().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async sendAll(): Promise<void> {
    for (const run of await this.store.all()) {
      const outcome = await this.send(run);
      if (outcome.kind !== 'kept') await this.store.remove(run.localId);
      this.onOutcome?.(run, outcome);
    }
  }

  private async send(run: QueuedRun): Promise<SendOutcome> {
    try {
      const client = await this.clientFor(run);
      return { kind: 'sent', info: await client.submit(run.bytes) };
    } catch (e) {
      if (e instanceof OfflineError) return { kind: 'kept', reason: e.message };
      // refused before verification (not a replay, another player's file, a bad name): retrying cannot help
      if (e instanceof ApiError) return { kind: 'refused', reason: e.message };
      return { kind: 'kept', reason: (e as Error).message };
    }
  }
}
