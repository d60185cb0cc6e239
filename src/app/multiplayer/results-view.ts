/**
 * 'multiplayer-results': the room's results (src/net/results.ts) over the stopped drive, shown once this car has
 * finished or retired: position, name (the players' own text, so escaped), car, the server's time and the gap to
 * the winner (a race room's also the laps and the penalties in the time), "DNF" with why for retired cars, "racing…" for those still on the stage. It updates as the room sends
 * more results and says when they are final. Back to the title (A on the one button, or B) leaves the room; a
 * finished car keeps its time.
 */
import { html, registerScreen } from '../screens';
import { CARS } from '../cars';
import { escapeHtml as esc } from '../escape-html';
import { formatDelta, formatTime } from '../../run/stage-run';
import type { ResultRow, RetireReason, RoomResults } from '../../net/results';
import { leaveRoom, type MultiplayerState } from './state';

const RETIRED_TEXT: Record<RetireReason, string> = { retired: 'DNF · retired', disconnect: 'DNF · connection lost', left: 'DNF · left', 'time-limit': 'DNF · time limit' };

/** The time cell: the server's time, or why there is none. */
function timeCell(r: ResultRow): string {
  if (r.status === 'finished') return formatTime(r.timeS!);
  return r.status === 'dnf' ? RETIRED_TEXT[r.retired ?? 'left'] : 'racing…';
}

/**
 * A race room's two extra cells: the laps the room counted for the car (finished, racing or retired; "–" only
 * when the room sent none) and the penalties its time includes (recoveries, joker), as the room counted them.
 */
function raceCells(r: ResultRow, laps: number): string {
  const done = r.laps === null ? '–' : `${Math.min(r.laps, laps)}/${laps}`;
  const pen = r.status === 'finished' && r.penaltyS! > 0 ? `+${r.penaltyS!.toFixed(0)} s` : '';
  return `<td data-laps>${done}</td><td class="mp-pen" data-penalty>${pen}</td>`;
}

/** The results table's header row (a race room's: with Laps and Penalty). */
export function resultsHeadHtml(laps: number | null): string {
  return `<tr><th>#</th><th>Player</th><th>Car</th><th>Time</th>${laps === null ? '' : '<th>Laps</th><th>Penalty</th>'}<th>Gap</th></tr>`;
}

/** The results table's rows; `mySlot`'s row is marked (class mp-me); `laps`: a race room's laps (null: a stage room). */
export function resultsRowsHtml(r: RoomResults, mySlot: number, laps: number | null = null): string {
  const carName = (id: string): string => CARS().find((c) => c.id === id)?.name ?? id;
  const best = r.rows.find((x) => x.status === 'finished')?.timeS ?? null;
  return r.rows
    .map((x) => {
      const gap = x.status === 'finished' && best !== null && x.rank !== 1 ? formatDelta(x.timeS! - best) : '';
      const cls = `${x.slot === mySlot ? 'mp-me' : ''} mp-${x.status}`;
      const race = laps === null ? '' : raceCells(x, laps);
      return `<tr class="${cls}" data-slot="${x.slot}" data-status="${x.status}"><td>${x.rank ?? '–'}</td><td>${esc(x.name)}</td><td>${esc(carName(x.car))}</td><td data-time>${timeCell(x)}</td>${race}<td>${gap}</td></tr>`;
    })
    .join('');
}

/** This car's race is over (finished or retired), or the room's results are final: the drive shows the results. */
export function raceOverFor(r: RoomResults | null, mySlot: number | undefined): boolean {
  if (!r || mySlot === undefined) return false;
  return r.final || r.rows.some((x) => x.slot === mySlot && x.status !== 'racing');
}

export function registerResultsScreen(mp: MultiplayerState): void {
  registerScreen('multiplayer-results', (ctx) => {
    const mySlot = mp.client?.seat.slot ?? -1;
    const laps = mp.client?.seat.laps ?? null;
    const el = html(`<h2>Results</h2>
      <table class="mp-seats mp-results" data-mp-results></table>
      <div class="sub" data-mp-results-status></div>
      <button class="item default" data-k="title">Back to the title</button>
      <div class="hint">Times are the room's, from each car's own states · A / B: back to the title</div>`, 'screen overlay');
    const table = el.querySelector<HTMLElement>('[data-mp-results]')!;
    const status = el.querySelector<HTMLElement>('[data-mp-results-status]')!;
    let shown: RoomResults | null = null;
    const leave = (): void => void leaveRoom(mp).then(() => ctx.show('title'));
    el.querySelector<HTMLElement>('[data-k="title"]')!.onclick = leave;
    const update = (): void => {
      const r = mp.results;
      if (!r || r === shown) return;
      shown = r;
      table.innerHTML = `${resultsHeadHtml(laps)}${resultsRowsHtml(r, mySlot, laps)}`;
      status.textContent = r.final ? 'Final results' : 'Waiting for the others to finish…';
    };
    update();
    return { el, overlay: true, update, back: leave };
  });
}
