/**
 * 'rally': resume the rally in progress, a new rally, today's daily rally. 'rally-new': the new rally's settings,
 * every row changed with left/right (gamepad, keyboard or mouse): stage count, service interval, landscape,
 * stage lengths, rally seed, car, and per stage "from the seed" or one of the game's stages (picked).
 */
import { adjustable, html, registerScreen } from '../screens';
import { CARS } from '../cars';
import { listStages, type StageSummary } from '../stages';
import { LANDSCAPE_IDS, LANDSCAPES } from '../stage-gen/index';
import { escapeHtml as esc } from '../escape-html';
import { MAX_RALLY_STAGES, MIN_RALLY_STAGES } from '../../run/rally/plan';
import type { RallyController } from './controller';
import { dailyRally, newRally, STAGE_LENGTHS, type NewRallySettings } from './new-rally';
import { todayUtc } from '../utc-date';

/** URL flag `dev=1`: two-stage rallies and the test tracks (quick checks, the e2e test). */
const DEV = typeof location !== 'undefined' && new URLSearchParams(location.search).get('dev') === '1';
const MIN_STAGES = DEV ? 2 : MIN_RALLY_STAGES;

function stepText(rc: RallyController): string {
  const s = rc.state!;
  const n = rc.next()!;
  const where = n.kind === 'stage' ? `next: SS${n.stage + 1}` : n.kind === 'service' ? 'next: service park' : 'finished';
  return `${s.name} · ${s.results.length}/${s.stages.length} stages · ${where}`;
}

/** Today's daily rally: resumed when it is the rally in progress, else started. */
async function startDaily(rc: RallyController): Promise<void> {
  const date = todayUtc();
  if (!rc.state) await rc.load().catch(() => null);
  if (rc.state?.daily !== date) await rc.begin(dailyRally(date));
  rc.proceed();
}

export function registerRallyMenu(rc: RallyController): void {
  registerScreen('rally', (ctx, params) => {
    // the rally in progress is read once (after a reload); with it in memory the screen opens on "Resume"
    const resume = rc.state ? `<button class="item default" data-a="resume">Resume: ${esc(stepText(rc))}</button>` : '';
    const el = html(`<h2>Rally</h2><div class="sub" data-msg>Stages in a row, damage that follows you, a service park, rivals</div>
      ${resume}<button class="item${resume ? '' : ' default'}" data-a="new">New rally…</button>
      <button class="item" data-a="daily">Daily rally · ${todayUtc()} UTC (the same stages for everyone)</button>
      <button class="item" data-a="back">Back</button>
      <div class="hint">A: select · B: back</div>`);
    let loaded = rc.state !== null || !!params.daily;
    if (params.daily) void startDaily(rc);
    else if (!loaded)
      rc.load().then(
        () => {
          loaded = true;
          if (rc.state && el.isConnected) ctx.show('rally', params);
        },
        (e: Error) => {
          loaded = true;
          el.querySelector('[data-msg]')!.innerHTML = `<div class="error">${esc(e.message)}</div>`;
        },
      );
    const on = (a: string, fn: () => void): void => void (el.querySelector<HTMLElement>(`[data-a="${a}"]`)?.addEventListener('click', fn));
    on('resume', () => rc.proceed());
    on('new', () => ctx.show('rally-new'));
    on('daily', () => void startDaily(rc));
    on('back', () => ctx.show('title'));
    return { el, loading: () => !loaded, back: () => ctx.show('title') };
  });
}

const cycle = <T,>(list: readonly T[], cur: T, d: number): T => list[(list.indexOf(cur) + d + list.length) % list.length] ?? cur;

/** One adjustable row: label + value, left/right change it, A steps it forward. */
function row(list: HTMLElement, key: string, get: () => string, change: (d: -1 | 1) => void): () => void {
  const b = document.createElement('button');
  b.className = 'item';
  b.dataset.k = key;
  const render = (): void => void (b.innerHTML = `<span>${esc(key)}</span> <span class="val">‹ ${esc(get())} ›</span>`);
  adjustable(b, (d) => {
    change(d);
    render();
  }, 'toggle');
  b.onclick = () => {
    change(1);
    render();
  };
  list.appendChild(b);
  render();
  return render;
}

