/**
 * The analysis screen: two stored runs of the same stage overlaid by distance (e.g. before and after a
 * tweak) with the time-delta curve Δ(x) = t_B(x) − t_A(x) (compare.ts). Stage, run A and run B are menu
 * items changed with left/right (gamepad, keyboard) or clicks.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { adjustable, html, registerScreen } from '../screens';
import { compareRuns, type Comparison } from './compare';
import { runChannel, type StoredRun } from './run-log';
import { deleteRun, listRuns } from './run-store';
import './telemetry.css';

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const OVERLAY = ['speed', 'throttle', 'brake', 'steer', 'latG'] as const;

export interface AnalysisHook {
  runs: number;
  points: number;
  finalDeltaS: number | null;
}

declare global {
  interface Window {
    __analysis?: AnalysisHook;
  }
}

export function compareStored(a: StoredRun, b: StoredRun, stepM = 5): Comparison {
  const ser = (r: StoredRun) => ({
    t: runChannel(r, 't')!,
    dist: runChannel(r, 'dist')!,
    channels: Object.fromEntries(OVERLAY.map((c) => [c, runChannel(r, c) ?? new Float64Array(r.samples)])),
  });
  return compareRuns(ser(a), ser(b), stepM);
}

export function registerAnalysisScreen(): void {
  registerScreen('analysis', (ctx, params) => {
    const el = html(
      `<div class="analysis">
        <div class="analysis-side">
          <h2>Run analysis</h2>
          <div class="item" data-k="stage">Stage <span class="val"></span></div>
          <div class="item" data-k="a">Run A <span class="val"></span></div>
          <div class="item" data-k="b">Run B <span class="val"></span></div>
          <button class="item" data-a="delete">Delete run B</button>
          <button class="item default" data-a="back">Back</button>
          <div class="hint-inline">←/→ change · the delta is B − A (positive: B slower there)</div>
        </div>
        <div class="analysis-charts"><div class="analysis-summary"></div><div class="analysis-plots"></div></div>
      </div>`,
      'screen analysis-screen',
    );
    const hook: AnalysisHook = { runs: 0, points: 0, finalDeltaS: null };
    window.__analysis = hook;
    let runs: StoredRun[] = [];
    let stages: string[] = [];
    let si = 0, ai = 1, bi = 0;
    let plots: uPlot[] = [];
    const summary = el.querySelector<HTMLElement>('.analysis-summary')!;
    const plotsEl = el.querySelector<HTMLElement>('.analysis-plots')!;
    const val = (k: string): HTMLElement => el.querySelector<HTMLElement>(`[data-k="${k}"] .val`)!;
    const stageRuns = (): StoredRun[] => runs.filter((r) => r.stageId === stages[si]);

    const render = (): void => {
      for (const p of plots) p.destroy();
      plots = [];
      plotsEl.innerHTML = '';
      const list = stageRuns();
      hook.runs = runs.length;
      val('stage').textContent = stages[si] ?? '—';
      const A = list[ai], B = list[bi];
      val('a').textContent = A?.label ?? '—';
      val('b').textContent = B?.label ?? '—';
      if (!A || !B) {
        summary.textContent = runs.length === 0 ? 'No runs yet: finish a stage and its telemetry is kept here.' : 'Need two runs of this stage to compare.';
        hook.points = 0;
        hook.finalDeltaS = null;
        return;
      }
      const c = compareStored(A, B);
      const n = c.x.length;
      hook.points = n;
      hook.finalDeltaS = n ? c.delta[n - 1]! : null;
      summary.innerHTML = `A: ${esc(A.label)} · B: ${esc(B.label)} · over ${n ? (c.x[n - 1]! - c.x[0]!).toFixed(0) : 0} m: Δ = <b>${n ? (c.delta[n - 1]! >= 0 ? '+' : '') + c.delta[n - 1]!.toFixed(2) : '—'} s</b>`;
      const W = Math.max(400, plotsEl.clientWidth - 20);
      const mk = (title: string, series: { label: string; color: string; data: Float64Array }[], h = 150): void => {
        const box = document.createElement('div');
        plotsEl.appendChild(box);
        plots.push(
          new uPlot(
            {
              title,
              width: W,
              height: h,
              scales: { x: { time: false } },
              axes: [{ stroke: '#aaa', grid: { stroke: 'rgba(255,255,255,0.08)' }, label: 'distance m' }, { stroke: '#aaa', grid: { stroke: 'rgba(255,255,255,0.08)' } }],
              series: [{ label: 'm' }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5, points: { show: false } }))],
            },
            [c.x, ...series.map((s) => s.data)] as uPlot.AlignedData,
            box,
          ),
        );
      };
      mk('time delta B − A (s)', [{ label: 'Δ', color: '#ffb020', data: c.delta }], 170);
      for (const ch of OVERLAY) {
        const pair = c.channels[ch];
        if (pair) mk(ch, [{ label: 'A', color: '#4cf', data: pair[0] }, { label: 'B', color: '#f66', data: pair[1] }], 110);
      }
    };

    const load = async (): Promise<void> => {
      runs = await listRuns();
      stages = [...new Set(runs.map((r) => r.stageId))];
      const want = typeof params.stageId === 'string' ? stages.indexOf(params.stageId) : -1;
      si = want >= 0 ? want : 0;
      ai = 1;
      bi = 0;
      render();
    };
    const cycle = (k: string, dir: number): void => {
      const list = stageRuns();
      if (k === 'stage' && stages.length) {
        si = (si + dir + stages.length) % stages.length;
        ai = 1;
        bi = 0;
      } else if (k === 'a' && list.length) ai = (ai + dir + list.length) % list.length;
      else if (k === 'b' && list.length) bi = (bi + dir + list.length) % list.length;
      render();
    };
    el.querySelectorAll<HTMLElement>('[data-k]').forEach((it) => {
      adjustable(it, (d) => cycle(it.dataset.k!, d));
      it.onclick = () => cycle(it.dataset.k!, 1);
    });
    const back = (): void => ctx.show(typeof params.from === 'string' ? params.from : 'title');
    el.querySelector<HTMLElement>('[data-a="back"]')!.onclick = back;
    el.querySelector<HTMLElement>('[data-a="delete"]')!.onclick = async () => {
      const B = stageRuns()[bi];
      if (!B) return;
      await deleteRun(B.id);
      await load();
    };
    void load();
    return {
      el,
      back,
      dispose: () => {
        for (const p of plots) p.destroy();
        if (window.__analysis === hook) delete window.__analysis;
      },
    };
  });
}
