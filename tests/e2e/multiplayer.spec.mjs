/**
 * Multiplayer e2e spec (issue 22, "Must show"): the real BitRally server with rooms (a free loopback port) and two
 * Chromium pages, each with its own virtual gamepad.
 *  1. page A: title → Multiplayer (pad) → stage "Test short" → Create room; the lobby shows the room's code;
 *  2. page B: title → Multiplayer: its room list shows A's room (code, 1/32, open); the code typed into the join
 *     code → Join; both lobbies list both seats;
 *  3. both press Ready (pad A): the countdown runs on the server clock, the drive starts at the room's 'go';
 *  4. grid slots 0 and 1 start side by side (slot 0 on the left of the road): A steers right, B left, both on
 *     the throttle, until they touch;
 *  5. both pages' collision logs hold the same impulse number at the same contact tick, with impulses equal and
 *     opposite (the room sends one response to both cars: J on B = −J on A, to 1e-9 N·s), naming each other;
 *     every rewound impulse was one smoothed (or snapped) correction of the drawn car;
 *  6. (second spec, "multiplayer results") after the start B retires (pad B: the pause menu, Retire): its results screen lists B
 *     "DNF · retired" (its own row marked) and A still racing; then A retires: the room's final results reach
 *     both pages; A goes back to the title with the pad.
 *  7. (third spec) a rallycross race room joined from the list: B opens the setup first (focus on Back); A
 *     switches the room kind to "Rallycross race", creates; A's room appears in B's live list with B's focus still
 *     on Back; B's focus on A's room stays there while another room appears and vanishes; B joins A's room with
 *     the pad and lands in the same lobby; both ready, both drive on the circuit from the rallycross grid (slot 0
 *     ahead of slot 1), each sees the other car move. A chose 1 lap (pad), both lobbies show it; Start opens A's
 *     pause menu over its running car (its ticks go on), B resumes; then both cars are driven by the game's AI
 *     driver (test hook) to the flag, B recovers once with the pad's Recover: B's HUD shows LAP 1/1, the joker and
 *     the 5 s penalty; both results screens show the same server times, ranked, 1/1 laps, +5 s on B's row only,
 *     and B's own race clock agrees with the room's time.
 * Run alone with `npm run test:e2e -- --files multiplayer` (add the filter `results` for the second spec only).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSpecList, waitFor } from './spec-runner.mjs';
import { closeSpec, freePort, startServer, throwPageErrors } from './server-process.mjs';
import { padPage, padPress, padFocusItem, padAdjust, PAD_BUTTON, frames } from './page-helpers.mjs';
import { RoomClient } from '../../src/net/room-client.ts';

/** Standard-mapping pad: left stick x (steer), right trigger (throttle). */
const STICK_X = 0;
const RT = 7;
/** Stick deflection toward the other car and throttle while closing in (moderate: they start ~1.4 m apart). */
const STEER_IN = 0.55;
const THROTTLE = 0.6;
/** Start: the drive's pause menu. */
const START = 9;
/** Right stick button: Recover (the binding the offline drive uses). */
const RS = 11;
/** The room's recovery penalty, s (src/systems/sim/vehicle/recovery.ts RECOVER_PENALTY_S). */
const RECOVER_PENALTY_S = 5;
/** The sim step, s (DEFAULT_DT). */
const SIM_DT_S = 0.002;
/** One lap of the BitRing by the AI takes about 40 s of race clock; a loaded machine draws it slower. */
const FINISH_TIMEOUT_MS = 300_000;
/** Collisions on a loaded software renderer can take a while to reach both logs. */
const CONTACT_TIMEOUT_MS = 240_000;

async function openPadPage(browser, url) {
  const p = await padPage(browser);
  p.H = (fn, arg) => p.page.evaluate(fn, arg);
  p.screen = () => p.H(() => window.__bitrally?.screens?.());
  await p.page.goto(url);
  await p.H(() => window.__pad.connect());
  await waitFor('title', async () => (await p.screen()) === 'title', 180000);
  await p.page.mouse.move(4, 4); // off the menus: a hovered item takes the focus
  return p;
}

