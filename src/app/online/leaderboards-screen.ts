/**
 * The Leaderboards screen (gamepad-navigable: up/down through the items, left/right on the Board and View rows):
 * pick a board (stage · car class, or today's daily rally: whole-rally totals, daily-board.ts), see its top rows, the rows around the player, or the player's history;
 * A on a row downloads that run's ghost into the replay library and starts the stage with that car, racing it.
 * The player's name and the server URL are edited here (text fields, keyboard). Names are shown as text.
 */
import { html, adjustable, registerScreen } from '../screens';
import type { AppContext } from '../app-context';
import { escapeHtml as esc } from '../escape-html';
import { formatTime } from '../../run/stage-run';
import { configuredServer } from '../online-config';
import { ReplayLibrary } from '../replay/library';
import { setGhostChoice } from '../replay/ghost-choice';
import { ApiError, normaliseServerUrl, type BoardRow, type BoardSummary, type OnlineApi } from './api';
import type { OnlineService } from './service';
import { dailyRallyRows } from './daily-board';
import { todayUtc } from '../utc-date';

/** Rows of the top list, and players shown above and below the player. */
export const TOP_ROWS = 20;
export const AROUND_SPAN = 5;
const HISTORY_ROWS = 20;
const VIEWS = ['top', 'around', 'history'] as const;
type View = (typeof VIEWS)[number];
const VIEW_LABEL: Record<View, string> = { top: `Top ${TOP_ROWS}`, around: 'Around me', history: 'My history' };

interface LbState {
  boards: BoardSummary[];
  /** Index into `boards`; `boards.length` is today's daily rally (the last choice). */
  board: number;
  /** Today's UTC date (the daily rally's). */
  date: string;
  view: View;
  me: string;
}

function markup(): HTMLElement {
  return html(`<h2>Leaderboards</h2><div class="sub" data-server></div>
    <button class="item" data-a="board"><span>Board</span><span class="val" data-board>—</span></button>
    <button class="item" data-a="view"><span>View</span><span class="val" data-view></span></button>
    <div class="lb-table" data-rows></div><div class="error" data-error></div>
    <div class="lb-setup"><input data-name maxlength="24" aria-label="Your name"><button class="item" data-a="name">Save name</button></div>
    <div class="lb-setup"><input data-server-url placeholder="http://127.0.0.1:8787" aria-label="Server URL"><button class="item" data-a="server">Save server</button></div>
    <button class="item" data-a="back">Back</button>
    <div class="hint">←/→ on Board and View · A on a row: race its ghost · B: back</div>`);
}

function rowButton(r: BoardRow, me: string): string {
  const mine = r.playerId === me ? ' lb-me' : '';
  return `<button class="item lb-row${mine}" data-row="${r.submissionId}" data-player="${esc(r.playerId)}"><span>${r.rank}</span><span data-rowname>${esc(r.name)}</span><span>${formatTime(r.stageTimeS)}</span><span>ghost ▶</span></button>`;
}

/** The rows of the chosen view (history rows of accepted runs can be raced too). */
async function fetchRows(api: OnlineApi, st: LbState): Promise<string> {
  const b = st.boards[st.board];
  if (st.view !== 'history' && st.board === st.boards.length) return dailyRallyRows(api, st.date, { around: st.view === 'around', me: st.me, limit: TOP_ROWS, span: AROUND_SPAN });
  if (st.view === 'history') {
    const h = (await api.history(st.me, HISTORY_ROWS)).submissions;
    if (!h.length) return '<div class="sub">No submissions yet</div>';
    return h
      .map((s) => {
        const what = s.status === 'accepted' ? formatTime(s.stageTimeS ?? 0) : s.status === 'pending' ? 'verifying' : `refused: ${esc(s.reason ?? s.reasonCode ?? '')}`;
        const race = s.status === 'accepted' ? ` data-row="${s.id}"` : ' disabled';
        return `<button class="item lb-row"${race}><span>#${s.id}</span><span>${esc(s.board?.stageId ?? '—')} · ${esc(s.board?.carClass ?? '—')}</span><span>${what}</span><span>${s.status === 'accepted' ? 'ghost ▶' : ''}</span></button>`;
      })
      .join('');
  }
  if (!b) return '<div class="sub">No runs on the server yet</div>';
  const rows = st.view === 'top' ? (await api.top(b, TOP_ROWS)).rows : (await api.around(b, st.me, AROUND_SPAN)).rows;
  if (!rows.length) return `<div class="sub">${st.view === 'around' ? 'You have no run on this board yet' : 'No runs yet'}</div>`;
  return rows.map((r) => rowButton(r, st.me)).join('');
}

/** Starts a stage with a car (menus.ts quickStart, handed in: the menus module loads this one). */
export type StartStage = (app: AppContext, stageId: string, carId: string) => Promise<void>;

