/**
 * The online module (loaded on demand, src/app/online-link.ts and main.ts): one OnlineService per page, the
 * Leaderboards screen, the offline queue's retry loop, the finish screen's submission line, and a test hook
 * `window.__bitrally.online`.
 */
import type { AppContext } from '../app-context';
import { configuredServer } from '../online-config';
import { normaliseServerUrl } from './api';
import { openQueueStore } from './queue-idb';
import { OnlineService } from './service';
import { describeSubmission, type SubmissionView } from './status';
import { registerLeaderboardsScreen, type StartStage } from './leaderboards-screen';
import './online.css';

let service: Promise<OnlineService> | null = null;
/** The last submission's status (the finish screen shows it again after the replay viewer). */
let lastView: SubmissionView | null = null;
const viewListeners = new Set<(v: SubmissionView) => void>();

/** The page's online service, made once (the identity is created on first use). */
export function onlineFor(app: AppContext): Promise<OnlineService> {
  service ??= openQueueStore().then((store) => {
    const svc = new OnlineService(
      {
        serverUrl: () => normaliseServerUrl(configuredServer(app)),
        submitRuns: () => app.settings.submitRuns,
        storage: globalThis.localStorage,
        now: () => new Date().toISOString(),
      },
      store,
    );
    exposeTestHook(svc);
    return svc;
  });
  return service;
}

function publish(v: SubmissionView): void {
  lastView = v;
  const hook = (window.__bitrally ??= {}).online as Record<string, unknown> | undefined;
  if (hook) hook.lastView = v;
  for (const f of viewListeners) f(v);
}

/** Registers the screens and starts the queue's retry loop (a run queued while offline goes out when the server is back). */
export async function installOnline(app: AppContext, startStage: StartStage): Promise<void> {
  registerLeaderboardsScreen(app, () => onlineFor(app), startStage);
  const svc = await onlineFor(app);
  svc.startRetryLoop();
}

/**
 * The finish screen's line: submits `bytes` (null: already submitted, show the latest status) and follows the
 * status until the verdict while the line is on screen.
 */
export async function showSubmission(app: AppContext, line: HTMLElement, bytes: Uint8Array | null, stageId: string): Promise<void> {
  const svc = await onlineFor(app);
  // the line is on screen by now (the module loads asynchronously); once it has left, it stops listening
  const show = (v: SubmissionView): void => {
    if (!line.isConnected) return void viewListeners.delete(show);
    line.dataset.online = v.state;
    line.textContent = describeSubmission(v);
  };
  viewListeners.add(show);
  if (bytes) await svc.submitRun(bytes, stageId, publish);
  else if (lastView) show(lastView);
}

function exposeTestHook(svc: OnlineService): void {
  const root = (window.__bitrally ??= {});
  root.online = {
    lastView,
    key: svc.identity.key,
    name: () => svc.identity.name,
    playerId: () => svc.playerId(),
    pending: async () => (await svc.queue.pending()).length,
    flush: () => svc.queue.flush(),
  };
}
