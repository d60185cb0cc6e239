/**
 * The e2e specs. Each spec gets a fresh page with the virtual pad injected; console errors and page errors
 * fail the spec. Timeouts are generous: SwiftShader renders at a few frames per second.
 */
import { chromium } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAD_INIT } from './pad.mjs';

const ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'];
const A = 0, B = 1, START = 9, RT = 7, DOWN = 13, RIGHT = 15;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function hook(page, key) {
  return page.evaluate((k) => {
    const h = window.__bitrally;
    if (!h) return undefined;
    const v = h[k];
    return typeof v === 'function' ? v() : v;
  }, key);
}

async function waitFor(page, what, fn, timeoutMs = 60000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last;
    await sleep(150);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

const waitScreen = (page, name, ms) => waitFor(page, `screen "${name}"`, async () => (await hook(page, 'screens')) === name, ms);

/** Press a pad button long enough for a slow frame loop to see it down, then release. */
async function press(page, button, holdMs = 350) {
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), button);
  await sleep(holdMs);
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), button);
  await sleep(holdMs);
}

async function newPage(browser, ctx) {
  const context = ctx ?? (await browser.newContext({ viewport: { width: 1280, height: 720 } }));
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(PAD_INIT);
  return { page, errors, context };
}

async function shot(page, out, name) {
  await page.screenshot({ path: join(out, `${name}.png`) });
}

/** Title → stage (by id) → first car → drive, with the pad only. */
async function padToStage(page, stageId) {
  await waitScreen(page, 'title');
  await page.evaluate(() => window.__pad.connect());
  await press(page, A);
  await waitScreen(page, 'stages');
  await waitFor(page, 'stage cards', () => page.evaluate(() => document.querySelectorAll('[data-stage]').length > 0));
  const ids = await page.evaluate(() => [...document.querySelectorAll('[data-stage]')].map((e) => e.dataset.stage));
  const idx = ids.indexOf(stageId);
  if (idx < 0) throw new Error(`stage ${stageId} not in menu: ${ids.join(', ')}`);
  for (let i = 0; i < 3 * ids.length; i++) {
    const f = await page.evaluate(() => document.querySelector('.item.focused')?.dataset.stage);
    if (f === stageId) break;
    await press(page, RIGHT, 450);
  }
  const focused = await page.evaluate(() => document.querySelector('.item.focused')?.dataset.stage);
  if (focused !== stageId) throw new Error(`pad navigation focused ${focused}, wanted ${stageId}`);
  await press(page, A);
  await waitScreen(page, 'cars');
  await press(page, A);
  await waitScreen(page, 'drive', 120000);
}

