/**
 * New stage e2e (issue 20 item 1): with the virtual gamepad only, Stages → New stage; set seed, length,
 * landscape and surface mix on the rows; Generate, Cancel mid-way, Generate again and watch the progress bar rise
 * to 100 %; the preview (road map by surface, elevation profile, length, corners); Export the package (download);
 * Save & drive: pick the car and drive a few seconds on the generated stage (autopilot). Reload: the stage is in
 * the Stages list, and generating the same parameters again is a cache hit (instant, no worker). Import: the
 * exported package is accepted; a truncated one and one declaring a 1 GiB file are refused with their message and
 * nothing is stored. Screenshots: stagegen-progress, stagegen-preview, stagegen-drive, stagegen-listed,
 * stagegen-import-refused. Run alone: `npm run test:e2e -- --files stagegen`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, runSpecList, waitFor } from './spec-runner.mjs';
import { padPress, sleep } from './page-helpers.mjs';
import { PAD_INIT } from './pad.mjs';

const A = 0, UP = 12, DOWN = 13, LEFT = 14, RIGHT = 15;
const press = padPress;
const screen = (page) => page.evaluate(() => window.__bitrally?.screens?.());
const waitScreen = (page, name, ms = 60000) => waitFor(`screen "${name}"`, async () => (await screen(page)) === name, ms);
const focusedKey = (page) => page.evaluate(() => {
  const f = document.querySelector('.item.focused');
  return f ? (f.dataset.row ?? f.dataset.a ?? f.dataset.go ?? f.dataset.stage ?? f.dataset.car ?? f.textContent) : null;
});
/** Moves the focus (up or down) until the item with that data-row / data-a / data-go / data-stage / data-car key has it. */
async function padFocus(page, key, dir = DOWN, max = 30) {
  for (let i = 0; i < max; i++) {
    if ((await focusedKey(page)) === key) return;
    await press(page, dir);
  }
  throw new Error(`pad navigation: "${key}" not focused (focused ${await focusedKey(page)})`);
}
const gen = (page) => page.evaluate(() => ({ ...window.__bitrally.stageGen }));
const rowVal = (page, row) => page.evaluate((r) => document.querySelector(`[data-row="${r}"] .val`)?.textContent ?? '', row);
const shot = (page, out, name) => page.screenshot({ path: join(out, `${name}.png`) });
/** Stages in the player's list (IndexedDB `bitrally-stages`, store `user`). */
const userStageCount = (page) =>
  page.evaluate(
    () =>
      new Promise((res, rej) => {
        const r = indexedDB.open('bitrally-stages');
        r.onsuccess = () => {
          const c = r.result.transaction('user').objectStore('user').count();
          c.onsuccess = () => res(c.result);
          c.onerror = () => rej(c.error);
        };
        r.onerror = () => rej(r.error);
      }),
  );

/** Title → Stages → (one press left from the first stage) New stage. */
async function openNewStage(page) {
  await waitScreen(page, 'title');
  await page.evaluate(() => window.__pad.connect());
  await press(page, A);
  await waitScreen(page, 'stages');
  await waitFor('stage cards', () => page.evaluate(() => !!document.querySelector('[data-go="new-stage"]')));
  await padFocus(page, 'new-stage', LEFT, 12);
  await press(page, A);
  await waitScreen(page, 'new-stage');
  await waitFor('new stage rows', () => page.evaluate(() => !!document.querySelector('[data-row="seed"] .val')));
}

/** Sets the rows with the pad: seed +3, length 3 → 1.5 km, landscape → Mountain tarmac, surface mix 30 %. */
async function setParams(page) {
  await padFocus(page, 'seed', UP);
  for (let i = 0; i < 3; i++) await press(page, RIGHT);
  await padFocus(page, 'length');
  for (let i = 0; i < 3; i++) await press(page, LEFT);
  await padFocus(page, 'landscape');
  for (let i = 0; i < 3; i++) await press(page, RIGHT);
  await padFocus(page, 'mix');
  for (let i = 0; i < 3; i++) await press(page, RIGHT);
  const vals = { seed: await rowVal(page, 'seed'), length: await rowVal(page, 'length'), landscape: await rowVal(page, 'landscape'), mix: await rowVal(page, 'mix') };
  if (!/2029/.test(vals.seed) || !/1\.5 km/.test(vals.length) || !/Mountain tarmac/.test(vals.landscape) || !/30 % gravel/.test(vals.mix)) throw new Error(`rows after pad input: ${JSON.stringify(vals)}`);
  return vals;
}

