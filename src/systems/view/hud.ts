/**
 * The driving HUD (DOM over the canvas): speedometer (km/h or mph), tachometer arc with a redline band
 * and needle, gear (the target gear while a shift is under way), stage timer (penalties included, shown
 * beside it), split delta, progress bar with the checkpoints, rallycross lap and joker, damage indicator
 * (per corner), countdown lights, toasts; every text sits on a dark backing plate (style.css `.hud-plate`)
 * so it reads on snow and sky (contrast checked in tests/e2e/hud.spec.mjs);
 * the perf overlay (true fps and frame time, sim/view/render ms, ticks per frame, draw calls, active
 * triangles) and the "simulation slowed" notice. Reads numbers, writes DOM only when they change.
 */
export interface HudFrame {
  speedMS: number;
  rpm: number;
  redlineRpm: number;
  maxRpm: number;
  /** −1 = R, 0 = N, 1.. */
  gear: number;
  /** The gear being engaged while a shift is under way (the gearbox is in neutral meanwhile), else null. */
  shiftTo?: number | null;
  timeS: number;
  /** Damage per corner 0..1 (FL, FR, RL, RR). */
  damage: readonly number[];
  units: 'kmh' | 'mph';
}

export interface PerfFrame {
  simMs: number;
  viewMs: number;
  renderMs: number;
  ticks: number;
  triangles: number;
  fps: number;
  /** Mean wall time between frames, ms (1000 / fps). */
  frameMs: number;
  drawCalls: number;
  /** Ticks the scheduler may run this frame (raised from the measured cost per tick). */
  tickCap: number;
}

/** Share of real time lost above which the HUD says the simulation slowed (below it: one dropped frame). */
export const SLOW_NOTICE_MIN = 0.02;

const ARC_START = -220;
const ARC_END = 40;

function polar(cx: number, cy: number, r: number, deg: number): [number, number] {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
}

function arcPath(cx: number, cy: number, r: number, a0: number, a1: number): string {
  const [x0, y0] = polar(cx, cy, r, a0);
  const [x1, y1] = polar(cx, cy, r, a1);
  return `M ${x0.toFixed(1)} ${y0.toFixed(1)} A ${r} ${r} 0 ${a1 - a0 > 180 ? 1 : 0} 1 ${x1.toFixed(1)} ${y1.toFixed(1)}`;
}

export const gearLabel = (g: number): string => (g < 0 ? 'R' : g === 0 ? 'N' : String(g));
/** What the gear display shows: the target gear during a shift (not the neutral the gearbox passes through). */
export const shownGear = (gear: number, shiftTo: number | null | undefined): string => gearLabel(shiftTo ?? gear);

/** Rallycross state beside the timer: lap n of N and the joker lap (null on a circuit without one). */
export interface RaceHud {
  lap: number;
  laps: number;
  jokerTaken: boolean | null;
}
export const speedIn = (ms: number, units: 'kmh' | 'mph'): number => (units === 'kmh' ? ms * 3.6 : ms * 2.2369362920544);

export class Hud {
  readonly el: HTMLDivElement;
  private readonly speed: HTMLElement;
  private readonly unit: HTMLElement;
  private readonly gear: HTMLElement;
  private readonly timer: HTMLElement;
  private readonly split: HTMLElement;
  private readonly needle: SVGLineElement;
  private readonly redband: SVGPathElement;
  private readonly dmg: HTMLElement[];
  private readonly lights: HTMLElement;
  private readonly toast: HTMLElement;
  private readonly perf: HTMLElement;
  private readonly slow: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly marks: HTMLElement;
  private readonly penalty: HTMLElement;
  private readonly race: HTMLElement;
  private markFracs: number[] = [];
  private toastUntil = 0;
  private lastRed = -1;
  private lastMaxR = -1;
  private cache = new Map<HTMLElement, string>();

