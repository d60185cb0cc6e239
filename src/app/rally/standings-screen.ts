/**
 * 'rally-standings': the classification of a stage (params.stage) and the overall classification, the player's
 * row highlighted; from here the rally goes on (next stage or service park) or, at the end, closes.
 */
import { html, registerScreen } from '../screens';
import { escapeHtml as esc } from '../escape-html';
import { formatTime } from '../../run/stage-run';
import { overallClassification, stageClassification, type OverallRow } from '../../run/rally/classification';
import type { RallyController } from './controller';
import { rallyStageName } from './stage-source';
import { damageLine } from './run-screens';

const gap = (t: number, best: number): string => (t > best ? `+${(t - best).toFixed(3)}` : '');

function stageTable(rc: RallyController, k: number): string {
  const s = rc.state!;
  const cls = stageClassification(s, k);
  const title = `<h3>SS${k + 1} · ${esc(rallyStageName(s.stages[k]!))}</h3>`;
  if (!cls) return `${title}<div class="sub" data-pending>Rival times: the AI drivers are still running the stage…</div>`;
  const best = cls[0]!.timeS;
  const rows = cls.map((c, i) => `<tr class="${c.isPlayer ? 'rally-me' : ''}"><td>${i + 1}</td><td>${esc(c.name)}</td><td>${formatTime(c.timeS)}${c.retired ? ' (retired: slowest + 5:00)' : ''}</td><td>${gap(c.timeS, best)}</td></tr>`);
  return `${title}<table class="rally-table" data-stage-table>${rows.join('')}</table>`;
}

function overallTable(rows: OverallRow[]): string {
  const best = rows[0]?.totalS ?? 0;
  const body = rows.map(
    (r, i) =>
      `<tr class="${r.isPlayer ? 'rally-me' : ''}" data-overall-row="${r.isPlayer ? 'me' : 'rival'}"><td>${i + 1}</td><td>${esc(r.name)}</td><td data-total>${formatTime(r.totalS)}</td><td>${gap(r.totalS, best)}</td>` +
      `<td>${r.penaltyS > 0 ? `incl. ${r.penaltyS} s penalty` : ''}${r.retirements > 0 ? ` ${r.retirements} retired` : ''}</td></tr>`,
  );
  return `<h3>Overall</h3><table class="rally-table" data-overall>${body.join('')}</table>`;
}

export function registerStandings(rc: RallyController): void {
  registerScreen('rally-standings', (ctx, params) => {
    const s = rc.state;
    if (!s) return { el: html('<h2>No rally in progress</h2>'), back: () => ctx.show('rally') };
    const step = rc.next()!;
    const k = typeof params.stage === 'number' ? params.stage : s.results.length - 1;
    const final = step.kind === 'finished';
    const el = html(`<h2>${esc(s.name)} · ${final ? 'final classification' : `after ${s.results.length} of ${s.stages.length} stages`}</h2>
      <div class="rally-tables"><div data-stage></div><div data-overall-box></div></div><div class="sub">${esc(damageLine(s.damage))}</div>
      <button class="item default" data-a="go">${final ? 'Finish the rally' : step.kind === 'service' ? 'Go to the service park' : `Go to SS${step.stage + 1}`}</button>
      <button class="item" data-a="menu">Rally menu</button>
      <div class="hint">A: select · B: back</div>`);
    const render = (): void => {
      el.querySelector('[data-stage]')!.innerHTML = k >= 0 && k < s.results.length ? stageTable(rc, k) : '';
      el.querySelector('[data-overall-box]')!.innerHTML = overallTable(overallClassification(rc.state ?? s));
    };
    render();
    // rival times still computing: redraw when they arrive
    if (k >= 0 && !s.rivalTimes[k]) void rc.rivalsReady(k).then(() => el.isConnected && render());
    el.querySelector<HTMLElement>('[data-a="go"]')!.onclick = () => (final ? void rc.close().then(() => ctx.show('title')) : rc.proceed());
    el.querySelector<HTMLElement>('[data-a="menu"]')!.onclick = () => ctx.show('rally');
    const from = typeof params.from === 'string' ? params.from : 'rally';
    return { el, back: () => (from === 'rally-stage' ? ctx.show(from, { stage: params.stage }) : ctx.show(from)) };
  });
}
