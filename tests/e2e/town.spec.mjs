/**
 * Town mode e2e (issue 23), same format as the other specs (`specs`, `runSpecs`); run it alone with
 * `npm run test:e2e -- --files town`.
 *
 * Title → Town with the virtual pad only (seed 1, 200 cars, the default car) → the town loads with its traffic;
 * the pad's throttle drives the player's car; traffic moves (vehicle positions change by serial); a traffic light
 * changes colour; the instructor action (pad D-pad up) picks a vehicle and its accident is resolved and shown in
 * the HUD's incident feed; the perf overlay (F3) shows the simulation's time per frame, and the simulated clock
 * accounts for the wall clock fed to it under the frame-pacing rules (simulated + dropped + still due = fed).
 * The drive stays within the default (medium) preset's render budget (triangles and draw calls: the traffic
 * is drawn as car bodies instanced per vehicle type). Pad B opens the pause menu: the simulation stands still
 * until Resume; Leave town closes the recording (a town replay), which is saved to the replay library and
 * plays in the replay viewer: checksums match as it plays, the traffic moves, a seek back lands on its tick.
 * Screenshots: town-menu, town-drive, town-accident, town-pause, town-replay.
 */
import { runSpecList, waitFor } from './spec-runner.mjs';
import { join } from 'node:path';
import { frames, padFocusItem, padPage, padPress as press, sleep } from './page-helpers.mjs';
import { budgets } from './graphics.spec.mjs';

const A = 0, B = 1, UP = 12, RT = 7;
/** The settings' default graphics preset (src/app/settings.ts), whose render budget the drive keeps. */
const DEFAULT_PRESET = 'medium';
/** Frames watched on the pause menu (the simulated clock must not move). */
const PAUSE_FRAMES = 20;
/** Traffic vehicles that must move > 1 m in the replay viewer over REPLAY_SAMPLE_MS. */
const REPLAY_MOVED_MIN = 20;
const REPLAY_SAMPLE_MS = 3000;

/** The pacing account may be off by float round-off only, s. */
const PACING_TOLERANCE_S = 1e-6;

const hook = (page, key, arg) =>
  page.evaluate(([k, a]) => {
    const v = window.__bitrally?.[k];
    return typeof v === 'function' ? v(a) : v;
  }, [key, arg]);
const waitScreen = (page, name, ms) => waitFor(`screen "${name}"`, async () => (await hook(page, 'screens')) === name, ms);
const town = (page) => hook(page, 'town');
const waitSim = (page, what, simS, ms = 240000) => waitFor(what, async () => {
  const s = await town(page);
  return s && s.simS >= simS ? s : null;
}, ms);

/** The pacing account: every second of wall time fed to the scheduler was simulated, dropped or is still due. */
function checkPacing(s, where) {
  const err = s.simS + s.droppedS + s.dueS - s.wallS;
  if (!(Math.abs(err) < PACING_TOLERANCE_S)) throw new Error(`${where}: sim ${s.simS} + dropped ${s.droppedS} + due ${s.dueS} ≠ wall ${s.wallS} (${err})`);
}

/** Pad B pauses: the simulated clock stands still on the pause menu; Resume goes on driving. */
async function pauseAndResume(page, out, report) {
  await press(page, B);
  await waitScreen(page, 'town-pause');
  const p0 = await town(page);
  await frames(page, PAUSE_FRAMES);
  const p1 = await town(page);
  if (p1.simS !== p0.simS) throw new Error(`the town ran on while paused: ${p0.simS} → ${p1.simS} s`);
  await page.screenshot({ path: join(out, 'town-pause.png') });
  await padFocusItem(page, /^Resume/);
  await press(page, A);
  await waitScreen(page, 'town-drive');
  await waitSim(page, 'sim running again after Resume', p1.simS + 0.5);
  report.townPause = { simS: p1.simS, frames: PAUSE_FRAMES };
}

/** Title → Replays → the town replay → Watch: checksums match, traffic moves, a seek back lands on its tick. */
async function watchTownReplay(page, id, out, report) {
  const H = (fn, arg) => page.evaluate(fn, arg);
  await press(page, B);
  await waitScreen(page, 'title');
  await page.click('[data-go="replays"]');
  const row = await waitFor('the town replay in the library', () => H((i) => document.querySelector(`[data-replay="${i}"]`)?.textContent ?? null, id));
  if (!/town 1/.test(row)) throw new Error(`library row does not name the town: "${row}"`);
  await page.click(`[data-replay="${id}"]`);
  await waitScreen(page, 'replay-entry');
  await page.click('[data-a="watch"]');
  const vh = () => H(() => ({ ...window.__bitrally.replays.viewer }));
  const ready = await waitFor('the town replay viewer', async () => {
    const v = await vh();
    return v.ready || v.error ? v : null;
  }, 120000);
  if (ready.error) throw new Error(`viewer: ${ready.error}`);
  const v0 = await waitFor('playback with traffic', async () => {
    const v = await vh();
    return v.town && v.tick > 500 ? v : null;
  }, 120000);
  await sleep(REPLAY_SAMPLE_MS);
  const v1 = await vh();
  const before = new Map(v0.town.cars.map((c) => [c.serial, c]));
  const moved = v1.town.cars.filter((c) => before.has(c.serial) && Math.hypot(c.x - before.get(c.serial).x, c.z - before.get(c.serial).z) > 1).length;
  if (moved < REPLAY_MOVED_MIN) throw new Error(`replay traffic did not move: ${moved} cars moved > 1 m`);
  await page.screenshot({ path: join(out, 'town-replay.png') });
  const back = Math.round(v1.tick / 2);
  const seek = await H((t) => window.__bitrally.replays.viewer.seek(t), back);
  if (seek.tick !== back) throw new Error(`seek back to ${back} landed on ${seek.tick}`);
  const v2 = await vh();
  if (v2.desync || v2.checksumsMatched !== v2.checksumsChecked || v2.checksumsChecked < 3) throw new Error(`viewer checksums: ${v2.checksumsMatched}/${v2.checksumsChecked}, desync ${JSON.stringify(v2.desync)}`);
  report.townReplayViewer = { totalTicks: ready.totalTicks, movedCars: moved, seekBackMs: Math.round(seek.ms), checksums: v2.checksumsChecked };
}

