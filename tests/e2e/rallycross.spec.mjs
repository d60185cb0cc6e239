/**
 * Rallycross e2e (issue 8), same format as game.spec.mjs (`specs`, `runSpecs`); run it alone with
 * `E2E_FILES=rallycross npm run test:e2e`.
 *
 * Title → Rallycross with the virtual pad only; 7 AI opponents, 1 lap; the grid (no two cars inside each other,
 * lights shown, nobody moves before the lights go out); the pad's throttle launches the player's car; the HUD board
 * shows the position and the lap, and the order it shows is the order of progress the race reports; the player's
 * car is handed to the AI autopilot to reach the flag; the results screen lists all 8 cars in race order.
 * A jump start (throttle in the countdown) shows +5 s; Recover (pad RS) mid-race puts the car back on the circuit at
 * rest with +5 s shown, and it drives on.
 * Screenshots: rallycross-menu, rallycross-grid, rallycross-mid, rallycross-joker, rallycross-jump-start,
 * rallycross-recover, rallycross-results (test-results/e2e/).
 */
import { runSpecList } from './spec-runner.mjs';
import { join } from 'node:path';
import { PAD_INIT } from './pad.mjs';

const A = 0, DOWN = 13, LEFT = 14, RIGHT = 15, RT = 7, RS = 11;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function hook(page, key, arg) {
  return page.evaluate(([k, a]) => {
    const h = window.__bitrally;
    if (!h) return undefined;
    const v = h[k];
    return typeof v === 'function' ? v(a) : v;
  }, [key, arg]);
}

async function waitFor(what, fn, timeoutMs = 60000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 800)})`);
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
const focusedText = (page) => page.evaluate(() => document.querySelector('.item.focused')?.textContent ?? '');
async function padFocusItem(page, re, maxPresses = 12) {
  for (let i = 0; i < maxPresses; i++) {
    if (re.test(await focusedText(page))) return;
    await press(page, DOWN);
  }
  const f = await focusedText(page);
  if (!re.test(f)) throw new Error(`pad navigation: wanted an item matching ${re}, focused "${f}"`);
}
/** LEFT/RIGHT on the focused item until its text matches `re`. */
async function padAdjust(page, re, button, maxPresses = 12) {
  for (let i = 0; i < maxPresses; i++) {
    if (re.test(await focusedText(page))) return;
    await press(page, button);
  }
  const f = await focusedText(page);
  if (!re.test(f)) throw new Error(`pad adjust: wanted ${re}, focused item reads "${f}"`);
}

const rx = (page) => hook(page, 'rallycross');

/** The board's order must be the race's order of progress (finished cars first, by time). */
function checkOrder(st, where) {
  const { order, cars } = st;
  for (let k = 1; k < order.length; k++) {
    const a = cars[order[k - 1]], b = cars[order[k]];
    if (a.finishS !== null && b.finishS !== null && a.finishS > b.finishS) throw new Error(`${where}: P${k} finished after P${k + 1}`);
    if (a.finishS === null && b.finishS !== null) throw new Error(`${where}: an unfinished car ahead of a finished one`);
    if (a.finishS === null && b.finishS === null && a.progressM < b.progressM) throw new Error(`${where}: P${k} (${a.name}, ${a.progressM.toFixed(1)} m) behind P${k + 1} (${b.name}, ${b.progressM.toFixed(1)} m)`);
  }
  const me = order.indexOf(st.playerIndex);
  const m = /P(\d+)\/(\d+) · Lap (\d+)\/(\d+)/.exec(st.board ?? '');
  if (!m) throw new Error(`${where}: HUD board does not show position and lap: "${st.board}"`);
  if (+m[2] !== cars.length || +m[4] !== st.laps) throw new Error(`${where}: board "${m[0]}" vs ${cars.length} cars, ${st.laps} laps`);
  // the board as drawn (redrawn every 10 frames): its rows in order, "k. name …", must be the cars sorted by the
  // progress they had when it was drawn, and its "P k" the player's row
  const rows = (st.board ?? '').split('\n').filter((l) => /^\d+\. /.test(l)).map((l) => /^\d+\. (AI \d+|You)/.exec(l)?.[1]);
  const snap = st.boardSnapshot;
  if (rows.length !== cars.length || rows.some((r, k) => r !== snap[k]?.name)) throw new Error(`${where}: board rows ${rows.join(',')} vs drawn order ${snap.map((x) => x.name).join(',')}`);
  for (let k = 1; k < snap.length; k++) {
    const a = snap[k - 1], b = snap[k];
    if (a.finishS === null && b.finishS === null && a.progressM < b.progressM) throw new Error(`${where}: board row ${k} (${a.name}, ${a.progressM.toFixed(1)} m) above row ${k + 1} (${b.name}, ${b.progressM.toFixed(1)} m)`);
    if (a.finishS === null && b.finishS !== null) throw new Error(`${where}: board lists an unfinished car above a finished one`);
  }
  if (rows[+m[1] - 1] !== 'You') throw new Error(`${where}: board says P${m[1]} but the player's row is ${rows.indexOf('You') + 1}`);
  return { boardPos: +m[1], pos: me + 1, lap: +m[3] };
}