/** Generate (pad A); cancel once the bar moved; generate again and record the bar's values to 100 %. */
async function generateWithCancel(page, out) {
  await padFocus(page, 'generate');
  await press(page, A);
  await waitFor('progress', async () => (await gen(page)).fraction > 0.02, 60000, 50);
  if ((await focusedKey(page)) !== 'cancel') throw new Error(`Cancel is not focused while generating (${await focusedKey(page)})`);
  await press(page, A);
  const c = await waitFor('cancelled', async () => ((await gen(page)).state === 'cancelled' ? gen(page) : null));
  if (!/cancelled/.test(c.message)) throw new Error(`cancel message: ${c.message}`);
  await padFocus(page, 'generate', UP);
  await press(page, A);
  let shotP = null;
  await waitFor('generated', async () => {
    const g = await gen(page);
    if (!shotP && g.state === 'generating' && g.fraction > 0.2) shotP = shot(page, out, 'stagegen-progress');
    return g.state === 'done' || g.state === 'error' ? g : null;
  }, 180000, 40);
  await shotP;
  const g = await gen(page);
  if (g.state !== 'done') throw new Error(`generation: ${g.message}`);
  // the bar's values: rising step by step from 0 through every phase to 1
  const log = g.progressLog;
  const seen = new Set(log.map((f) => Math.round(f * 100)));
  if (log[0] !== 0 || log[log.length - 1] !== 1 || seen.size < 8 || log.some((f, i) => i > 0 && f < log[i - 1])) throw new Error(`progress values: ${log.map((f) => f.toFixed(2)).join(' ')}`);
  const bar = await page.evaluate(() => document.querySelector('[data-bar]').style.width);
  if (!/^100(\.0)?%$/.test(bar)) throw new Error(`bar at the end: ${bar}`);
  return { g, progressValues: [...seen].sort((a, b) => a - b) };
}

/** The preview canvases have pixels in the surface colours (tarmac grey, gravel tan) and the stats line. */
async function checkPreview(page) {
  const p = await page.evaluate(() => {
    const c = document.querySelector('[data-map]').getContext('2d').getImageData(0, 0, 420, 280).data;
    let tarmac = 0, gravel = 0;
    for (let i = 0; i < c.length; i += 4) {
      if (c[i] === 0x6c && c[i + 1] === 0x74 && c[i + 2] === 0x80) tarmac++;
      if (c[i] === 0xc9 && c[i + 1] === 0xa8 && c[i + 2] === 0x6a) gravel++;
    }
    return { tarmac, gravel, length: document.querySelector('[data-length]')?.textContent, corners: Number(document.querySelector('[data-corners]')?.textContent) };
  });
  if (p.tarmac < 50 || p.gravel < 20 || p.length !== '1.50 km' || !(p.corners > 0)) throw new Error(`preview: ${JSON.stringify(p)}`);
  return p;
}

async function exportPackage(page, out) {
  await padFocus(page, 'export');
  const [dl] = await Promise.all([page.waitForEvent('download'), press(page, A)]);
  const file = join(out, 'stagegen-package.zip');
  await dl.saveAs(file);
  const bytes = readFileSync(file);
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes.length < 10000) throw new Error(`export: ${bytes.length} bytes`);
  return file;
}

/** Stage time the autopilot drives before the car's travel is measured, s. */
const DRIVE_S = 3;
/**
 * Least travel over DRIVE_S from rest on the line, m: the autopilot's launch reaches ~2 m/s² on this climb
 * (8–9 m in 3 s measured); a car that does not drive stays within centimetres.
 */
const MIN_MOVED_M = 5;

/**
 * Save & drive → car select (first car) → the autopilot drives DRIVE_S of stage time. It is engaged as soon as
 * the session runs (during the countdown it holds the car on the line) and the window starts at the stage time
 * it was engaged at: at 0.5 fps under SwiftShader on a loaded machine one frame steps ~1.5 s of simulation, so a
 * window counted from stage time 0 after a late engagement left the car only a frame or two to drive.
 */
async function driveIt(page, out, id) {
  await padFocus(page, 'drive', UP);
  await press(page, A);
  await waitScreen(page, 'cars');
  // the car select names the chosen stage: the generated one
  const sub = await page.evaluate(() => document.querySelector('.screen .sub')?.textContent ?? '');
  if (!/^Mountain tarmac 2029 \(1\.5 km, 30 % gravel\)$/.test(sub)) throw new Error(`car select for stage "${sub}"`);
  await press(page, A);
  await waitScreen(page, 'drive', 180000);
  await waitFor('the session', () => page.evaluate(() => window.__bitrally.carPos !== null && window.__bitrally.phase !== undefined), 120000);
  const start = await page.evaluate(() => ({ on: window.__bitrally.autopilot(true), p0: window.__bitrally.carPos, t0: window.__bitrally.stageTimeS, phase: window.__bitrally.phase }));
  if (!start.on) throw new Error('autopilot did not engage');
  const { p0, t0 } = start;
  await waitFor(`${DRIVE_S} s of stage time`, () => page.evaluate((t) => window.__bitrally.stageTimeS > t, t0 + DRIVE_S), 120000);
  const p1 = await page.evaluate(() => window.__bitrally.carPos);
  const moved = Math.hypot(p1[0] - p0[0], p1[2] - p0[2]);
  if (!(moved > MIN_MOVED_M)) throw new Error(`the car moved ${moved} m in ${DRIVE_S} s of stage time from ${t0} s (engaged in ${start.phase})`);
  await shot(page, out, 'stagegen-drive');
  return { moved, engagedAtS: t0, engagedIn: start.phase, stage: sub, id };
}

