/**
 * The startup chunk's side of the online features (the rest is src/app/online/, loaded on demand): which server
 * is configured (the settings' server URL, or `?server=` for tests), and the finish screen's submission line,
 * which loads the online module only when a server is set. Without one the line says "offline" and nothing
 * else changes.
 */
import type { AppContext } from './app-context';
import { configuredServer } from './online-config';

/** Finish-screen runs already handed to the online module (the screen is rebuilt after the replay viewer). */
const submitted = new WeakSet<Uint8Array>();

/** The online module, installed once (screens, retry loop); main.ts wires it as a lazy feature. */
export const loadOnlineModule = (): Promise<typeof import('./online/install')> => import('./online/install');

/**
 * Adds the submission status line before the finish screen's buttons and, once per run, submits it (when a
 * server is set and submissions are on). `bytes`: the session's recording (null after the viewer closed it).
 */
export function addSubmissionStatus(el: HTMLElement, app: AppContext, bytes: Uint8Array | null | undefined, stageId: string): void {
  const line = document.createElement('div');
  line.className = 'sub online-status';
  line.dataset.online = 'offline';
  const first = el.querySelector('button.item');
  if (first) first.before(line);
  else el.appendChild(line);
  if (!configuredServer(app)) {
    line.textContent = 'Online: offline (no server set)';
    return;
  }
  if (!app.settings.submitRuns) {
    line.dataset.online = 'off';
    line.textContent = 'Online: submitting runs is off (Settings)';
    return;
  }
  line.textContent = 'Online: …';
  const fresh = bytes && !submitted.has(bytes) ? bytes : null;
  if (fresh) submitted.add(fresh);
  void loadOnlineModule().then((m) => m.showSubmission(app, line, fresh, stageId));
}
