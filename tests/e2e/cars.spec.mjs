/**
 * Car look e2e specs (issue 18 item 1): each shipped car is drawn in its own livery in the car select's 3D
 * turntable, in the game (chase camera) and in the replay viewer. The check reads pixels: among the strongly
 * coloured pixels of the car's screen region, the most common hue must be the car file's `[look] primary` hue.
 * Screenshots land in test-results/e2e/ (car-<id>-{select,game,replay}.png).
 *   npm run test:e2e -- --files cars
 */
import { openPage, runSpecList, waitFor } from './spec-runner.mjs';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { decode } from 'fast-png';
import { CHASE_BOX, HUE_TOLERANCE_DEG, MIN_CHROMA, hueDist, hueOf, primaryOf } from './livery-pixels.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CAR_IDS = ['classic-rwd', 'hatch-gti', 'rally-awd'];
/** Hue bins of this width, degrees. */
const HUE_BIN_DEG = 10;
/** At least this share of the sampled region must be paint of the car's hue (the car is there, not a speck). */
const MIN_SHARE = 0.01;

/** Dominant paint hue in the box (fractions of the image) of a PNG: { hue, share, paintShare }. */
function dominantHue(png, box) {
  const img = decode(png);
  const ch = img.channels;
  const bins = new Array(360 / HUE_BIN_DEG).fill(0);
  let n = 0;
  const [x0, x1, y0, y1] = [Math.round(box[0] * img.width), Math.round(box[1] * img.width), Math.round(box[2] * img.height), Math.round(box[3] * img.height)];
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * ch;
      const { h, c } = hueOf(img.data[i] / 255, img.data[i + 1] / 255, img.data[i + 2] / 255);
      n++;
      if (c >= MIN_CHROMA) bins[Math.floor(h / HUE_BIN_DEG) % bins.length]++;
    }
  let best = 0;
  for (let k = 1; k < bins.length; k++) if (bins[k] > bins[best]) best = k;
  return { hue: (best + 0.5) * HUE_BIN_DEG, share: bins[best] / n };
}

function checkHue(where, id, png, box, report) {
  const want = primaryOf(id);
  const got = dominantHue(png, box);
  report[`${id} ${where}`] = { wantHue: Math.round(want), gotHue: got.hue, share: Number(got.share.toFixed(4)) };
  if (hueDist(got.hue, want) > HUE_TOLERANCE_DEG + HUE_BIN_DEG / 2) throw new Error(`${id} in ${where}: dominant paint hue ${got.hue}°, its livery primary is ${want.toFixed(0)}°`);
  if (got.share < MIN_SHARE) throw new Error(`${id} in ${where}: only ${(got.share * 100).toFixed(2)} % of the car's region has its paint`);
}


export const specs = [
  {
    name: 'cars: each car turns on the car select turntable in its own livery',
    async run({ browser, base, out, report }) {
      const { page, context, errors, H, screen } = await openPage(browser);
      await page.goto(`${base}?scale=2&dev=1`); // dev=1: the Stages screen lists the test tracks
      await waitFor('title', async () => (await screen()) === 'title');
      await page.click('[data-go="stages"]');
      await waitFor('stage cards', () => H(() => !!document.querySelector('[data-stage="test-short"]')));
      await page.click('[data-stage="test-short"]');
      await waitFor('cars', async () => (await screen()) === 'cars');
      for (const id of CAR_IDS) {
        await page.hover(`[data-car="${id}"]`);
        await waitFor(`${id} focused`, () => H((c) => document.querySelector('.item.focused')?.dataset.car === c, id));
        await sleep(1500); // the turntable picks the focused car on its next frame
        const png = await page.locator('[data-turntable]').screenshot({ path: join(out, `car-${id}-select.png`) });
        checkHue('car select', id, png, [0.15, 0.85, 0.15, 0.9], report);
      }
      await page.screenshot({ path: join(out, 'car-select.png') });
      // leaving the screen frees the turntable's engine (its canvas goes with the screen)
      // keys are polled per frame: hold Escape (back) long enough for a slow software-rendered frame to see it
      await page.keyboard.down('Escape');
      await sleep(800);
      await page.keyboard.up('Escape');
      await waitFor('stages again', async () => (await screen()) === 'stages');
      if (await H(() => !!document.querySelector('[data-turntable]'))) throw new Error('the turntable canvas outlived the car select');
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      await context.close();
    },
  },
  {
    name: 'cars: each car drives in its own livery (chase camera) and the replay viewer shows the same colour',
    async run({ browser, base, out, report }) {
      for (const id of CAR_IDS) {
        const { page, context, errors, H, screen } = await openPage(browser);
        await page.goto(`${base}?scale=2&simcap=0.5&stage=test-short&car=${id}`);
        await waitFor('drive', async () => (await screen()) === 'drive', 180000);
        await waitFor('a few frames', () => H(() => (window.__bitrally.frame ?? 0) > 20), 60000);
        const game = await page.screenshot({ path: join(out, `car-${id}-game.png`) });
        checkHue('game', id, game, CHASE_BOX, report);

        // the replay viewer: a scripted headless run of this car, imported into the library and played
        const file = join(out, `car-${id}.bitrally`);
        const rec = spawnSync('npx', ['tsx', 'src/cli/replay.ts', 'record', file, '--car', id, '--stage', 'test-short', '--seconds', '4'], { cwd: root, encoding: 'utf8' });
        if (rec.status !== 0) throw new Error(`replay record exited ${rec.status}: ${rec.stderr.slice(-800)}`);
        const imp = await H(([b64, name]) => window.__bitrally.replays.importBase64(b64, name), [readFileSync(file).toString('base64'), `car-${id}.bitrally`]);
        if (!imp.id) throw new Error(`import: ${imp.error}`);
        // a fresh page of the same context: the library (IndexedDB) keeps the imported run
        await page.goto(`${base}?scale=2`);
        await waitFor('title', async () => (await screen()) === 'title');
        await page.click('[data-go="replays"]');
        await waitFor('library rows', () => H((i) => !!document.querySelector(`[data-replay="${i}"]`), imp.id));
        await page.click(`[data-replay="${imp.id}"]`);
        await waitFor('entry', async () => (await screen()) === 'replay-entry');
        await page.click('[data-a="watch"]');
        const ready = await waitFor('viewer', () => H(() => (window.__bitrally.replays.viewer?.ready || window.__bitrally.replays.viewer?.error ? { ...window.__bitrally.replays.viewer } : null)), 120000);
        if (ready.error) throw new Error(`viewer: ${ready.error}`);
        await waitFor('playback', () => H(() => window.__bitrally.replays.viewer.tick > 500), 120000);
        const replay = await page.screenshot({ path: join(out, `car-${id}-replay.png`) });
        checkHue('replay viewer', id, replay, CHASE_BOX, report);
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
        await context.close();
      }
    },
  },
];

export const runSpecs = ({ browser, base, out, filter }) => runSpecList({ specs, browser, base, out, filter, reportFile: 'cars-report.json', label: 'car look' });
