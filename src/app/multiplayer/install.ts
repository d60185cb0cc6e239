/**
 * Multiplayer screens (issue #22 item 1, the game's side; docs/multiplayer.md "The game"), loaded on demand:
 *  - 'multiplayer': "offline" without a server; else a stage-together room's stage and your car, Create room, or
 *    a join code (left / right cycle the character, A moves on; letters and digits can be typed) and Join, and the
 *    live room list (room-list-view.ts);
 *  - 'multiplayer-lobby': the room's code, its seats (name, car, ready), Ready, the countdown on the server clock;
 *  - 'multiplayer-drive': the drive (session.ts) from the room's 'go'; B / Escape retires the car (before the start: leaves);
 *  - 'multiplayer-results': the room's results once this car finished or retired (results-view.ts).
 * `window.__bitrally.multiplayer` exposes the lobby and the drive's state (collision log) for the browser test.
 */
import { adjustable, html, registerScreen, type ScreenContext, type ScreenInstance } from '../screens';
import type { AppContext } from '../app-context';
import { configuredServer } from '../online-config';
import { listStages, loadStageWithFiles, type StageSummary } from '../stages';
import { CARS } from '../cars';
import { escapeHtml as esc } from '../escape-html';
import { loadIdentity } from '../online/identity';
import { RoomClient, type RoomKind } from '../../net/room-client';
import { DEFAULT_RACE_LAPS, isCircuitId, RACE_LAPS_RANGE } from '../../net/room-kind';
import { normaliseServerUrl } from '../online/api';
import { RoomListView } from './room-list-view';
import type { Stage } from '../../../terrain/stage';
import { CodeEntry } from './code-entry';
import { roomServerUrl, ServerClock } from './server-clock';
import { MultiplayerSession } from './session';
import { registerLobbyScreen } from './lobby-screen';
import { raceOverFor, registerResultsScreen } from './results-view';
import { leaveRoom, type MultiplayerState } from './state';
import { registerPauseScreen } from './pause-screen';
import { refusedNoticeHtml } from './refused-notice';
import './multiplayer.css';

export function installMultiplayer(app: AppContext): void {
  const mp: MultiplayerState = { kind: 'stage', stageId: null, laps: DEFAULT_RACE_LAPS, carId: CARS()[0]!.id, client: null, lobby: null, clock: new ServerClock(), goAtMs: null, stage: null, session: null, results: null, refused: null };
  exposeTestHook(mp);
  registerSetupScreen(app, mp);
  registerLobbyScreen(mp, loadRoomStage);
  registerDriveScreen(app, mp);
  registerResultsScreen(mp);
  registerPauseScreen(mp);
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
    /** The AI driver drives this page's car (or the pad again): the race test drives to the flag with it. */
    autopilot: (on: boolean) => (mp.session?.setAutopilot(on), mp.session !== null),
  };
}

/** The stages a room of `kind` may be created on: rallycross circuits for a race, the other stages for "stage together". */
function stagesOfKind(all: StageSummary[], kind: RoomKind): StageSummary[] {
  return all.filter((s) => isCircuitId(s.id) === (kind === 'race'));
}

/** The laps item: a race room's laps (the creator's choice, RACE_LAPS_RANGE); hidden and skipped for a stage room. */
function renderLapsItem(el: HTMLElement, mp: MultiplayerState): void {
  el.textContent = `Laps: ${mp.laps}`;
  el.hidden = mp.kind !== 'race';
  el.toggleAttribute('disabled', mp.kind !== 'race');
}

const KIND_LABEL: Record<RoomKind, string> = { race: 'Rallycross race: everyone on one circuit from the rallycross grid, collisions on', stage: 'Stage together: everyone on one stage, collisions on' };

/** The setup screen without a server: it says so and goes back. */
function offlineSetupScreen(ctx: ScreenContext): ScreenInstance {
  const el = html(`<h2>Multiplayer</h2><div class="sub" data-mp-offline>Offline: no server set (Settings → Online server)</div><button class="item default" data-k="back">Back</button>`);
  el.querySelector<HTMLElement>('[data-k="back"]')!.onclick = () => ctx.show('title');
  return { el, back: () => ctx.show('title') };
}

