#!/usr/bin/env node
/**
 * Records the browser pad fixture (docs/replays.md "The browser pad fixture"): the BUILT game in Chromium (the
 * e2e browser: /usr/bin/chromium, SwiftShader), a virtual 60 Hz display (tests/e2e/frame-clock.mjs), the virtual
 * gamepad (tests/e2e/pad.mjs) moved by a human-like driver (tests/e2e/human-pad-driver.mjs) that reads the car's
 * state from window.__bitrally. The game drives the stage from its quick-start URL; at the finish, or after
 * --minutes of simulation when the run retires (the test hook `retire`, a rally retirement), it saves its own
 * replay to the library, which this script exports (the library's export path, base64), writes to
 * --out and verifies with `npm run replay -- verify` (every checksum). Prints a JSON summary.
 *
 *   npm run record:pad-fixture -- [--stage forest-gravel] [--car hatch-gti] [--seed 1] [--out file.bitrally]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseCommand } from '../../src/cli/args.ts';
import { reportError } from '../../src/cli/errors.ts';
import { CONTENT_DIR, readCarFile } from '../../src/replay/node.ts';
import { loadCarConfig } from '../../src/content/car-load.ts';
import { loadStageFromDir } from '../../terrain/node.ts';
import { stagePath } from '../../src/systems/sim/ai/stage-path.ts';
import { driverVehicleFromConfig } from '../../src/systems/sim/ai/car-params.ts';
import { acquireE2eLock, buildIfStale, root, startPreview } from './serve.mjs';
import { launchBrowser, openPage, waitFor } from './spec-runner.mjs';
import { PAD_INIT } from './pad.mjs';
import { FRAME_CLOCK_INIT } from './frame-clock.mjs';
import { HUMAN_DRIVER_INIT } from './human-pad-driver.mjs';

const DISPLAY_HZ = 60;
/** Road points of the driver's path, m apart (stagePath's spacing). */
const PATH_STEP_M = 2;
/** Progress line every this many wall seconds. */
const PROGRESS_EVERY_S = 30;
const SCREENSHOT_AT_SIM_S = 40;

const SPEC = {
  usage: 'npm run record:pad-fixture --',
  summary: 'Drives a stage in Chromium with a human-like driver on the virtual pad (60 Hz), saves the game\'s replay and verifies it.',
  details: ['Builds the game when dist/ is stale and holds the e2e lock (one browser at a time). Exit 1 when the run or its verification fails.'],
  options: {
    stage: { type: 'string', default: 'forest-gravel', help: 'shipped stage to drive' },
    car: { type: 'string', default: 'hatch-gti', help: 'car to drive' },
    seed: { type: 'integer', default: 1, min: 0, help: "seed of the driver's hand noise" },
    grip: { type: 'number', default: 0.5, above: 0, max: 1, help: 'share of the friction the driver uses in corners (its pace)' },
    'top-speed': { type: 'number', default: 25, above: 0, help: "the driver's top speed, m/s" },
    scale: { type: 'number', default: 8, min: 1, max: 8, help: 'render at 1/scale resolution (software rendering is the cost)' },
    minutes: { type: 'number', default: 3, above: 0, help: 'simulated minutes to drive; then the run retires (its replay is saved unfinished) unless the finish came first' },
    'max-minutes': { type: 'number', default: 120, above: 0, help: 'wall-clock limit of the recording, minutes' },
    out: { type: 'string', value: 'file.bitrally', help: 'where to write the replay (default tests/replay/fixtures/pad-chromium-<stage>.bitrally)' },
  },
};

/** The road as the driver sees it: points every 2 m and the speed it aims for at each (the AI's profile at its pace). */
function driverRoad(stageId, carId, grip, topSpeed) {
  const stage = loadStageFromDir(join(CONTENT_DIR, 'stages', stageId));
  const cfg = loadCarConfig(readCarFile(carId), `${carId}.toml`, readCarFile);
  const path = stagePath(stage, cfg, { racingLine: 0.5 });
  const car = driverVehicleFromConfig(cfg);
  const v = path.speedProfile({ gripUse: grip, brakeUse: 0.5, vMaxMS: Math.min(topSpeed, car.topSpeedMS), accelMS2: 2.5 });
  return { x: Array.from(path.x), z: Array.from(path.z), v: Array.from(v), stepM: PATH_STEP_M };
}