/** Title → Multiplayer (pad). */
async function openMultiplayer(p, shot) {
  await padFocusItem(p.page, /^Multiplayer$/);
  if (shot) await p.page.screenshot({ path: shot });
  await padPress(p.page, PAD_BUTTON.a);
  await waitFor('multiplayer setup', () => p.H(() => !!document.querySelector('[data-k="create"]')), 120000);
  await waitFor('stages listed', () => p.H(() => !/loading/.test(document.querySelector('[data-k="stage"]')?.textContent ?? 'loading')));
}

const mp = (p) => p.H(() => window.__bitrally.multiplayer.state());

/** The results table as the page shows it: slot, status, own-row mark and time text per row. */
const shownResults = (p) => p.H(() => [...document.querySelectorAll('[data-mp-results] tr[data-slot]')].map((tr) => ({
  slot: Number(tr.dataset.slot), status: tr.dataset.status, me: tr.classList.contains('mp-me'), time: tr.querySelector('[data-time]').textContent,
})));

/** B on the pad opens the drive's pause menu (the car runs on); Retire ends this car's race (DNF). */
async function retireWithPad(p) {
  await padPress(p.page, PAD_BUTTON.b);
  await waitFor('pause menu', async () => (await p.screen()) === 'multiplayer-pause', 30000);
  await padFocusItem(p.page, /^Retire/);
  await padPress(p.page, PAD_BUTTON.a);
}

/** Step 6: B retires, then A (pause menu → Retire); both pages show the room's final results; A goes back to the title (pad). */
async function retireBoth(a, b, out) {
  await retireWithPad(b);
  await waitFor('B on its results', async () => (await b.screen()) === 'multiplayer-results', 60000);
  await waitFor('B sees itself retired, A racing', async () => {
    const rows = await shownResults(b);
    return rows.length === 2 && rows[0].slot === 0 && rows[0].status === 'racing' && !rows[0].me && rows[1].slot === 1 && rows[1].status === 'dnf' && rows[1].me && rows[1].time === 'DNF · retired';
  }, 30000, 200);
  await retireWithPad(a);
  for (const p of [a, b]) await waitFor('final results', () => p.H(() => window.__bitrally.multiplayer.results()?.final === true && /Final/.test(document.querySelector('[data-mp-results-status]')?.textContent ?? '')), 60000, 200);
  const final = { a: await shownResults(a), b: await shownResults(b) };
  if (JSON.stringify(final.a.map((r) => [r.slot, r.status, r.time])) !== JSON.stringify(final.b.map((r) => [r.slot, r.status, r.time]))) throw new Error(`final results differ: ${JSON.stringify(final)}`);
  if (!final.a.every((r) => r.status === 'dnf') || final.a.find((r) => r.me)?.slot !== 0) throw new Error(`A's final results: ${JSON.stringify(final.a)}`);
  await a.page.screenshot({ path: join(out, 'multiplayer-results.png') });
  await padPress(a.page, PAD_BUTTON.a);
  await waitFor('A back on the title', async () => (await a.screen()) === 'title', 30000);
  return final;
}