  constructor(parent: HTMLElement) {
    const el = document.createElement('div');
    el.className = 'hud';
    el.innerHTML = `
      <div class="hud-top hud-plate"><div class="hud-timer" data-t="timer">0:00.000</div><div class="hud-penalty" data-t="penalty"></div>
        <div class="hud-race" data-t="race" hidden></div><div class="hud-split" data-t="split"></div>
        <div class="hud-progress"><div data-t="progress"></div><span data-t="marks"></span></div></div>
      <div class="hud-lights" data-t="lights">${'<span></span>'.repeat(5)}</div>
      <div class="hud-toast"><span class="hud-plate" data-t="toast"></span></div>
      <div class="hud-dash hud-plate">
        <svg viewBox="0 0 200 200" class="hud-tacho">
          <path d="${arcPath(100, 100, 84, ARC_START, ARC_END)}" class="tacho-arc"/>
          <path class="tacho-red" data-t="red"/>
          <line x1="100" y1="100" x2="100" y2="30" class="tacho-needle" data-t="needle"/>
          <circle cx="100" cy="100" r="7" class="tacho-hub"/>
        </svg>
        <div class="hud-gear" data-t="gear">N</div>
        <div class="hud-speed"><span data-t="speed">0</span><small data-t="unit">km/h</small></div>
        <div class="hud-damage" title="damage">${'<i></i>'.repeat(4)}</div>
      </div>
      <pre class="hud-perf" data-t="perf" hidden></pre>
      <div class="hud-slow" data-t="slow" hidden></div>`;
    parent.appendChild(el);
    const q = (k: string): HTMLElement => el.querySelector(`[data-t="${k}"]`)!;
    this.el = el;
    this.speed = q('speed');
    this.unit = q('unit');
    this.gear = q('gear');
    this.timer = q('timer');
    this.split = q('split');
    this.needle = q('needle') as unknown as SVGLineElement;
    this.redband = q('red') as unknown as SVGPathElement;
    this.dmg = [...el.querySelectorAll<HTMLElement>('.hud-damage i')];
    this.lights = q('lights');
    this.toast = q('toast');
    this.perf = q('perf');
    this.slow = q('slow');
    this.progress = q('progress');
    this.marks = q('marks');
    this.penalty = q('penalty');
    this.race = q('race');
  }

  private set(e: HTMLElement, text: string): void {
    if (this.cache.get(e) === text) return;
    this.cache.set(e, text);
    e.textContent = text;
  }

  show(v: boolean): void {
    this.el.style.display = v ? '' : 'none';
  }

  update(f: HudFrame): void {
    this.set(this.speed, Math.round(speedIn(f.speedMS, f.units)).toString());
    this.set(this.unit, f.units === 'kmh' ? 'km/h' : 'mph');
    this.set(this.gear, shownGear(f.gear, f.shiftTo));
    this.gear.classList.toggle('shifting', f.shiftTo !== undefined && f.shiftTo !== null);
    const maxR = Math.max(f.maxRpm, f.redlineRpm * 1.1);
    // redraw the band when the redline or the rev range changes (a live car swap changes both)
    if (this.lastRed !== f.redlineRpm || this.lastMaxR !== maxR) {
      this.lastRed = f.redlineRpm;
      this.lastMaxR = maxR;
      const a = ARC_START + ((ARC_END - ARC_START) * f.redlineRpm) / maxR;
      this.redband.setAttribute('d', arcPath(100, 100, 84, a, ARC_END));
      this.redband.dataset.redlineRpm = String(Math.round(f.redlineRpm));
    }
    const frac = Math.max(0, Math.min(1, f.rpm / maxR));
    const deg = ARC_START + (ARC_END - ARC_START) * frac;
    const [x, y] = polar(100, 100, 74, deg);
    this.needle.setAttribute('x2', x.toFixed(1));
    this.needle.setAttribute('y2', y.toFixed(1));
    this.gear.classList.toggle('shift', f.rpm > f.redlineRpm * 0.96);
    this.set(this.timer, formatClock(f.timeS));
    f.damage.forEach((d, i) => {
      const e = this.dmg[i];
      if (!e) return;
      const c = d < 0.05 ? '#3c3' : d < 0.4 ? '#ec3' : d < 0.8 ? '#e73' : '#d22';
      if (e.style.background !== c) e.style.background = c;
    });
  }

