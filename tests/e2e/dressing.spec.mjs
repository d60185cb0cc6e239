/**
 * Stage dressing and effects e2e (issue 18 items 2 and 4).
 *  - Spray visibility: on gravel (forest-gravel) and snow (snow-ridge) the rally car is driven by the autopilot
 *    until it is at speed and throwing spray; then the same moment is shot twice from the chase camera, with the
 *    spray drawn and with it hidden (`sprayPair`: the canvas rendered twice with nothing stepped between), and the car's paint pixels (its livery
 *    hue, tests/e2e/livery-pixels.mjs) are counted in the chase box. Share visible = paint with spray / paint
 *    without. It must be ≥ MIN_VISIBLE_SHARE at every sample: most of the body shows through, so the player reads
 *    the car's attitude through the cloud. The spray must be on (particles alive) when it is measured.
 *  - Stage screenshots: every shipped stage from the chase and far chase cameras, part way along the road
 *    (test-results/e2e/stage-<id>-<camera>.png, 640×360; the README gallery's copies are in docs/screenshots).
 *  - Ditch: a car parked with its right wheels in forest-gravel's ditch rolls ≥ 5° into it (test-results/e2e/
 *    ditch-forest-gravel.png, docs/screenshots/ditch-forest-gravel.png).
 *   npm run test:e2e -- --files dressing
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runSpecList } from './spec-runner.mjs';
import { frames, padPage, sleep, waitFor } from './page-helpers.mjs';
import { CHASE_BOX, changedPixels, paintPixels, primaryOf } from './livery-pixels.mjs';
import { root } from './serve.mjs';

/**
 * Least share of the car's paint pixels that must show through the spray. Two thirds: the roof, the bonnet and
 * one flank stay readable; the spray may veil the lower rear (the bumper and the wheels) where it is thrown.
 */
const MIN_VISIBLE_SHARE = 0.67;
/**
 * Spray samples per surface, and the pause between them, ms. The autopilot brakes for corners, where the spray
 * (which grows with speed) dies down: a sample is kept only while the spray is on, out of at most SAMPLE_TRIES.
 */
const SAMPLES = 3;
const SAMPLE_TRIES = 10;
const SAMPLE_GAP_MS = 700;
/** The spray counts as on with at least this many particles alive. */
const MIN_PARTICLES = 20;
/** Speed the car must reach before sampling, m/s (the spray grows with speed up to 25 m/s). */
const MIN_SPEED_MS = 12;
const CAR = 'rally-awd';
/** A pixel belongs to the spray when a channel changes by more than this (0..255) with the spray drawn. */
const SPRAY_DELTA = 3;
/** The spray must change at least this many pixels of the frame (it is drawn, not hidden in both renders). */
const MIN_SPRAY_PIXELS = 30;
/**
 * The car must cover at least this many paint pixels of the half-resolution canvas without spray (a car of about
 * 20 × 8 px or more; over fewer pixels a visible share is too coarse to judge).
 */
const MIN_CAR_PIXELS = 150;
/** Least roll of a car parked with its right wheels in the ditch: ¾ of the 6.65° slope of the surface under its wheels. */
const MIN_DITCH_ROLL_DEG = 5;