/** Steps 1–3: A creates a room on Test short, B joins by its code, both ready; resolves after the room's 'go'. */
async function seatTwoPages(a, b, out, shots) {
  // 1. A creates a stage-together room on Test short
  await openMultiplayer(a, shots ? join(out, 'multiplayer-title.png') : undefined);
  await padFocusItem(a.page, /^Stage:/);
  await padAdjust(a.page, /Test short/, PAD_BUTTON.right);
  await padFocusItem(a.page, /^Create room$/);
  await padPress(a.page, PAD_BUTTON.a);
  await waitFor('A in the lobby', async () => (await a.screen()) === 'multiplayer-lobby', 60000);
  const code = await a.H(() => window.__bitrally.multiplayer.seat().code);
  const shown = await a.H(() => document.querySelector('[data-mp-code]')?.textContent);
  if (shown !== code) throw new Error(`lobby shows code "${shown}", the room's is ${code}`);

  // 2. B's room list shows A's room; B joins by the code (typed into the focused code item), Join with the pad
  await openMultiplayer(b);
  const item = await waitFor("A's room in B's list", () => b.H((c) => document.querySelector(`[data-room="${c}"]`)?.textContent ?? null, code), 30000);
  if (!/Stage together · Test short · 1\/32 · open/.test(item)) throw new Error(`B's room list item: "${item}"`);
  if (shots) await b.page.screenshot({ path: join(out, 'multiplayer-rooms.png') });
  await padFocusItem(b.page, /^Join code:/);
  await b.page.keyboard.type(code);
  await frames(b.page, 2);
  const typed = await b.H(() => document.querySelector('[data-k="code"]').textContent);
  if (!typed.endsWith(code)) throw new Error(`code item: "${typed}", expected ${code}`);
  await padFocusItem(b.page, /^Join$/);
  await padPress(b.page, PAD_BUTTON.a);
  await waitFor('B in the lobby', async () => (await b.screen()) === 'multiplayer-lobby', 60000);
  for (const p of [a, b]) await waitFor('two seats listed', () => p.H(() => document.querySelectorAll('[data-mp-seats] tr[data-slot]').length === 2));
  const seats = { a: await a.H(() => window.__bitrally.multiplayer.seat()), b: await b.H(() => window.__bitrally.multiplayer.seat()) };
  if (seats.a.slot !== 0 || seats.b.slot !== 1 || seats.b.code !== code) throw new Error(`seats: ${JSON.stringify(seats)}`);
  if (shots) await a.page.screenshot({ path: join(out, 'multiplayer-lobby.png') });

  // 3. both ready (the lobby's default item): countdown, then the drive from the room's 'go'
  for (const p of [a, b]) await padPress(p.page, PAD_BUTTON.a);
  for (const p of [a, b]) await waitFor('drive started', async () => (await mp(p))?.started === true, 180000);
  if (shots) await b.page.screenshot({ path: join(out, 'multiplayer-start.png') });
  return { code, seats };
}

/** The real server and two pad pages on it; `body` runs with them, then everything is closed. */
async function withTwoPages(browser, base, body) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bitrally-e2e-mp-'));
  const port = await freePort();
  const server = startServer(port, dataDir, new URL(base).origin);
  const url = `${base}?simcap=1&scale=4&server=${encodeURIComponent(`http://127.0.0.1:${port}`)}`;
  const pages = [];
  try {
    await server.ready;
    const a = await openPadPage(browser, url);
    pages.push(a);
    const b = await openPadPage(browser, url);
    pages.push(b);
    await body(a, b);
    throwPageErrors(pages);
  } finally {
    await closeSpec(pages, server, dataDir);
  }
}

export const specs = [
  {
    name: 'multiplayer: two pages join one room by code, drive into each other with gamepads, both logs show the same impulse, equal and opposite',
    async run({ browser, base, out, report }) {
      await withTwoPages(browser, base, async (a, b) => {
        const { code, seats } = await seatTwoPages(a, b, out, true);
        // 4. slot 0 (left of the road) steers right, slot 1 steers left, both on the throttle
        const drive = (p, steer, throttle) => p.H(({ s, t, ax, bt }) => window.__pad.set({ axes: { [ax]: s }, buttons: { [bt]: t } }), { s: steer, t: throttle, ax: STICK_X, bt: RT });
        await drive(a, STEER_IN, THROTTLE);
        await drive(b, -STEER_IN, THROTTLE);
        const logs = await waitFor('an impulse in both logs', async () => {
          const [sa, sb] = [await mp(a), await mp(b)];
          const common = sa.log.find((e) => sb.log.some((f) => f.seq === e.seq));
          return common ? { sa, sb, seq: common.seq } : null;
        }, CONTACT_TIMEOUT_MS, 500);
        for (const p of [a, b]) await drive(p, 0, 0);
        await Promise.all([a, b].map((p) => frames(p.page, 2)));
        await a.page.screenshot({ path: join(out, 'multiplayer-collision-a.png') });
        await b.page.screenshot({ path: join(out, 'multiplayer-collision-b.png') });

        // 5. one response to both cars: same number and tick, J equal and opposite, each naming the other
        const ea = logs.sa.log.find((e) => e.seq === logs.seq);
        const eb = logs.sb.log.find((e) => e.seq === logs.seq);
        const tol = 1e-9;
        if (ea.tick !== eb.tick) throw new Error(`impulse #${logs.seq}: tick ${ea.tick} on A, ${eb.tick} on B`);
        if (Math.abs(ea.jx + eb.jx) > tol || Math.abs(ea.jz + eb.jz) > tol) throw new Error(`impulse #${logs.seq} not equal and opposite: A (${ea.jx}, ${ea.jz}), B (${eb.jx}, ${eb.jz})`);
        if (Math.hypot(ea.jx, ea.jz) <= 0) throw new Error(`impulse #${logs.seq} is zero`);
        if (ea.other !== seats.b.slot || eb.other !== seats.a.slot) throw new Error(`impulse #${logs.seq} names ${ea.other} on A, ${eb.other} on B`);
        for (const e of [ea, eb]) if (e.outcome !== 'applied' && e.outcome !== 'rewound') throw new Error(`impulse #${e.seq} was ${e.outcome}`);
        const panels = [logs.sa.panel, logs.sb.panel];
        if (!panels.every((t) => t.includes(`#${logs.seq}`))) throw new Error(`HUD panels: ${JSON.stringify(panels)}`);
        report.corrections = { a: await checkCorrectionsSmoothed(a), b: await checkCorrectionsSmoothed(b) };
        report.multiplayer = { code, seq: logs.seq, tick: ea.tick, a: { jx: ea.jx, jz: ea.jz, outcome: ea.outcome, late: ea.receivedAtTick - ea.tick }, b: { jx: eb.jx, jz: eb.jz, outcome: eb.outcome, late: eb.receivedAtTick - eb.tick }, impulsesA: logs.sa.log.length, impulsesB: logs.sb.log.length, ticks: [logs.sa.tick, logs.sb.tick] };
      });
    },
  },
  {
    name: 'multiplayer results: after the start both pages retire with the pad, both show the room\'s final results, A goes back to the title',
    async run({ browser, base, out, report }) {
      await withTwoPages(browser, base, async (a, b) => {
        await seatTwoPages(a, b, out, false);
        report.multiplayerResults = await retireBoth(a, b, out);
      });
    },
  },
];

