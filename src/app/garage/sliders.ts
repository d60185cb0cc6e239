/**
 * Setup sliders: one range input per `[setup]` entry. Moving a slider calls `onMove(slider, value)`; the
 * garage turns that into one surgical text edit (numberEdit), and text edits flow back through `sync`.
 * Gamepad/keyboard: each row is a menu item adjusted with left/right by one step.
 */
import { adjustable } from '../screens';
import { formatStepped } from './toml-spans';
import type { SetupSlider } from './car-draft';
import { escapeHtml as esc } from '../escape-html';


export class SliderPanel {
  readonly el: HTMLDivElement;
  private rows = new Map<string, { row: HTMLElement; input: HTMLInputElement; val: HTMLElement; s: SetupSlider }>();
  private keys = '';

  constructor(private readonly onMove: (s: SetupSlider, value: number) => void) {
    this.el = document.createElement('div');
    this.el.className = 'garage-sliders';
  }

  /** Show the sliders of the current text; `null` = the text does not parse (sliders go stale). */
  sync(sliders: SetupSlider[] | null): void {
    this.el.classList.toggle('stale', sliders === null);
    if (!sliders) return;
    const keys = sliders.map((s) => `${s.key}|${s.min}|${s.max}|${s.step}`).join('\n');
    if (keys !== this.keys) this.build(sliders);
    for (const s of sliders) {
      const r = this.rows.get(s.key);
      if (!r) continue;
      r.s = s;
      if (s.value !== null && document.activeElement !== r.input) r.input.value = String(s.value);
      r.val.textContent = s.value === null ? '—' : formatStepped(s.value, s.step, s.min);
      r.row.classList.toggle('inherited', !s.written);
    }
  }

  private build(sliders: SetupSlider[]): void {
    this.keys = sliders.map((s) => `${s.key}|${s.min}|${s.max}|${s.step}`).join('\n');
    this.el.innerHTML = sliders.length ? '<h3>Setup</h3>' : '<h3>Setup</h3><div class="garage-note">This car declares no [setup] ranges.</div>';
    this.rows.clear();
    for (const s of sliders) {
      const row = document.createElement('label');
      row.className = 'item garage-slider';
      row.dataset.key = s.key;
      row.innerHTML = `<span class="k" title="${esc(s.key)}">${esc(s.key.split('.').slice(-2).join(' · '))}</span>
        <input type="range" min="${s.min}" max="${s.max}" step="${s.step}" value="${s.value ?? s.min}">
        <span class="val"></span>`;
      const input = row.querySelector('input')!;
      const val = row.querySelector<HTMLElement>('.val')!;
      const entry = { row, input, val, s };
      input.addEventListener('input', () => this.onMove(entry.s, Number(input.value)));
      // after a mouse drag, give the arrows back to the menu (else they would move the slider twice)
      input.addEventListener('change', () => input.blur());
      adjustable(row, (dir) => {
        const cur = entry.s.value ?? entry.s.min;
        const next = Math.min(entry.s.max, Math.max(entry.s.min, cur + dir * entry.s.step));
        input.value = String(next);
        this.onMove(entry.s, next);
      });
      this.rows.set(s.key, entry);
      this.el.appendChild(row);
    }
  }
}