const shippedStages = () => readdirSync(join(root, 'src/content/stages'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

/** `scale`: the canvas at 1/scale of the page (faster software frames, so the chase camera keeps up). */
async function openDrive(page, base, stage, car, scale = 1) {
  await page.goto(`${base}?stage=${stage}&car=${car}${scale === 1 ? '' : `&scale=${scale}`}`);
  await waitFor(`drive on ${stage}`, async () => (await page.evaluate(() => window.__bitrally?.screens?.())) === 'drive', 180000);
  await frames(page, 10);
}

/** One spray sample: the car's paint pixels in one frame rendered without and with the spray, and the particles alive. */
async function spraySample(page, hue) {
  const particles = await page.evaluate(() => window.__bitrally.sprayParticles());
  const pair = await page.evaluate(() => window.__bitrally.sprayPair());
  const png = (url) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  const without = paintPixels(png(pair.without), CHASE_BOX, hue);
  const withSpray = paintPixels(png(pair.withSpray), CHASE_BOX, hue);
  const sprayPixels = changedPixels(png(pair.without), png(pair.withSpray), SPRAY_DELTA);
  return { particles, sprayPixels, withSpray, without, visible: without > 0 ? withSpray / without : 0 };
}

async function sprayOn(browser, base, out, stage, report) {
  const { context, page, errors } = await padPage(browser);
  try {
    await openDrive(page, base, stage, CAR, 2);
    await page.evaluate(() => window.__bitrally.setCamera('chase'));
    if (!(await page.evaluate(() => window.__bitrally.autopilot(true)))) throw new Error('autopilot did not engage');
    await waitFor(`${stage}: at speed with spray`, async () => {
      const c = await page.evaluate(() => window.__bitrally.coast());
      const n = await page.evaluate(() => window.__bitrally.sprayParticles());
      return (c?.speedMS ?? 0) > MIN_SPEED_MS && n >= MIN_PARTICLES;
    }, 120000);
    const hue = primaryOf(CAR);
    const samples = [];
    const skipped = [];
    for (let k = 0; k < SAMPLE_TRIES && samples.length < SAMPLES; k++) {
      const s = await spraySample(page, hue);
      if (s.particles < MIN_PARTICLES) skipped.push(s.particles);
      else {
        samples.push(s);
        if (samples.length === 1) await page.screenshot({ path: join(out, `spray-${stage}.png`) });
      }
      await sleep(SAMPLE_GAP_MS);
    }
    report[`spray ${stage}`] = { samples: samples.map((s) => ({ ...s, visible: Number(s.visible.toFixed(3)) })), skippedParticles: skipped };
    if (samples.length < SAMPLES) throw new Error(`${stage}: spray on in only ${samples.length} of ${SAMPLE_TRIES} samples (particles when off: ${skipped.join(', ')})`);
    for (const s of samples) {
      if (s.sprayPixels < MIN_SPRAY_PIXELS) throw new Error(`${stage}: the spray changes only ${s.sprayPixels} pixels: not drawn`);
      if (s.without < MIN_CAR_PIXELS) throw new Error(`${stage}: the car is not in the chase box (${s.without} paint pixels without spray)`);
      if (s.visible < MIN_VISIBLE_SHARE) throw new Error(`${stage}: only ${(s.visible * 100).toFixed(1)} % of the car's paint shows through the spray (< ${MIN_VISIBLE_SHARE * 100} %)`);
    }
    if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 800)}`);
  } finally {
    await context.close();
  }
}

export const specs = [
  {
    name: 'dressing: the car shows through its gravel dust and snow spray from the chase camera',
    async run({ browser, base, out, report }) {
      for (const stage of ['forest-gravel', 'snow-ridge']) await sprayOn(browser, base, out, stage, report);
    },
  },
  {
    name: 'dressing: every shipped stage from the chase and far chase cameras (screenshots)',
    async run({ browser, base, out, report }) {
      // laid out at 1280×720 (the HUD at its usual size), saved at half size for the README gallery
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 0.5 });
      const page = await context.newPage();
      try {
        for (const stage of shippedStages()) {
          await openDrive(page, base, stage, 'hatch-gti');
          const span = await page.evaluate(() => window.__bitrally.stageSpan());
          await page.evaluate((d) => window.__bitrally.viewAt(d), span.startM + 0.3 * (span.finishM - span.startM));
          for (const cam of ['chase', 'chase-far']) {
            await page.evaluate((c) => window.__bitrally.setCamera(c), cam);
            await frames(page, 30); // the camera's smoothing settles
            await page.screenshot({ path: join(out, `stage-${stage}-${cam}.png`) });
          }
          report[`stage ${stage}`] = await page.evaluate(() => window.__bitrally.renderCounts());
        }
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'dressing: a car parked with its right wheels in a forest-gravel ditch rolls into it (screenshot)',
    async run({ browser, base, out, report }) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 0.5 });
      const page = await context.newPage();
      try {
        await openDrive(page, base, 'forest-gravel', 'hatch-gti');
        await page.evaluate(() => window.__bitrally.setCamera('chase-far'));
        // 1920 m along forest-gravel the right-hand ditch runs full depth for 60 m (terrain/README.md "Ditches");
        // the car's centre 4.5 m right of the centreline: left wheels on the shoulder, right wheels down the
        // ditch's inner flank (1.8 m past the edge)
        await page.evaluate(() => window.__bitrally.viewAt(1920, -4.5));
        // the surface under the wheels there (B-spline heights 0.76 m either side of the car's centre, track
        // 1.51–1.54 m) slopes 6.65° down to the right: it must roll ≥ MIN_DITCH_ROLL_DEG toward the ditch once
        // settled (the simulation keeps real time)
        let roll = null;
        try {
          await waitFor('the car rolls into the ditch', async () => (roll = await page.evaluate(() => window.__bitrally.carRollDeg())) >= MIN_DITCH_ROLL_DEG, 45000);
        } catch {
          throw new Error(`car in the ditch rolls ${roll}°, expected ≥ ${MIN_DITCH_ROLL_DEG}° (left side up)`);
        }
        await frames(page, 10); // the camera's smoothing settles
        roll = await page.evaluate(() => window.__bitrally.carRollDeg());
        await page.screenshot({ path: join(out, 'ditch-forest-gravel.png') });
        report.ditch = { rollDeg: roll };
        if (!(roll >= MIN_DITCH_ROLL_DEG)) throw new Error(`car in the ditch rolls ${roll}° after settling, expected ≥ ${MIN_DITCH_ROLL_DEG}° (left side up)`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'dressing-report.json', label: 'dressing e2e report' });
}
