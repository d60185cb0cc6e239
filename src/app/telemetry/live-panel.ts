/**
 * The live telemetry panel (toggle with T, or the Telemetry button of the pause menu hook): uPlot charts of
 * the last 10 s — speed; rpm and gear; throttle, brake and steer; per-wheel slip ratio, slip angle, load and
 * suspension travel; lateral and longitudinal g — and a friction circle per tyre. Redraws at ~8 Hz from the
 * ring buffer filled per tick by TelemetryService.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CH, type Channel } from './channels';
import type { TelemetryRing } from './ring';
import { FrictionCircles } from './friction-circle';
import './telemetry.css';

const WHEEL_COLORS = ['#ff5a5a', '#ffb020', '#4cc3ff', '#7ddc5a'];

interface ChartDef {
  title: string;
  series: { ch: Channel; label: string; color: string; scale?: string }[];
  range?: [number, number];
  scale2?: { key: string; range?: [number, number] };
}

const wheelSeries = (prefix: string): ChartDef['series'] =>
  (['fl', 'fr', 'rl', 'rr'] as const).map((w, i) => ({ ch: `${prefix}_${w}` as Channel, label: w.toUpperCase(), color: WHEEL_COLORS[i]! }));

export const CHARTS: ChartDef[] = [
  { title: 'speed km/h', series: [{ ch: 'speed', label: 'speed', color: '#4cf' }] },
  { title: 'rpm · gear', series: [{ ch: 'rpm', label: 'rpm', color: '#ffb020' }, { ch: 'gear', label: 'gear', color: '#ddd', scale: 'gear' }], scale2: { key: 'gear', range: [-1, 7] } },
  { title: 'inputs', series: [{ ch: 'throttle', label: 'throttle', color: '#5d5' }, { ch: 'brake', label: 'brake', color: '#f55' }, { ch: 'steer', label: 'steer', color: '#4cf' }], range: [-1, 1] },
  { title: 'slip ratio', series: wheelSeries('slip') },
  { title: 'slip angle °', series: wheelSeries('alpha') },
  { title: 'load N', series: wheelSeries('load') },
  { title: 'travel mm', series: wheelSeries('travel') },
  { title: 'g', series: [{ ch: 'latG', label: 'lat', color: '#4cf' }, { ch: 'longG', label: 'long', color: '#ffb020' }] },
];

export interface TelemetryPanelHook {
  visible: boolean;
  /** Chart redraws so far, and the sample count / last speed of the last redraw. */
  redraws: number;
  samples: number;
  lastSpeedKmh: number;
  lastT: number;
}

declare global {
  interface Window {
    __telemetry?: TelemetryPanelHook;
  }
}

export class TelemetryPanel {
  readonly el: HTMLDivElement;
  private plots: uPlot[] = [];
  private readonly circles = new FrictionCircles(300);
  private bufs: Float64Array[][] = [];
  private lastDraw = -1;
  private lastPushed = -1;
  readonly hook: TelemetryPanelHook = { visible: false, redraws: 0, samples: 0, lastSpeedKmh: 0, lastT: 0 };
  windowS = 10;

  constructor(
    parent: HTMLElement,
    private readonly ring: TelemetryRing,
  ) {
    this.el = document.createElement('div');
    this.el.className = 'tele-panel';
    this.el.hidden = true;
    parent.appendChild(this.el);
    window.__telemetry = this.hook;
  }

  private build(): void {
    const w = 330, h = 92;
    for (const def of CHARTS) {
      const box = document.createElement('div');
      box.className = 'tele-chart';
      box.dataset.chart = def.title;
      this.el.appendChild(box);
      const scales: uPlot.Scales = { x: { time: false }, y: def.range ? { range: def.range } : { auto: true } };
      if (def.scale2) scales[def.scale2.key] = def.scale2.range ? { range: def.scale2.range } : { auto: true };
      const opts: uPlot.Options = {
        title: def.title,
        width: w,
        height: h,
        legend: { show: true, live: false },
        cursor: { show: false },
        scales,
        axes: [
          { stroke: '#aaa', grid: { stroke: 'rgba(255,255,255,0.08)' }, size: 22, font: '10px sans-serif' },
          { stroke: '#aaa', grid: { stroke: 'rgba(255,255,255,0.08)' }, size: 42, font: '10px sans-serif' },
          ...(def.scale2 ? [{ scale: def.scale2.key, side: 1 as const, stroke: '#aaa', grid: { show: false }, size: 24, font: '10px sans-serif' }] : []),
        ],
        series: [{}, ...def.series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5, scale: s.scale ?? 'y', points: { show: false } }))],
      };
      const data: uPlot.AlignedData = [new Float64Array(0), ...def.series.map(() => new Float64Array(0))];
      this.plots.push(new uPlot(opts, data, box));
      this.bufs.push([]);
    }
    const fc = document.createElement('div');
    fc.className = 'tele-chart';
    fc.innerHTML = '<div class="u-title">friction circles (F/N vs μ)</div>';
    fc.appendChild(this.circles.el);
    this.el.appendChild(fc);
  }

  get visible(): boolean {
    return !this.el.hidden;
  }

  setVisible(v: boolean): void {
    if (v && this.plots.length === 0) this.build();
    this.el.hidden = !v;
    this.hook.visible = v;
    this.lastDraw = -1;
  }

  toggle(): void {
    this.setVisible(!this.visible);
  }

  /** Per animation frame; redraws at most every 1/8 s and only when new samples arrived. */
  frame(nowMs: number): void {
    if (!this.visible || this.ring.count === 0) return;
    if (this.lastDraw >= 0 && nowMs - this.lastDraw < 125) return;
    if (this.ring.pushed === this.lastPushed) return;
    this.lastDraw = nowMs;
    this.lastPushed = this.ring.pushed;
    CHARTS.forEach((def, i) => {
      const chs = [CH.t, ...def.series.map((s) => CH[s.ch])];
      const arrs = this.ring.window(CH.t, this.windowS, chs, this.bufs[i]);
      this.bufs[i] = arrs;
      this.plots[i]!.setData(arrs as uPlot.AlignedData);
    });
    this.circles.draw(this.ring);
    const last = this.ring.count - 1;
    this.hook.redraws++;
    this.hook.samples = this.ring.count;
    this.hook.lastSpeedKmh = this.ring.at(last, CH.speed);
    this.hook.lastT = this.ring.at(last, CH.t);
  }

  dispose(): void {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.el.remove();
    if (window.__telemetry === this.hook) delete window.__telemetry;
  }
}