  /** The redline the tacho's red band is drawn from, rpm (−1 before the first frame). */
  get redlineRpm(): number {
    return this.lastRed;
  }

  setProgress(frac: number): void {
    const f = Math.max(0, Math.min(1, frac));
    this.progress.style.width = `${(f * 100).toFixed(1)}%`;
    this.markFracs.forEach((m, i) => this.marks.children[i]!.classList.toggle('passed', f >= m));
  }

  /** Checkpoint ticks on the progress bar, as fractions of the stage (start 0, finish 1). */
  setCheckpoints(fracs: readonly number[]): void {
    this.markFracs = fracs.map((f) => Math.max(0, Math.min(1, f)));
    this.marks.innerHTML = this.markFracs.map((f) => `<i style="left:${(f * 100).toFixed(2)}%"></i>`).join('');
  }

  /** The time penalties the timer includes (recoveries, jump start, missed joker), s. */
  setPenalty(penaltyS: number): void {
    this.set(this.penalty, penaltyS > 0 ? `incl. +${penaltyS.toFixed(0)} s penalty` : '');
  }

  /** Rallycross lap and joker beside the timer. */
  setRace(r: RaceHud): void {
    this.race.hidden = false;
    const joker = r.jokerTaken === null ? '' : `<b class="${r.jokerTaken ? 'joker-done' : 'joker-due'}">JOKER ${r.jokerTaken ? '✓' : 'due'}</b>`;
    const html = `<span>LAP ${Math.min(r.lap, r.laps)}/${r.laps}</span>${joker}`;
    if (this.cache.get(this.race) !== html) {
      this.cache.set(this.race, html);
      this.race.innerHTML = html;
    }
  }

  setSplit(text: string, faster: boolean | null): void {
    this.set(this.split, text);
    this.split.className = `hud-split ${faster === null ? '' : faster ? 'faster' : 'slower'}`;
  }

  /** Countdown lights: n of 5 lit red, or 'go' = all green, or 'off'. */
  setLights(state: number | 'go' | 'off'): void {
    this.lights.style.display = state === 'off' ? 'none' : '';
    const spans = this.lights.querySelectorAll('span');
    spans.forEach((s, i) => {
      s.className = state === 'go' ? 'go' : typeof state === 'number' && i < state ? 'on' : '';
    });
  }

  showToast(text: string, nowS: number, durS = 2.5): void {
    this.set(this.toast, text);
    this.toast.parentElement!.style.opacity = '1';
    this.toastUntil = nowS + durS;
  }

  tickToast(nowS: number): void {
    if (this.toastUntil && nowS > this.toastUntil) {
      this.toast.parentElement!.style.opacity = '0';
      this.toastUntil = 0;
    }
  }

  showPerf(v: boolean): void {
    this.perf.hidden = !v;
  }

  updatePerf(p: PerfFrame): void {
    if (this.perf.hidden) return;
    this.set(
      this.perf,
      `fps ${p.fps.toFixed(1).padStart(5)}\nframe ${p.frameMs.toFixed(1).padStart(6)} ms\nsim ${p.simMs.toFixed(2).padStart(6)} ms\nview ${p.viewMs.toFixed(2).padStart(5)} ms\nrender ${p.renderMs.toFixed(1).padStart(5)} ms\nticks/frame ${p.ticks.toFixed(1)} (cap ${p.tickCap})\ndraw calls ${p.drawCalls}\ntris ${Math.round(p.triangles)}`,
    );
  }

  /** The slowdown notice: shown while the simulation lost more than SLOW_NOTICE_MIN of real time. */
  setSlowdown(fraction: number): void {
    const on = fraction > SLOW_NOTICE_MIN;
    this.slow.hidden = !on;
    if (on) this.set(this.slow, `simulation slowed: ${Math.round(fraction * 100)} %`);
  }

  dispose(): void {
    this.el.remove();
  }
}

export function formatClock(s: number): string {
  const a = Math.max(0, s);
  const m = Math.floor(a / 60);
  return `${m}:${(a - m * 60).toFixed(3).padStart(6, '0')}`;
}
