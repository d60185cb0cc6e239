/**
 * HUD e2e (issue 18 item 5; same format as game.spec.mjs: `specs` + `runSpecs`).
 *  - Contrast on snow: on snow-ridge every visible HUD text must reach 4.5:1 (WCAG 2.1 success criterion 1.4.3,
 *    AA) against its backing. The backing is measured, not assumed: the rendered frame is read back from the
 *    WebGL canvas (preserveDrawingBuffer) and the text's plate colour (computed style) is composited over every
 *    sampled pixel under the text box; the text colour (with the opacities between it and its plate) is
 *    composited over that. Relative luminance and contrast ratio as WCAG 2.1 defines them
 *    (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance, #dfn-contrast-ratio):
 *      L = 0.2126 R + 0.7152 G + 0.0722 B, each channel c/12.92 if c ≤ 0.04045 else ((c + 0.055)/1.055)^2.4;
 *      ratio = (L_light + 0.05) / (L_dark + 0.05).
 *    The same text straight on the pixels (no plate) must fall below 4.5:1 somewhere: the snow and sky behind
 *    it are bright enough that the plate is what makes the HUD readable. The progress bar has one tick per
 *    checkpoint of the stage. Screenshots: test-results/e2e/hud-snow.png, camera-chase-far.png, camera-cockpit.png.
 *  - Target gear: while the autopilot drives, every change of the gear display is logged with the gearbox
 *    state of that frame; during a shift (gearbox in neutral, a target gear set) the display shows the target.
 *  - Finish: the car rolls to a stop under the autopilot after the line; "Watch replay" (pad) opens the run
 *    just recorded in the replay viewer, and its Back returns to the results.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSpecList } from './spec-runner.mjs';
import { frames, padPage, padPress, PAD_BUTTON, sleep, waitFor } from './page-helpers.mjs';
import { root } from './serve.mjs';

/** WCAG 2.1 AA minimum contrast for normal text. */
const MIN_CONTRAST = 4.5;

const screen = (page) => page.evaluate(() => window.__bitrally?.screens?.());
const waitScreen = (page, name, ms = 180000) => waitFor(`screen ${name}`, async () => (await screen(page)) === name, ms);

/**
 * In the page: for each visible HUD text, its plate, the canvas pixels under it, and the least contrast over
 * those pixels with and without the plate. Returns one row per text element.
 */
