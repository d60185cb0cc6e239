/**
 * Daily-rally board e2e (issue 21): the real server (`server/main.ts`, PGlite) on a data directory seeded with
 * today's daily-rally runs (tests/e2e/seed-daily-rally.ts: three players with every stage, one without the last).
 * With the virtual gamepad only: Title → Leaderboards, the Board row cycled (left) to "Daily rally <today> UTC",
 * the three classified players in order of their totals (a name with markup shown as text, the unfinished player
 * absent), a row focused with the pad, then View → "Around me" (this page's player has no run: the empty text).
 * Run alone with `npm run test:e2e -- --files daily-board`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { runSpecList, waitFor } from './spec-runner.mjs';
import { closeSpec, freePort, startServer, throwPageErrors } from './server-process.mjs';
import { padPage, padPress, padFocusItem, padAdjust, PAD_BUTTON } from './page-helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Seeds `dataDir` with today's daily-rally runs; the expected classification (names, totals). */
function seed(dataDir, date) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tests/e2e/seed-daily-rally.ts', dataDir, date], { cwd: root, encoding: 'utf8', timeout: 120000 });
  if (r.status !== 0) throw new Error(`seed-daily-rally: exit ${r.status}: ${r.stderr.slice(-800)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const rallyRows = (page) => page.evaluate(() => [...document.querySelectorAll('.lb-rally')].map((e) => ({ name: e.querySelector('[data-rowname]').textContent, text: e.textContent, injected: e.querySelector('fast') !== null })));

export const specs = [
  {
    name: 'online: the Daily rally board lists the classified totals in order, with the gamepad',
    async run({ browser, base, out, report }) {
      const dataDir = mkdtempSync(join(tmpdir(), 'bitrally-e2e-daily-'));
      const date = new Date().toISOString().slice(0, 10);
      const expected = seed(dataDir, date);
      const port = await freePort();
      const server = startServer(port, dataDir, new URL(base).origin);
      const pages = [];
      try {
        await server.ready;
        const p = await padPage(browser);
        pages.push(p);
        await p.page.goto(`${base}?scale=2&server=${encodeURIComponent(`http://127.0.0.1:${port}`)}`);
        await waitFor('title', () => p.page.evaluate(() => window.__bitrally?.screens?.() === 'title'), 120000);
        // the virtual pad starts unplugged (tests/e2e/pad.mjs)
        await p.page.evaluate(() => window.__pad.connect());
        await padFocusItem(p.page, /^Leaderboards$/, 36); // 3 turns of the 12-item menu: a press lost or doubled on a loaded machine still lands
        await padPress(p.page, PAD_BUTTON.a);
        await waitFor('boards loaded', () => p.page.evaluate(() => (document.querySelector('[data-board]')?.textContent ?? '—') !== '—'), 60000);
        await padFocusItem(p.page, /^Board/);
        await padAdjust(p.page, /Daily rally/, PAD_BUTTON.left);
        const board = await p.page.evaluate(() => document.querySelector('[data-board]').textContent);
        if (!board.includes(`Daily rally ${date} UTC`)) throw new Error(`board label: ${board}`);
        const rows = await waitFor('daily rows', async () => {
          const r = await rallyRows(p.page);
          return r.length ? r : null;
        }, 60000);
        const names = rows.map((r) => r.name);
        if (JSON.stringify(names) !== JSON.stringify(expected.map((e) => e.name))) throw new Error(`daily order: ${JSON.stringify(names)}, expected ${JSON.stringify(expected)}`);
        if (rows.some((r) => r.injected)) throw new Error('a name was rendered as markup');
        const head = await p.page.evaluate(() => document.querySelector('[data-rally-head]')?.textContent ?? '');
        if (!/4 stages · 3 classified/.test(head)) throw new Error(`daily head: ${head}`);
        // the rows take the pad's focus (scrolling a long board)
        await padFocusItem(p.page, /Åsa <Fast>/, 4);
        report.dailyBoard = { date, head, rows: rows.map((r) => r.text) };
        await p.page.screenshot({ path: join(out, 'online-daily-board.png') });
        await padFocusItem(p.page, /^View/, 8, PAD_BUTTON.up);
        await padAdjust(p.page, /Around me/, PAD_BUTTON.right);
        await waitFor('around me: empty', () => p.page.evaluate(() => /no verified run on every stage yet/.test(document.querySelector('[data-rows]')?.textContent ?? '')), 60000);
        await p.page.screenshot({ path: join(out, 'online-daily-around.png') });
        throwPageErrors(pages);
      } finally {
        await closeSpec(pages, server, dataDir);
      }
    },
  },
];

export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'daily-board-report.json', label: 'daily board e2e report' });
}
