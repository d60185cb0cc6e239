/**
 * One browser for every e2e spec file: `launchBrowser` starts the system Chromium (SwiftShader WebGL2, autoplay
 * allowed for the audio checks) once per run, and `runSpecList` runs one file's specs in it, in order, each
 * isolated in its own browser contexts (the spec opens and closes them; `afterEach` may close what it left).
 */
import { chromium } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/**
 * The browser as specs see it: contexts block service workers unless a spec asks for them
 * (`newContext({ serviceWorkers: 'allow' })`), so page.route sees every request (a worker's cache would answer
 * first) and no spec starts from a cache another page filled (the game's worker: vite/plugins/offline.ts).
 */
function blockServiceWorkers(browser) {
  return new Proxy(browser, {
    get(target, key) {
      if (key === 'newContext') return (options = {}) => target.newContext({ serviceWorkers: 'block', ...options });
      const v = target[key];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * Runs `specs` ({name, run}) whose name contains `filter` (all without one) in `browser` (a fresh one, closed
 * after, when none is given); writes `{results, ...report}` to `reportFile` under `out` when named, and prints the
 * report under `label`. Returns [{name, ok, ms, error?}].
 */
export async function runSpecList({ specs, browser, base, out, filter, reportFile, label, afterEach }) {
  const own = browser ? null : await launchBrowser();
  const b = blockServiceWorkers(browser ?? own);
  const results = [];
  const report = {};
  try {
    for (const s of specs) {
      if (filter && !s.name.includes(filter)) continue;
      const t0 = Date.now();
      try {
        await s.run({ browser: b, base, out, report });
        results.push({ name: s.name, ok: true, ms: Date.now() - t0 });
      } catch (e) {
        results.push({ name: s.name, ok: false, ms: Date.now() - t0, error: e?.message ?? String(e) });
      } finally {
        if (afterEach) await afterEach();
      }
    }
  } finally {
    if (own) await own.close();
  }
  if (reportFile) {
    writeFileSync(join(out, reportFile), JSON.stringify({ results, ...report }, null, 2));
    console.log(`${label ?? reportFile}:`, JSON.stringify(report));
  }
  return results;
}

/** Poll `fn` until it returns something truthy (returned), or throw after `timeoutMs` naming `what` and the last value. */
export async function waitFor(what, fn, timeoutMs = 60000, pollMs = 200) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/**
 * A 1280×720 page in a fresh context that collects console and page errors: { page, context, errors, H, screen },
 * H(fn, arg) evaluates in the page, screen() is the app's current screen name.
 */
export async function openPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  context.setDefaultNavigationTimeout(180000);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  const H = (fn, arg) => page.evaluate(fn, arg);
  const screen = () => H(() => window.__bitrally?.screens?.());
  return { page, context, errors, H, screen };
}
