/**
 * Rally mode e2e (issue 20), same format as the other spec files (`specs`, `runSpecs`); run it alone with
 * `npm run test:e2e -- --files rally-mode`.
 *
 * With the virtual pad only: title → Rally → New rally (URL flag dev=1: two stages and the test tracks), 2 stages
 * picked (test-short twice), a service park after every stage; SS1 driven to the finish by the AI autopilot (the
 * car's driver; the pad drives every menu), the finish screen goes on to the rally standings (stage classification
 * with the AI rivals' times from the worker), the service park (setup change: 5 min of the 30 min budget, no
 * penalty), SS2 started; the page is reloaded mid-stage and the rally resumed from the title (Rally → Resume): SS2
 * starts again with the car's damage, is driven to the finish, and the final classification shows the player's
 * overall time = Σ stage times + penalties beside the rivals'. Each finished stage run is saved in the replay library.
 * Screenshots: rally-title, rally-new, rally-stage-start, rally-finish, rally-standings, rally-service, rally-resume,
 * rally-final (test-results/e2e/).
 */
import { runSpecList } from './spec-runner.mjs';
import { hook, shot, waitScreen } from './game.spec.mjs';
import { focusedText, padAdjust, padFocusItem, padPage, padPress as press, sleep, waitFor } from './page-helpers.mjs';

const A = 0, LEFT = 14;
const rally = (page) => hook(page, 'rally');

/** On the stage start screen: wait for the stage to be ready, start it, hand the car to the autopilot, reach the finish. */
async function driveStage(page, out, shotName) {
  await waitScreen(page, 'rally-stage');
  await waitFor('stage ready', () => page.evaluate(() => document.querySelector('[data-a="go"]')?.dataset.ready === '1'), 180000);
  if (shotName) await shot(page, out, shotName);
  await padFocusItem(page, /Start the stage/);
  await press(page, A);
  await waitScreen(page, 'drive', 180000);
  if (!(await page.evaluate(() => window.__bitrally.autopilot(true)))) throw new Error('autopilot did not engage');
}

/** Σ stage times + service penalties of the player, from the rally state the page saved. */
function expectedTotal(st) {
  return st.results.reduce((s, r) => s + r.timeS, 0) + st.services.reduce((s, v) => s + v.penaltyS, 0);
}

async function newTwoStageRally(page, out) {
  await padFocusItem(page, /^Rally$/);
  await press(page, A);
  await waitScreen(page, 'rally');
  await padFocusItem(page, /New rally/);
  await press(page, A);
  await waitScreen(page, 'rally-new');
  await waitFor('stage rows', () => page.evaluate(() => document.querySelectorAll('[data-stages] .item').length >= 3));
  await padFocusItem(page, /^Stages/);
  await padAdjust(page, /^Stages ‹ 2 ›/, LEFT);
  await padFocusItem(page, /^Service park every/);
  await padAdjust(page, /every ‹ 1 stage ›/, LEFT);
  for (const ss of ['SS1', 'SS2']) {
    await padFocusItem(page, new RegExp(`^${ss} `));
    await padAdjust(page, /Test short/, LEFT);
  }
  await shot(page, out, 'rally-new');
  await padFocusItem(page, /Start the rally/);
  await press(page, A);
}

async function firstStageAndService(page, out, report) {
  await driveStage(page, out, 'rally-stage-start');
  await waitScreen(page, 'finish', 420000);
  await sleep(300);
  await shot(page, out, 'rally-finish');
  if ((await focusedText(page)) !== 'Rally standings and continue') throw new Error(`finish screen focus "${await focusedText(page)}"`);
  if (await page.evaluate(() => !!document.querySelector('[data-a="retry"], [data-a="next"]'))) throw new Error('a rally stage offers Retry / Next stage');
  await waitFor('SS1 replay saved in the library', () => page.evaluate(() => window.__bitrally.replays?.lastSavedId ?? null), 60000);
  await press(page, A);
  await waitScreen(page, 'rally-standings');
  await waitFor('SS1 classification with rival times', () => page.evaluate(() => document.querySelectorAll('[data-stage-table] tr').length === 6), 240000);
  await shot(page, out, 'rally-standings');
  const st1 = await rally(page);
  if (st1.next.kind !== 'service') throw new Error(`after SS1 the rally is at ${JSON.stringify(st1.next)}, expected the service park`);
  report.rallySs1 = { timeS: st1.state.results[0].timeS, rivals: st1.state.rivalTimes[0], damage: st1.state.damage };
  await padFocusItem(page, /Go to the service park/);
  await press(page, A);
  await waitScreen(page, 'rally-service');
  await padFocusItem(page, /Setup change/);
  await press(page, A);
  const used = await page.evaluate(() => document.querySelector('[data-used]')?.textContent);
  if (used !== '5' && st1.state.results[0].damageOut.crushFrontM < 0.005) throw new Error(`service: setup change shows ${used} min used, expected 5`);
  await shot(page, out, 'rally-service');
  await padFocusItem(page, /Check out of service/);
  await press(page, A);
}