/** Downloads a run's ghost into the replay library, makes it the ghost of its stage and starts that stage with its car. */
async function raceGhost(app: AppContext, api: OnlineApi, submissionId: number, quickStart: StartStage): Promise<void> {
  const bytes = await api.ghost(submissionId);
  const library = new ReplayLibrary();
  const entry = await library.importFile(new File([bytes.slice().buffer as ArrayBuffer], `ghost-${submissionId}.bitrally`));
  if (!entry.stageId || !entry.carIds[0]) throw new Error(`ghost ${submissionId}: not a stage run`);
  setGhostChoice({ entryId: entry.id, stageId: entry.stageId });
  const hook = (window.__bitrally ??= {}).online as Record<string, unknown> | undefined;
  if (hook) hook.lastGhost = { submissionId, entryId: entry.id, stageId: entry.stageId, carId: entry.carIds[0] };
  await quickStart(app, entry.stageId, entry.carIds[0]);
}

export function registerLeaderboardsScreen(app: AppContext, online: () => Promise<OnlineService>, startStage: StartStage): void {
  registerScreen('leaderboards', (ctx, params) => {
    const el = markup();
    const st: LbState = { boards: [], board: 0, date: todayUtc(), view: 'top', me: '' };
    let loaded = false;
    const q = <T extends HTMLElement>(s: string): T => el.querySelector<T>(s)!;
    const showError = (e: unknown): void => void (q('[data-error]').textContent = e instanceof Error ? e.message : String(e));
    const back = (): void => ctx.show(typeof params.from === 'string' ? params.from : 'title');
    void online().then(async (svc) => {
      st.me = await svc.playerId();
      q<HTMLInputElement>('[data-name]').value = svc.identity.name;
      q<HTMLInputElement>('[data-server-url]').value = configuredServer(app);
      wireActions(app, el, svc, st, { showError, back, startStage });
      await refresh(app, el, svc, st, true).catch(showError);
      loaded = true;
    }, showError);
    return { el, back, loading: () => !loaded };
  });
}

/** Buttons: save name / server, cycle board / view, race a row's ghost, back. */
function wireActions(app: AppContext, el: HTMLElement, svc: OnlineService, st: LbState, ui: { showError: (e: unknown) => void; back: () => void; startStage: StartStage }): void {
  const { showError, back } = ui;
  const q = <T extends HTMLElement>(s: string): T => el.querySelector<T>(s)!;
  const redraw = (reload: boolean): void => void refresh(app, el, svc, st, reload).catch(showError);
  q('[data-a="back"]').onclick = back;
  q('[data-a="name"]').onclick = () =>
    void svc.rename(q<HTMLInputElement>('[data-name]').value.trim()).then(() => redraw(false), (e: unknown) => showError(e instanceof ApiError ? new Error(e.message) : e));
  q('[data-a="server"]').onclick = () => {
    const typed = q<HTMLInputElement>('[data-server-url]').value;
    if (typed.trim() !== '' && !normaliseServerUrl(typed)) return showError(new Error(`server URL: expected http://… or https://…, found "${typed.slice(0, 80)}"`));
    app.saveSettings({ ...app.settings, serverUrl: typed.trim() });
    redraw(true);
  };
  const cycle = (d: -1 | 1, what: 'board' | 'view'): void => {
    // the stage boards, then today's daily rally
    if (what === 'board') st.board = (st.board + d + st.boards.length + 1) % (st.boards.length + 1);
    else st.view = VIEWS[(VIEWS.indexOf(st.view) + d + VIEWS.length) % VIEWS.length]!;
    redraw(false);
  };
  for (const what of ['board', 'view'] as const) {
    const b = q(`[data-a="${what}"]`);
    adjustable(b, (d) => cycle(d, what), 'toggle');
    b.onclick = () => cycle(1, what);
  }
  q('[data-rows]').addEventListener('click', (ev) => {
    const row = (ev.target as HTMLElement).closest<HTMLElement>('[data-row]');
    const api = svc.api();
    if (row && api) void raceGhost(app, api, Number(row.dataset.row), ui.startStage).catch(showError);
  });
}

/** Redraws the header, the Board and View values and the rows (`reload`: the board list again from the server). */
async function refresh(app: AppContext, el: HTMLElement, svc: OnlineService, st: LbState, reload: boolean): Promise<void> {
  const q = (s: string): HTMLElement => el.querySelector<HTMLElement>(s)!;
  q('[data-error]').textContent = '';
  const api = svc.api();
  q('[data-server]').textContent = api ? `Server ${api.baseUrl} · you are ${svc.identity.name}` : `Offline: no server set (you are ${svc.identity.name})`;
  const rows = q('[data-rows]');
  if (!api) {
    rows.innerHTML = '<div class="sub">offline</div>';
    return;
  }
  if (reload) {
    st.boards = await api.boards().catch((e: unknown) => {
      rows.innerHTML = `<div class="sub">offline: ${esc((e as Error).message)}</div>`;
      throw e;
    });
    st.board = Math.min(st.board, st.boards.length);
  }
  const b = st.boards[st.board];
  q('[data-board]').textContent = b ? `‹ ${b.stageId ?? b.stageHash.slice(0, 8)} · ${b.carClass} (${b.players}) ›` : `‹ Daily rally ${st.date} UTC ›`;
  q('[data-view]').textContent = `‹ ${VIEW_LABEL[st.view]} ›`;
  rows.innerHTML = await fetchRows(api, st);
  app.screens.refocus();
}
