/**
 * Startup e2e (issue #19 item 5); run it alone with `E2E_FILES=startup npm run test:e2e`.
 *
 * page load → title: three loads of the preview build, each in a fresh browser context (empty cache), read the
 * game's `titleMs` (performance.now() when the title screen is shown, i.e. from navigation start); the median
 * must be ≤ 1 s, and the garage, replay and rallycross code must not have been fetched before the title.
 */
import { runSpecList } from './spec-runner.mjs';

/** Issue #19: page load → title on the preview build. */
const TITLE_BUDGET_MS = 1000;
const LOADS = 3;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function waitFor(what, fn, timeoutMs = 60000) {
  const t0 = Date.now();
  for (let last; Date.now() - t0 < timeoutMs; await sleep(100)) if ((last = await fn())) return last;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** One cold load: the title time and the scripts requested before the title was shown. */
async function coldLoad(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await page.goto(base);
    const titleMs = await waitFor('the title screen', () => page.evaluate(() => window.__bitrally?.titleMs ?? null));
    const scripts = await page.evaluate((t) => performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js')).filter((e) => e.startTime < t).map((e) => e.name.replace(/.*\//, '')), titleMs);
    return { titleMs, scripts };
  } finally {
    await context.close();
  }
}

export const specs = [
  {
    name: 'startup: page load → title ≤ 1 s (median of 3 cold loads), lazy features not fetched before it',
    async run({ browser, base, report }) {
      const loads = [];
      for (let i = 0; i < LOADS; i++) loads.push(await coldLoad(browser, base));
      const times = loads.map((l) => l.titleMs).sort((a, b) => a - b);
      const median = times[LOADS >> 1];
      report.titleMs = times.map((t) => Math.round(t));
      const early = loads[0].scripts.filter((s) => /^(install|worker)-/.test(s));
      report.scriptsBeforeTitle = loads[0].scripts.length;
      if (early.length) throw new Error(`lazy chunks fetched before the title: ${early.join(', ')}`);
      if (!(median <= TITLE_BUDGET_MS)) throw new Error(`page load → title ${median.toFixed(0)} ms (median of ${times.map((t) => t.toFixed(0)).join(', ')}), expected ≤ ${TITLE_BUDGET_MS} ms`);
    },
  },
];

export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'startup-report.json', label: 'startup report' });
}
