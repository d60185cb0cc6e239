/**
 * Run analysis e2e (issue 9): two runs of test-short driven by the AI autopilot (the second starts ~2 s late,
 * so B is slower by about that much from the start on), then the finish screen's "Analyse" item (keyboard,
 * then again with the pad after going back) opens the two runs overlaid by distance with the time-delta curve.
 * Checks the comparison (B = the run just finished, A = the one before; Δ at the end ≈ the difference of the
 * two finish times) and that every chart labels its axes with units and its legend names both runs.
 * Run: `E2E_FILES=analysis npm run test:e2e`.
 */
import { runSpecList } from './spec-runner.mjs';
import { join } from 'node:path';
import { PAD_INIT } from './pad.mjs';

const A = 0, B = 1, DOWN = 13;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, fn, timeoutMs = 60000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

const screen = (page) => page.evaluate(() => window.__bitrally?.screens?.()).catch(() => null);
const waitScreen = (page, name, ms) => waitFor(`screen "${name}"`, async () => (await screen(page)) === name, ms);
const focused = (page) => page.evaluate(() => document.querySelector('.item.focused')?.dataset.a ?? null);
const hook = (page, k) => page.evaluate((key) => window.__bitrally?.[key], k);

const FRAME_COUNTER = () => {
  window.__frames = 0;
  const f = () => {
    window.__frames++;
    requestAnimationFrame(f);
  };
  requestAnimationFrame(f);
};

async function frames(page, n) {
  const f0 = await page.evaluate(() => window.__frames);
  await waitFor(`${n} frames`, async () => (await page.evaluate(() => window.__frames)) >= f0 + n, 60000);
}

/** A pad button held for one rendered frame (≥ 100 ms), then released for two. */
async function press(page, button) {
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), button);
  await Promise.all([frames(page, 1), sleep(100)]);
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), button);
  await Promise.all([frames(page, 2), sleep(150)]);
}

async function key(page, code) {
  await page.keyboard.down(code);
  await Promise.all([frames(page, 1), sleep(100)]);
  await page.keyboard.up(code);
  await Promise.all([frames(page, 2), sleep(150)]);
}

async function shot(page, out, name, opts = {}) {
  try {
    await page.screenshot({ path: join(out, name), timeout: 60000, ...opts });
  } catch (e) {
    console.log(`(screenshot ${name} skipped: ${String(e?.message ?? e).split('\n')[0]})`);
  }
}

/** Drive test-short to the finish with the autopilot, engaged `lateS` seconds of stage time after the start. */
async function autopilotRun(page, lateS) {
  await waitScreen(page, 'drive', 300000);
  await waitFor('lights out', async () => (await hook(page, 'phase')) === 'running', 300000);
  if (lateS > 0) await waitFor(`${lateS} s of stage time`, async () => (await hook(page, 'stageTimeS')) >= lateS, 120000);
  if (!(await page.evaluate(() => window.__bitrally.autopilot(true)))) throw new Error('autopilot did not engage');
  await waitScreen(page, 'finish', 600000);
  return hook(page, 'lastResult');
}

/** The analysis screen has compared two runs: its hook, once the charts are drawn. */
async function analysed(page) {
  await waitScreen(page, 'analysis', 30000);
  return waitFor('comparison drawn', () => page.evaluate(() => (window.__analysis?.points > 0 && window.__analysis.charts.length >= 6 ? window.__analysis : null)), 30000);
}