/** Page `p` in the lobby of `code` (the lobby shows it). */
async function inLobby(p, code, what) {
  await waitFor(what, async () => (await p.screen()) === 'multiplayer-lobby', 60000);
  const shown = await p.H(() => document.querySelector('[data-mp-code]')?.textContent);
  if (shown !== code) throw new Error(`${what}: lobby shows "${shown}", expected ${code}`);
}

specs.push({
  name: 'multiplayer: a rallycross race room, joined from the room list with the pad, both cars on the circuit grid',
  async run({ browser, base, out, report }) {
    await withTwoPages(browser, base, async (a, b) => {
      await openListFocusedOnBack(b);
      await openMultiplayer(a);
      await padFocusItem(a.page, /^Room:/);
      await padAdjust(a.page, /^Room: Rallycross race$/, PAD_BUTTON.right);
      await padFocusItem(a.page, /^Laps:/);
      await padAdjust(a.page, /^Laps: 1$/, PAD_BUTTON.left);
      await padFocusItem(a.page, /^Circuit:/);
      await a.page.screenshot({ path: join(out, 'multiplayer-race-setup.png') });
      await padFocusItem(a.page, /^Create room$/);
      await padPress(a.page, PAD_BUTTON.a);
      await waitFor('A seated', () => a.H(() => window.__bitrally.multiplayer.seat()?.code ?? null), 60000);
      const seatA = await a.H(() => window.__bitrally.multiplayer.seat());
      if (!/^rallycross-/.test(seatA.stage) || seatA.laps !== 1) throw new Error(`race room stage ${seatA.stage}, laps ${seatA.laps}`);
      await inLobby(a, seatA.code, 'A in the race lobby');
      // B: A's room arrives in the open list by itself (focus kept), then the pad onto A's room, A
      report.liveList = await seeRoomArriveLive(b, seatA.code, out);
      await padFocusItem(b.page, new RegExp(`^${seatA.code} · Rallycross · `));
      report.liveList.roomFocusKept = await keepRoomFocusAcrossUpdates(b);
      await padPress(b.page, PAD_BUTTON.a);
      await inLobby(b, seatA.code, 'B in the race lobby (from the list)');
      for (const p of [a, b]) await waitFor('two seats listed, 1 lap', () => p.H(() => document.querySelectorAll('[data-mp-seats] tr[data-slot]').length === 2 && document.querySelector('[data-mp-laps]')?.textContent === '1 lap'));
      await b.page.screenshot({ path: join(out, 'multiplayer-race-lobby.png') });
      for (const p of [a, b]) await padPress(p.page, PAD_BUTTON.a);
      for (const p of [a, b]) await waitFor('race drive started', async () => (await mp(p))?.started === true, 180000);
      // on the grid: slot 1 starts half a row behind slot 0 and across (src/run/race.ts gridSlots: 2.4 m each side, 4 m back)
      const [s0, s1] = [await mp(a), await mp(b)];
      const gap = Math.hypot(s0.car.x - s1.car.x, s0.car.z - s1.car.z);
      if (Math.abs(gap - Math.hypot(4.8, 4)) > 0.5) throw new Error(`grid gap ${gap.toFixed(2)} m, expected ${Math.hypot(4.8, 4).toFixed(2)} m`);
      for (const p of [a, b]) await p.H(({ bt }) => window.__pad.set({ buttons: { [bt]: 0.5 } }), { bt: RT });
      const moved = await waitFor('both cars moving, each seen by the other', async () => {
        const [x, y] = [await mp(a), await mp(b)];
        // the other car drawn from its relayed states (not on its grid pose waiting for the first one)
        const seen = (st, slot) => st.remotes.some((r) => r.slot === slot && r.mode !== 'none');
        return x.car.speedMS > 3 && y.car.speedMS > 3 && seen(x, 1) && seen(y, 0) ? { x, y } : null;
      }, 120000, 500);
      for (const p of [a, b]) await p.H(({ bt }) => window.__pad.set({ buttons: { [bt]: 0 } }), { bt: RT });
      await b.page.screenshot({ path: join(out, 'multiplayer-race-drive.png') });
      report.race = { code: seatA.code, stage: seatA.stage, gridGapM: gap, speeds: [moved.x.car.speedMS, moved.y.car.speedMS], remotes: [moved.x.remotes, moved.y.remotes] };
      report.race.paused = await pauseRunsOn(a);
      report.race.finish = await raceToTheFlag(a, b, out);
    });
  },
});

