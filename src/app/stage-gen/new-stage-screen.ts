/**
 * The New stage screen (Stages → "New stage"): seed, length, landscape and surface mix as adjustable rows;
 * Generate runs the worker with a progress bar and Cancel; the preview shows the road map by surface, the
 * elevation profile, length, climb and corners; Save & drive / Save keep the stage in the player's list,
 * Export writes its package, Import reads one (a refused file shows its message and nothing is stored).
 * Everything is reachable with the gamepad (Import needs the system file picker, so also the mouse).
 */
import { adjustable, html, registerScreen, type ScreenContext } from '../screens';
import { escapeHtml as esc } from '../escape-html';
import type { AppContext } from '../app-context';
import { chooseStage, forgetStageList } from '../menus';
import { generatedStageSummary, isShippedStageId } from '../stages';
import { getGeneratedStage } from './index';
import { exportStagePackage, importStagePackageInto, stagePackageFileName } from './package';
import { LANDSCAPE_IDS, LANDSCAPES, STAGE_LENGTH_KM, STAGE_LENGTH_STEP_KM, STAGE_SEED_MAX, SURFACE_MIX_MAX, checkStageGenParams, type StageGenParamsChecked } from './params';
import { drawElevationProfile, drawPreviewMap, SURFACE_COLOURS } from './preview-draw';
import { saveUserStage, type StoredStageData } from './stage-db';
import { loadLastParams, saveLastParams } from './last-params';

const MIX_STEP = 0.1;
const MAX_PROGRESS_LOG = 1000;
const PHASE_NAMES: Record<string, string> = { terrain: 'Shaping the terrain', road: 'Laying the road', profile: 'Grading the road', carve: 'Carving the road', surface: 'Surfacing', scenery: 'Planting trees', files: 'Writing the stage' };

/** What the screen shows and tests read (window.__bitrally.stageGen). */
interface GenState {
  state: 'idle' | 'generating' | 'done' | 'cancelled' | 'error';
  fraction: number;
  phase: string;
  /** Every fraction the bar showed in the current generation (tests check it rose step by step to 1). */
  progressLog: number[];
  result: { id: string; hash: string; cached: boolean; ms: number; corners: number; lengthM: number } | null;
  message: string;
}

const MARKUP = `<h2>New stage</h2>
  <div class="stagegen">
    <div class="list stagegen-form">
      <button class="item" data-row="seed"></button>
      <button class="item" data-a="random">New random seed</button>
      <button class="item" data-row="length"></button>
      <button class="item" data-row="landscape"></button>
      <button class="item" data-row="mix"></button>
      <button class="item default" data-a="generate">Generate</button>
      <button class="item" data-a="cancel" disabled>Cancel</button>
      <div class="stagegen-progress"><div class="bar" data-bar></div></div>
      <div class="sub" data-phase>&nbsp;</div>
      <button class="item" data-a="drive" disabled>Save &amp; drive</button>
      <button class="item" data-a="save" disabled>Save to my stages</button>
      <button class="item" data-a="export" disabled>Export package</button>
      <button class="item" data-a="import">Import package…</button>
      <input type="file" accept=".zip,application/zip" data-file hidden>
      <button class="item" data-a="back">Back</button>
    </div>
    <div class="stagegen-preview">
      <canvas width="420" height="280" data-map></canvas>
      <canvas width="420" height="120" data-profile></canvas>
      <div class="meta" data-stats></div>
      <div data-msg></div>
    </div>
  </div>
  <div class="hint">←/→ change · A: select · B: back</div>`;

export function registerNewStageScreen(app: AppContext): void {
  registerScreen('new-stage', (ctx) => new NewStageScreen(app, ctx).instance());
}

class NewStageScreen {
  readonly el = html(MARKUP);
  private params: StageGenParamsChecked = loadLastParams();
  private current: StoredStageData | null = null;
  private abort: AbortController | null = null;
  private readonly hook: GenState = { state: 'idle', fraction: 0, phase: '', progressLog: [], result: null, message: '' };

  constructor(
    private readonly app: AppContext,
    private readonly ctx: ScreenContext,
  ) {
    ((window.__bitrally ??= {}) as Record<string, unknown>).stageGen = this.hook;
    this.bindRows();
    this.bindActions();
  }

