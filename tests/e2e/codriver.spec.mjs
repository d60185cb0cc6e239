/**
 * Co-driver e2e (issue #17): with the virtual gamepad on shipped stages, the pace-note strip shows the first
 * note before the first corner, and the voice plays the clips of the calls the co-driver made, in order
 * (window.__bitrally.codriver(): the calls said with their words, the sprite ids the voice played, the notes
 * on the strip). Screenshots of the strip on gravel (forest-gravel) and snow (snow-ridge).
 */
import { runSpecList } from './spec-runner.mjs';
import { FAST, hook, newPage, openContexts, padToStage, shot, waitFor } from './game.spec.mjs';

const codriver = (page) => page.evaluate(() => window.__bitrally?.codriver?.() ?? null);

/** The first `n` played ids must be the words of the calls said so far, in order. */
function expectPlayedMatchesSaid(r, calls) {
  const words = r.said.slice(0, calls).flatMap((c) => c.words);
  const played = r.played.slice(0, words.length);
  if (JSON.stringify(played) !== JSON.stringify(words))
    throw new Error(`voice played ${JSON.stringify(played)}, the calls said ${JSON.stringify(words)}`);
}

/** A fresh page on `stageId` by pad, once the co-driver has made its line call and filled the strip. */
async function onTheLine(browser, base, stageId) {
  const { page, errors } = await newPage(browser);
  await page.goto(base + FAST);
  await padToStage(page, stageId);
  const r = await waitFor(page, 'the line call and the strip', async () => {
    const x = await codriver(page);
    return x && x.said.length > 0 && x.strip.length > 0 ? x : null;
  });
  // on the start line, before the first corner: the strip starts at the first note
  if (r.strip[0] !== '0') throw new Error(`strip starts at note ${r.strip[0]}, wanted the first note (0): ${JSON.stringify(r)}`);
  return { page, errors, r };
}

export const specs = [
  {
    name: 'codriver: forest-gravel — strip shows the first note on the line, the voice plays its clips, the next call follows on the move',
    async run({ browser, base, out, report }) {
      const { page, errors } = await onTheLine(browser, base, 'forest-gravel');
      const pos0 = await hook(page, 'carPos');
      const label = await page.evaluate(() => document.querySelector('[data-t="pacenotes"] .pn-card')?.dataset.label ?? null);
      if (!label) throw new Error('no pace-note card on the HUD');
      const r1 = await waitFor(page, 'the line call played', async () => {
        const r = await codriver(page);
        return r.played.length >= r.said[0].words.length ? r : null;
      }, 60000);
      expectPlayedMatchesSaid(r1, 1);
      await shot(page, out, 'codriver-strip-gravel');
      // drive on (the autopilot holds the pad's place): the next call is made and played
      if (!(await page.evaluate(() => window.__bitrally.autopilot(true)))) throw new Error('autopilot did not engage');
      const r2 = await waitFor(page, 'a second call played', async () => {
        const r = await codriver(page);
        const n = r.said.slice(0, 2).reduce((k, c) => k + c.words.length, 0);
        return r.said.length >= 2 && r.played.length >= n ? r : null;
      }, 240000);
      expectPlayedMatchesSaid(r2, 2);
      await shot(page, out, 'codriver-strip-gravel-driving');
      // a chevron board in view: the car 25–70 m before a slow corner
      const near = await waitFor(page, 'a slow corner ahead', async () => {
        const r = await codriver(page);
        const d = r.boardsAtM.map((m) => m - r.progressM).find((x) => x > 25 && x < 70);
        return d === undefined ? null : { d, boards: r.boardsAtM.length };
      }, 240000);
      await shot(page, out, 'codriver-board');
      report.codriverGravel = { firstCard: label, startPos: pos0, said: r2.said.slice(0, 2), played: r2.played.slice(0, 12), boardAheadM: near };
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
    },
  },
  {
    name: 'codriver: snow-ridge — the strip reads on snow',
    async run({ browser, base, out, report }) {
      const { page, errors, r } = await onTheLine(browser, base, 'snow-ridge');
      const box = await page.evaluate(() => {
        const b = document.querySelector('[data-t="pacenotes"] .pn-card')?.getBoundingClientRect();
        return b ? { x: b.x, y: b.y, w: b.width, h: b.height } : null;
      });
      if (!box || box.w < 40 || box.h < 60) throw new Error(`pace-note card too small or missing: ${JSON.stringify(box)}`);
      await shot(page, out, 'codriver-strip-snow');
      report.codriverSnow = { strip: r.strip, said: r.said.slice(0, 1), card: box };
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'codriver-report.json', label: 'co-driver e2e',
    afterEach: async () => {
      for (const c of openContexts) await c.close().catch(() => undefined);
      openContexts.clear();
    },
  });
}
