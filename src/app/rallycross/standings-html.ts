/**
 * Markup of the rallycross standings (the live HUD board and the results table). Driver names and car ids
 * will come from other players over the network: every one passes through `escapeHtml`, so a name shows as
 * the text it is (tests/app/escape-html.test.ts).
 */
import { formatClock } from '../../systems/view/hud';
import { escapeHtml as esc } from '../escape-html';

/** One row of the standings (RallycrossSession.standings()). */
export interface Standing {
  name: string;
  carId: string;
  lap: number;
  /** Finish time on the road (null before the flag) and the penalties added for the result, s. */
  finishS: number | null;
  penaltyS: number;
  /** Joker lap taken (count) and jump start. */
  jokers: number;
  jumpStart: boolean;
  player: boolean;
}

const JOKER_BADGE =
  ' <span title="joker lap taken" style="color:#ff8a1e;font-size:11px;font-weight:700;border:1px solid #ff8a1e;border-radius:3px;padding:0 3px">JOKER</span>';

/** One line of the HUD board: position, name, car, joker badge, time and penalty. */
export function boardLineHtml(s: Standing, i: number): string {
  const time = s.finishS !== null ? ` — ${formatClock(s.finishS + s.penaltyS)}` : '';
  const pen = s.penaltyS > 0 ? ` <span style="color:#ff6b5a">+${s.penaltyS} s</span>` : '';
  return `<div style="${s.player ? 'color:#ffd23c;font-weight:600' : ''}">${i + 1}. ${esc(s.name)} <span style="opacity:.7">${esc(s.carId)}</span>${s.jokers > 0 ? JOKER_BADGE : ''}${time}${pen}</div>`;
}

/** One row of the results table. */
export function resultRowHtml(s: Standing, i: number): string {
  const time = s.finishS !== null ? formatClock(s.finishS + s.penaltyS) : `racing, lap ${s.lap}`;
  const pen = s.penaltyS > 0 ? ` <span class="rx-pen">incl. +${s.penaltyS} s${s.jumpStart ? ' jump start' : ''}${s.jokers !== 1 && s.finishS !== null ? ' joker' : ''}</span>` : '';
  return `<tr data-standing class="${s.player ? 'rx-me' : ''}"><td>${i + 1}.</td><td>${esc(s.name)}</td><td class="rx-car">${esc(s.carId)}</td><td class="rx-time">${time}${pen}</td></tr>`;
}
