/**
 * Collision issue e2e (same format as game.spec.mjs: `specs` + `runSpecs`):
 *  1. default URL: Havok loads, the stage has its props (cones beside the start line, drawn), no fallback
 *     notice; the AI autopilot finishes the stage, the run's replay header records props = true and the file
 *     verifies with the Node CLI (`npm run replay -- verify`, which builds the same Havok props world); then a
 *     Retry in the same page (a props world built after the first in one browser session, on the first run's
 *     Havok instance reset to its start-up state) verifies in Node and in the page;
 *  2. Havok's wasm blocked (the request fails): the game still runs — visible notice, the car drives (its
 *     contacts come from the TS grid, bit-identical with the Havok broad phase: tests/collision).
 * Screenshots: test-results/e2e/props-start.png, props-no-havok.png.
 */
import { runSpecList } from './spec-runner.mjs';
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { PAD_INIT } from './pad.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, fn, timeoutMs = 60000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/** The AI autopilot drives test-short to the finish; the run's replay is exported, its header read and verified in Node. */
async function finishAndVerify(page, out, name) {
  const H = (fn, arg) => page.evaluate(fn, arg);
  const on = await H(() => window.__bitrally.autopilot(true));
  if (!on) throw new Error('autopilot did not engage');
  const b64 = await waitFor('the finished run\'s replay', () => H(() => window.__bitrally.replayBase64()), 600000);
  const file = join(out, `${name}.bitrally`);
  writeFileSync(file, Buffer.from(b64, 'base64'));
  const head = spawnSync('npx', ['tsx', '--eval', "import { readFileSync } from 'node:fs'; import { decodeReplay } from './src/replay/format.ts'; const f = process.argv[1]; console.log(JSON.stringify({ props: decodeReplay(new Uint8Array(readFileSync(f)), f).header.props ?? false }));", file], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0) throw new Error(`reading the replay header failed: ${head.stderr.slice(-600)}`);
  const props = JSON.parse(head.stdout.slice(head.stdout.indexOf('{'))).props;
  const v = spawnSync('npx', ['tsx', 'src/cli/replay.ts', 'verify', file, '--json'], { cwd: root, encoding: 'utf8' });
  if (v.status !== 0) throw new Error(`replay verify exited ${v.status}: ${v.stdout.slice(-1200)} ${v.stderr.slice(-400)}`);
  const rep = JSON.parse(v.stdout.slice(v.stdout.indexOf('{')));
  if (!rep.ok || rep.checksumsMatched !== rep.checksumsChecked) throw new Error(`verify: ${JSON.stringify(rep).slice(0, 600)}`);
  return { props, verify: rep };
}

