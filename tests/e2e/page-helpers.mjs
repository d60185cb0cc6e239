/**
 * Helpers for e2e specs: a polling wait with a wall-clock limit, and a page in its own browser context with
 * the virtual pad injected and its console errors / page errors collected.
 */
import { PAD_INIT } from './pad.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export { waitFor } from './spec-runner.mjs';
import { waitFor as waitForFrames } from './spec-runner.mjs';

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

/** Standard-mapping gamepad button indices used by the menus (for `padPress`). */
export const PAD_BUTTON = { a: 0, b: 1, up: 12, down: 13, left: 14, right: 15 };

/** Waits until the app has rendered `n` more frames (it counts them in `window.__bitrally.frame`). */
export async function frames(page, n) {
  const frameNo = () => page.evaluate(() => window.__bitrally?.frame ?? 0);
  const f0 = await frameNo();
  await waitForFrames(`${n} frames`, async () => (await frameNo()) >= f0 + n);
}

/** Presses and releases a virtual pad button, each held until the frame loop has seen it for 2 frames. */
export async function padPress(page, button) {
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), button);
  await frames(page, 2);
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), button);
  await frames(page, 2);
}

/** The focused menu item's text. */
export const focusedText = (page) => page.evaluate(() => document.querySelector('.item.focused')?.textContent ?? '');

/** Press `button` (pad D-pad down by default) until the focused item's text matches `re`. */
export async function padFocusItem(page, re, maxPresses = 16, button = 13) {
  for (let i = 0; i < maxPresses; i++) {
    if (re.test(await focusedText(page))) return;
    await padPress(page, button);
  }
  const f = await focusedText(page);
  if (!re.test(f)) throw new Error(`pad navigation: wanted an item matching ${re}, focused "${f}"`);
}

/** LEFT/RIGHT (`button`) on the focused item until its text matches `re`. */
export const padAdjust = (page, re, button, maxPresses = 12) => padFocusItem(page, re, maxPresses, button);
