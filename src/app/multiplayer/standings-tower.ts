/**
 * The race room's standings on the drive's HUD (src/net/standings.ts): the player's position "P2/4" in large
 * type and a small tower of every car (position, name, the leader's lap or the gap to the leader), the player's
 * row marked; on the HUD's dark backing plate so it reads on snow and sky. Hidden until the room's first standings.
 */
import { escapeHtml as esc } from '../escape-html';
import { gapText, positionText, type Standings } from '../../net/standings';

/** Rows the tower lists at most; the player's row is always shown (as the last row when it is further down). */
export const TOWER_ROWS = 8;

/** The tower's markup for `s` seen by the car in `mySlot`. */
export function standingsTowerHtml(s: Standings, mySlot: number): string {
  const leader = s.rows[0];
  if (!leader) return '';
  const mine = s.rows.findIndex((r) => r.slot === mySlot);
  const shown = s.rows.map((r, i) => ({ r, i })).filter(({ i }) => i < TOWER_ROWS - 1 || i === mine || (mine < TOWER_ROWS && i === TOWER_ROWS - 1));
  const rows = shown
    .map(({ r, i }) => `<div class="mp-standings-row${r.slot === mySlot ? ' mp-me' : ''}" data-slot="${r.slot}"><b>${i + 1}</b><span>${esc(r.name)}</span><i>${gapText(r, leader)}</i></div>`)
    .join('');
  return `<div class="mp-position" data-mp-position>${positionText(s, mySlot) ?? ''}</div>${rows}`;
}

export class StandingsTower {
  readonly el: HTMLDivElement;
  private html = '';

  constructor(parent: HTMLElement) {
    this.el = document.createElement('div');
    this.el.className = 'mp-standings hud-plate';
    this.el.dataset.mpStandings = '';
    this.el.hidden = true;
    parent.appendChild(this.el);
  }

  /** The room's latest standings; writes the DOM only when the tower's text changed. */
  show(s: Standings, mySlot: number): void {
    const html = standingsTowerHtml(s, mySlot);
    this.el.hidden = html === '';
    if (html === this.html) return;
    this.html = html;
    this.el.innerHTML = html;
  }
}