export const specs = [
  {
    name: 'rallycross: pad menu → 7 AI rivals, 1 lap; grid, lights, pad launch, HUD position/lap consistent with progress, finish, results',
    async run({ browser, base, out, report }) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      const errors = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.addInitScript(PAD_INIT);
      try {
        // half resolution; a frame may simulate up to 0.5 s (SwiftShader renders a few frames per second)
        await page.goto(base + '?scale=2&simcap=0.5');
        await waitScreen(page, 'title', 120000);
        await page.evaluate(() => window.__pad.connect());
        await padFocusItem(page, /Rallycross/);
        await press(page, A);
        await waitScreen(page, 'rallycross');
        await waitFor('circuit listed', async () => !/loading/.test(await page.evaluate(() => document.querySelector('[data-k="circuit"]')?.textContent ?? 'loading')));
        await padFocusItem(page, /AI opponents/);
        await padAdjust(page, /AI opponents: 7/, RIGHT);
        await padFocusItem(page, /Laps/);
        await padAdjust(page, /Laps: 1$/, LEFT);
        await padFocusItem(page, /Start the race/);
        await page.screenshot({ path: join(out, 'rallycross-menu.png') });
        await press(page, A);
        await waitScreen(page, 'rallycross-race');
        const g = await waitFor('race on the grid', async () => {
          const s = await rx(page);
          return s && s.phase === 'countdown' && s.board ? s : null;
        }, 120000);
        if (g.cars.length !== 8) throw new Error(`expected 8 cars on the grid, found ${g.cars.length}`);
        // no two cars inside each other: centres ≥ 4 m apart (cars ≈ 1.8 m wide, 4 m long; grid 4.8 m × 4 m stagger)
        for (let i = 0; i < 8; i++)
          for (let j = i + 1; j < 8; j++) {
            const d = Math.hypot(g.cars[i].x - g.cars[j].x, g.cars[i].z - g.cars[j].z);
            if (d < 4) throw new Error(`grid: ${g.cars[i].name} and ${g.cars[j].name} ${d.toFixed(2)} m apart`);
          }
        await page.screenshot({ path: join(out, 'rallycross-grid.png') });
        const lights = await page.evaluate(() => document.querySelector('[data-t="lights"]')?.className ?? document.querySelector('.lights')?.outerHTML ?? null);
        report.rallycrossGridLights = lights;
        // held on the brakes for the countdown: a later look during the countdown finds every car where it was
        const g2 = await rx(page);
        if (g2.phase === 'countdown') {
          const crept = g.cars.map((c, i) => Math.abs(g2.cars[i].progressM - c.progressM)).filter((d) => d > 0.1);
          if (crept.length) throw new Error(`cars crept on the grid during the countdown: ${crept.join(', ')} m`);
        }
        // lights out, then the pad's throttle launches the player's car
        const held = await waitFor('lights out', async () => {
          const s = await rx(page);
          return s && s.phase === 'racing' ? s : null;
        }, 120000);
        await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), RT);
        const p0 = held.cars[held.playerIndex].progressM;
        const launched = await waitFor('player launched (3 s of race clock)', async () => {
          const s = await rx(page);
          return s && s.raceTimeS >= 3 ? s : null;
        }, 120000);
        const pl = launched.cars[launched.playerIndex];
        if (!(pl.progressM - p0 > 5 && pl.speedMS > 5)) throw new Error(`pad throttle did not launch the car: ${(pl.progressM - p0).toFixed(1)} m, ${pl.speedMS.toFixed(1)} m/s`);
        report.rallycrossLaunch = { movedM: pl.progressM - p0, speedMS: pl.speedMS };
        await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), RT);
        // the autopilot takes the player's car to the flag
        if (!(await hook(page, 'rallycrossAutopilot', true))) throw new Error('rallycross autopilot did not engage');
        const seen = new Set();
        let positionsChanged = false;
        let lastOrder = null;
        let midShot = false;
        let jokerShot = false;
        const jokerLines = new Set();
        // the ground under the player's car while it passes the joker gate (the middle of the joker road)
        const gateSurfaces = new Set();
        await waitFor('player finished (results screen)', async () => {
          const scr = await hook(page, 'screens');
          if (scr === 'rallycross-results') return true;
          const s = await rx(page);
          if (!s || s.phase === 'countdown') return false;
          const c = checkOrder(s, `race clock ${s.raceTimeS.toFixed(1)} s`);
          seen.add(c.boardPos);
          const jl = /Joker lap: [^\n·]*/.exec(s.board)?.[0]?.trim();
          if (jl) jokerLines.add(jl);
          const o = s.order.join(',');
          if (lastOrder !== null && o !== lastOrder) positionsChanged = true;
          lastOrder = o;
          if (s.playerNearJokerGate) gateSurfaces.add(s.playerSurface);
          if (!jokerShot && s.playerOnJoker) {
            jokerShot = true;
            await page.screenshot({ path: join(out, 'rallycross-joker.png') });
          }
          if (!midShot && s.raceTimeS > 14) {
            midShot = true;
            await page.screenshot({ path: join(out, 'rallycross-mid.png') });
            report.rallycrossMid = { raceTimeS: s.raceTimeS, board: s.board };
          }
          return false;
        }, 420000);
        if (!positionsChanged) throw new Error('positions never changed during the race');
        // the HUD showed the joker as not taken, then taken (the autopilot takes it on lap 1)
        if (!jokerLines.has('Joker lap: not taken yet') || !jokerLines.has('Joker lap: taken ✓')) throw new Error(`HUD joker status seen: ${[...jokerLines].join(' | ')}`);
        await sleep(300);
        await page.screenshot({ path: join(out, 'rallycross-results.png') });
        const fin = await rx(page);
        const me = fin.cars[fin.playerIndex];
        if (me.finishS === null || !(me.finishS > 10)) throw new Error(`player finish time ${me.finishS}`);
        if (me.jokers !== 1 || me.penaltyS !== 0 || me.jumpStart) throw new Error(`player: jokers ${me.jokers}, penalty ${me.penaltyS} s, jump start ${me.jumpStart}`);
        // the joker is a surfaced road: drawn (its ribbon), and the car crossed its gate on gravel, not grass
        if (!(fin.jokerRoadVertices > 0)) throw new Error('the joker road ribbon is not drawn');
        if (gateSurfaces.size > 0 && [...gateSurfaces].some((g) => g !== 'gravel')) throw new Error(`ground at the joker gate: ${[...gateSurfaces].join(', ')}`);
        report.rallycrossJoker = { ribbonVertices: fin.jokerRoadVertices, gateSurfaces: [...gateSurfaces] };
        const rows = await page.evaluate(() => [...document.querySelectorAll('[data-standing]')].map((e) => e.textContent));
        if (rows.length !== 8) throw new Error(`results screen shows ${rows.length} rows, expected 8: ${rows.join(' | ')}`);
        const mine = rows.findIndex((r) => /You/.test(r));
        const fmt = (x) => `${Math.floor(x / 60)}:${(x - 60 * Math.floor(x / 60)).toFixed(3).padStart(6, '0')}`;
        if (mine < 0 || !rows[mine].includes(fmt(me.finishS).slice(0, 7))) throw new Error(`results row for the player: "${rows[mine]}" (finish ${me.finishS})`);
        report.rallycross = { playerFinishS: me.finishS, boardPositionsSeen: [...seen].sort(), results: rows };
        if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
      } finally {
        await context.close();
      }
    },
  },
];

