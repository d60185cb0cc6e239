/**
 * The finish screen's "Watch replay": opens the run just recorded (the session's replay bytes, taken at the
 * finish line) in the replay viewer; the viewer's Back returns to this finish screen with its results.
 */
import type { ScreenContext } from './screens';

/** Finish-screen params key that keeps the run's bytes across the trip to the viewer and back. */
const BYTES_KEY = 'replayBytes';

/**
 * Adds the button before the finish screen's "Main menu" (or at its end). `bytes`: the session's recording;
 * null after the viewer has closed the session, when the params still hold them.
 */
export function addWatchReplayButton(el: HTMLElement, ctx: ScreenContext, params: Record<string, unknown>, bytes: Uint8Array | null | undefined): void {
  const run = bytes ?? (params[BYTES_KEY] instanceof Uint8Array ? params[BYTES_KEY] : null);
  if (!run) return;
  const b = document.createElement('button');
  b.className = 'item';
  b.dataset.watchReplay = '';
  b.textContent = 'Watch replay';
  b.onclick = () => ctx.show('replay', { bytes: run, name: 'this run', from: 'finish', backParams: { ...params, [BYTES_KEY]: run } });
  const menu = el.querySelector('[data-a="menu"]');
  if (menu) menu.before(b);
  else el.appendChild(b);
}