  instance(): { el: HTMLElement; back: () => void; dispose: () => void } {
    return { el: this.el, back: () => this.act('back'), dispose: () => this.abort?.abort() };
  }

  private q<T extends HTMLElement = HTMLElement>(sel: string): T {
    return this.el.querySelector<T>(sel)!;
  }

  private bindRows(): void {
    const p = (): StageGenParamsChecked => this.params;
    const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));
    const rows: [string, string, () => string, (d: -1 | 1) => void, 'step' | 'toggle'][] = [
      ['seed', 'Seed', () => String(p().seed), (d) => (p().seed = (p().seed + d + STAGE_SEED_MAX + 1) % (STAGE_SEED_MAX + 1)), 'step'],
      ['length', 'Length', () => `${p().lengthKm.toFixed(1)} km`, (d) => (p().lengthKm = clamp(p().lengthKm + d * STAGE_LENGTH_STEP_KM, STAGE_LENGTH_KM[0], STAGE_LENGTH_KM[1])), 'step'],
      ['landscape', 'Landscape', () => LANDSCAPES[p().landscape].name, (d) => (p().landscape = LANDSCAPE_IDS[(LANDSCAPE_IDS.indexOf(p().landscape) + d + LANDSCAPE_IDS.length) % LANDSCAPE_IDS.length]!), 'toggle'],
      ['mix', 'Surface mix', () => `${Math.round(p().surfaceMix * 100)} % ${LANDSCAPES[p().landscape].mixSurface}`, (d) => (p().surfaceMix = Math.round(clamp(p().surfaceMix + d * MIX_STEP, 0, SURFACE_MIX_MAX) * 10) / 10), 'step'],
    ];
    for (const [key, label, get, adjust, kind] of rows) {
      const b = this.q(`[data-row="${key}"]`);
      b.innerHTML = `<span>${label}</span><span class="val"></span>`;
      this.rowRefreshers.push(() => (b.querySelector('.val')!.textContent = `‹ ${get()} ›`));
      const change = (d: -1 | 1): void => {
        adjust(d);
        saveLastParams(this.params);
        this.refreshRows(); // the mix row names the landscape's second surface
      };
      adjustable(b, change, kind);
      b.onclick = () => change(1);
    }
    this.refreshRows();
  }

  private readonly rowRefreshers: (() => void)[] = [];
  private refreshRows(): void {
    for (const r of this.rowRefreshers) r();
  }

  private bindActions(): void {
    this.el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => (b.onclick = () => this.act(b.dataset.a!)));
    const input = this.q<HTMLInputElement>('[data-file]');
    input.onchange = () => {
      const f = input.files?.[0];
      if (f) void this.importFile(f);
      input.value = '';
    };
  }

  private act(a: string): void {
    if (a === 'generate') void this.generate();
    else if (a === 'cancel') this.abort?.abort();
    else if (a === 'random') {
      this.params.seed = Math.floor(Math.random() * STAGE_SEED_MAX);
      saveLastParams(this.params);
      this.refreshRows();
    } else if (a === 'save') void this.save(false);
    else if (a === 'drive') void this.save(true);
    else if (a === 'export') this.exportCurrent();
    else if (a === 'import') this.q<HTMLInputElement>('[data-file]').click();
    else if (a === 'back') {
      this.abort?.abort();
      this.ctx.show('stages');
    }
  }

  private setEnabled(action: string, on: boolean): void {
    this.q(`[data-a="${action}"]`).toggleAttribute('disabled', !on);
  }

  private focusAction(action: string): void {
    const i = this.app.screens.items().indexOf(this.q(`[data-a="${action}"]`));
    if (i >= 0) this.app.screens.setFocus(i);
  }

  private progress(fraction: number, phase: string): void {
    this.hook.fraction = fraction;
    this.hook.phase = phase;
    if (this.hook.progressLog.length < MAX_PROGRESS_LOG) this.hook.progressLog.push(fraction);
    this.q('[data-bar]').style.width = `${(fraction * 100).toFixed(1)}%`;
    this.q('[data-phase]').textContent = phase ? `${PHASE_NAMES[phase] ?? phase}… ${Math.round(fraction * 100)} %` : '\u00a0';
  }

  private message(text: string, error = false): void {
    this.hook.message = text;
    this.q('[data-msg]').innerHTML = text ? `<div class="${error ? 'error' : 'sub'}" data-message>${esc(text)}</div>` : '';
  }

  private async generate(): Promise<void> {
    this.abort?.abort();
    const ctl = (this.abort = new AbortController());
    const params = checkStageGenParams({ ...this.params });
    const t0 = performance.now();
    this.hook.state = 'generating';
    this.hook.progressLog = [];
    this.message('');
    this.progress(0, 'terrain');
    for (const a of ['drive', 'save', 'export']) this.setEnabled(a, false);
    this.setEnabled('cancel', true);
    this.focusAction('cancel');
    let done = false;
    try {
      const r = await getGeneratedStage(params, { signal: ctl.signal, onProgress: (phase, f) => !ctl.signal.aborted && this.progress(f, phase) });
      if (ctl.signal.aborted) return;
      this.shown(r, performance.now() - t0);
      done = true;
    } catch (e) {
      const cancelled = (e as Error).name === 'AbortError';
      this.hook.state = cancelled ? 'cancelled' : 'error';
      this.progress(0, '');
      this.message(cancelled ? 'Generation cancelled.' : (e as Error).message, !cancelled);
    } finally {
      if (this.abort === ctl) this.abort = null;
      this.setEnabled('cancel', false);
      if (!done) this.focusAction('generate');
    }
  }

  /** Shows a generated (or imported) stage: preview, stats, and the actions that need one. */
  private shown(r: StoredStageData & { cached?: boolean }, ms: number): void {
    this.current = r;
    this.hook.state = 'done';
    this.hook.result = { id: r.id, hash: r.hash, cached: r.cached ?? false, ms, corners: r.preview.corners, lengthM: r.preview.lengthM };
    this.progress(1, 'files');
    this.q('[data-phase]').textContent = r.cached === undefined ? 'Imported.' : r.cached ? 'Ready (from the cache, nothing generated).' : `Ready: generated in ${(ms / 1000).toFixed(1)} s.`;
    drawPreviewMap(this.q<HTMLCanvasElement>('[data-map]'), r.preview);
    drawElevationProfile(this.q<HTMLCanvasElement>('[data-profile]'), r.preview);
    this.q('[data-stats]').innerHTML = statsHtml(r);
    for (const a of ['drive', 'save', 'export']) this.setEnabled(a, true);
    this.focusAction('drive');
  }

  private async save(drive: boolean): Promise<void> {
    const s = this.current;
    if (!s) return;
    await saveUserStage(s, s.params ? 'generated' : 'imported');
    forgetStageList();
    this.message(`Saved “${s.name}” to your stages.`);
    if (drive) {
      chooseStage(generatedStageSummary(s));
      this.ctx.show('cars');
    }
  }

  private exportCurrent(): void {
    const s = this.current;
    if (!s) return;
    const blob = new Blob([exportStagePackage(s) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = stagePackageFileName(s.id);
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    this.message(`Exported ${a.download}.`);
  }

  private async importFile(f: File): Promise<void> {
    try {
      const s = await importStagePackageInto(new Uint8Array(await f.arrayBuffer()), f.name, { save: (x) => saveUserStage(x, 'imported'), isShippedId: isShippedStageId });
      forgetStageList();
      this.shown(s, 0);
      this.message(`Imported “${s.name}” into your stages.`);
    } catch (e) {
      this.hook.state = 'error';
      this.q('[data-phase]').textContent = 'Import refused; nothing was stored.';
      this.message((e as Error).message, true);
    }
  }
}

/** Length, corners, climb and the share of each road surface. */
function statsHtml(r: StoredStageData): string {
  const p = r.preview;
  const counts = new Map<string, number>();
  for (const s of p.surface) counts.set(s, (counts.get(s) ?? 0) + 1);
  const surfaces = [...counts].map(([s, n]) => `<span style="color:${SURFACE_COLOURS[s] ?? '#fff'}">■</span> ${esc(s)} ${Math.round((100 * n) / p.surface.length)} %`).join(' · ');
  return `<div class="name" data-name>${esc(r.name)}</div>
    <span>Length</span><span data-length>${(p.lengthM / 1000).toFixed(2)} km</span>
    <span>Corners</span><span data-corners>${p.corners}</span>
    <span>Climb</span><span>${p.climbM.toFixed(0)} m</span>
    <span>Surface</span><span>${surfaces}</span>`;
}