/**
 * The HUD beside the timer: lap n/N, the joker (not taken yet), the penalty named, and a timer that includes it
 * (race clock + penalty ≥ the penalty while the clock has not run far).
 */
async function checkRaceHud(page, penaltyS, laps) {
  const hud = await waitFor('race HUD', () => page.evaluate(() => {
    const t = (k) => document.querySelector(`.hud [data-t="${k}"]`)?.textContent ?? '';
    return t('race') ? { race: t('race'), penalty: t('penalty'), timer: t('timer') } : null;
  }), 20000);
  if (!hud.race.includes(`LAP 1/${laps}`) || !/JOKER due/.test(hud.race)) throw new Error(`race HUD shows "${hud.race}", expected LAP 1/${laps} and JOKER due`);
  if (!hud.penalty.includes(`+${penaltyS} s`)) throw new Error(`penalty line "${hud.penalty}"`);
  const [m, sec] = hud.timer.split(':').map(Number);
  if (!(m * 60 + sec >= penaltyS)) throw new Error(`timer ${hud.timer} does not include the ${penaltyS} s penalty`);
  return hud;
}

specs.push({
  name: 'rallycross: throttle before the lights go out is a jump start: +5 s shown in the HUD (toast, board, penalty-inclusive timer), lap and joker beside the timer',
  async run({ browser, base, out, report }) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript(PAD_INIT);
    try {
      // simcap 0.1 (the default): the 4 s countdown takes many frames, so the pad's throttle lands inside it
      await page.goto(base + '?scale=2');
      await waitScreen(page, 'title', 120000);
      await page.evaluate(() => window.__pad.connect());
      await padFocusItem(page, /Rallycross/);
      await press(page, A);
      await waitScreen(page, 'rallycross');
      await padFocusItem(page, /AI opponents/);
      await padAdjust(page, /AI opponents: 1$/, LEFT);
      await padFocusItem(page, /Start the race/);
      await press(page, A);
      await waitFor('countdown', async () => (await rx(page))?.phase === 'countdown', 120000);
      await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), RT);
      const s = await waitFor('jump start flagged', async () => {
        const st = await rx(page);
        return st && st.cars[st.playerIndex].jumpStart ? st : null;
      }, 120000);
      if (s.phase !== 'countdown') throw new Error(`jump start flagged in phase ${s.phase}`);
      const me = s.cars[s.playerIndex];
      if (me.penaltyS !== 5) throw new Error(`jump start penalty ${me.penaltyS} s, expected 5 s`);
      const shown = await waitFor('jump start in the HUD', async () => {
        const st = await rx(page);
        return st && /Jump start! \+5 s/.test(st.toast ?? '') && /jump start \+5 s/.test(st.board) ? st : null;
      }, 60000);
      await page.screenshot({ path: join(out, 'rallycross-jump-start.png') });
      report.rallycrossJumpStart = { toast: shown.toast, board: shown.board.split('\n')[1], hud: await checkRaceHud(page, 5, shown.laps) };
      await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), RT);
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
    } finally {
      await context.close();
    }
  },
});