export const specs = [
  {
    name: 'props: Havok loads by default, props stand at the start, no notice; the replay records props and verifies in Node',
    async run({ browser, out, base, report }) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.addInitScript(PAD_INIT);
        await page.goto(base + '?scale=2&simcap=1&stage=test-short&car=hatch-gti');
        await waitFor('drive', async () => (await page.evaluate(() => window.__bitrally?.screens?.())) === 'drive', 180000);
        await sleep(1500);
        await page.screenshot({ path: join(out, 'props-start.png') });
        const notice = await page.evaluate(() => document.querySelector('[data-t="havok-notice"]')?.textContent ?? null);
        if (notice) throw new Error(`fallback notice shown although Havok should load: ${notice}`);
        // the terrain contact patch runs in WebAssembly here too (terrain/patch-kernel.ts), and the run verifies in Node
        const kernelError = await page.evaluate(() => window.__bitrally.terrainKernelError());
        if (kernelError !== null) throw new Error(`the terrain patch kernel did not compile in the browser: ${kernelError}`);
        // and so do the force passes 4–5b, on the drive's own world (src/systems/sim/vehicle/force-kernel.ts)
        const forceError = await page.evaluate(() => window.__bitrally.forceKernelError());
        if (forceError !== null) throw new Error(`the force kernel does not run in the browser: ${forceError}`);
        const r = await finishAndVerify(page, out, 'props-run');
        if (r.props !== true) throw new Error(`replay header props: expected true, found ${r.props}`);
        report.propsRun = { checksums: r.verify.checksumsChecked, ticks: r.verify.ticks, stageTimeS: r.verify.stageTimeS };
        // a second run in the SAME page (Retry): its props world is built after the first one's in this browser
        // session, on a pristine Havok instance (the first run's, given back and reset), so it must verify in Node
        // (a fresh process) too, and the page's own verifier (a third props world, same session) must agree
        const savedId1 = await waitFor('the first run saved to the library', () => page.evaluate(() => window.__bitrally.replays.lastSavedId ?? null), 60000);
        await waitFor('finish screen', async () => (await page.evaluate(() => window.__bitrally.screens())) === 'finish', 60000);
        await page.click('[data-a="retry"]');
        await waitFor('drive (retry)', async () => (await page.evaluate(() => window.__bitrally.screens())) === 'drive', 180000);
        await waitFor('the retry\'s replay cleared', () => page.evaluate(() => window.__bitrally.replayBase64() === null), 30000);
        const r2 = await finishAndVerify(page, out, 'props-run2');
        if (r2.props !== true) throw new Error(`retry replay header props: expected true, found ${r2.props}`);
        const savedId2 = await waitFor('the retry saved', async () => {
          const id = await page.evaluate(() => window.__bitrally.replays.lastSavedId ?? null);
          return id !== null && id !== savedId1 ? id : null;
        }, 60000);
        const inPage = await page.evaluate((id) => window.__bitrally.replays.verifyInPage(id), savedId2);
        if (!inPage?.ok || inPage.matched !== inPage.checked) throw new Error(`in-page verify of the retry: ${JSON.stringify(inPage).slice(0, 600)}`);
        report.propsRetry = { checksums: r2.verify.checksumsChecked, ticks: r2.verify.ticks, inPageChecked: inPage.checked };
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 800)}`);
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'props: Havok wasm blocked → the game runs on the TS scene with a visible notice, no props; the replay verifies in Node',
    async run({ browser, out, base, report }) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('console', (m) => m.type() === 'error' && !/Failed to load resource|HavokPhysics|wasm/i.test(m.text()) && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.route(/HavokPhysics.*\.wasm/, (route) => route.abort());
        await page.addInitScript(PAD_INIT);
        await page.goto(base + '?scale=2&simcap=1&stage=test-short&car=hatch-gti');
        await waitFor('drive', async () => (await page.evaluate(() => window.__bitrally?.screens?.())) === 'drive', 180000);
        const notice = await waitFor('the Havok fallback notice', () => page.evaluate(() => document.querySelector('[data-t="havok-notice"]')?.textContent ?? null), 30000);
        if (!/Havok/.test(notice)) throw new Error(`notice text: ${notice}`);
        await waitFor('lights out', async () => (await page.evaluate(() => window.__bitrally.phase)) === 'running', 180000);
        await page.evaluate(() => window.__pad.connect());
        const p0 = await page.evaluate(() => window.__bitrally.carPos);
        await page.evaluate(() => window.__pad.set({ buttons: { 7: 1 } }));
        await waitFor('stage time ≥ 3 s', async () => (await page.evaluate(() => window.__bitrally.stageTimeS)) >= 3, 300000);
        await page.screenshot({ path: join(out, 'props-no-havok.png') });
        const p1 = await page.evaluate(() => window.__bitrally.carPos);
        const moved = Math.hypot(p1[0] - p0[0], p1[2] - p0[2]);
        if (!(moved > 3)) throw new Error(`car moved only ${moved} m under throttle without Havok`);
        report.noHavok = { notice, movedM: moved };
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 800)}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'props-report.json', label: 'props e2e report' });
}