export const specs = [
  {
    name: 'analysis: two runs of test-short, "Analyse" on the finish screen (keyboard and pad) overlays them by distance with the delta curve',
    async run({ browser, base, out }) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const errors = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.addInitScript(PAD_INIT);
      await page.addInitScript(FRAME_COUNTER);
      try {
        await page.goto(`${base}?stage=test-short&car=hatch-gti&scale=4&simcap=1`);
        await page.evaluate(() => window.__pad.connect());
        const r1 = await autopilotRun(page, 0);
        // Retry (the finish screen's default item) with the keyboard; the second run starts late
        await key(page, 'Enter');
        const r2 = await autopilotRun(page, 2);
        if (!(r2.timeS > r1.timeS + 1)) throw new Error(`the late run should be slower: ${r1.timeS} → ${r2.timeS}`);
        // keyboard: arrows to "Analyse", Enter
        for (let i = 0; i < 8 && (await focused(page)) !== 'analyse'; i++) await key(page, 'ArrowDown');
        if ((await focused(page)) !== 'analyse') throw new Error('no "Analyse" item on the finish screen');
        await shot(page, out, 'analysis-finish-screen.png');
        await key(page, 'Enter');
        const h = await analysed(page);
        // B is the run just finished, A the one before (labels end with the run's time)
        if (!h.b?.endsWith(`${r2.timeS.toFixed(2)} s`) || !h.a?.endsWith(`${r1.timeS.toFixed(2)} s`))
          throw new Error(`runs compared: A=${h.a}, B=${h.b}; finish times ${r1.timeS}, ${r2.timeS}`);
        // Δ(x_end) = T_B − T_A at the last common distance: the two runs' time difference at the finish line,
        // up to the 20-Hz log step (0.05 s) and the 5-m grid ending short of the line (≤ 5 m at ≥ 5 m/s: 1 s)
        const dFinish = r2.timeS - r1.timeS;
        if (!(Math.abs(h.finalDeltaS - dFinish) < 1.05)) throw new Error(`final Δ ${h.finalDeltaS} s, finish times differ by ${dFinish} s`);
        if (!(h.finalDeltaS > 1)) throw new Error(`B started 2 s late: Δ should be > 1 s, is ${h.finalDeltaS}`);
        // legibility: axes with units, both runs named in every overlay legend
        for (const c of h.charts) {
          if (!c.axes.every((a) => /\(.+\)/.test(a))) throw new Error(`chart "${c.title}" has an axis without units: ${c.axes}`);
        }
        const overlays = h.charts.slice(1);
        if (!overlays.every((c) => c.legend.includes(`A: ${h.a}`) && c.legend.includes(`B: ${h.b}`)))
          throw new Error(`legends must name both runs: ${JSON.stringify(overlays.map((c) => c.legend))}`);
        // uPlot draws axis labels on the canvas (checked in the hook above and on the screenshots); the
        // legends and titles are DOM
        const drawn = await page.evaluate(() => ({
          canvases: document.querySelectorAll('.analysis-plots canvas').length,
          titles: [...document.querySelectorAll('.analysis-plots .u-title')].map((e) => e.textContent),
          legend: [...document.querySelectorAll('.analysis-plots .u-legend .u-series')].map((e) => e.textContent),
        }));
        if (drawn.canvases < 6) throw new Error(`expected 6 charts drawn, found ${drawn.canvases}`);
        if (!drawn.titles[0]?.startsWith('Time delta B − A')) throw new Error(`chart titles: ${JSON.stringify(drawn.titles)}`);
        if (!drawn.legend.some((t) => t.includes(`A: ${h.a}`)) || !drawn.legend.some((t) => t.includes(`B: ${h.b}`))) throw new Error(`legend drawn: ${JSON.stringify(drawn.legend)}`);
        await shot(page, out, 'analysis-delta.png');
        await page.evaluate(() => document.querySelector('.analysis-charts').scrollTo(0, 420));
        await sleep(300);
        await shot(page, out, 'analysis-overlay.png');
        // pad: B goes back to the finish screen, then d-pad to "Analyse" and A
        await press(page, B);
        await waitScreen(page, 'finish', 30000);
        for (let i = 0; i < 8 && (await focused(page)) !== 'analyse'; i++) await press(page, DOWN);
        if ((await focused(page)) !== 'analyse') throw new Error('pad could not reach "Analyse"');
        await press(page, A);
        const h2 = await analysed(page);
        if (h2.b !== h.b || h2.a !== h.a) throw new Error(`pad route compared other runs: ${h2.a} / ${h2.b}`);
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter });
}
