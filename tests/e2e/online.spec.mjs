/**
 * Online e2e spec (issue 21): the real BitRally server (`server/main.ts`, PGlite in a temp dir, a free loopback
 * port, --cors-origin for the preview origin) and two browser contexts, each with its own player key.
 *  1. page A drives test-short (the autopilot from the countdown) and its run is accepted by the server;
 *  2. the server is stopped; page B drives (the autopilot takes over 2 s after the start: a slower, different
 *     drive), the finish screen says "offline, queued for later" and the run waits in IndexedDB;
 *  3. the server is restarted on the same port: B's retry loop sends the run, it is verified and accepted;
 *  4. B's Leaderboards screen lists both times in order (A first) and B races A's ghost: it loads and moves.
 * Run alone with `npm run test:e2e -- --files online`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, runSpecList, waitFor } from './spec-runner.mjs';
import { closeSpec, freePort, startServer, stopServer, throwPageErrors } from './server-process.mjs';
import { frames, sleep } from './page-helpers.mjs';

/** A whole AI run of test-short on the software renderer, ms. */
const RUN_TIMEOUT_MS = 600_000;

/** A key held until the frame loop has seen it (the menus read the keyboard once per frame). */
async function key(page, code) {
  await page.keyboard.down(code);
  await Promise.all([frames(page, 1), sleep(100)]);
  await page.keyboard.up(code);
  await Promise.all([frames(page, 2), sleep(150)]);
}

/** The focused menu item's text. */
const focused = (H) => H(() => document.querySelector('.item.focused')?.textContent?.trim() ?? '');

/** The screen and, off the drive screen, its text (diagnostics in a timeout message). */
const screenState = (H) => H(() => {
  const name = window.__bitrally?.screens?.();
  return name === 'drive' ? name : `${name}: ${document.querySelector('#ui .screen')?.textContent?.replace(/\s+/g, ' ').slice(0, 160)}`;
});

/** Title → Stages → test-short → first car (Enter) → drive; the autopilot drives after `delayS` seconds of the stage clock. */
async function driveTestShort({ page, H, screen }, delayS) {
  await page.bringToFront();
  await page.mouse.move(4, 4); // off the menus: a hovered item takes the focus
  await waitFor('title', async () => (await screen()) === 'title', 120000);
  await key(page, 'Enter'); // "Drive a stage" is the title's default
  await waitFor('stage cards', () => H(() => !!document.querySelector('[data-stage="test-short"]')));
  await page.click('[data-stage="test-short"]');
  await page.mouse.move(4, 4);
  await waitFor('cars', async () => (await screen()) === 'cars');
  await waitFor('a car card focused', () => H(() => !!document.querySelector('[data-car].focused')));
  await key(page, 'Enter');
  await waitFor('drive', async () => (await screenState(H)) === 'drive', 180000);
  if (delayS > 0) await waitFor(`${delayS} s of stage time`, () => H(() => window.__bitrally.stageTimeS), RUN_TIMEOUT_MS).then(() => waitFor('delay', () => H((d) => window.__bitrally.stageTimeS > d, delayS), RUN_TIMEOUT_MS));
  await H(() => window.__bitrally.autopilot(true));
  await waitFor('finish screen', async () => (await screen()) === 'finish', RUN_TIMEOUT_MS);
  return H(() => window.__bitrally.lastResult.timeS);
}

/** The last submission state, or false with the finish line's text (diagnostics in the timeout message). */
const onlineState = (H) => H(() => window.__bitrally.online?.lastView?.state ?? `none: ${document.querySelector('[data-online]')?.textContent}`);

