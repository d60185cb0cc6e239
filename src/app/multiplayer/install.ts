/**
 * Multiplayer screens (issue #22 item 1, the game's side; docs/multiplayer.md "The game"), loaded on demand:
 *  - 'multiplayer': "offline" without a server; else a stage-together room's stage and your car, Create room, or
 *    a join code (left / right cycle the character, A moves on; letters and digits can be typed) and Join;
 *  - 'multiplayer-lobby': the room's code, its seats (name, car, ready), Ready, the countdown on the server clock;
 *  - 'multiplayer-drive': the drive (session.ts) from the room's 'go'; B / Escape retires the car (before the start: leaves);
 *  - 'multiplayer-results': the room's results once this car finished or retired (results-view.ts).
 * `window.__bitrally.multiplayer` exposes the lobby and the drive's state (collision log) for the browser test.
 */
import { adjustable, html, registerScreen } from '../screens';
import type { AppContext } from '../app-context';
import { configuredServer } from '../online-config';
import { listStages, loadStageWithFiles, type StageSummary } from '../stages';
import { CARS } from '../cars';
import { escapeHtml as esc } from '../escape-html';
import { loadIdentity } from '../online/identity';
import { RoomClient } from '../../net/room-client';
import type { Stage } from '../../../terrain/stage';
import { CodeEntry } from './code-entry';
import { roomServerUrl, ServerClock } from './server-clock';
import { MultiplayerSession } from './session';
import { registerLobbyScreen } from './lobby-screen';
import { raceOverFor, registerResultsScreen } from './results-view';
import { leaveRoom, type MultiplayerState } from './state';
import './multiplayer.css';

export function installMultiplayer(app: AppContext): void {
  const mp: MultiplayerState = { stageId: null, carId: CARS()[0]!.id, client: null, lobby: null, clock: new ServerClock(), goAtMs: null, stage: null, session: null, results: null };
  exposeTestHook(mp);
  registerSetupScreen(app, mp);
  registerLobbyScreen(mp, loadRoomStage);
  registerDriveScreen(app, mp);
  registerResultsScreen(mp);
}

/** The shipped stage `id` (a room's stage is always a shipped one: server/rooms/stages.ts). */
async function loadRoomStage(id: string): Promise<Stage> {
  const { stages } = await listStages();
  const s = stages.find((x) => x.id === id && !x.files);
  if (!s) throw new Error(`the room's stage "${id}" is not in this game's stages`);
  return (await loadStageWithFiles(s)).stage;
}

function exposeTestHook(mp: MultiplayerState): void {
  const root = (window.__bitrally ??= {});
  root.multiplayer = {
    lobby: () => mp.lobby,
    seat: () => mp.client?.seat ?? null,
    state: () => mp.session?.testState() ?? null,
    results: () => mp.results,
  };
}

/** 'multiplayer': offline notice, or the room setup (stage, car, create, join by code). */
function registerSetupScreen(app: AppContext, mp: MultiplayerState): void {
  registerScreen('multiplayer', (ctx) => {
    const url = roomServerUrl(configuredServer(app));
    if (!url) {
      const el = html(`<h2>Multiplayer</h2><div class="sub" data-mp-offline>Offline: no server set (Settings → Online server)</div><button class="item default" data-k="back">Back</button>`);
      el.querySelector<HTMLElement>('[data-k="back"]')!.onclick = () => ctx.show('title');
      return { el, back: () => ctx.show('title') };
    }
    const el = html(`<h2>Multiplayer</h2><div class="sub">Stage together: everyone on one stage, collisions on · ${esc(url)}</div>
      <button class="item" data-k="stage"></button>
      <button class="item" data-k="car"></button>
      <button class="item default" data-k="create">Create room</button>
      <button class="item mp-code" data-k="code"></button>
      <button class="item" data-k="join">Join</button>
      <button class="item" data-k="back">Back</button>
      <div class="sub" data-mp-status></div>
      <div class="hint">Left / right: change · Code: left / right picks the character, A moves on (or type it) · B: back</div>`);
    const item = (k: string): HTMLElement => el.querySelector<HTMLElement>(`[data-k="${k}"]`)!;
    const status = el.querySelector<HTMLElement>('[data-mp-status]')!;
    const code = new CodeEntry();
    let stages: StageSummary[] = [];
    const cars = CARS();
    const render = (): void => {
      item('stage').textContent = `Stage: ${stages.find((s) => s.id === mp.stageId)?.name ?? '(loading…)'}`;
      item('car').textContent = `Your car: ${cars.find((c) => c.id === mp.carId)?.name ?? mp.carId}`;
      item('code').innerHTML = `Join code: ${[...code.text()].map((ch, i) => `<span class="${i === code.cursor ? 'mp-cursor' : ''}">${esc(ch)}</span>`).join('')}`;
    };
    void listStages().then((r) => {
      stages = r.stages.filter((s) => !s.files);
      mp.stageId ??= (stages.find((s) => !s.testTrack) ?? stages[0])?.id ?? null;
      render();
    });
    const cycle = <T,>(list: T[], cur: T, d: number): T => list[(list.indexOf(cur) + d + list.length) % list.length] ?? cur;
    adjustable(item('stage'), (d) => {
      if (stages.length) mp.stageId = cycle(stages.map((s) => s.id), mp.stageId ?? stages[0]!.id, d);
      render();
    });
    adjustable(item('car'), (d) => {
      mp.carId = cycle(cars.map((c) => c.id), mp.carId, d);
      render();
    });
    adjustable(item('code'), (d) => {
      code.cycle(d);
      render();
    });
    const typing = watchCodeTyping(item('code'), code, render);
    const enter = (o: { code?: string }): void => void connect(url, mp, o, status).then((ok) => ok && ctx.show('multiplayer-lobby'));
    item('create').onclick = () => mp.stageId && enter({});
    item('code').onclick = () => {
      if (code.code() && code.cursor === code.text().length - 1) enter({ code: code.code()! });
      code.advance();
      render();
    };
    item('join').onclick = () => (code.code() ? enter({ code: code.code()! }) : (status.textContent = 'Enter the 5-character code first'));
    item('back').onclick = () => ctx.show('title');
    render();
    return { el, back: () => ctx.show('title'), dispose: typing };
  });
}

