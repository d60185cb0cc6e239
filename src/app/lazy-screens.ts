/**
 * Screens whose code is not in the startup chunk (garage, analysis, replays, rallycross: CodeMirror, uPlot and
 * their own modules). Each name is registered with a stand-in that shows "Loading", starts the feature's import
 * (a dynamic `import()` that registers the real screens under the same names) and, once it resolves, shows the
 * real screen with the same parameters, if the player has not moved on. Presses made meanwhile are queued by the
 * screen manager (ScreenInstance.loading).
 */
import { html, registerScreen } from './screens';
import { escapeHtml } from './escape-html';

/** A feature's loader, run once: every caller shares the first call's promise (a failure is retried later). */
export function loadOnce(load: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | null = null;
  return () => {
    pending ??= load().catch((e: unknown) => {
      pending = null;
      throw e;
    });
    return pending;
  };
}

/** Registers stand-ins for `names`; `load` must register the real screens under the same names. */
export function registerLazyScreens(names: readonly string[], load: () => Promise<void>): void {
  for (const name of names) {
    registerScreen(name, (ctx, params) => {
      const el = html(`<h2>Loading</h2><div class="sub" data-msg></div>`);
      let ready = false;
      void load().then(
        () => {
          ready = true;
          if (el.isConnected) ctx.show(name, params);
        },
        (e: unknown) => {
          ready = true;
          el.querySelector('[data-msg]')!.innerHTML = `<div class="error">${escapeHtml((e as Error).message)}</div>`;
        },
      );
      return { el, loading: () => !ready, back: () => ctx.show('title') };
    });
  }
}