export const specs = [
  {
    name: 'rally: pad only — 2-stage rally, autopilot drives, service park, reload mid-stage and resume, final classification',
    async run({ browser, base, out, report }) {
      const { context, page, errors } = await padPage(browser);
      try {
        await page.goto(base + '?dev=1&scale=4&simcap=1');
        await waitScreen(page, 'title', 120000);
        await page.evaluate(() => window.__pad.connect());
        await shot(page, out, 'rally-title');
        await newTwoStageRally(page, out);
        await firstStageAndService(page, out, report);
        // SS2 starts; reload mid-stage
        await driveStage(page, out, null);
        await waitFor('SS2 under way', async () => (await hook(page, 'stageTimeS')) > 3, 120000);
        const before = await rally(page);
        await page.reload();
        await waitScreen(page, 'title', 120000);
        await page.evaluate(() => window.__pad.connect());
        await padFocusItem(page, /^Rally$/);
        await press(page, A);
        await waitScreen(page, 'rally');
        await waitFor('Resume offered', async () => /Resume: .*next: SS2/.test(await focusedText(page)), 30000);
        await shot(page, out, 'rally-resume');
        const after = await rally(page);
        // what was saved before the reload comes back (SS2's rival times may have arrived in between: not compared)
        const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
        const saved = (st) => JSON.stringify(sorted({ ...st, rivalTimes: st.rivalTimes.slice(0, 1) }));
        if (saved(after.state) !== saved(before.state)) throw new Error(`the rally read back after the reload differs from the one saved before it: ${saved(after.state)} vs ${saved(before.state)}`);
        await press(page, A);
        await driveStage(page, out, null);
        await waitScreen(page, 'finish', 420000);
        await press(page, A);
        await waitScreen(page, 'rally-standings');
        await waitFor('final classification', () => page.evaluate(() => document.querySelectorAll('[data-overall] tr').length === 6 && document.querySelectorAll('[data-stage-table] tr').length === 6), 240000);
        await sleep(300);
        await shot(page, out, 'rally-final');
        const fin = await rally(page);
        if (fin.next.kind !== 'finished') throw new Error(`rally not finished: ${JSON.stringify(fin.next)}`);
        const me = fin.overall.find((r) => r.isPlayer);
        const want = expectedTotal(fin.state);
        if (Math.abs(me.totalS - want) > 1e-9) throw new Error(`overall ${me.totalS} ≠ Σ stage times + penalties ${want}`);
        // damage carried: SS2 started with the damage SS1 left, less what the service repaired (nothing chosen)
        if (JSON.stringify(fin.state.results[1].damageIn) !== JSON.stringify(fin.state.results[0].damageOut)) throw new Error('SS2 did not start with the damage SS1 left');
        const shown = await page.evaluate(() => document.querySelector('[data-overall-row="me"] [data-total]')?.textContent ?? '');
        const fmt = (x) => `${Math.floor(x / 60)}:${(x - 60 * Math.floor(x / 60)).toFixed(3).padStart(6, '0')}`;
        if (shown !== fmt(want)) throw new Error(`final classification shows ${shown} for the player, expected ${fmt(want)}`);
        report.rallyFinal = { overall: fin.overall, services: fin.state.services };
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'report-rally-mode.json', label: 'e2e rally report' });
}
