/**
 * Helpers for e2e specs: a polling wait with a wall-clock limit, and a page in its own browser context with
 * the virtual pad injected and its console errors / page errors collected.
 */
import { PAD_INIT } from './pad.mjs';
import { waitFor } from './spec-runner.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export { waitFor } from './spec-runner.mjs';

/** A 1280×720 context and page with the pad; `errors` collects console errors and page errors. Close `context`. */
export async function padPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(PAD_INIT);
  return { context, page, errors };
}

/** Standard-mapping gamepad button indices used by the menus. */
export const PAD_BUTTON = { a: 0, b: 1, up: 12, down: 13, left: 14, right: 15 };

/** Renders `n` more frames of the page (its `window.__bitrally.frame` counter). */
export async function waitFrames(page, n, timeoutMs = 60000) {
  const frame = () => page.evaluate(() => window.__bitrally.frame);
  const f0 = await frame();
  await waitFor(`${n} frames`, async () => (await frame()) >= f0 + n, timeoutMs, 50);
}

/** Presses a virtual pad button (a PAD_BUTTON name) and releases it, each acknowledged by two polled frames. */
export async function pressPad(page, name) {
  const b = PAD_BUTTON[name];
  await page.evaluate((i) => window.__pad.set({ buttons: { [i]: 1 } }), b);
  await waitFrames(page, 2);
  await page.evaluate((i) => window.__pad.set({ buttons: { [i]: 0 } }), b);
  await waitFrames(page, 2);
}
