/**
 * Car test results in the garage: the edited car beside the previous version (the drivable one: the file
 * as shipped / last applied / last saved), with the difference.
 */
import type { CarConfig } from '../../content/car-schema';
import type { CarTestResult } from '../../run/car-test';
import { CarTestRunner } from './runner';
import { escapeHtml as esc } from '../escape-html';

export interface CarTestInputs {
  edited: { config: CarConfig; text: string } | null;
  previous: { config: CarConfig; text: string } | null;
}

const fmt = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? '—' : Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(2));

export function resultsTable(edited: CarTestResult[] | null, previous: CarTestResult[] | null): string {
  const names = [...new Set([...(previous ?? []).map((r) => r.name), ...(edited ?? []).map((r) => r.name)])];
  const rows = names.map((n) => {
    const a = previous?.find((r) => r.name === n);
    const b = edited?.find((r) => r.name === n);
    const d = a && b ? b.value - a.value : undefined;
    return `<tr title="${esc((b ?? a)!.method)}"><td>${esc(n)}</td><td>${fmt(a?.value)}</td><td>${fmt(b?.value)}</td><td class="${d === undefined || d === 0 ? '' : 'delta'}">${d === undefined ? '' : (d > 0 ? '+' : '') + fmt(d)}</td><td>${esc((b ?? a)!.unit)}</td></tr>`;
  });
  return `<table class="car-test"><thead><tr><th>test</th><th>previous</th><th>edited</th><th>Δ</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export class CarTestPanel {
  readonly el: HTMLDivElement;
  private readonly runner = new CarTestRunner();
  private token = 0;
  /** Last results (for the e2e hook): [previous, edited]. */
  last: [CarTestResult[] | null, CarTestResult[] | null] = [null, null];

  constructor(private readonly inputs: () => CarTestInputs) {
    this.el = document.createElement('div');
    this.el.className = 'garage-cartest';
    this.reset();
  }

  reset(): void {
    this.token++;
    this.last = [null, null];
    this.el.innerHTML = '<h3>Car test</h3><div class="garage-note">0–100 km/h, braking, skidpad and understeer gradient on flat tarmac, run headless in a worker.</div>';
  }

  async run(): Promise<void> {
    const { edited, previous } = this.inputs();
    const token = ++this.token;
    if (!edited) {
      this.el.innerHTML = '<h3>Car test</h3><div class="garage-note bad">Fix the file first: the test runs the same loader as the game.</div>';
      return;
    }
    this.el.innerHTML = '<h3>Car test</h3><div class="garage-note">Running…</div>';
    try {
      const [p, e] = await Promise.all([previous ? this.runner.run(previous.config, previous.text) : Promise.resolve(null), this.runner.run(edited.config, edited.text)]);
      if (token !== this.token) return;
      this.last = [p, e];
      this.el.innerHTML = `<h3>Car test</h3>${resultsTable(e, p)}`;
      this.el.dataset.done = String(token);
    } catch (err) {
      if (token !== this.token) return;
      this.el.innerHTML = `<h3>Car test</h3><div class="garage-note bad">${esc((err as Error).message)}</div>`;
    }
  }

  dispose(): void {
    this.token++;
    this.runner.dispose();
  }
}