export const specs = [
  {
    name: 'online: two players submit, both times in order on the Leaderboards screen, one races the other\'s ghost; offline run queued and accepted once the server is back',
    async run({ browser, base, out, report }) {
      const dataDir = mkdtempSync(join(tmpdir(), 'bitrally-e2e-server-'));
      const port = await freePort();
      const origin = new URL(base).origin;
      const serverUrl = `http://127.0.0.1:${port}`;
      const url = `${base}?simcap=0.5&scale=2&dev=1&server=${encodeURIComponent(serverUrl)}`;
      let server = startServer(port, dataDir, origin);
      const pages = [];
      try {
        await server.ready;
        const a = await openPage(browser);
        const b = await openPage(browser);
        pages.push(a, b);
        await a.page.goto(url);
        await b.page.goto(url);

        // 1. A's run: accepted with rank 1
        const timeA = await driveTestShort(a, 0);
        await waitFor('A accepted', async () => (await onlineState(a.H)) === 'accepted', 180000);
        const lineA = await a.H(() => document.querySelector('[data-online]')?.textContent);
        if (!/accepted — rank 1/.test(lineA)) throw new Error(`A's finish line: ${lineA}`);
        await a.page.screenshot({ path: join(out, 'online-finish-accepted.png') });

        // 2. server down: B's run is queued
        await stopServer(server);
        const timeB = await driveTestShort(b, 2);
        await waitFor('B offline', async () => (await onlineState(b.H)) === 'offline', 60000);
        const queued = await b.H(() => window.__bitrally.online.pending());
        if (queued !== 1) throw new Error(`expected 1 queued run, found ${queued}`);
        await b.page.screenshot({ path: join(out, 'online-finish-offline.png') });

        // 3. server back on the same port and data: the retry loop sends it
        server = startServer(port, dataDir, origin);
        await server.ready;
        await waitFor('B accepted after the restart', async () => (await onlineState(b.H)) === 'accepted', 180000);
        if ((await b.H(() => window.__bitrally.online.pending())) !== 0) throw new Error('the queue is not empty after the send');
        report.online = { timeA, timeB };
        if (!(timeA < timeB)) throw new Error(`expected A (autopilot from the start) faster than B: ${timeA} vs ${timeB}`);

        // 4. Leaderboards on B: both rows, A first
        const ids = { a: await a.H(() => window.__bitrally.online.playerId()), b: await b.H(() => window.__bitrally.online.playerId()) };
        await b.page.click('[data-a="menu"]');
        await waitFor('title', async () => (await b.screen()) === 'title');
        await b.page.mouse.move(4, 4); // off the menu: a hovered item takes the focus
        for (let i = 0; i < 12 && (await focused(b.H)) !== 'Leaderboards'; i++) await key(b.page, 'ArrowUp');
        if ((await focused(b.H)) !== 'Leaderboards') throw new Error(`title: focused "${await focused(b.H)}", expected Leaderboards`);
        await b.page.screenshot({ path: join(out, 'online-title.png') });
        await key(b.page, 'Enter');
        const rows = await waitFor('two board rows', () => b.H(() => {
          const r = [...document.querySelectorAll('.lb-row[data-player]')].map((e) => ({ id: e.dataset.row, player: e.dataset.player, text: e.textContent }));
          return r.length >= 2 ? r : null;
        }), 60000);
        if (rows[0].player !== ids.a || rows[1].player !== ids.b) throw new Error(`board order: ${JSON.stringify(rows)}`);
        report.online.rows = rows.map((r) => r.text);
        await b.page.screenshot({ path: join(out, 'online-leaderboards.png') });

        // B races A's ghost
        await b.page.click(`.lb-row[data-row="${rows[0].id}"]`);
        await waitFor('drive with the ghost', async () => (await b.screen()) === 'drive', 180000);
        const g0 = await waitFor('ghost active', () => b.H(() => (window.__bitrally.replays?.ghost?.active ? { ...window.__bitrally.replays.ghost } : null)), 120000);
        const ghostOf = await b.H(() => window.__bitrally.online.lastGhost);
        if (g0.entryId !== ghostOf.entryId) throw new Error(`ghost ${g0.entryId} is not the downloaded run ${ghostOf.entryId}`);
        await b.H(() => window.__bitrally.autopilot(true));
        await waitFor('ghost moving', () => b.H((t) => (window.__bitrally.replays.ghost.ghostTick ?? 0) > t + 1000, g0.ghostTick ?? 0), 180000);
        report.online.ghostTick = await b.H(() => window.__bitrally.replays.ghost.ghostTick);
        await b.page.screenshot({ path: join(out, 'online-ghost-race.png') });
        throwPageErrors([a, b], /Failed to load resource|ERR_CONNECTION_REFUSED/);
      } finally {
        await closeSpec(pages, server, dataDir);
      }
    },
  },
];

export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'online-report.json', label: 'online e2e report' });
}
