/**
 * Graphics presets e2e (issue 18 item 6; same format as game.spec.mjs: `specs` + `runSpecs`).
 *  - Render budgets: on every shipped stage (src/content/stages/*), at the start line and at ¼, ½ and ¾ of the
 *    way to the finish, with each preset switched live: Babylon's active triangles and draw calls of the frame
 *    (src/systems/view/render-stats.ts) must stay within the preset's budget (RENDER_BUDGETS in
 *    src/systems/view/graphics-presets.ts, parsed from the source so the test and the game cannot disagree).
 *    The page renders at 1280×720 with the preset's own resolution scale (no `scale` flag). The car and camera
 *    are put at each point (`viewAt`), then a few frames render before the counters are read.
 *  - The settings screen changes the preset with the pad alone, applies it at once (the engine's hardware
 *    scaling level and the shadow pass change without a reload) and saves it in localStorage.
 * Screenshots: test-results/e2e/graphics-<preset>.png (forest-gravel, half-way).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSpecList } from './spec-runner.mjs';
import { frames, padPage, padPress, PAD_BUTTON, sleep, waitFor } from './page-helpers.mjs';
import { root } from './serve.mjs';

const PRESETS = ['low', 'medium', 'high'];
/** Fractions of the start → finish distance measured besides the start line. */
const ALONG = [0.25, 0.5, 0.75];
/** Frames rendered at a point before its counters are read (terrain LOD is reselected every second frame). */
const SETTLE_FRAMES = 4;

