/**
 * Replay e2e specs (issue 7), same format as game.spec.mjs: `specs` [{ name, run({ browser, base, out, report }) }]
 * and `runSpecs`. Run them alone with `npm run test:e2e -- --files replay`.
 *
 * One spec, in one page (the library lives in that page's IndexedDB):
 *  1. the AI autopilot drives test-short to the finish; the run is saved to the library automatically;
 *  2. the browser's file verifies with the Node CLI (`npm run replay -- verify`): every checksum, same stage time;
 *  3. the viewer opens from the library, plays, seeks (forward and back), every checksum it meets matches;
 *  4. importing a corrupted copy shows the clear `<file>: <field>: expected …, found …` error and loses nothing.
 */
import { openPage, runSpecList } from './spec-runner.mjs';
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

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

export const specs = [
  {
    name: 'replay: browser run saved, verifies with the Node CLI; viewer plays and seeks; corrupted import gives the clear error',
    async run({ browser, base, out, report }) {
      const { page, context, errors, H, screen } = await openPage(browser);
      // simcap: the software renderer is slow; let each frame simulate more so the run takes less wall time
      await page.goto(`${base}?simcap=0.5&scale=2&dev=1`); // dev=1: the Stages screen lists the test tracks
      await waitFor('title', async () => (await screen()) === 'title');
      await page.click('[data-go="stages"]');
      await waitFor('stage cards', () => H(() => !!document.querySelector('[data-stage="test-short"]')));
      await page.click('[data-stage="test-short"]');
      await waitFor('cars', async () => (await screen()) === 'cars');
      await page.click('[data-car]');
      await waitFor('drive', async () => (await screen()) === 'drive', 120000);
      await H(() => window.__bitrally.autopilot(true));
      const id = await waitFor('the finished run saved in the library', () => H(() => window.__bitrally.replays.lastSavedId), 600000);
      const bytes = Buffer.from(await H((i) => window.__bitrally.replays.exportBase64(i), id), 'base64');
      const file = join(out, 'browser-run.bitrally');
      writeFileSync(file, bytes);
      report.replayBytes = bytes.length;

      // 2. Node CLI verification of the browser's file
      const v = spawnSync('npx', ['tsx', 'src/cli/replay.ts', 'verify', file, '--json'], { cwd: root, encoding: 'utf8' });
      if (v.status !== 0) throw new Error(`npm run replay -- verify exited ${v.status}: ${v.stdout.slice(-1500)} ${v.stderr.slice(-500)}`);
      const rep = JSON.parse(v.stdout.slice(v.stdout.indexOf('{')));
      if (!rep.ok || rep.checksumsMatched !== rep.checksumsChecked) throw new Error(`verify: ${JSON.stringify(rep).slice(0, 600)}`);
      const last = await H(() => window.__bitrally.lastResult);
      if (last && rep.stageTimeS !== null && Math.abs(rep.stageTimeS - last.timeS) > 1e-9) throw new Error(`stage time: browser ${last.timeS}, Node ${rep.stageTimeS}`);
      report.replayVerify = { checksums: rep.checksumsChecked, ticks: rep.ticks, stageTimeS: rep.stageTimeS };

      // 3. viewer from the library
      await page.click('[data-a="menu"]');
      await waitFor('title', async () => (await screen()) === 'title');
      await page.click('[data-go="replays"]');
      await waitFor('library rows', () => H(() => document.querySelectorAll('[data-replay]').length));
      await page.screenshot({ path: join(out, 'replay-library.png') });
      await page.click(`[data-replay="${id}"]`);
      await waitFor('entry', async () => (await screen()) === 'replay-entry');
      await page.click('[data-a="watch"]');
      const ready = await waitFor('viewer', () => H(() => (window.__bitrally.replays.viewer?.ready || window.__bitrally.replays.viewer?.error ? { ...window.__bitrally.replays.viewer } : null)), 60000);
      if (ready.error) throw new Error(`viewer: ${ready.error}`);
      await waitFor('playback', () => H(() => window.__bitrally.replays.viewer.tick > 300), 60000);
      const total = ready.totalTicks;
      const seeks = [];
      for (const f of [0.6, 0.95, 0.3, 0.5]) seeks.push(await H((t) => window.__bitrally.replays.viewer.seek(t), Math.round(total * f)));
      for (const [i, s] of seeks.entries()) if (Math.abs(s.tick - Math.round(total * [0.6, 0.95, 0.3, 0.5][i])) > 0) throw new Error(`seek landed on ${s.tick}`);
      report.replayViewerSeekMs = seeks.map((s) => Math.round(s.ms));
      await H(() => window.__bitrally.replays.viewer.setCamera('tv'));
      await sleep(1500);
      await page.screenshot({ path: join(out, 'replay-viewer-tv.png') });
      const st = await H(() => ({ ...window.__bitrally.replays.viewer }));
      if (st.desync || st.checksumsMatched !== st.checksumsChecked || st.checksumsChecked < 3) throw new Error(`viewer checksums: ${st.checksumsMatched}/${st.checksumsChecked}, desync ${JSON.stringify(st.desync)}`);

      // 4. corrupted import
      await page.click('[data-a="exit"]');
      await waitFor('entry', async () => (await screen()) === 'replay-entry');
      await page.click('[data-a="back"]');
      await waitFor('library', async () => (await screen()) === 'replays');
      const before = (await H(() => window.__bitrally.replays.list())).length;
      const bad = Buffer.from(bytes);
      bad[bad.length >> 1] ^= 0x5a;
      await page.setInputFiles('[data-file]', { name: 'corrupt.bitrally', mimeType: 'application/octet-stream', buffer: bad });
      const msg = await waitFor('import error', () => H(() => document.querySelector('[data-import-error]')?.textContent));
      if (!/corrupt\.bitrally: .*expected .*, found /.test(msg)) throw new Error(`import error message unclear: "${msg}"`);
      await page.screenshot({ path: join(out, 'replay-import-error.png') });
      const after = (await H(() => window.__bitrally.replays.list())).length;
      if (after !== before) throw new Error(`library had ${before} replays, ${after} after a failed import`);
      report.replayImportError = msg;
      // expected console output only: the failed import is reported on screen, not as a console error
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 800)}`);
      await context.close();
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'replay-report.json', label: 'replay e2e report' });
}