specs.push({
  name: 'rallycross: Recover (pad RS) mid-race puts the car back on the circuit at rest, +5 s shown in the HUD (toast and board)',
  async run({ browser, base, out, report }) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript(PAD_INIT);
    try {
      await page.goto(base + '?scale=2&simcap=0.5');
      await waitScreen(page, 'title', 120000);
      await page.evaluate(() => window.__pad.connect());
      await padFocusItem(page, /Rallycross/);
      await press(page, A);
      await waitScreen(page, 'rallycross');
      await padFocusItem(page, /AI opponents/);
      await padAdjust(page, /AI opponents: 1$/, LEFT);
      await padFocusItem(page, /Start the race/);
      await press(page, A);
      await waitFor('lights out', async () => (await rx(page))?.phase === 'racing', 120000);
      // drive 25 m on the pad's throttle, then let go and press Recover (RS, the default binding)
      await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), RT);
      const moving = await waitFor('player 25 m down the road', async () => {
        const s = await rx(page);
        return s && s.cars[s.playerIndex].progressM > 25 ? s : null;
      }, 120000);
      await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), RT);
      const before = moving.cars[moving.playerIndex];
      if (before.penaltyS !== 0) throw new Error(`penalty before Recover: ${before.penaltyS} s`);
      await press(page, RS);
      const after = await waitFor('Recover applied', async () => {
        const s = await rx(page);
        return s && s.cars[s.playerIndex].penaltyS > 0 ? s : null;
      }, 60000);
      const me = after.cars[after.playerIndex];
      if (me.penaltyS !== 5) throw new Error(`Recover penalty ${me.penaltyS} s, expected 5 s`);
      // back on the racing line 5 m behind where it was, at rest (it may have coasted on after the first read)
      if (!(me.speedMS < 1)) throw new Error(`after Recover the car moves at ${me.speedMS.toFixed(2)} m/s`);
      if (!(me.progressM < before.progressM + 15 && me.progressM > before.progressM - 10)) {
        throw new Error(`after Recover the car is at ${me.progressM.toFixed(1)} m of progress, was ${before.progressM.toFixed(1)} m`);
      }
      const shown = await waitFor('Recover in the HUD', async () => {
        const st = await rx(page);
        return st && /Recovered \+5 s/.test(st.toast ?? '') && /\+5 s/.test(st.board) ? st : null;
      }, 60000);
      await page.screenshot({ path: join(out, 'rallycross-recover.png') });
      report.rallycrossRecover = { toast: shown.toast, progressBeforeM: before.progressM, progressAfterM: me.progressM, speedAfterMS: me.speedMS };
      // and the race goes on: the pad's throttle drives the recovered car away
      await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 1 } }), RT);
      await waitFor('recovered car drives on', async () => {
        const s = await rx(page);
        return s && s.cars[s.playerIndex].progressM > me.progressM + 5 ? s : null;
      }, 120000);
      await page.evaluate((b) => window.__pad.set({ buttons: { [b]: 0 } }), RT);
      if (errors.length) throw new Error(`console errors: ${errors.join(' | ')}`);
    } finally {
      await context.close();
    }
  },
});

/** This file's specs in the shared browser (tests/e2e/spec-runner.mjs). */
export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'report-rallycross.json', label: 'e2e rallycross report' });
}