/**
 * Typed letters and digits go into the code while its item has the focus (Backspace erases). The listener runs in
 * the capture phase on the window and stops the key there, so W/A/S/D type rather than move the menu focus.
 * Returns the function that removes it.
 */
function watchCodeTyping(codeItem: HTMLElement, code: CodeEntry, render: () => void): () => void {
  const onKey = (e: KeyboardEvent): void => {
    if (!codeItem.classList.contains('focused') || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Backspace') code.erase();
    else if (!code.type(e.key)) return;
    e.stopPropagation();
    e.preventDefault();
    render();
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}

/** Creates (no code) or joins a stage-together room; the status line says what failed. True once seated. */
async function connect(url: string, mp: MultiplayerState, o: { code?: string }, status: HTMLElement): Promise<boolean> {
  await leaveRoom(mp);
  status.textContent = o.code ? `Joining ${o.code}…` : 'Creating a room…';
  try {
    const name = loadIdentity(globalThis.localStorage).name;
    const client = await RoomClient.connect({ url, kind: 'stage', stage: mp.stageId ?? undefined, code: o.code, car: mp.carId, name });
    // set at once: the room's next messages (lobby, go) follow the seat
    mp.client = client;
    mp.clock = new ServerClock();
    client.onLobby = (l) => {
      mp.lobby = l;
      mp.clock.sample(l.now, performance.now());
    };
    client.onGo = () => (mp.goAtMs ??= performance.now());
    client.onResults = (r) => (mp.results = r);
    return true;
  } catch (e) {
    status.innerHTML = `<span class="error">Could not ${o.code ? `join ${esc(o.code)}` : 'create a room'}: ${esc((e as Error).message)}</span>`;
    return false;
  }
}

/** 'multiplayer-drive': builds the session once the stage is loaded; B / Escape leaves the room. */
function registerDriveScreen(app: AppContext, mp: MultiplayerState): void {
  registerScreen('multiplayer-drive', (ctx) => {
    const el = html(`<h2>Multiplayer</h2><div class="sub" data-msg>Loading the stage…</div>`, 'screen loading');
    const msg = el.querySelector<HTMLElement>('[data-msg]')!;
    void (async () => {
      try {
        const stage = await mp.stage!;
        if (!mp.client || !mp.lobby) throw new Error('not in a room any more');
        app.startSession(null);
        mp.session?.dispose();
        mp.session = new MultiplayerSession(app.kit, stage, mp.client, mp.lobby, app.settings, app.devices, document.getElementById('ui')!, mp.clock);
        if (mp.goAtMs !== null) mp.session.pacer.start(mp.goAtMs);
        el.style.display = 'none';
      } catch (e) {
        msg.textContent = `Could not start: ${(e as Error).message}`;
      }
    })();
    // B / Escape: once racing, retire (DNF) and see the results; before the start, leave the room
    const leave = (): void => (mp.session?.pacer.started && mp.client ? mp.client.retire() : void leaveRoom(mp).then(() => ctx.show('multiplayer')));
    // the car stops when its race is over (the room has its time): the results come up over the drive
    const update = (dt: number): void => (raceOverFor(mp.results, mp.client?.seat.slot) ? ctx.show('multiplayer-results') : mp.session?.frame(dt));
    return { el, overlay: true, update, back: leave };
  });
}