function settingsRows(list: HTMLElement, st: NewRallySettings, onCount: () => void): void {
  const cars = CARS();
  row(list, 'Stages', () => String(st.stageCount), (d) => {
    st.stageCount = Math.max(MIN_STAGES, Math.min(MAX_RALLY_STAGES, st.stageCount + d));
    onCount();
  });
  row(list, 'Service park every', () => `${st.serviceEvery} stage${st.serviceEvery > 1 ? 's' : ''}`, (d) => void (st.serviceEvery = Math.max(1, Math.min(5, st.serviceEvery + d))));
  const lands = ['seed', ...LANDSCAPE_IDS, 'mixed'];
  row(list, 'Landscape', () => (st.landscape === 'seed' ? 'drawn from the seed' : st.landscape === 'mixed' ? 'mixed' : LANDSCAPES[st.landscape as keyof typeof LANDSCAPES].name), (d) => void (st.landscape = cycle(lands, st.landscape, d)));
  const lengths = Object.keys(STAGE_LENGTHS);
  row(list, 'Stage lengths', () => STAGE_LENGTHS[st.length]!.label, (d) => void (st.length = cycle(lengths, st.length, d)));
  row(list, 'Rally seed', () => String(st.seed), (d) => void (st.seed = (st.seed + d + 1_000_000) % 1_000_000));
  row(list, 'Car', () => cars.find((c) => c.id === st.carId)?.name ?? st.carId, (d) => void (st.carId = cycle(cars.map((c) => c.id), st.carId, d)));
}

/** One row per stage: generated from the seed, or a stage of the game picked by id. */
function stageRows(box: HTMLElement, st: NewRallySettings, stages: StageSummary[]): void {
  box.innerHTML = '';
  const ids = ['seed', ...stages.filter((s) => DEV || !s.testTrack).map((s) => s.id)];
  st.picked.length = Math.min(st.picked.length, st.stageCount);
  for (let k = 0; k < st.stageCount; k++) {
    st.picked[k] ??= 'seed';
    row(box, `SS${k + 1}`, () => (st.picked[k] === 'seed' ? 'generated from the seed' : (stages.find((s) => s.id === st.picked[k])?.name ?? st.picked[k]!)), (d) => void (st.picked[k] = cycle(ids, st.picked[k]!, d)));
  }
}

export function registerNewRally(rc: RallyController): void {
  registerScreen('rally-new', (ctx) => {
    const st: NewRallySettings = { stageCount: 4, serviceEvery: 2, landscape: 'seed', length: 'standard', seed: Math.floor(Math.random() * 1_000_000), carId: CARS()[0]?.id ?? 'rally-awd', picked: [] };
    // "Start" first: the stage rows below it change in number, the focus by index stays on the same item
    const el = html(`<h2>New rally</h2><button class="item default" data-a="go">Start the rally</button>
      <div class="list"><div data-settings></div><div data-stages></div><button class="item" data-a="back">Back</button></div>
      <div class="hint">Left / right: change · A: select · B: back</div>`);
    const box = el.querySelector<HTMLElement>('[data-stages]')!;
    let stages: StageSummary[] = [];
    let ready = false;
    settingsRows(el.querySelector<HTMLElement>('[data-settings]')!, st, () => stageRows(box, st, stages));
    void listStages().then((r) => {
      stages = r.stages;
      ready = true;
      stageRows(box, st, stages);
    });
    el.querySelector<HTMLElement>('[data-a="go"]')!.onclick = () => void rc.begin(newRally(st, stages)).then(() => rc.proceed());
    el.querySelector<HTMLElement>('[data-a="back"]')!.onclick = () => ctx.show('rally');
    return { el, loading: () => !ready, back: () => ctx.show('rally') };
  });
}