export const specs = [
  {
    name: 'town: pad menu → town with 200 cars; traffic moves, a light changes, instructor accident shown, sim time per frame on the perf overlay',
    async run({ browser, base, out, report }) {
      const { context, page, errors } = await padPage(browser);
      try {
        await page.goto(base + '?scale=2');
        await waitScreen(page, 'title', 120000);
        await page.evaluate(() => window.__pad.connect());
        await padFocusItem(page, /^Town$/);
        await press(page, A);
        await waitScreen(page, 'town');
        const menu = await page.evaluate(() => [...document.querySelectorAll('.item')].map((b) => b.textContent));
        if (!menu.includes('Town seed: 1') || !menu.includes('Traffic: 200 cars')) throw new Error(`town menu: ${menu.join(' | ')}`);
        await padFocusItem(page, /^Drive$/);
        await page.screenshot({ path: join(out, 'town-menu.png') });
        await press(page, A);
        await waitScreen(page, 'town-drive');
        const s0 = await waitFor('town loaded', async () => {
          const s = await town(page);
          return s && s.cars.length > 0 && s.simS > 0.5 ? s : null;
        }, 120000);
        report.townCarsAtStart = s0.cars.length;
        if (s0.cars.length < 150) throw new Error(`expected ~200 traffic cars, found ${s0.cars.length}`);
        await page.keyboard.down('F3');
        await frames(page, 2);
        await page.keyboard.up('F3');
        await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), RT);
        const s1 = await waitSim(page, 'sim +4 s', s0.simS + 4);
        await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), RT);
        // traffic moves: vehicles present in both samples, by serial
        const before = new Map(s0.cars.map((c) => [c.serial, c]));
        const moved = s1.cars.filter((c) => before.has(c.serial) && Math.hypot(c.x - before.get(c.serial).x, c.z - before.get(c.serial).z) > 1).length;
        report.townMovedCars = moved;
        if (moved < 20) throw new Error(`traffic did not move: ${moved} cars moved > 1 m in 4 s`);
        await page.screenshot({ path: join(out, 'town-drive.png') });
        // a light changes colour (offsets differ per junction: one changes within a cycle)
        const lights0 = s1.lights;
        const changed = await waitFor('a light changing colour', async () => {
          const s = await town(page);
          const k = s ? s.lights.findIndex((c, i) => c !== lights0[i]) : -1;
          return k >= 0 ? { k, from: lights0[k], to: s.lights[k], simS: s.simS } : null;
        }, 240000);
        report.townLightChange = changed;
        // the instructor: D-pad up until a vehicle is picked, then its accident in the feed
        const picked = await waitFor('instructor pick', async () => {
          await press(page, UP);
          const s = await town(page);
          return s && s.picks > 0 ? s : null;
        }, 240000);
        const shown = await waitFor('instructed accident in the HUD', async () => {
          const s = await town(page);
          return s && s.accidents.some((a) => a.instructed) && s.incidents.some((t) => /Accident \(instructed\)/.test(t)) ? s : null;
        }, 300000);
        await page.screenshot({ path: join(out, 'town-accident.png') });
        report.townAccident = { pickedAtSimS: picked.simS, accidents: shown.accidents, incidents: shown.incidents, info: shown.info };
        // the perf overlay shows the simulation's ms per frame; the clock accounts for the wall time
        if (!/sim\s+[\d.]+ ms/.test(shown.perfText)) throw new Error(`perf overlay: ${shown.perfText}`);
        checkPacing(shown, 'after the accident');
        report.townPerf = { perf: shown.perf, simS: shown.simS, wallS: shown.wallS, droppedS: shown.droppedS, slowed: shown.slowed };
        const budget = budgets()[DEFAULT_PRESET];
        if (!(shown.perf.drawCalls > 0 && shown.perf.drawCalls <= budget.drawCalls && shown.perf.triangles <= budget.triangles)) {
          throw new Error(`render budget (${DEFAULT_PRESET}): ${shown.perf.triangles} triangles / ${shown.perf.drawCalls} draw calls > ${budget.triangles} / ${budget.drawCalls}`);
        }
        await pauseAndResume(page, out, report);
        // pause, then Leave town: the recording closes and is saved to the replay library
        await press(page, B);
        await waitScreen(page, 'town-pause');
        await padFocusItem(page, /^Leave town/);
        await press(page, A);
        await waitScreen(page, 'town');
        const replayBytes = await page.evaluate(() => window.__bitrally?.townReplay?.length ?? 0);
        report.townReplayBytes = replayBytes;
        if (!(replayBytes > 100)) throw new Error(`no town replay recorded (${replayBytes} bytes)`);
        const saved = await waitFor('the town replay saved', () => page.evaluate(() => window.__bitrally?.townReplaySaved ?? null), 60000);
        if (!saved.id) throw new Error(`town replay not saved: ${saved.error}`);
        await watchTownReplay(page, saved.id, out, report);
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'report-town.json', label: 'e2e town report' });
}
