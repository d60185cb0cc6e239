/**
 * Helpers for e2e specs: a polling wait with a wall-clock limit, and a page in its own browser context with
 * the virtual pad injected and its console errors / page errors collected.
 */
import { PAD_INIT } from './pad.mjs';

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