/** Start on the pad opens A's pause menu over the running car: its ticks go on (the room's world cannot stop); B resumes. */
async function pauseRunsOn(a) {
  await padPress(a.page, START);
  await waitFor('pause menu', async () => (await a.screen()) === 'multiplayer-pause', 30000);
  const t0 = (await mp(a)).tick;
  // half a second of sim ticks (2 ms each) while the menu is open
  const t1 = await waitFor('ticks go on under the pause menu', async () => ((await mp(a)).tick >= t0 + 250 ? (await mp(a)).tick : null), 30000, 200);
  await padPress(a.page, PAD_BUTTON.b);
  await waitFor('back in the drive', async () => (await a.screen()) === 'multiplayer-drive', 30000);
  return { ticksWhilePaused: t1 - t0 };
}

/** The rows both results screens show: slot, status, rank cell, time, laps and penalty text. */
const raceRows = (p) => p.H(() => [...document.querySelectorAll('[data-mp-results] tr[data-slot]')].map((tr) => ({
  slot: Number(tr.dataset.slot), status: tr.dataset.status, rank: tr.cells[0].textContent, time: tr.querySelector('[data-time]').textContent, laps: tr.querySelector('[data-laps]')?.textContent, penalty: tr.querySelector('[data-penalty]')?.textContent,
})));

/**
 * Both cars driven by the game's AI driver (the test hook) over the room's 1 lap; B recovers once with the pad's
 * Recover (RS): the room counts it (+RECOVER_PENALTY_S = 5 s on B's row only). Both results screens show the same
 * server times, ranked by time, with the laps and the penalty; B's own race clock agrees with the room's time.
 */