/** Every shipped stage: the folders of src/content/stages. */
const shippedStages = () => readdirSync(join(root, 'src/content/stages'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

/** RENDER_BUDGETS as the game declares it (one line per preset: `name: { triangles: N, drawCalls: M }`). */
export function budgets() {
  const src = readFileSync(join(root, 'src/systems/view/graphics-presets.ts'), 'utf8');
  const block = src.slice(src.indexOf('export const RENDER_BUDGETS'));
  const out = {};
  for (const p of PRESETS) {
    const m = new RegExp(`${p}: \\{ triangles: ([\\d_]+), drawCalls: ([\\d_]+) \\}`).exec(block);
    if (!m) throw new Error(`RENDER_BUDGETS.${p} not found in graphics-presets.ts`);
    out[p] = { triangles: Number(m[1].replaceAll('_', '')), drawCalls: Number(m[2].replaceAll('_', '')) };
  }
  return out;
}

/** Counters at one road distance with the current preset. */
async function measureAt(page, distanceM) {
  await page.evaluate((d) => window.__bitrally.viewAt(d), distanceM);
  await frames(page, SETTLE_FRAMES);
  return page.evaluate(() => window.__bitrally.renderCounts());
}

async function openStage(page, base, stage) {
  await page.goto(`${base}?stage=${stage}&car=hatch-gti`);
  await waitFor(`drive on ${stage}`, async () => (await page.evaluate(() => window.__bitrally?.screens?.())) === 'drive', 180000);
  return page.evaluate(() => window.__bitrally.stageSpan());
}

/** One stage: every preset at the start line and the three points; returns the rows and the budget misses. */
async function measureStage(page, base, out, stage, limits) {
  const span = await openStage(page, base, stage);
  const points = [span.startM, ...ALONG.map((f) => span.startM + f * (span.finishM - span.startM))];
  const rows = [];
  const misses = [];
  for (const preset of PRESETS) {
    await page.evaluate((p) => window.__bitrally.setGraphics(p), preset);
    for (const [k, d] of points.entries()) {
      const c = await measureAt(page, d);
      rows.push({ stage, preset, point: k === 0 ? 'start' : `${ALONG[k - 1] * 100}%`, distanceM: Math.round(d), ...c });
      const lim = limits[preset];
      if (!(c.triangles > 0 && c.drawCalls > 0)) misses.push(`${stage} ${preset} @${Math.round(d)} m: nothing counted (${JSON.stringify(c)})`);
      if (c.triangles > lim.triangles || c.drawCalls > lim.drawCalls) misses.push(`${stage} ${preset} @${Math.round(d)} m: ${c.triangles} triangles / ${c.drawCalls} draw calls > budget ${lim.triangles} / ${lim.drawCalls}`);
      if (stage === 'forest-gravel' && k === 2) await page.screenshot({ path: join(out, `graphics-${preset}.png`), timeout: 120000 });
    }
  }
  return { rows, misses };
}

/** The settings screen, pad only: down to "Graphics quality", right once; the value shown, applied and saved. */
async function changePresetWithPad(page) {
  await page.evaluate(() => window.__pad.connect());
  await page.evaluate(() => window.__bitrally.setGraphics('medium'));
  for (let i = 0; i < 8 && (await page.evaluate(() => document.querySelector('.item.focused')?.dataset.go)) !== 'settings'; i++) await padPress(page, PAD_BUTTON.down);
  await padPress(page, PAD_BUTTON.a);
  await waitFor('settings screen', async () => (await page.evaluate(() => window.__bitrally.screens())) === 'settings', 20000);
  const row = await page.evaluate(() => [...document.querySelectorAll('.list .item')].findIndex((b) => b.dataset.key === 'graphics'));
  if (row < 0) throw new Error('no Graphics quality row in the settings screen');
  // the screen focuses its first row once it has rendered: wait for that, then walk down to the row (a press sent
  // before the focus exists is lost, so count the focus, not the presses)
  const focused = () => page.evaluate(() => document.querySelector('.item.focused')?.dataset.key ?? null);
  await waitFor('a focused settings row', () => page.evaluate(() => document.querySelector('.item.focused') !== null), 20000);
  for (let i = 0; i <= row + 4 && (await focused()) !== 'graphics'; i++) await padPress(page, PAD_BUTTON.down);
  const before = await page.evaluate(() => ({ level: window.__bitrally.hardwareScaling(), focused: document.querySelector('.item.focused')?.dataset.key }));
  if (before.focused !== 'graphics') throw new Error(`pad focus on ${before.focused}, expected the graphics row`);
  await padPress(page, PAD_BUTTON.right);
  const after = await waitFor('preset applied', () => page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('bitrally.settings.v1') ?? '{}').graphics;
    const shown = document.querySelector('[data-key="graphics"] .val')?.textContent ?? '';
    return saved === 'high' ? { saved, shown, level: window.__bitrally.hardwareScaling(), shadows: window.__bitrally.shadowPass() } : null;
  }), 10000);
  if (!/high/.test(after.shown)) throw new Error(`settings row shows ${after.shown}`);
  if (!(after.level < before.level)) throw new Error(`hardware scaling level ${before.level} → ${after.level}: high must render more pixels than medium`);
  if (!after.shadows) throw new Error('high preset: shadow pass off');
  return { before, after };
}

export const specs = [
  {
    name: 'graphics: every shipped stage, start line + ¼ ½ ¾, each preset live: active triangles and draw calls within the preset budget',
    async run({ browser, out, base, report }) {
      const limits = budgets();
      report.graphicsBudgets = limits;
      report.graphicsRows = [];
      const misses = [];
      for (const stage of shippedStages()) {
        const { context, page, errors } = await padPage(browser);
        try {
          const r = await measureStage(page, base, out, stage, limits);
          report.graphicsRows.push(...r.rows);
          misses.push(...r.misses);
          if (errors.length) misses.push(`${stage}: console errors: ${errors.join(' | ').slice(0, 400)}`);
        } finally {
          await context.close();
        }
      }
      if (misses.length) throw new Error(misses.join('\n'));
    },
  },
  {
    name: 'graphics: the settings screen switches the preset with the pad, applied at once and saved',
    async run({ browser, base, report }) {
      const { context, page, errors } = await padPage(browser);
      try {
        await page.goto(base);
        await waitFor('title', async () => (await page.evaluate(() => window.__bitrally?.screens?.())) === 'title', 60000);
        await sleep(300);
        report.graphicsPad = await changePresetWithPad(page);
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 800)}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'graphics-report.json', label: 'graphics e2e report' });
}
