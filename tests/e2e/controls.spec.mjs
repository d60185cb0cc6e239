/**
 * Controls screen e2e (issue 16), same format as game.spec.mjs (`specs`, `runSpecs`); run it alone with
 * `E2E_FILES=controls npm run test:e2e`.
 *
 * With the virtual pad and the keyboard on the built game: Settings → Controls; the rows show standard pad
 * names and human action labels; a capture is cancelled by Escape and by B (binding unchanged, screen kept);
 * steer left → J and steer right → L; one key bound to two actions shows the conflict panel, which Swap
 * resolves; a held stick flips the invert toggle once; the brake deadzone row steps and is saved; then a stage is started and the car is driven left with J and right with L: the consumed steering
 * input changes sign and the heading turns one way, then the other (window.__bitrally.steering).
 * Screenshots: controls-screen, controls-capture, controls-conflict, controls-drive-left / -right.
 */
import { openPage, runSpecList } from './spec-runner.mjs';
import { join } from 'node:path';
import { PAD_INIT } from './pad.mjs';

const A = 0, B = 1, RT = 7, DOWN = 13, LEFT = 14, RIGHT = 15;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function hook(page, key) {
  return page.evaluate((k) => {
    const h = window.__bitrally;
    if (!h) return undefined;
    const v = h[k];
    return typeof v === 'function' ? v() : v;
  }, key);
}