async function raceToTheFlag(a, b, out) {
  for (const p of [a, b]) if (!(await p.H(() => window.__bitrally.multiplayer.autopilot(true)))) throw new Error('autopilot hook: no drive');
  await waitFor('B 100 m into the lap', async () => (await mp(b)).race.progressM > 100, 120000, 300);
  const standings = await checkPositions(a, b);
  await a.page.screenshot({ path: join(out, 'multiplayer-race-hud.png') });
  await b.page.screenshot({ path: join(out, 'multiplayer-race-standings-b.png') });
  await padPress(b.page, RS);
  const rec = await waitFor("B's recovery counted", async () => {
    const r = (await mp(b)).race;
    return r.recoveries === 1 && r.sentRecoveries === 1 && r.penaltyS === RECOVER_PENALTY_S ? r : null;
  }, 30000, 100);
  await frames(b.page, 2);
  const hud = await b.H(() => ({ race: document.querySelector('.hud-race')?.textContent, penalty: document.querySelector('.hud-penalty')?.textContent, toast: document.querySelector('.hud-toast')?.textContent }));
  if (!/^LAP 1\/1/.test(hud.race ?? '') || !/JOKER/.test(hud.race) || hud.penalty !== `incl. +${RECOVER_PENALTY_S} s penalty`) throw new Error(`B's HUD after the recovery: ${JSON.stringify(hud)}`);
  await b.page.screenshot({ path: join(out, 'multiplayer-race-recovered.png') });
  for (const p of [a, b]) await waitFor('final race results', () => p.H(() => window.__bitrally.multiplayer.results()?.final === true && /Final/.test(document.querySelector('[data-mp-results-status]')?.textContent ?? '')), FINISH_TIMEOUT_MS, 500);
  const shown = { a: await raceRows(a), b: await raceRows(b) };
  if (JSON.stringify(shown.a) !== JSON.stringify(shown.b)) throw new Error(`results differ between the pages: ${JSON.stringify(shown)}`);
  const server = await a.H(() => window.__bitrally.multiplayer.results().rows);
  if (!server.every((r) => r.status === 'finished')) throw new Error(`not every car finished: ${JSON.stringify(server)}`);
  // ranked by the room's time (penalties included); the shown order is the room's
  if (server[0].timeS > server[1].timeS || shown.a.map((r) => r.slot).join() !== server.map((r) => r.slot).join() || shown.a.map((r) => r.rank).join() !== '1,2') throw new Error(`ranking: ${JSON.stringify({ server, shown: shown.a })}`);
  const penalty = Object.fromEntries(server.map((r) => [r.slot, r.penaltyS]));
  const penText = Object.fromEntries(shown.a.map((r) => [r.slot, r.penalty]));
  // the joker (the AI takes it on its one lap) costs nothing; B's one recovery 5 s, on B's row only
  if (penalty[1] !== RECOVER_PENALTY_S || penalty[0] !== 0 || penText[1] !== `+${RECOVER_PENALTY_S} s` || penText[0] !== '') throw new Error(`penalties: ${JSON.stringify({ penalty, penText })}`);
  if (!shown.a.every((r) => r.laps === '1/1')) throw new Error(`laps column: ${JSON.stringify(shown.a)}`);
  // B's own RaceProgress timed the same flag: at 8 sim ticks per packet the room places it within one tick (2 ms)
  const own = (await mp(b)).race;
  const rowB = server.find((r) => r.slot === 1);
  if (Math.abs(own.finishTimeS + own.penaltyS - rowB.timeS) > SIM_DT_S + 1e-9) throw new Error(`B's own time ${own.finishTimeS} + ${own.penaltyS} s, the room's ${rowB.timeS} s`);
  await b.page.screenshot({ path: join(out, 'multiplayer-race-results.png') });
  return { server, shown: shown.a, recoveredAt: rec.progressM, ownB: own.finishTimeS + own.penaltyS, standings };
}

/** How far the room's distance of a car may lie ahead of the car's own RaceProgress, m (the same rules on its packets). */
const STANDINGS_AHEAD_SLACK_M = 2;

/**
 * While both cars race, each page's HUD shows its position from the room's standings: "P1/2" on one page and
 * "P2/2" on the other (both pages hold the same standings message), the order the standings' laps and distance
 * give, each car's distance in them no further than its own RaceProgress, and the tower lists both names.
 */
