/**
 * The e2e specs. Each spec gets a fresh page with the virtual pad injected; console errors and page errors
 * fail the spec. Timeouts are generous: SwiftShader renders at a few frames per second.
 */
import { runSpecList } from './spec-runner.mjs';
import { join } from 'node:path';
import { PAD_INIT } from './pad.mjs';

const A = 0, B = 1, START = 9, DOWN = 13, LEFT = 14, RIGHT = 15;
/** e2e page flags: render at half resolution, let a frame run up to 0.5 s of simulation (see docs/game.md). */
export const FAST = '?scale=2&simcap=0.5';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function hook(page, key) {
  return page.evaluate((k) => {
    const h = window.__bitrally;
    if (!h) return undefined;
    const v = h[k];
    return typeof v === 'function' ? v() : v;
  }, key);
}

export async function waitFor(page, what, fn, timeoutMs = 60000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last;
    await sleep(150);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

export const waitScreen = (page, name, ms) => waitFor(page, `screen "${name}"`, async () => (await hook(page, 'screens')) === name, ms);

/** Frames the page has rendered (the app counts them in its frame loop). */
const frameNo = (page) => page.evaluate(() => window.__bitrally?.frame ?? 0);

/** Wait until the page has rendered `n` more frames (at least `n` polls of the pad happened). */
async function frames(page, n, timeoutMs = 60000) {
  const f0 = await frameNo(page);
  await waitFor(page, `${n} frames`, async () => (await frameNo(page)) >= f0 + n, timeoutMs);
}

/**
 * Press a pad button and release it, acknowledged by the frame loop: the button is held until the app has
 * polled it in at least one whole frame, then released until a frame has polled the release. Independent of
 * the frame rate (a loaded machine renders a frame every few hundred ms), and never long enough for the
 * menu auto-repeat (0.38 s of frame time) unless one frame takes that long, which `frames(…, 2)` bounds.
 */
async function press(page, button) {
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), button);
  await frames(page, 2);
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), button);
  await frames(page, 2);
}

/** Move the focus down (acknowledged presses) until the focused item's text matches `re`. */
async function padFocusItem(page, re, maxPresses = 12) {
  for (let i = 0; i < maxPresses; i++) {
    if (re.test(await focusedText(page))) return;
    await press(page, DOWN);
  }
  const f = await focusedText(page);
  if (!re.test(f)) throw new Error(`pad navigation: wanted an item matching ${re}, focused "${f}"; menu keys seen: ${JSON.stringify(await hook(page, 'menuKeys'))}`);
}

const focusedText = (page) => page.evaluate(() => document.querySelector('.item.focused')?.textContent ?? '');

/** Contexts opened by the running spec; runSpecs closes them all after it, pass or fail (a page left
 * running would keep rendering and simulating and starve the next spec on a 2-core machine). */
export const openContexts = new Set();

export async function newPage(browser, ctx) {
  const context = ctx ?? (await browser.newContext({ viewport: { width: 1280, height: 720 } }));
  openContexts.add(context);
  context.setDefaultNavigationTimeout(180000);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(PAD_INIT);
  return { page, errors, context };
}

export async function shot(page, out, name) {
  await page.screenshot({ path: join(out, `${name}.png`) });
}

/** Focus the card whose data-<attr> is `id` in a row of cards with acknowledged LEFT/RIGHT presses. */
async function padFocusCard(page, attr, id) {
  await waitFor(page, `${attr} cards`, () => page.evaluate((a) => document.querySelectorAll(`[data-${a}]`).length > 0, attr));
  const ids = await page.evaluate((a) => [...document.querySelectorAll(`[data-${a}]`)].map((e) => e.dataset[a]), attr);
  const idx = ids.indexOf(id);
  if (idx < 0) throw new Error(`${attr} ${id} not in menu: ${ids.join(', ')}`);
  // one acknowledged press per card; a press that auto-repeated on a very slow frame is corrected by the loop
  for (let i = 0; i < 3 * ids.length; i++) {
    const f = await page.evaluate((a) => document.querySelector('.item.focused')?.dataset[a], attr);
    if (f === id) return;
    const fi = ids.indexOf(f);
    await press(page, fi >= 0 && fi > idx ? LEFT : RIGHT);
  }
  const f = await page.evaluate((a) => document.querySelector('.item.focused')?.dataset[a], attr);
  if (f !== id) throw new Error(`pad navigation focused ${attr} ${f}, wanted ${id}`);
}