function measureContrast() {
  const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const lum = ([r, g, b]) => 0.2126 * lin(r / 255) + 0.7152 * lin(g / 255) + 0.0722 * lin(b / 255);
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const rgba = (s) => {
    const m = s.match(/[\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const gl = document.getElementById('view');
  const c2 = document.createElement('canvas');
  c2.width = innerWidth;
  c2.height = innerHeight;
  const g2 = c2.getContext('2d', { willReadFrequently: true });
  g2.drawImage(gl, 0, 0, innerWidth, innerHeight);
  const rows = [];
  const texts = [...document.querySelectorAll('#ui .hud *, #ui .pn-strip *')].filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  for (const el of texts) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || el.closest('[hidden]')) continue;
    let opacity = 1;
    let plate = null;
    for (let e = el; e && e.id !== 'ui'; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden') opacity = 0;
      const bg = rgba(cs.backgroundColor);
      if (bg[3] > 0) {
        plate = { el: e, bg };
        break;
      }
      opacity *= Number(cs.opacity);
    }
    if (opacity < 0.05) continue; // faded out (a toast between messages)
    const fg = rgba(getComputedStyle(el).color);
    fg[3] *= opacity;
    let worst = Infinity;
    let worstBare = Infinity;
    let brightest = 0;
    const x0 = Math.max(0, Math.floor(r.left)), y0 = Math.max(0, Math.floor(r.top));
    const w = Math.min(innerWidth - x0, Math.ceil(r.width)), h = Math.min(innerHeight - y0, Math.ceil(r.height));
    const px = g2.getImageData(x0, y0, w, h).data;
    for (let i = 0; i < px.length; i += 4 * 7) {
      const back = [px[i], px[i + 1], px[i + 2]];
      brightest = Math.max(brightest, lum(back));
      worstBare = Math.min(worstBare, ratio(over(fg, back), back));
      if (plate) {
        const under = over(plate.bg, back);
        worst = Math.min(worst, ratio(over(fg, under), under));
      }
    }
    rows.push({ text: el.textContent.trim().slice(0, 24), cls: el.className?.baseVal ?? el.className, plate: plate ? plate.el.className : null, plateBg: plate?.bg ?? null, color: fg, contrast: plate ? worst : 0, bareContrast: worstBare, brightestBehind: brightest });
  }
  return rows;
}

/** Number of [[checkpoints]] tables in a shipped stage.toml. */
const checkpointCount = (stage) => (readFileSync(join(root, 'src/content/stages', stage, 'stage.toml'), 'utf8').match(/^\[\[checkpoints\]\]/gm) ?? []).length;

/** Logs every change of the gear display with the gearbox state of that frame (hook values). */
function logGearDisplay() {
  const el = document.querySelector('.hud [data-t="gear"]');
  window.__gearLog = [];
  new MutationObserver(() => {
    const h = window.__bitrally;
    window.__gearLog.push({ shown: el.textContent, gear: h.gear, shiftTo: h.shiftTo, speedKmh: h.speedKmh });
  }).observe(el, { childList: true, characterData: true, subtree: true });
}

/** During a shift the display shows the target gear; at least one shift seen; never "N" while rolling forward in gear. */
function checkGearLog(log) {
  const label = (g) => (g < 0 ? 'R' : g === 0 ? 'N' : String(g));
  const shifts = log.filter((r) => r.shiftTo !== null && r.shiftTo !== undefined);
  if (shifts.length === 0) throw new Error(`no shift logged in ${log.length} display changes`);
  for (const r of log) {
    const want = label(r.shiftTo ?? r.gear);
    if (r.shown !== want) throw new Error(`gear display "${r.shown}" with gear ${r.gear}, shiftTo ${r.shiftTo}: expected "${want}"`);
    if (r.shown === 'N' && r.speedKmh > 10) throw new Error(`"N" shown at ${r.speedKmh.toFixed(0)} km/h (gear ${r.gear}, shiftTo ${r.shiftTo})`);
  }
  return { changes: log.length, duringShift: shifts.length, sample: shifts.slice(0, 6) };
}

/** After the finish: the coast hook until the car stands (speed samples kept). */
async function watchCoast(page) {
  const samples = [];
  const end = await waitFor('car stopped after the finish', async () => {
    const c = await page.evaluate(() => ({ ...window.__bitrally.coast(), pos: window.__bitrally.carPos }));
    samples.push(c);
    return !c.coasting && c.speedMS < 0.3 ? c : null;
  }, 90000, 250);
  return { samples, end };
}

export const specs = [
  {
    name: 'hud: on snow-ridge every HUD text reads ≥ 4.5:1 (WCAG) against its plate over the rendered pixels; checkpoint ticks on the progress bar',
    async run({ browser, out, base, report }) {
      const { context, page, errors } = await padPage(browser);
      try {
        await page.goto(base + '?stage=snow-ridge&car=hatch-gti');
        await waitScreen(page, 'drive');
        await waitFor('lights out', async () => (await page.evaluate(() => window.__bitrally.phase)) === 'running', 120000);
        await sleep(1500);
        const rows = await page.evaluate(measureContrast);
        await page.screenshot({ path: join(out, 'hud-snow.png'), timeout: 120000 });
        report.hudContrast = rows;
        if (rows.length < 4) throw new Error(`only ${rows.length} HUD texts found: ${JSON.stringify(rows)}`);
        const bad = rows.filter((r) => !(r.contrast >= MIN_CONTRAST));
        if (bad.length) throw new Error(`contrast below ${MIN_CONTRAST}:1: ${JSON.stringify(bad)}`);
        // the test means something only if the backdrop alone would not do: some text fails without its plate
        const bare = Math.min(...rows.map((r) => r.bareContrast));
        if (!(bare < MIN_CONTRAST)) throw new Error(`the snow/sky behind the HUD is not bright here (bare contrast ≥ ${bare.toFixed(2)}): the check proves nothing`);
        // the cameras on snow (looked at, not measured): far chase and the cockpit with its wheel
        for (const cam of ['chase-far', 'cockpit']) {
          await page.evaluate((c) => window.__bitrally.setCamera(c), cam);
          await frames(page, 3);
          await page.screenshot({ path: join(out, `camera-${cam}.png`), timeout: 120000 });
        }
        await page.evaluate(() => window.__bitrally.setCamera('chase'));
        const ticks = await page.evaluate(() => document.querySelectorAll('.hud-progress i').length);
        const want = checkpointCount('snow-ridge');
        if (ticks !== want) throw new Error(`progress bar: ${ticks} checkpoint ticks, stage has ${want}`);
        report.hudProgressTicks = ticks;
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 800)}`);
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'hud: the gear display shows the target gear through every shift; finish: coast to a stop under the autopilot, "Watch replay" opens this run and Back returns',
    async run({ browser, out, base, report }) {
      const { context, page, errors } = await padPage(browser);
      try {
        await page.goto(base + '?scale=4&stage=test-short&car=hatch-gti');
        await waitScreen(page, 'drive');
        await page.evaluate(logGearDisplay);
        if (!(await page.evaluate(() => window.__bitrally.autopilot(true)))) throw new Error('autopilot did not engage');
        await waitScreen(page, 'finish', 240000);
        report.hudGear = checkGearLog(await page.evaluate(() => window.__gearLog));
        const atFinish = await page.evaluate(() => ({ ...window.__bitrally.coast(), pos: window.__bitrally.carPos, result: window.__bitrally.lastResult }));
        const coast = await watchCoast(page);
        const rolled = Math.hypot(coast.end.pos[0] - atFinish.pos[0], coast.end.pos[2] - atFinish.pos[2]);
        report.hudCoast = { atFinish, end: coast.end, rolledM: rolled, samples: coast.samples.length };
        if (!(atFinish.speedMS > 5)) throw new Error(`car at ${atFinish.speedMS} m/s at the finish: nothing to coast`);
        if (!(rolled > 5)) throw new Error(`car rolled ${rolled.toFixed(1)} m after the finish`);
        await page.evaluate(() => window.__pad.connect());
        for (let i = 0; i < 8 && !(await page.evaluate(() => document.querySelector('.item.focused')?.hasAttribute('data-watch-replay'))); i++) await padPress(page, PAD_BUTTON.down);
        await padPress(page, PAD_BUTTON.a);
        await waitScreen(page, 'replay', 30000);
        const vh = await waitFor('viewer ready', () => page.evaluate(() => {
          const v = window.__bitrally.replays?.viewer;
          return v?.ready || v?.error ? { ready: v.ready, error: v.error, totalTicks: v.totalTicks } : null;
        }), 120000);
        if (!vh.ready) throw new Error(`viewer: ${vh.error}`);
        const title = await page.evaluate(() => document.querySelector('[data-title]')?.textContent ?? '');
        await page.screenshot({ path: join(out, 'hud-watch-replay.png'), timeout: 120000 });
        report.hudReplay = { ...vh, title };
        if (!title.includes('stage time')) throw new Error(`viewer title "${title}" lacks the recorded stage time`);
        await page.evaluate(() => document.querySelector('[data-a="exit"]').click());
        await waitScreen(page, 'finish', 30000);
        const finalShown = await page.evaluate(() => document.querySelector('[data-final]')?.textContent ?? '');
        if (!finalShown) throw new Error('back from the viewer: the finish screen lost its results');
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 800)}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'hud-report.json', label: 'hud e2e report' });
}
