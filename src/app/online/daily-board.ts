/**
 * The Leaderboards screen's "Daily rally" board: today's (UTC) whole-rally totals from the server
 * (GET /api/rallies/daily/:date: the sum of each player's best verified time on every stage of the day's rally,
 * in the day's car). Rows show the rank, the name (as text), the total and each stage's time; they are focusable
 * (the pad scrolls through them) but carry no ghost: a total is four runs, raced one stage at a time from the
 * stage boards.
 */
import { escapeHtml as esc } from '../escape-html';
import { formatTime } from '../../run/stage-run';
import type { OnlineApi, RallyTotalRow } from './api';

function rallyRow(r: RallyTotalRow, me: string): string {
  const mine = r.playerId === me ? ' lb-me' : '';
  const stages = r.stageTimesS.map((t) => formatTime(t)).join(' · ');
  return `<button class="item lb-row lb-rally${mine}" data-player="${esc(r.playerId)}"><span>${r.rank}</span><span data-rowname>${esc(r.name)}</span><span>${formatTime(r.totalS)}</span><span class="lb-stages">${stages}</span></button>`;
}

/** The rows of today's daily-rally board: the top `limit`, or `span` players either side of `me`. */
export async function dailyRallyRows(api: OnlineApi, date: string, view: { around: boolean; me: string; limit: number; span: number }): Promise<string> {
  const r = view.around ? await api.dailyRallyAround(date, view.me, view.span) : await api.dailyRally(date, view.limit);
  const n = r.rally.stages.length;
  const head = `<div class="sub" data-rally-head>Daily rally ${esc(r.rally.date)} · ${esc(r.rally.carClass)} · total of the best verified time on each of the ${n} stages · ${r.rally.players} classified</div>`;
  if (!r.rows.length) return `${head}<div class="sub">${view.around ? `You have no verified run on every stage yet` : 'Nobody has a verified run on every stage yet'}</div>`;
  return head + r.rows.map((row) => rallyRow(row, view.me)).join('');
}