/** Title → stage (by id) → car (by id) → drive, with the pad only. */
export async function padToStage(page, stageId, carId = 'hatch-gti') {
  await waitScreen(page, 'title');
  await page.evaluate(() => window.__pad.connect());
  await press(page, A);
  await waitScreen(page, 'stages');
  await padFocusCard(page, 'stage', stageId);
  await press(page, A);
  await waitScreen(page, 'cars');
  await padFocusCard(page, 'car', carId);
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
      const f0 = await focusedText(page);
      await press(page, DOWN);
      const f1 = await focusedText(page);
      if (f1 === f0) throw new Error(`DOWN did not move the focus from "${f0}"`);
      await padFocusItem(page, /Settings/);
      await press(page, A);
      await waitScreen(page, 'settings');
      await shot(page, out, 'menu-settings');
      await press(page, B);
      await waitScreen(page, 'title');
      await press(page, A); // 'Drive a stage' is focused again after re-opening the title
      await waitScreen(page, 'stages');
      await waitFor(page, 'stage cards', () => page.evaluate(() => document.querySelectorAll('[data-stage] canvas').length > 0));
      await sleep(400);
      await shot(page, out, 'menu-stages');
      // a small window (960x540): the cards scroll inside their box and never run under the hint line
      await page.setViewportSize({ width: 960, height: 540 });
      await sleep(300);
      const overlap = await page.evaluate(() => {
        const hint = document.querySelector('.screen .hint')?.getBoundingClientRect();
        const box = document.querySelector('.screen .cards')?.getBoundingClientRect();
        return hint && box ? { hintTop: hint.top, cardsBottom: box.bottom } : null;
      });
      if (!overlap || overlap.cardsBottom > overlap.hintTop)
        throw new Error(`stage cards run under the hint line at 960x540: ${JSON.stringify(overlap)}`);
      await shot(page, out, 'menu-stages-960');
      await page.setViewportSize({ width: 1280, height: 720 });
      await sleep(300);
      await press(page, A);
      await waitScreen(page, 'cars');
      await shot(page, out, 'menu-cars');
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      await page.context().close();
    },
  },
  {
    name: 'drive: pad starts a stage, countdown, throttle moves the car and the timer runs; perf probe; pad disconnect pauses, Start resumes',
    async run({ browser, base, out, report }) {
      const { page, errors } = await newPage(browser);
      const tLoad = Date.now();
      await page.goto(base + '?scale=3&simcap=1&dev=1'); // dev=1: the Stages screen lists the test tracks
      await padToStage(page, 'test-short');
      report.loadMs = await hook(page, 'loadMs');
      await shot(page, out, 'drive-countdown');
      await waitFor(page, 'lights out', async () => (await hook(page, 'phase')) === 'running', 120000);
      report.drivableMs = await hook(page, 'drivableMs');
      report.pageToDrivableWallMs = Date.now() - tLoad;
      // perf overlay on (F3): the probe below reads the numbers it shows
      await page.keyboard.down('F3');
      await frames(page, 2);
      await page.keyboard.up('F3');
      const p0 = await hook(page, 'carPos');
      const s0 = await hook(page, 'stageTimeS');
      await page.evaluate(() => window.__pad.set({ buttons: { 7: 1 } }));
      try {
        // simulated time, not wall time: a loaded machine only makes this take longer
        // 3 s more than when the throttle went down (the timer may already run: simcap=1 lets frames cover up to 1 s)
        await waitFor(page, 'stage time +3 s', async () => (await hook(page, 'stageTimeS')) >= s0 + 3, 240000);
      } finally {
        report.perf = await hook(page, 'perf');
        report.perfOverlay = await page.evaluate(() => document.querySelector('[data-t="perf"]')?.textContent ?? null);
        await shot(page, out, 'drive');
      }
      if (!report.perfOverlay || !/sim/.test(report.perfOverlay)) throw new Error(`perf overlay not shown: ${report.perfOverlay}`);
      const p1 = await hook(page, 'carPos');
      const s1 = await hook(page, 'stageTimeS');
      const moved = Math.hypot(p1[0] - p0[0], p1[2] - p0[2]);
      const speed = await hook(page, 'speedKmh');
      await page.evaluate(() => window.__pad.set({ buttons: { 7: 0 } }));
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      if (!(s1 > s0 + 2)) throw new Error(`stage timer did not run: ${s0} → ${s1}`);
      // full throttle from rest for ≥ 2 s: even a 0.5 g launch covers ½·a·t² ≈ 10 m; ask for 3 m
      if (!(moved > 3)) throw new Error(`car moved only ${moved.toFixed(2)} m under full throttle (speed ${speed?.toFixed?.(1)} km/h)`);
      if (!(speed > 10)) throw new Error(`speed after ${s1.toFixed(1)} s of full throttle is ${speed} km/h`);
      report.throttleRun = { stageTimeS: s1, movedM: moved, speedKmh: speed };
      // a pad that disconnects pauses the game; the timer stops; Start resumes
      await page.evaluate(() => window.__pad.disconnect());
      await waitScreen(page, 'pause', 60000);
      await shot(page, out, 'menu-pause');
      const tp0 = await hook(page, 'stageTimeS');
      await frames(page, 4);
      const tp1 = await hook(page, 'stageTimeS');
      if (tp1 !== tp0) throw new Error(`timer ran while paused: ${tp0} → ${tp1}`);
      await page.evaluate(() => window.__pad.connect());
      await press(page, START);
      await waitScreen(page, 'drive', 60000);
      await waitFor(page, 'timer running again', async () => (await hook(page, 'stageTimeS')) > tp1, 60000);
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
    },
  },
  {
    name: 'checkpoint + finish on test-short (AI autopilot), personal best stored and shown',
    async run({ browser, base, out, report }) {
      const { page, errors, context } = await newPage(browser);
      // quarter resolution and up to 1 s of simulation per frame: the run is ~50 s of simulated time.
      // URL quick start (stage + car flags): page load → car on the start line is the startup time
      await page.goto(base + '?scale=4&simcap=1&stage=test-short&car=hatch-gti&dev=1'); // dev=1: test-short's card is listed
      await waitScreen(page, 'drive', 180000);
      await page.evaluate(() => window.__pad.connect());
      report.startup = { titleMs: await hook(page, 'titleMs'), stageLoadMs: await hook(page, 'loadMs'), pageToCarOnLineMs: await hook(page, 'readyMs') };
      const on = await page.evaluate(() => window.__bitrally.autopilot(true));
      if (!on) throw new Error('autopilot did not engage');
      await waitFor(page, 'first split', async () => ((await hook(page, 'splits')) ?? []).length >= 1, 420000);
      const sp = (await hook(page, 'splits'))[0];
      await shot(page, out, 'drive-checkpoint');
      const t = await hook(page, 'stageTimeS');
      if (!(sp.timeS > 0 && sp.timeS <= t)) throw new Error(`split time ${sp.timeS} not in (0, ${t}]`);
      await waitScreen(page, 'finish', 420000);
      await sleep(300);
      await shot(page, out, 'menu-finish');
      const res = await hook(page, 'lastResult');
      if (!res || !(res.timeS > sp.timeS)) throw new Error(`finish result ${JSON.stringify(res)} (split ${sp.timeS})`);
      if (res.isBest !== true) throw new Error('first finish on a fresh profile must be a personal best');
      if (res.splitsS.length !== 1 || Math.abs(res.splitsS[0] - sp.timeS) > 1e-9) throw new Error(`splits ${res.splitsS} vs ${sp.timeS}`);
      const shown = await page.evaluate(() => document.querySelector('[data-final]')?.textContent ?? '');
      const fmt = (x) => `${Math.floor(x / 60)}:${(x - 60 * Math.floor(x / 60)).toFixed(3).padStart(6, "0")}`;
      if (!shown.includes(fmt(res.timeS))) throw new Error(`finish screen shows "${shown}", result ${res.timeS}`);
      const replayB64 = await hook(page, 'replayBase64');
      if (!replayB64 || replayB64.length < 100) throw new Error('no replay recorded for the finished run');
      report.autopilotRun = { timeS: res.timeS, splitS: sp.timeS, penaltyS: res.penaltyS, replayBytes: Math.round((replayB64.length * 3) / 4) };
      // personal best shown on the stage card (IndexedDB) after going back to the menu
      await padFocusItem(page, /Main menu/);
      await press(page, A);
      await waitScreen(page, 'title');
      await press(page, A);
      await waitScreen(page, 'stages');
      await waitFor(page, 'best time on the test-short card', async () => {
        const b = await page.evaluate(() => document.querySelector('[data-stage="test-short"] [data-best]')?.textContent ?? '');
        return /\d:\d\d\.\d\d/.test(b) ? b : null;
      }, 30000);
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      await context.close();
    },
  },
  {
    name: 'settings persist across a reload',
    async run({ browser, base }) {
      const { page, errors, context } = await newPage(browser);
      await page.goto(base);
      await waitScreen(page, 'title');
      await page.evaluate(() => window.__pad.connect());
      await padFocusItem(page, /Settings/);
      await press(page, A);
      await waitScreen(page, 'settings');
      // first row: units km/h → mph
      await press(page, RIGHT);
      const v = await page.evaluate(() => document.querySelector('[data-key="units"] .val')?.textContent);
      if (!/mph/.test(v ?? '')) throw new Error(`units did not change: ${v}`);
      await page.reload();
      await waitScreen(page, 'title');
      await page.evaluate(() => window.__pad.connect());
      await padFocusItem(page, /Settings/);
      await press(page, A);
      await waitScreen(page, 'settings');
      const v2 = await page.evaluate(() => document.querySelector('[data-key="units"] .val')?.textContent);
      if (!/mph/.test(v2 ?? '')) throw new Error(`units after reload: ${v2}`);
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      await context.close();
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'report.json', label: 'e2e report',
    afterEach: async () => {
      for (const c of openContexts) await c.close().catch(() => undefined);
      openContexts.clear();
    },
  });
}