/** The setup screen's items (filled in by its render). */
function setupScreenHtml(url: string): string {
  return `<h2>Multiplayer</h2><div class="sub" data-mp-kind-line></div>
    <button class="item" data-k="kind"></button>
    <button class="item" data-k="stage"></button>
    <button class="item" data-k="laps"></button>
    <button class="item" data-k="car"></button>
    <button class="item default" data-k="create">Create room</button>
    <button class="item mp-code" data-k="code"></button>
    <button class="item" data-k="join">Join</button>
    <button class="item" data-k="refresh">Reconnect the room list</button>
    <div class="mp-rooms" data-mp-rooms></div>
    <div class="sub" data-mp-list-status></div>
    <button class="item" data-k="back">Back</button>
    <div class="sub" data-mp-status></div>
    <div class="hint">Left / right: change · Code: left / right picks the character, A moves on (or type it) · A on a room: join · B: back · ${esc(url)}</div>`;
}

/** 'multiplayer': offline notice, or the room setup (kind, stage, car, create; join by code or from the room list). */
function registerSetupScreen(app: AppContext, mp: MultiplayerState): void {
  registerScreen('multiplayer', (ctx) => {
    const http = normaliseServerUrl(configuredServer(app));
    const url = http ? roomServerUrl(http) : null;
    if (!http || !url) return offlineSetupScreen(ctx);
    const el = html(setupScreenHtml(url));
    const item = (k: string): HTMLElement => el.querySelector<HTMLElement>(`[data-k="${k}"]`)!;
    const status = el.querySelector<HTMLElement>('[data-mp-status]')!;
    const code = new CodeEntry();
    let all: StageSummary[] = [];
    const cars = CARS();
    const stageName = (id: string): string => all.find((s) => s.id === id)?.name ?? id;
    const render = (): void => {
      el.querySelector<HTMLElement>('[data-mp-kind-line]')!.textContent = KIND_LABEL[mp.kind];
      item('kind').textContent = `Room: ${mp.kind === 'race' ? 'Rallycross race' : 'Stage together'}`;
      item('stage').textContent = `${mp.kind === 'race' ? 'Circuit' : 'Stage'}: ${all.length ? stageName(mp.stageId ?? '') : '(loading…)'}`;
      renderLapsItem(item('laps'), mp);
      item('car').textContent = `Your car: ${cars.find((c) => c.id === mp.carId)?.name ?? mp.carId}`;
      item('code').innerHTML = `Join code: ${[...code.text()].map((ch, i) => `<span class="${i === code.cursor ? 'mp-cursor' : ''}">${esc(ch)}</span>`).join('')}`;
    };
    const enter = (o: { code?: string }): void => void connect(url, mp, o, status).then((ok) => ok && ctx.show('multiplayer-lobby'));
    const focus = (x: HTMLElement): void => ctx.focusElement?.(x);
    const list = new RoomListView(el.querySelector<HTMLElement>('[data-mp-rooms]')!, el.querySelector<HTMLElement>('[data-mp-list-status]')!, url, stageName, (c) => enter({ code: c }), focus, item('refresh'));
    const pickStage = (): void => {
      const ok = stagesOfKind(all, mp.kind);
      if (!ok.some((s) => s.id === mp.stageId)) mp.stageId = (ok.find((s) => !s.testTrack) ?? ok[0])?.id ?? null;
    };
    void listStages().then((r) => {
      all = r.stages.filter((s) => !s.files);
      pickStage();
      render();
      list.render();
    });
    void list.connect();
    const cycle = <T,>(xs: T[], cur: T, d: number): T => xs[(xs.indexOf(cur) + d + xs.length) % xs.length] ?? cur;
    const toggleKind = (): void => {
      mp.kind = mp.kind === 'race' ? 'stage' : 'race';
      pickStage();
      render();
    };
    adjustable(item('kind'), toggleKind, 'toggle');
    adjustable(item('stage'), (d) => {
      const ids = stagesOfKind(all, mp.kind).map((s) => s.id);
      if (ids.length) mp.stageId = cycle(ids, mp.stageId ?? ids[0]!, d);
      render();
    });
    adjustable(item('laps'), (d) => ((mp.laps = Math.max(RACE_LAPS_RANGE[0], Math.min(RACE_LAPS_RANGE[1], mp.laps + d))), render()));
    adjustable(item('car'), (d) => ((mp.carId = cycle(cars.map((c) => c.id), mp.carId, d)), render()));
    adjustable(item('code'), (d) => (code.cycle(d), render()));
    const typing = watchCodeTyping(item('code'), code, render);
    item('kind').onclick = toggleKind;
    item('create').onclick = () => mp.stageId && enter({});
    item('code').onclick = () => {
      if (code.code() && code.cursor === code.text().length - 1) enter({ code: code.code()! });
      code.advance();
      render();
    };
    item('join').onclick = () => (code.code() ? enter({ code: code.code()! }) : (status.textContent = 'Enter the 5-character code first'));
    item('refresh').onclick = () => void list.connect();
    item('back').onclick = () => ctx.show('title');
    render();
    const dispose = (): void => (typing(), list.dispose());
    return { el, back: () => ctx.show('title'), dispose };
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

/** Creates (no code: a room of the chosen kind on the chosen stage) or joins a room; the status line says what failed. True once seated. */
async function connect(url: string, mp: MultiplayerState, o: { code?: string }, status: HTMLElement): Promise<boolean> {
  await leaveRoom(mp);
  status.textContent = o.code ? `Joining ${o.code}…` : 'Creating a room…';
  try {
    const name = loadIdentity(globalThis.localStorage).name;
    const laps = mp.kind === 'race' ? mp.laps : undefined;
    const client = await RoomClient.connect({ url, kind: mp.kind, stage: mp.stageId ?? undefined, laps, code: o.code, car: mp.carId, name });
    // set at once: the room's next messages (lobby, go) follow the seat
    mp.client = client;
    mp.clock = new ServerClock();
    client.onLobby = (l) => {
      mp.lobby = l;
      mp.clock.sample(l.now, performance.now());
    };
    client.onGo = () => (mp.goAtMs ??= performance.now());
    client.onResults = (r) => (mp.results = r);
    client.onRefused = (reason) => (mp.refused ??= reason);
    return true;
  } catch (e) {
    status.innerHTML = `<span class="error">Could not ${o.code ? `join ${esc(o.code)}` : 'create a room'}: ${esc((e as Error).message)}</span>`;
    return false;
  }
}

/**
 * 'multiplayer-drive': builds the session once the stage is loaded (shown again with `{ resume: true }` from the
 * pause menu: the running session goes on); B / Escape / Start opens the pause menu ('multiplayer-pause'); the
 * room's results come up over it when this car's race is over; a `refused` from the room replaces it with the notice.
 */
function registerDriveScreen(app: AppContext, mp: MultiplayerState): void {
  registerScreen('multiplayer-drive', (ctx, params) => {
    const el = html(`<h2>Multiplayer</h2><div class="sub" data-msg>Loading the stage…</div>`, 'screen loading');
    const msg = el.querySelector<HTMLElement>('[data-msg]')!;
    if (params.resume === true && mp.session) el.style.display = 'none';
    else void startDrive(app, mp, el, msg);
    const pause = (): void => ctx.show('multiplayer-pause');
    let refusedShown = false;
    const showRefused = (reason: string): void => {
      refusedShown = true;
      el.innerHTML = refusedNoticeHtml(reason);
      el.style.display = '';
      el.querySelector<HTMLElement>('[data-k="leave"]')!.onclick = () => void leaveRoom(mp).then(() => ctx.show('multiplayer'));
    };
    // the car stops when its race is over (the room has its time): the results come up over the drive
    const update = (dt: number): void => {
      if (mp.refused !== null) return refusedShown ? undefined : showRefused(mp.refused);
      if (raceOverFor(mp.results, mp.client?.seat.slot)) ctx.show('multiplayer-results');
      else mp.session?.frame(dt);
    };
    const back = (): void => (refusedShown ? void leaveRoom(mp).then(() => ctx.show('multiplayer')) : pause());
    return { el, overlay: true, update, back, onKey: (k) => k === 'start' && !refusedShown && (pause(), true) };
  });
}

/** Waits for the room's stage, then builds the drive (started at once when 'go' came during the load). */
async function startDrive(app: AppContext, mp: MultiplayerState, el: HTMLElement, msg: HTMLElement): Promise<void> {
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
}