async function record(o) {
  const out = o.out ?? join(root, 'tests', 'replay', 'fixtures', `pad-chromium-${o.stage}.bitrally`);
  const road = driverRoad(o.stage, o.car, o.grip, o['top-speed']);
  await acquireE2eLock('record-pad-fixture');
  if (!buildIfStale('record-pad-fixture')) throw new Error('the build failed');
  const { base, stop } = await startPreview();
  const browser = await launchBrowser();
  const t0 = Date.now();
  try {
    const { page, context, errors, H } = await openPage(browser);
    await page.addInitScript(FRAME_CLOCK_INIT, DISPLAY_HZ);
    await page.addInitScript(PAD_INIT);
    await page.addInitScript(HUMAN_DRIVER_INIT, { ...road, seed: o.seed });
    await page.goto(`${base}?stage=${o.stage}&car=${o.car}&scale=${o.scale}`);
    await H(() => window.__pad.connect());
    await waitFor('the title screen', () => H(() => window.__bitrally?.screens?.() !== undefined), 300000, 500);
    // the lightest graphics preset: software rendering is what a recorded frame costs here
    await H(() => window.__bitrally.setGraphics('low'));
    await waitFor('the drive screen', () => H(() => window.__bitrally?.screens?.() === 'drive'), 300000, 500);
    await H(() => (window.__humanDriver.enabled = true));
    let shot = false;
    let retired = false;
    let lastLog = Date.now();
    const limitMs = o['max-minutes'] * 60000;
    for (;;) {
      const s = await H(() => ({ id: window.__bitrally.replays?.lastSavedId ?? null, simS: window.__bitrally.simTimeS, progressM: window.__bitrally.progressM, phase: window.__bitrally.phase, frames: window.__frameClock.frames, recoveries: window.__humanDriver.recoveries, kmh: window.__bitrally.speedKmh, perf: window.__bitrally.perf }));
      if (s.id) break;
      if (s.simS > o.minutes * 60 && !retired) retired = await H(() => (window.__bitrally.retire(), true));
      if (!shot && s.simS > SCREENSHOT_AT_SIM_S) {
        shot = true;
        await page.screenshot({ path: join(root, 'test-results', `pad-fixture-${o.stage}.png`) });
      }
      if (Date.now() - lastLog > PROGRESS_EVERY_S * 1000) {
        lastLog = Date.now();
        console.log(`record-pad-fixture: ${((Date.now() - t0) / 1000).toFixed(0)} s wall, sim ${s.simS?.toFixed(1)} s, ${s.progressM?.toFixed(0)} m, ${s.kmh?.toFixed(0)} km/h, ${s.frames} frames, ${s.recoveries} recoveries, ${s.phase}; frame ${JSON.stringify(s.perf)}`);
      }
      if (Date.now() - t0 > limitMs) throw new Error(`no finish within --max-minutes ${o['max-minutes']} (sim ${s.simS} s, ${s.progressM} m)`);
      await new Promise((r) => setTimeout(r, 2000));
    }
    const id = await H(() => window.__bitrally.replays.lastSavedId);
    const bytes = Buffer.from(await H((i) => window.__bitrally.replays.exportBase64(i), id), 'base64');
    const driven = await H(() => ({ frames: window.__frameClock.frames, recoveries: window.__humanDriver.recoveries, result: window.__bitrally.lastResult }));
    writeFileSync(out, bytes);
    await context.close();
    const v = spawnSync('npx', ['tsx', 'src/cli/replay.ts', 'verify', out, '--json'], { cwd: root, encoding: 'utf8' });
    const rep = v.status === 0 ? JSON.parse(v.stdout.slice(v.stdout.indexOf('{'))) : null;
    const summary = { out, bytes: bytes.length, wallS: (Date.now() - t0) / 1000, ...driven, verify: rep ? { ok: rep.ok, ticks: rep.ticks, checksums: `${rep.checksumsMatched}/${rep.checksumsChecked}`, stageTimeS: rep.stageTimeS } : v.stdout.slice(-800), consoleErrors: errors.slice(0, 5) };
    console.log(JSON.stringify(summary, null, 2));
    return rep?.ok && rep.checksumsMatched === rep.checksumsChecked ? 0 : 1;
  } finally {
    await browser.close().catch(() => undefined);
    stop();
  }
}

try {
  process.exitCode = await record(parseCommand(SPEC, process.argv.slice(2)).options);
} catch (e) {
  process.exitCode = reportError(e);
}
