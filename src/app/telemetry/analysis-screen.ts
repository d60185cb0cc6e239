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
import { escapeHtml as esc } from '../escape-html';

const OVERLAY = ['speed', 'throttle', 'brake', 'steer', 'latG'] as const;
/** Chart title, y-axis label (with units) and display scale of each overlaid channel (stored: km/h, 0..1, g). */
const OVERLAY_AXES: Record<(typeof OVERLAY)[number], { title: string; y: string; k: number }> = {
  speed: { title: 'Speed', y: 'speed (km/h)', k: 1 },
  throttle: { title: 'Throttle', y: 'throttle (%)', k: 100 },
  brake: { title: 'Brake', y: 'brake (%)', k: 100 },
  steer: { title: 'Steering', y: 'steer (% lock, + left)', k: 100 },
  latG: { title: 'Lateral acceleration', y: 'lateral (g, + left)', k: 1 },
};
const COLOR_A = '#4cf';
const COLOR_B = '#f66';

export interface AnalysisHook {
  runs: number;
  points: number;
  finalDeltaS: number | null;
  /** Labels of the runs shown as A and B (null: none). */
  a: string | null;
  b: string | null;
  /** Titles, axis labels and legend entries of the drawn charts (e2e: the charts say what they show). */
  charts: { title: string; axes: string[]; legend: string[] }[];
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
    const el = analysisMarkup();
    const hook: AnalysisHook = { runs: 0, points: 0, finalDeltaS: null, a: null, b: null, charts: [] };
    window.__analysis = hook;
    const st: Picks = { runs: [], stages: [], si: 0, ai: 1, bi: 0, plots: [] };
    const render = (): void => renderAnalysis(el, st, hook);
    const load = async (): Promise<void> => {
      await loadRuns(st, params);
      render();
    };
    const cycle = (k: string, dir: number): void => {
      cyclePick(st, k, dir);
      render();
    };
    el.querySelectorAll<HTMLElement>('[data-k]').forEach((it) => {
      adjustable(it, (d) => cycle(it.dataset.k!, d));
      it.onclick = () => cycle(it.dataset.k!, 1);
    });
    const back = (): void =>
      ctx.show(typeof params.from === 'string' ? params.from : 'title', (params.backParams as Record<string, unknown> | undefined) ?? {});
    el.querySelector<HTMLElement>('[data-a="back"]')!.onclick = back;
    el.querySelector<HTMLElement>('[data-a="delete"]')!.onclick = async () => {
      const B = stageRuns(st)[st.bi];
      if (!B) return;
      await deleteRun(B.id);
      await load();
    };
    void load();
    return {
      el,
      back,
      dispose: () => {
        for (const p of st.plots) p.destroy();
        if (window.__analysis === hook) delete window.__analysis;
      },
    };
  });
}

