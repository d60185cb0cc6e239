/**
 * The game's online side in one object: the server URL (settings or `?server=`), the player identity, the API
 * client, registration, the offline queue with its retry loop, and following a submission until its verdict.
 */
import { OnlineApi, type SubmissionInfo } from './api';
import { loadIdentity, playerIdOf, saveIdentity, type Identity } from './identity';
import { SubmissionQueue, type QueueStore, type QueuedRun, type SendOutcome } from './queue';
import { viewOfOutcome, viewOfSubmission, type SubmissionView } from './status';
import type { KeyValueStore } from '../settings';

/** Retry of the offline queue while the game runs, ms. */
export const QUEUE_RETRY_MS = 10_000;
/** Polling of a submission being verified, ms (a 3-minute run verifies in a few seconds). */
export const VERDICT_POLL_MS = 1_000;
/** Polls before the finish screen stops asking (the verdict shows on the Leaderboards screen later). */
const MAX_VERDICT_POLLS = 600;

export interface OnlineConfig {
  /** The configured server's base URL, or null (offline). */
  serverUrl(): string | null;
  /** Whether finished runs are submitted (the opt-in setting). */
  submitRuns(): boolean;
  storage: KeyValueStore | undefined;
  now(): string;
}

export class OnlineService {
  readonly identity: Identity;
  readonly queue: SubmissionQueue;
  private readonly listeners = new Map<number, (run: QueuedRun, o: SendOutcome) => void>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    readonly config: OnlineConfig,
    store: QueueStore,
  ) {
    this.identity = loadIdentity(config.storage);
    this.queue = new SubmissionQueue(store, (run) => this.clientFor(run));
    this.queue.onOutcome = (run, o) => this.listeners.get(run.localId)?.(run, o);
  }

  /** The API client of the configured server (null: offline). */
  api(): OnlineApi | null {
    const url = this.config.serverUrl();
    return url ? new OnlineApi(url, this.identity.key) : null;
  }

  playerId(): Promise<string> {
    return playerIdOf(this.identity.key);
  }

  /** Changes the name here and, when a server is configured, on the server (throws its refusal). */
  async rename(name: string): Promise<void> {
    const api = this.api();
    if (api) this.identity.registeredName = (await api.register(name)).name;
    this.identity.name = api ? this.identity.registeredName! : name;
    saveIdentity(this.config.storage, this.identity);
  }

  /** Registers the name with `api` unless already done (the server refuses submissions of unknown keys). */
  private async ensureRegistered(api: OnlineApi): Promise<void> {
    if (this.identity.registeredName === this.identity.name) return;
    this.identity.registeredName = (await api.register(this.identity.name)).name;
    saveIdentity(this.config.storage, this.identity);
  }

  private async clientFor(run: QueuedRun): Promise<OnlineApi> {
    const api = new OnlineApi(run.serverUrl, run.key);
    if (run.key === this.identity.key) await this.ensureRegistered(api);
    return api;
  }

  /** Flushes the queue now and every QUEUE_RETRY_MS (a run queued while offline goes out once the server is back). */
  startRetryLoop(intervalMs = QUEUE_RETRY_MS): void {
    void this.queue.flush();
    this.timer ??= setInterval(() => void this.queue.flush(), intervalMs);
  }

  stopRetryLoop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Queues a finished run for the configured server and follows it: `onView` gets queued, then offline (kept
   * for the retry loop) or verifying, then the verdict. Returns false when nothing is submitted (no server, opted out).
   */
  async submitRun(bytes: Uint8Array, stageId: string | null, onView: (v: SubmissionView) => void): Promise<boolean> {
    const url = this.config.serverUrl();
    if (!url || !this.config.submitRuns()) return false;
    const run = await this.queue.add(bytes, url, this.identity.key, stageId, this.config.now());
    onView({ state: 'queued' });
    this.listeners.set(run.localId, (sent, o) => {
      const v = viewOfOutcome(o);
      onView(v);
      if (o.kind === 'kept') return;
      this.listeners.delete(run.localId);
      if (o.kind === 'sent') void this.followVerdict(new OnlineApi(sent.serverUrl, sent.key), o.info, onView);
    });
    await this.queue.flush();
    return true;
  }

  /** Polls a submission until accepted or refused; an accepted run's view carries the player's rank. */
  async followVerdict(api: OnlineApi, first: SubmissionInfo, onView: (v: SubmissionView) => void, pollMs = VERDICT_POLL_MS): Promise<SubmissionView> {
    let info = first;
    for (let i = 0; info.status === 'pending' && i < MAX_VERDICT_POLLS; i++) {
      await new Promise((r) => setTimeout(r, pollMs));
      try {
        info = await api.submission(info.id);
      } catch {
        /* the server went away meanwhile: it verifies the stored row after its restart; keep asking */
      }
    }
    const v = viewOfSubmission(info, await this.rankOf(api, info));
    onView(v);
    return v;
  }

  private async rankOf(api: OnlineApi, info: SubmissionInfo): Promise<number | null> {
    if (info.status !== 'accepted' || !info.board) return null;
    try {
      const me = await this.playerId();
      return (await api.around(info.board, me, 0)).rows.find((r) => r.playerId === me)?.rank ?? null;
    } catch {
      return null;
    }
  }
}