/** A copy of the zip with one entry's declared (uncompressed) size set to `size`. */
function withDeclaredSize(zip, name, size) {
  const b = Buffer.from(zip);
  for (let p = 0; p + 46 < b.length; p++) {
    if (b.readUInt32LE(p) === 0x02014b50 && b.toString('utf8', p + 46, p + 46 + b.readUInt16LE(p + 28)) === name) {
      b.writeUInt32LE(size, p + 24);
      return b;
    }
  }
  throw new Error(`no ${name} in the zip`);
}

async function importFile(page, file) {
  await page.evaluate(() => Object.assign(window.__bitrally.stageGen, { state: 'idle', message: '' }));
  await page.setInputFiles('[data-file]', file);
  return waitFor('import result', async () => {
    const g = await gen(page);
    return /Imported|stage package|cut short|declared|expected/.test(g.message) ? g : null;
  });
}

/** Reload: listed, and the same parameters are a cache hit; then the imports. */
async function afterReload(page, out, id, pkg) {
  await page.reload();
  await waitScreen(page, 'title');
  await page.evaluate(() => window.__pad.connect());
  await press(page, A);
  await waitScreen(page, 'stages');
  await waitFor('the generated stage listed', () => page.evaluate((i) => !!document.querySelector(`[data-stage="${i}"]`), id));
  await page.evaluate((i) => document.querySelector(`[data-stage="${i}"]`).scrollIntoView(), id);
  await shot(page, out, 'stagegen-listed');
  await padFocus(page, 'new-stage', LEFT, 12);
  await press(page, A);
  await waitScreen(page, 'new-stage');
  await padFocus(page, 'generate');
  await press(page, A);
  const hit = await waitFor('cached stage', async () => ((await gen(page)).state === 'done' ? gen(page) : null));
  if (!hit.result.cached || hit.result.id !== id || hit.result.ms > 3000) throw new Error(`second visit: ${JSON.stringify(hit.result)}`);
  const n0 = await userStageCount(page);
  const ok = await importFile(page, pkg);
  if (!/Imported/.test(ok.message)) throw new Error(`import of the exported package: ${ok.message}`);
  const zip = readFileSync(pkg);
  const cut = join(out, 'stagegen-truncated.zip');
  writeFileSync(cut, zip.subarray(0, Math.floor(zip.length / 2)));
  const big = join(out, 'stagegen-1gib.zip');
  writeFileSync(big, withDeclaredSize(zip, 'height.png', 2 ** 30));
  const refusals = [];
  for (const f of [cut, big]) {
    const r = await importFile(page, f);
    if (r.state !== 'error') throw new Error(`${f}: accepted (${r.message})`);
    refusals.push(r.message);
  }
  await shot(page, out, 'stagegen-import-refused');
  if (!/cut short|no zip directory/.test(refusals[0]) || !/declared size .*1024\.0 MiB \(refused before inflating\)/.test(refusals[1])) throw new Error(`refusals: ${refusals.join(' | ')}`);
  const n1 = await userStageCount(page);
  if (n1 !== n0) throw new Error(`user stages ${n0} → ${n1}: a refused import stored something`);
  return { cacheHitMs: hit.result.ms, refusals, userStages: n1 };
}

export const specs = [
  {
    name: 'stagegen: new stage by pad (progress, cancel, preview, export), driven; after a reload listed and cached; package import and hostile files',
    async run({ browser, base, out, report }) {
      const { page, context, errors } = await openPage(browser);
      await page.addInitScript(PAD_INIT);
      try {
        await page.goto(`${base}?scale=2&simcap=1`);
        await openNewStage(page);
        const rows = await setParams(page);
        const { g, progressValues } = await generateWithCancel(page, out);
        const preview = await checkPreview(page);
        await sleep(200);
        await shot(page, out, 'stagegen-preview');
        const pkg = await exportPackage(page, out);
        const drive = await driveIt(page, out, g.result.id);
        const after = await afterReload(page, out, g.result.id, pkg);
        report.stagegen = { rows, id: g.result.id, generateMs: Math.round(g.result.ms), progressValues: progressValues.length, preview, drive, ...after };
        const real = errors.filter((e) => !/Failed to load resource/.test(e));
        if (real.length) throw new Error(`console errors: ${real.join(' | ')}`);
      } finally {
        await context.close();
      }
    },
  },
];

export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'stagegen-report.json', label: 'stagegen e2e report' });
}