function analysisMarkup(): HTMLElement {
  return html(
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
}

/** What the screen shows: the stored runs, the stage picked (index si) and runs A and B among its runs. */
interface Picks {
  runs: StoredRun[];
  stages: string[];
  si: number;
  ai: number;
  bi: number;
  plots: uPlot[];
}

const stageRuns = (st: Picks): StoredRun[] => st.runs.filter((r) => r.stageId === st.stages[st.si]);

/**
 * Loads the stored runs and picks the newest two of the stage. Opened from the finish screen (`runTimeS`):
 * B = that run, A = the run of the stage before it. Its telemetry is stored when the finish is seen
 * (TelemetryService.poll, IndexedDB), so wait for it briefly.
 */
async function loadRuns(st: Picks, params: Record<string, unknown>): Promise<void> {
  const justFinished = typeof params.runTimeS === 'number' ? params.runTimeS : null;
  const isJust = (r: StoredRun): boolean => r.stageId === params.stageId && justFinished !== null && r.timeS !== null && Math.abs(r.timeS - justFinished) < 1e-9;
  st.runs = await listRuns();
  for (let tries = 0; justFinished !== null && !st.runs.some(isJust) && tries < 25; tries++) {
    await new Promise((res) => setTimeout(res, 200));
    st.runs = await listRuns();
  }
  st.stages = [...new Set(st.runs.map((r) => r.stageId))];
  const want = typeof params.stageId === 'string' ? st.stages.indexOf(params.stageId) : -1;
  st.si = want >= 0 ? want : 0;
  // newest first: B = the newest run (or the one just finished), A = the one before it
  const j = stageRuns(st).findIndex(isJust);
  st.bi = j >= 0 ? j : 0;
  st.ai = st.bi + 1; // none (a single run): the screen says so
}

/** Left/right on the stage, run A or run B item; a new stage starts again from its newest two runs. */
function cyclePick(st: Picks, k: string, dir: number): void {
  const list = stageRuns(st);
  if (k === 'stage' && st.stages.length) {
    st.si = (st.si + dir + st.stages.length) % st.stages.length;
    st.ai = 1;
    st.bi = 0;
  } else if (k === 'a' && list.length) st.ai = (st.ai + dir + list.length) % list.length;
  else if (k === 'b' && list.length) st.bi = (st.bi + dir + list.length) % list.length;
}

/** Redraws the picks' labels and, when two runs are picked, the summary and charts. */
function renderAnalysis(el: HTMLElement, st: Picks, hook: AnalysisHook): void {
  const summary = el.querySelector<HTMLElement>('.analysis-summary')!;
  const plotsEl = el.querySelector<HTMLElement>('.analysis-plots')!;
  const val = (k: string): HTMLElement => el.querySelector<HTMLElement>(`[data-k="${k}"] .val`)!;
  for (const p of st.plots) p.destroy();
  st.plots = [];
  plotsEl.innerHTML = '';
  const list = stageRuns(st);
  hook.runs = st.runs.length;
  val('stage').textContent = st.stages[st.si] ?? '—';
  const A = list[st.ai], B = list[st.bi];
  val('a').textContent = A?.label ?? '—';
  val('b').textContent = B?.label ?? '—';
  hook.a = A?.label ?? null;
  hook.b = B?.label ?? null;
  hook.charts = [];
  if (!A || !B) {
    summary.textContent =
      st.runs.length === 0
        ? 'No runs yet: finish a stage and its telemetry is kept here.'
        : list.length === 1
          ? 'This is the only run of this stage with telemetry: drive it again to compare.'
          : 'Need two runs of this stage to compare.';
    hook.points = 0;
    hook.finalDeltaS = null;
    return;
  }
  st.plots = drawComparison(summary, plotsEl, A, B, hook);
}

/** One chart series: its legend label, colour and values (dashed when `dash` is set). */
interface Series {
  label: string;
  color: string;
  data: Float64Array;
  dash?: number[];
}

/** The summary line, the Δt chart and one overlay chart per channel of runs A and B. */
function drawComparison(summary: HTMLElement, plotsEl: HTMLElement, A: StoredRun, B: StoredRun, hook: AnalysisHook): uPlot[] {
  const c = compareStored(A, B);
  const n = c.x.length;
  hook.points = n;
  hook.finalDeltaS = n ? c.delta[n - 1]! : null;
  const dEnd = n ? c.delta[n - 1]! : 0;
  summary.innerHTML =
    `<span class="run-a">━━ A: ${esc(A.label)}</span> <span class="run-b">╍╍ B: ${esc(B.label)}</span><br>` +
    `over ${n ? (c.x[n - 1]! - c.x[0]!).toFixed(0) : 0} m B is <b>${n ? Math.abs(dEnd).toFixed(2) : '—'} s ${dEnd > 0 ? 'slower' : dEnd < 0 ? 'faster' : 'level'}</b> than A (Δt = t_B − t_A at the same distance)`;
  const W = Math.max(400, plotsEl.clientWidth - 20);
  const plots: uPlot[] = [];
  const mk = (title: string, yLabel: string, series: Series[], h: number): void => {
    hook.charts.push({ title, axes: ['distance (m)', yLabel], legend: series.map((s) => s.label) });
    plots.push(makeChart(plotsEl, c.x, title, yLabel, series, W, h));
  };
  mk('Time delta B − A (positive: B slower)', 'Δt (s)', [{ label: 'Δt = t_B − t_A (s)', color: '#ffb020', data: c.delta }], 190);
  const la = `A: ${A.label}`;
  const lb = `B: ${B.label}`;
  for (const ch of OVERLAY) {
    const pair = c.channels[ch];
    if (!pair) continue;
    const ax = OVERLAY_AXES[ch];
    const scaled = (v: Float64Array): Float64Array => (ax.k === 1 ? v : v.map((x) => x * ax.k));
    // B dashed over a solid A: where the runs agree both stay visible
    mk(ax.title, ax.y, [{ label: la, color: COLOR_A, data: scaled(pair[0]) }, { label: lb, color: COLOR_B, data: scaled(pair[1]), dash: [6, 4] }], 150);
  }
  return plots;
}

/** A chart axis; y ticks every ≥ 22 px (a 150-px chart gets 4–5 labelled ticks), x every ≥ 60 px. */
const chartAxis = (label: string, space: number): uPlot.Axis => ({ stroke: '#ccc', grid: { stroke: 'rgba(255,255,255,0.08)' }, ticks: { stroke: 'rgba(255,255,255,0.2)' }, label, labelSize: 18, labelFont: '12px sans-serif', font: '11px sans-serif', size: 52, space });

/** One uPlot chart of `series` over distance `x`, appended to `plotsEl`. */
function makeChart(plotsEl: HTMLElement, x: Float64Array, title: string, yLabel: string, series: Series[], width: number, height: number): uPlot {
  const box = document.createElement('div');
  plotsEl.appendChild(box);
  return new uPlot(
    {
      title,
      width,
      height,
      scales: { x: { time: false } },
      axes: [chartAxis('distance along the stage (m)', 60), chartAxis(yLabel, 22)],
      series: [{ label: 'distance (m)' }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: s.dash ? 1.5 : 2, dash: s.dash, points: { show: false } }))],
    },
    [x, ...series.map((s) => s.data)] as uPlot.AlignedData,
    box,
  );
}