export const specs = [
  {
    name: 'title screen boots without console errors, with the menus navigable by pad',
    async run({ browser, base, out }) {
      const { page, errors } = await newPage(browser);
      await page.goto(base);
      await waitScreen(page, 'title');
      await shot(page, out, 'menu-title');
      await page.evaluate(() => window.__pad.connect());
      await press(page, DOWN);
      const f = await page.evaluate(() => document.querySelector('.item.focused')?.textContent);
      if (!/Settings/.test(f ?? '')) throw new Error(`DOWN should focus Settings, focused "${f}"`);
      await press(page, A);
      await waitScreen(page, 'settings');
      await shot(page, out, 'menu-settings');
      await press(page, B);
      await waitScreen(page, 'title');
      await press(page, 0 /* A on 'Drive a stage' after re-open */);
      await waitScreen(page, 'stages');
      await waitFor(page, 'stage cards', () => page.evaluate(() => document.querySelectorAll('[data-stage] canvas').length > 0));
      await sleep(400);
      await shot(page, out, 'menu-stages');
      await press(page, A);
      await waitScreen(page, 'cars');
      await shot(page, out, 'menu-cars');
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      await page.context().close();
    },
  },
  {
    name: 'drive: pad starts a stage, countdown, throttle moves the car and the timer runs; perf probe',
    async run({ browser, base, out, report }) {
      const { page, errors } = await newPage(browser);
      await page.goto(base);
      await padToStage(page, 'test-short');
      report.loadMs = await hook(page, 'loadMs');
      await shot(page, out, 'drive-countdown');
      await waitFor(page, 'lights out', async () => (await hook(page, 'phase')) === 'running', 60000);
      const p0 = await hook(page, 'carPos');
      await page.evaluate(() => window.__pad.set({ buttons: { 7: 1 } }));
      try {
        await waitFor(page, 'stage time ≥ 2 s', async () => (await hook(page, 'stageTimeS')) >= 2, 150000);
      } finally {
        report.perf = await hook(page, 'perf');
        await shot(page, out, 'drive');
      }
      const p1 = await hook(page, 'carPos');
      const moved = Math.hypot(p1[0] - p0[0], p1[2] - p0[2]);
      const speed = await hook(page, 'speedKmh');
      report.perf = await hook(page, 'perf');
      report.drivableMs = await hook(page, 'drivableMs');
      await page.evaluate(() => window.__pad.set({ buttons: { 7: 0 } }));
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      if (!(moved > 2)) throw new Error(`car moved only ${moved.toFixed(2)} m under full throttle (speed ${speed?.toFixed?.(1)} km/h)`);
      await page.context().close();
    },
  },
  {
    name: 'pad disconnect pauses the game; resume with Start',
    async run({ browser, base, out }) {
      const { page, errors } = await newPage(browser);
      await page.goto(base);
      await padToStage(page, 'test-short');
      await waitFor(page, 'lights out', async () => (await hook(page, 'phase')) === 'running', 60000);
      await page.evaluate(() => window.__pad.disconnect());
      await waitScreen(page, 'pause', 20000);
      await shot(page, out, 'menu-pause');
      const t0 = await hook(page, 'stageTimeS');
      await sleep(1500);
      const t1 = await hook(page, 'stageTimeS');
      if (t1 !== t0) throw new Error(`timer ran while paused: ${t0} → ${t1}`);
      await page.evaluate(() => window.__pad.connect());
      await press(page, START);
      await waitScreen(page, 'drive', 20000);
      await waitFor(page, 'timer running again', async () => (await hook(page, 'stageTimeS')) > t1, 30000);
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      await page.context().close();
    },
  },
  {
    name: 'settings persist across a reload',
    async run({ browser, base }) {
      const { page, errors, context } = await newPage(browser);
      await page.goto(base);
      await waitScreen(page, 'title');
      await page.evaluate(() => window.__pad.connect());
      await press(page, DOWN);
      await press(page, A);
      await waitScreen(page, 'settings');
      // first row: units km/h → mph
      await press(page, RIGHT);
      const v = await page.evaluate(() => document.querySelector('[data-key="units"] .val')?.textContent);
      if (!/mph/.test(v ?? '')) throw new Error(`units did not change: ${v}`);
      await page.reload();
      await waitScreen(page, 'title');
      await page.evaluate(() => window.__pad.connect());
      await press(page, DOWN);
      await press(page, A);
      await waitScreen(page, 'settings');
      const v2 = await page.evaluate(() => document.querySelector('[data-key="units"] .val')?.textContent);
      if (!/mph/.test(v2 ?? '')) throw new Error(`units after reload: ${v2}`);
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      await context.close();
    },
  },
];

export async function runSpecs({ base, out, filter }) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, headless: true });
  const results = [];
  const report = {};
  try {
    for (const s of specs) {
      if (filter && !s.name.includes(filter)) continue;
      const t0 = Date.now();
      try {
        await s.run({ browser, base, out, report });
        results.push({ name: s.name, ok: true, ms: Date.now() - t0 });
      } catch (e) {
        results.push({ name: s.name, ok: false, ms: Date.now() - t0, error: e?.message ?? String(e) });
      }
    }
  } finally {
    await browser.close();
  }
  writeFileSync(join(out, 'report.json'), JSON.stringify({ results, ...report }, null, 2));
  console.log('e2e report:', JSON.stringify(report));
  return results;
}
