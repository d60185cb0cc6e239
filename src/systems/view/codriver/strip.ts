/**
 * The pace-note strip (HUD, top left): the next notes as cards — corner arrow with the severity, caution
 * marks, modifier badges, and the link or distance to the following note. Dark plates with white ink and
 * an outline, so the strip reads on every stage's colours (snow and bright tarmac included).
 */
import './strip.css';
import type { PaceNote } from '../../../../terrain/pacenotes/types';
import { MODIFIER_LABEL, arrowSvg, noteLabel, noteTail } from './icons';
import { escapeHtml } from '../../../app/escape-html';

/** Notes shown at once: the next one large, then the ones after it. */
export const STRIP_NOTES = 3;

function cardHtml(n: PaceNote, index: number): string {
  const corner = n.kind === 'corner' && n.direction !== undefined && n.severity !== undefined;
  const caution = n.caution ? `<div class="pn-caution">${n.caution === 'double caution' ? '!!' : '!'}</div>` : '';
  const icon = corner ? arrowSvg(n.direction!, n.severity!) : '';
  const mods = n.modifiers.map((m) => `<span>${escapeHtml(MODIFIER_LABEL[m])}</span>`).join('');
  return (
    `<div class="pn-card${corner ? '' : ' pn-feature'}" data-note="${index}" data-label="${escapeHtml(noteLabel(n))}">` +
    `${caution}${icon}<div class="pn-label">${escapeHtml(noteLabel(n))}</div>` +
    `<div class="pn-mods">${mods}</div><div class="pn-tail">${escapeHtml(noteTail(n))}</div></div>`
  );
}

export class PaceNoteStrip {
  readonly el: HTMLDivElement;
  private shownFrom = -1;

  constructor(
    parent: HTMLElement,
    private readonly notes: readonly PaceNote[],
  ) {
    this.el = document.createElement('div');
    this.el.className = 'pn-strip';
    this.el.dataset.t = 'pacenotes';
    parent.appendChild(this.el);
  }

  /** Shows the notes from index `from` on (rebuilt only when it changes). */
  show(from: number): void {
    if (from === this.shownFrom) return;
    this.shownFrom = from;
    this.el.innerHTML = this.notes
      .slice(from, from + STRIP_NOTES)
      .map((n, k) => cardHtml(n, from + k))
      .join('');
  }

  dispose(): void {
    this.el.remove();
  }
}