async function waitFor(what, fn, timeoutMs = 60000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last;
    await sleep(150);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 600)})`);
}

const waitScreen = (page, name, ms) => waitFor(`screen "${name}"`, async () => (await hook(page, 'screens')) === name, ms);
const frameNo = (page) => page.evaluate(() => window.__bitrally?.frame ?? 0);
async function frames(page, n) {
  const f0 = await frameNo(page);
  await waitFor(`${n} frames`, async () => (await frameNo(page)) >= f0 + n);
}
/** Press and release a pad button, each acknowledged by the frame loop (see game.spec.mjs). */
async function press(page, button) {
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), button);
  await frames(page, 2);
  await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), button);
  await frames(page, 2);
}
/** Press and release a key, the release after the app polled the press for a whole frame. */
async function key(page, code) {
  await page.keyboard.down(code);
  await frames(page, 2);
  await page.keyboard.up(code);
  await frames(page, 1);
}
const focused = (page) => page.evaluate(() => {
  const f = document.querySelector('.item.focused');
  return f ? { text: f.textContent ?? '', slot: f.dataset.slot ?? null, card: f.dataset.stage ?? f.dataset.car ?? null } : null;
});
async function padFocus(page, what, test, maxPresses = 30) {
  for (let i = 0; i < maxPresses; i++) {
    if (test(await focused(page))) return;
    await press(page, DOWN);
  }
  throw new Error(`pad navigation: ${what} not focused (focused ${JSON.stringify(await focused(page))})`);
}
const rowVal = (page, slot) => page.evaluate((s) => document.querySelector(`[data-slot="${s}"] .val`)?.textContent ?? null, slot);
const shot = (page, out, name) => page.screenshot({ path: join(out, `${name}.png`) });

/** Start a capture on the row of `slot` (pad A) and wait until the row says it is listening. */
async function startCapture(page, slot) {
  await padFocus(page, `row ${slot}`, (f) => f?.slot === slot);
  await press(page, A);
  await waitFor(`capture on ${slot}`, async () => /press a key or button/.test((await rowVal(page, slot)) ?? ''));
  // the confirm press is ignored for 0.25 s of frame time (src/app/controls-screen.ts CAPTURE_ARM_S)
  await sleep(300);
  await frames(page, 2);
}

async function bindKey(page, slot, code, label) {
  await startCapture(page, slot);
  await key(page, code);
  await waitFor(`${slot} bound to ${label}`, async () => {
    const v = (await rowVal(page, slot)) ?? '';
    return !/press a key or button/.test(v) && v.split('|')[1]?.trim() === label ? v : null;
  });
}

async function padFocusCard(page, attr, id) {
  await waitFor(`${attr} cards`, () => page.evaluate((a) => document.querySelectorAll(`[data-${a}]`).length > 0, attr));
  const ids = await page.evaluate((a) => [...document.querySelectorAll(`[data-${a}]`)].map((e) => e.dataset[a]), attr);
  for (let i = 0; i < 3 * ids.length; i++) {
    const f = (await focused(page))?.card;
    if (f === id) return;
    await press(page, ids.indexOf(f) > ids.indexOf(id) ? LEFT : RIGHT);
  }
  throw new Error(`pad navigation: ${attr} ${id} not focused`);
}

/**
 * Hold `code` (null: no key) for `seconds` of stage time. The heading turn is summed over the frames sampled
 * (each step wrapped to ±π, so a turn of any size adds up); a recovery (car put back on the road) in the
 * window would add a jump, so it fails the phase instead.
 */
async function drivePhase(page, code, seconds) {
  const rec0 = await hook(page, 'recoveries');
  if (code) await page.keyboard.down(code);
  let phase;
  try {
    // waits in the page, frame by frame, so the key is held for `seconds` of stage time and not a poll's overshoot more
    phase = await page.evaluate((s) => new Promise((resolve, reject) => {
      const h = window.__bitrally;
      const val = (k) => (typeof h[k] === 'function' ? h[k]() : h[k]);
      const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));
      const t0 = val('stageTimeS');
      const wall0 = performance.now();
      let prev = val('steering');
      let turnRad = 0;
      let samples = 0;
      const step = () => {
        const cur = val('steering');
        turnRad += wrap(cur.headingRad - prev.headingRad);
        prev = cur;
        samples++;
        if (val('stageTimeS') >= t0 + s) resolve({ steer: prev.steer, yawRate: prev.yawRate, turnRad, samples });
        else if (performance.now() - wall0 > 240000) reject(new Error(`${s} s of stage time did not pass in 240 s`));
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    }), seconds);
  } finally {
    if (code) await page.keyboard.up(code);
  }
  const recoveries = (await hook(page, 'recoveries')) - rec0;
  if (recoveries) throw new Error(`the car was recovered during the ${code ?? 'settle'} phase: the heading jump hides the turn`);
  return phase;
}
export const specs = [
  {
    name: 'controls: standard names, Escape and B cancel a capture, steering bound to two keys, conflict warning + swap, drive left and right with the keys',
    async run({ browser, base, out, report }) {
      const { page, context, errors } = await openPage(browser);
      await page.addInitScript(PAD_INIT);
      try {
        await page.goto(base + '?scale=3&simcap=1&dev=1'); // dev=1: the Stages screen lists the test tracks
        await waitScreen(page, 'title');
        await page.evaluate(() => window.__pad.connect());
        await padFocus(page, 'Settings', (f) => /^Settings/.test(f?.text ?? ''));
        await press(page, A);
        await waitScreen(page, 'settings');
        await padFocus(page, 'Controls…', (f) => /^Controls/.test(f?.text ?? ''));
        await press(page, A);
        await waitScreen(page, 'controls');

        // labels: standard pad names and human action names, never "Button 5" or shiftUp
        const rows = await page.evaluate(() => [...document.querySelectorAll('[data-slot]')].map((r) => r.textContent));
        const shiftUp = rows.find((r) => r.startsWith('Shift up')) ?? '';
        if (!/RB/.test(shiftUp)) throw new Error(`Shift up row does not name RB: "${shiftUp}"`);
        if (rows.some((r) => /Button \d|shiftUp|shiftDown/.test(r))) throw new Error(`raw labels on the controls screen: ${rows.join(' / ')}`);
        if (!rows.some((r) => /^Steer left.*Left stick/.test(r)) || !rows.some((r) => /^Steer right.*Left stick/.test(r))) throw new Error(`no steering halves: ${rows.join(' / ')}`);
        await shot(page, out, 'controls-screen');

        // a held stick auto-repeats menu presses, but the invert toggle flips once per press (edge-triggered)
        const rightPresses = async () => ((await hook(page, 'menuKeys')) ?? []).filter((k) => k.startsWith('controls:right')).length;
        await page.evaluate(() => window.__pad.set({ axes: { 0: 1 } }));
        await waitFor('auto-repeated right presses', async () => (await rightPresses()) >= 3, 120000);
        await page.evaluate(() => window.__pad.set({ axes: { 0: 0 } }));
        await frames(page, 2);
        const held = { presses: await rightPresses(), row: await rowVal(page, 'steer-') };
        report.controlsHeldStick = held;
        if (!/Left stick ←→ inverted/.test(held.row ?? '')) throw new Error(`holding the stick (${held.presses} presses) did not leave the axis inverted once: "${held.row}"`);
        await press(page, LEFT);
        const unheld = await rowVal(page, 'steer-');
        if (/inverted/.test(unheld ?? '')) throw new Error(`one LEFT press did not flip invert back: "${unheld}"`);

        // Escape cancels a capture (binding unchanged, still on the controls screen)
        const right0 = await rowVal(page, 'steer+');
        await startCapture(page, 'steer+');
        await shot(page, out, 'controls-capture');
        await key(page, 'Escape');
        await waitFor('Escape cancelled the capture', async () => (await rowVal(page, 'steer+')) === right0);
        if ((await hook(page, 'screens')) !== 'controls') throw new Error('Escape left the controls screen instead of cancelling');
        // B cancels a capture (and is not bound)
        await startCapture(page, 'steer+');
        await press(page, B);
        await waitFor('B cancelled the capture', async () => (await rowVal(page, 'steer+')) === right0);
        if ((await hook(page, 'screens')) !== 'controls') throw new Error('B left the controls screen instead of cancelling');

        // steering: left → J, right → L (each half keeps the stick)
        await bindKey(page, 'steer-', 'KeyJ', 'J');
        await bindKey(page, 'steer+', 'KeyL', 'L');
        const steerRows = [await rowVal(page, 'steer-'), await rowVal(page, 'steer+')];
        report.controlsSteerRows = steerRows;

        // conflict: Change camera → Q (Q is Shift down): the warning names both; Swap gives Shift down the C key
        await startCapture(page, 'camera');
        await key(page, 'KeyQ');
        const warn = await waitFor('conflict warning', () => page.evaluate(() => {
          const p = document.querySelector('[data-conflict]');
          return p && !p.hidden && /Q is also bound to Shift down/.test(p.textContent ?? '') ? p.textContent : null;
        }));
        report.controlsConflict = warn;
        const flagged = await page.evaluate(() => [...document.querySelectorAll('[data-slot].conflict')].map((r) => r.dataset.slot));
        if (flagged.sort().join() !== 'camera,shiftDown') throw new Error(`rows marked as conflicting: ${flagged}`);
        await shot(page, out, 'controls-conflict');
        await padFocus(page, 'Swap', (f) => /^Swap/.test(f?.text ?? ''), 3);
        await press(page, A);
        await waitFor('conflict resolved', () => page.evaluate(() => document.querySelector('[data-conflict]')?.hidden === true));
        const sd = await rowVal(page, 'shiftDown');
        if (!/\|\s*C$/.test(sd ?? '')) throw new Error(`after the swap Shift down shows "${sd}", expected key C`);
        await shot(page, out, 'controls-resolved');

        // every analog action has a deadzone and a response row; RIGHT steps the brake deadzone and it is saved
        const tuneRows = await page.evaluate(() => [...document.querySelectorAll('[data-tune]')].map((r) => r.dataset.tune));
        if (tuneRows.length !== 10) throw new Error(`expected deadzone + response rows for 5 analog actions, found ${tuneRows}`);
        await padFocus(page, 'brake deadzone', (f) => /^Brake deadzone/.test(f?.text ?? ''), 40);
        await press(page, RIGHT);
        const dz = await page.evaluate(() => JSON.parse(localStorage.getItem('bitrally.settings.v1') ?? '{}').tuning?.brake?.deadzone);
        if (Math.abs(dz - 0.06) > 1e-9) throw new Error(`brake deadzone after one RIGHT: ${dz}, expected 0.04 + 0.02`);
        await shot(page, out, 'controls-tuning');
        await press(page, LEFT);

        // drive: back to the title (B), test-short, hatch-gti
        await press(page, B);
        await waitScreen(page, 'title');
        await press(page, A);
        await waitScreen(page, 'stages');
        await padFocusCard(page, 'stage', 'test-short');
        await press(page, A);
        await waitScreen(page, 'cars');
        await padFocusCard(page, 'car', 'hatch-gti');
        await press(page, A);
        await waitScreen(page, 'drive', 180000);
        await waitFor('lights out', async () => (await hook(page, 'phase')) === 'running', 180000);
        // full throttle for 2.5 s of stage time (≈ 25 km/h), then gentle throttle while steering: full lock turns
        // without spinning; the switch happens in the page, on the frame the time passes
        await page.evaluate((rt) => new Promise((resolve) => {
          const h = window.__bitrally;
          const t = () => (typeof h.stageTimeS === 'function' ? h.stageTimeS() : h.stageTimeS);
          const t0 = t();
          window.__pad.set({ buttons: { [rt]: 1 } });
          const step = () => {
            if (t() < t0 + 2.5) return requestAnimationFrame(step);
            window.__pad.set({ buttons: { [rt]: 0.4 } });
            resolve();
          };
          requestAnimationFrame(step);
        }), RT);
        // short phases (≈ 0.3 rad each way), right first, follow test-short's opening right-hander and the left after
        // it: the car stays on the road, clear of the trees beside it
        const right = await drivePhase(page, 'KeyL', 0.6);
        await shot(page, out, 'controls-drive-right');
        await drivePhase(page, null, 0.5); // steering back to centre (return 4 lock/s), yaw settles
        const left = await drivePhase(page, 'KeyJ', 0.6);
        await shot(page, out, 'controls-drive-left');
        await page.evaluate((rt) => window.__pad.set({ buttons: { [rt]: 0 } }), RT);
        report.controlsDrive = { left, right, speedKmh: await hook(page, 'speedKmh') };
        // sim convention: steer + = left. Keys ramp at 2.5 lock/s, so 0.6 s of J (or L) reaches full lock (at 0.4 s).
        if (!(left.steer > 0.9)) throw new Error(`J did not steer left: consumed steer ${left.steer}`);
        if (!(right.steer < -0.9)) throw new Error(`L did not steer right: consumed steer ${right.steer}`);
        // the heading turns one way with J and the other with L (≈ 0.3 rad each in a Node run of these inputs: well over 0.05)
        if (!(Math.abs(left.turnRad) > 0.05 && Math.abs(right.turnRad) > 0.05 && Math.sign(left.turnRad) !== Math.sign(right.turnRad)))
          throw new Error(`heading did not turn both ways: J ${left.turnRad.toFixed(3)} rad, L ${right.turnRad.toFixed(3)} rad`);
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'controls-report.json', label: 'controls e2e report' });
}