async function checkPositions(a, b) {
  const read = (p) => p.H(() => ({ st: window.__bitrally.multiplayer.state(), tower: document.querySelector('[data-mp-standings]:not([hidden])')?.textContent ?? null }));
  return waitFor('both HUDs show their position from the same standings', async () => {
    const [ra, rb] = [await read(a), await read(b)];
    const [sa, sb] = [ra.st.standings, rb.st.standings];
    if (!sa || !sb || JSON.stringify(sa) !== JSON.stringify(sb) || sa.rows.length !== 2 || sa.rows.some((r) => r.status !== 'racing')) return null;
    const order = sa.rows.map((r) => r.slot);
    const [lead, next] = sa.rows;
    if (lead.laps < next.laps || (lead.laps === next.laps && lead.progressM < next.progressM)) throw new Error(`standings out of order: ${JSON.stringify(sa)}`);
    const pos = [ra.st.position, rb.st.position];
    const want = [ra.st.slot, rb.st.slot].map((s) => `P${order.indexOf(s) + 1}/2`);
    if (pos.join() !== want.join()) throw new Error(`HUD positions ${JSON.stringify(pos)}, the standings give ${JSON.stringify(want)}`);
    if (!ra.tower?.includes(pos[0])) throw new Error(`A's tower: ${ra.tower}`);
    for (const st of [ra.st, rb.st]) {
      const row = sa.rows.find((r) => r.slot === st.slot);
      if (row.progressM > st.race.progressM + STANDINGS_AHEAD_SLACK_M) throw new Error(`the room has slot ${st.slot} at ${row.progressM} m, its own progress ${st.race.progressM} m`);
    }
    return { positions: pos, rows: sa.rows, tower: ra.tower };
  }, 30000, 200);
}

/** Page `p` on the multiplayer setup screen, the pad's focus on Back (below the live room list). */
async function openListFocusedOnBack(p) {
  await openMultiplayer(p);
  await padFocusItem(p.page, /^Back$/);
  await waitFor('the live list connected', () => p.H(() => /live/.test(document.querySelector('[data-mp-list-status]')?.textContent ?? '')), 30000);
}

/** Room `code` shows up in `p`'s open list without a press, and the pad's focus stays on Back (its index moved). */
async function seeRoomArriveLive(p, code, out) {
  await waitFor(`room ${code} in the live list`, () => p.H((c) => !!document.querySelector(`[data-room="${c}"]:not([disabled])`), code), 15000, 100);
  await frames(p.page, 2);
  const focused = await p.H(() => [...document.querySelectorAll('.item.focused')].map((e) => e.textContent));
  if (focused.length !== 1 || focused[0] !== 'Back') throw new Error(`focus after the live update: ${JSON.stringify(focused)}`);
  await p.page.screenshot({ path: join(out, 'multiplayer-live-list.png') });
  return { code, focused: focused[0] };
}

/**
 * While `p`'s pad focus is on a room, another room (a Node client on the same server) appears and vanishes: the
 * list re-draws twice (the focused room's index moves when the other code sorts before it) and the focus stays on
 * the same room; the press that follows in the spec joins that room, so the menu's own focus index followed too.
 */
async function keepRoomFocusAcrossUpdates(p) {
  const focusedRoom = () => p.H(() => document.querySelector('.item.focused')?.dataset.room ?? null);
  const code = await focusedRoom();
  const ws = new URL(p.page.url()).searchParams.get('server').replace(/^http/, 'ws');
  const other = await RoomClient.connect({ url: ws, kind: 'stage', name: 'e2e' });
  const listed = (c) => p.H((x) => !!document.querySelector(`[data-room="${x}"]`), c);
  await waitFor(`room ${other.seat.code} in the live list`, () => listed(other.seat.code), 15000, 100);
  const during = await focusedRoom();
  await other.leave();
  await waitFor(`room ${other.seat.code} gone from the live list`, async () => !(await listed(other.seat.code)), 15000, 100);
  await frames(p.page, 2);
  const after = await focusedRoom();
  if (during !== code || after !== code) throw new Error(`focused room ${code}: ${during} while ${other.seat.code} was listed, ${after} after`);
  return { code, other: other.seat.code, movedIndex: other.seat.code < code };
}

/** Every rewound impulse of page `p` was a correction of the drawn car (smoothed, or snapped when huge). */
async function checkCorrectionsSmoothed(p) {
  const st = await mp(p);
  const rewound = st.log.filter((e) => e.outcome === 'rewound').length;
  const { smoothed, snapped } = st.corrections;
  if (smoothed + snapped !== rewound) throw new Error(`${rewound} rewound impulses, ${smoothed} smoothed + ${snapped} snapped corrections`);
  return { rewound, ...st.corrections };
}

export function runSpecs({ browser, base, out, filter }) {
  return runSpecList({ specs, browser, base, out, filter, reportFile: 'multiplayer-report.json', label: 'multiplayer e2e report' });
}
