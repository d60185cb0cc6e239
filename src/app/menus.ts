/**
 * All screens of the game, registered in the screen registry (screens.ts). Everything is navigable with a
 * gamepad alone (d-pad/stick + A/B), the keyboard (arrows + Enter/Escape) or the mouse.
 */
import { CAMERA_MODES, CODRIVER_TIMINGS, CODRIVER_VOICES } from './settings';
import { GRAPHICS_PRESETS } from '../systems/view/graphics-presets';
import { adjustable, html, registerScreen } from './screens';
import type { RunResult, SessionOptions } from './game';
import { drawStageMap, listStages, loadStageWithFiles, type StageSummary } from './stages';
import { CARS, carChoice, carShape, carTestStats } from './cars';
import { stagePropsEnabled } from './game-setup';
import { formatDelta, formatTime } from '../run/stage-run';
import { registerControlsScreen } from './controls-screen';
import { addWatchReplayButton } from './finish-replay';
import { addSubmissionStatus } from './online-link';
import { configuredServer } from './online-config';
import { escapeHtml as esc } from './escape-html';
import type { AppContext } from './app-context';
import { applyScreenExtras, screenExtras } from './screen-buttons';

export type { AppContext };

interface Choice {
  stage?: StageSummary;
  carId?: string;
}
const choice: Choice = {};
let stageList: StageSummary[] | null = null;
/** URL flag `dev=1`: the Stages screen also lists the built-in test tracks. */
const DEV_FLAG = typeof location !== 'undefined' && new URLSearchParams(location.search).get('dev') === '1';

/**
 * A run started by a mode (the rally): the stage and car, session options (start damage), and a call before the
 * standard finish screen. `ctx.show('loading', { run })`; without `run` the loading screen starts the menus' choice.
 */
export interface StageRunRequest {
  stage: StageSummary;
  carId: string;
  session?: SessionOptions;
  onFinish?: (r: RunResult) => void;
}

/**
 * Start a stage directly (URL flags `stage=<id>&car=<id>`: demos, the startup measurement): the same
 * loading path as the menus. Unknown ids show the error screen naming the flag and what exists.
 */
export async function quickStart(app: AppContext, stageId: string, carId: string): Promise<void> {
  const { stages } = await listStages();
  stageList ??= stages;
  const s = stages.find((x) => x.id === stageId);
  const cars = CARS();
  if (!s || !cars.some((c) => c.id === carId)) {
    const msg = !s
      ? `URL flag stage: expected one of ${stages.map((x) => x.id).join(', ')}, found "${stageId}"`
      : `URL flag car: expected one of ${cars.map((c) => c.id).join(', ')}, found "${carId}"`;
    app.screens.show('error', { message: msg, back: 'title' });
    return;
  }
  choice.stage = s;
  choice.carId = carId;
  app.screens.show('loading');
}

/** Makes `s` the stage the next run loads (a stage generated or imported on the New stage screen). */
export function chooseStage(s: StageSummary): void {
  choice.stage = s;
}

/** Drops the kept stage list, so the Stages screen lists the player's stages again (after a save or import). */
export function forgetStageList(): void {
  stageList = null;
}

export function registerAllScreens(app: AppContext): void {
  registerTitleScreen(app);
  registerStagesScreen(app);
  registerCarsScreen(app);
  registerLoadingScreen(app);
  registerDriveScreen(app);
  registerPauseScreen(app);
  registerFinishScreen(app);
  registerErrorScreen();
  registerSettingsScreen(app);
  registerControlsScreen(app);
}

/** The title menu: one button per mode. */
function registerTitleScreen(app: AppContext): void {
  registerScreen('title', (ctx) => {
    const el = html(`<h1>BITRALLY</h1><div class="sub">gravel · tarmac · snow — a rally game on a real vehicle simulation</div>
      <div class="title-menu"><button class="item default" data-go="stages">Drive a stage</button>
      <button class="item" data-go="rally">Rally</button>
      <button class="item" data-go="rally" data-daily="1">Daily rally · ${new Date().toISOString().slice(0, 10)} UTC</button>
      <button class="item" data-go="rallycross">Rallycross</button>
      <button class="item" data-go="town">Town</button>
      <button class="item" data-go="multiplayer" data-mp-entry>Multiplayer${configuredServer(app) ? '' : ' · offline'}</button>
      <button class="item" data-go="settings">Settings</button>
      <button class="item" data-go="controls">Controls</button>
      <button class="item" data-go="garage">Garage</button>
      <button class="item" data-go="analysis">Run analysis</button>
      <button class="item" data-go="replays">Replays</button>
      <button class="item" data-go="leaderboards">Leaderboards</button></div>
      <div class="hint">Gamepad: D-pad / stick + A · Keyboard: arrows + Enter</div>`);
    el.querySelectorAll<HTMLElement>('[data-go]').forEach((b) => (b.onclick = () => ctx.show(b.dataset.go!, { from: 'title', daily: b.dataset.daily === '1' })));
    return { el };
  });
}

/** Stage cards (map, surface, length, best time); the list loads once and is kept for "Next stage". */
function registerStagesScreen(app: AppContext): void {
  registerScreen('stages', (ctx) => {
    const el = html(`<h2>Choose a stage</h2><div class="cards"></div><div class="hint">A: select · B: back</div>`);
    const cards = el.querySelector('.cards')!;
    let rendered = false;
    const render = (list: StageSummary[]): void => {
      rendered = true;
      cards.innerHTML = '';
      for (const s of list.filter((x) => DEV_FLAG || !x.testTrack)) {
        const b = document.createElement('button');
        b.className = 'item card';
        b.dataset.stage = s.id;
        b.innerHTML = `<canvas width="240" height="140"></canvas><div class="name">${esc(s.name)}</div>
          <div class="meta"><span>Surface</span><span>${esc(s.surface)}</span><span>Length</span><span>${(s.lengthM / 1000).toFixed(2)} km</span>
          <span>Checkpoints</span><span>${s.checkpoints}</span><span>Best</span><span data-best>—</span></div>`;
        drawStageMap(b.querySelector('canvas')!, s);
        b.onclick = () => {
          choice.stage = s;
          ctx.show('cars');
        };
        void app.bests.bestOnStage(s.id).then((r) => {
          if (r) b.querySelector('[data-best]')!.textContent = formatTime(r.timeS);
        });
        cards.appendChild(b);
      }
      // last, so the first stage keeps the initial focus; one press left from it (the focus wraps)
      cards.insertAdjacentHTML('beforeend', '<button class="item card new-stage" data-go="new-stage"><div class="name">+ New stage</div><div class="meta">Generate a road (seed, length, landscape, surface mix) or import a stage package</div></button>');
      cards.querySelector<HTMLElement>('[data-go="new-stage"]')!.onclick = () => ctx.show('new-stage');
      app.screens.refocus();
      el.querySelectorAll<HTMLElement>('.item').forEach((it, i) => it.addEventListener('mouseenter', () => app.screens.setFocus(i)));
    };
    if (stageList) queueMicrotask(() => render(stageList!));
    else
      void listStages().then(({ stages, problems }) => {
        for (const p of problems) console.warn(p);
        stageList = stages;
        render(stages);
      });
    return {
      el,
      // presses made while the cards load are queued by the screen manager, not lost
      loading: () => !rendered,
      back: () => ctx.show('title'),
      onKey: (k) => {
        // cards are laid out in a row: left/right move like up/down
        if (k === 'left' || k === 'right') {
          app.screens.handle([k === 'left' ? 'up' : 'down']);
          return true;
        }
        return false;
      },
    };
  });
}

/** Car cards: the file's stats, then the car test's measured numbers when they arrive. */
function registerCarsScreen(app: AppContext): void {
  registerScreen('cars', (ctx) => {
    const el = html(`<h2>Choose a car</h2><div class="sub">${esc(choice.stage?.name ?? '')}</div><canvas class="turntable" data-turntable></canvas><div class="cards"></div><div class="hint">A: select · B: back</div>`);
    const cards = el.querySelector('.cards')!;
    // the focused card's car turns on a small 3D stand (its own engine, freed when the screen is left); its
    // geometry code loads with the screen, not at startup
    let turntable: { dispose(): void } | null = null;
    let left = false;
    import('./car-turntable')
      .then(({ CarTurntable }) => {
        if (left) return;
        turntable = new CarTurntable(el.querySelector<HTMLCanvasElement>('[data-turntable]')!, () => cards.querySelector<HTMLElement>('.item.focused')?.dataset.car ?? choice.carId ?? null, carShape);
      })
      .catch((e: Error) => console.warn(`car turntable not loaded: ${e.message}`));
    for (const c of CARS()) {
      const b = document.createElement('button');
      b.className = 'item card' + (c.id === choice.carId ? ' default' : '');
      b.dataset.car = c.id;
      const col = `rgb(${c.color.map((v) => Math.round(v * 255)).join(',')})`;
      b.innerHTML = `<div style="height:8px;background:${col};border-radius:3px"></div><div class="name">${esc(c.name)}</div>
        <div class="meta">${c.stats.map(([k, v]) => `<span>${esc(k)}</span><span>${esc(v)}</span>`).join('')}</div>`;
      b.onclick = () => {
        choice.carId = c.id;
        ctx.show('loading');
      };
      // measured numbers from the car test (0–100, top speed, braking, lateral grip)
      const meta = b.querySelector('.meta')!;
      void carTestStats(c.id)
        .then((rows) => {
          for (const [k, v] of rows) meta.insertAdjacentHTML('beforeend', `<span data-test>${esc(k)}</span><span data-test>${esc(v)}</span>`);
        })
        .catch((e: Error) => console.warn(`car test for ${c.id}: ${e.message}`));
      cards.appendChild(b);
    }
    return {
      el,
      dispose: () => {
        left = true;
        turntable?.dispose();
      },
      back: () => ctx.show('stages'),
      onKey: (k) => {
        if (k === 'left' || k === 'right') {
          app.screens.handle([k === 'left' ? 'up' : 'down']);
          return true;
        }
        return false;
      },
    };
  });
}

/** Loads the chosen stage (and Havok for its props), then starts the session and shows the drive screen. */
function registerLoadingScreen(app: AppContext): void {
  registerScreen('loading', (ctx, params) => {
    const req = params.run as StageRunRequest | undefined;
    if (req) {
      choice.stage = req.stage;
      choice.carId = req.carId;
    }
    const el = html(`<h2>Loading</h2><div class="sub" data-msg>${esc(choice.stage?.name ?? '')}</div>`);
    const msg = el.querySelector<HTMLElement>('[data-msg]')!;
    const t0 = performance.now();
    void (async () => {
      try {
        const s = choice.stage!;
        // the session and its views (most of Babylon's meshes, materials, effects) are not in the startup chunk
        const [{ stage, files }, { GameSession }] = await Promise.all([
          loadStageWithFiles(s),
          import('./game'),
          app.featuresReady(), // telemetry, replay saving and the ghost follow the run from its first tick
          // Havok (wasm) for the stage's props; without it the run has no props (warned)
          stagePropsEnabled() ? import('./havok-browser').then((m) => m.loadHavokBrowser()).catch((e: Error) => console.warn(`Havok not loaded, no props: ${e.message}`)) : null,
        ]);
        msg.textContent = 'Building the stage…';
        await new Promise((r) => setTimeout(r, 0));
        const best = await app.bests.get(s.id, choice.carId!);
        app.startSession(null);
        const session = new GameSession(app.kit, stage, files, carChoice(choice.carId!), app.settings, app.devices, app.audio, document.getElementById('ui')!, {
          simCapS: app.simCapS,
          bestSplitsS: best?.splitsS,
          bestTimeS: best?.timeS,
          ...req?.session,
        });
        session.onFinish = (r) => {
          req?.onFinish?.(r);
          void finishRun(app, r);
        };
        app.startSession(session);
        (window.__bitrally as Record<string, unknown>).loadMs = performance.now() - t0;
        (window.__bitrally as Record<string, unknown>).readyMs = performance.now();
        ctx.show('drive');
      } catch (e) {
        console.warn(e);
        ctx.show('error', { message: (e as Error).message, back: 'stages' });
      }
    })();
    return { el };
  });
}

/** The drive screen: an empty overlay over the running session's HUD. */
function registerDriveScreen(app: AppContext): void {
  registerScreen('drive', () => {
    const el = html('', 'drive');
    app.session?.hud.show(true);
    return { el, overlay: true };
  });
}

/** The pause overlay: the session stays paused until resume. */
function registerPauseScreen(app: AppContext): void {
  registerScreen('pause', (ctx, params) => {
    app.session?.setPaused(true);
    const reason = typeof params.reason === 'string' ? `<div class="sub">${esc(params.reason)}</div>` : '';
    const el = html(`<h2>Paused</h2>${reason}
      <button class="item default" data-a="resume">Resume</button>
      <button class="item" data-a="restart">Restart stage</button>
      <button class="item" data-a="settings">Settings</button>
      <button class="item" data-a="garage">Garage (tune this car)</button>
      <button class="item" data-a="quit">Quit to menu</button>
      <div class="hint">Free camera: stick · Start / B: resume</div>`, 'screen overlay');
    const act = (a: string): void => {
      if (a === 'resume') {
        app.session?.setPaused(false);
        ctx.show('drive');
      } else if (a === 'restart') ctx.show('loading');
      else if (a === 'settings') ctx.show('settings', { from: 'pause' });
      else if (a === 'garage') ctx.show('garage', { from: 'pause' });
      else if (a === 'quit') {
        app.startSession(null);
        ctx.show('title');
      }
    };
    el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => (b.onclick = () => act(b.dataset.a!)));
    applyScreenExtras(el, screenExtras('pause', params));
    return {
      el,
      overlay: true,
      back: () => act('resume'),
      onKey: (k) => {
        if (k === 'start') {
          act('resume');
          return true;
        }
        return false;
      },
    };
  });
}

/** The finish overlay: splits and time against the previous personal best. */
function registerFinishScreen(app: AppContext): void {
  registerScreen('finish', (ctx, params) => {
    const r = params.result as RunResult;
    const prev = params.prevBest as { timeS: number; splitsS: number[] } | undefined;
    const isBest = params.isBest as boolean;
    const rows = r.splitsS
      .map((t, i) => {
        const d = prev?.splitsS[i] !== undefined ? t - prev.splitsS[i]! : null;
        return `<span>CP${i + 1}</span><span>${formatTime(t)}</span><span class="${d === null ? '' : d < 0 ? 'faster' : 'slower'}">${d === null ? '' : formatDelta(d)}</span>`;
      })
      .join('');
    const dT = prev ? r.timeS - prev.timeS : null;
    const el = html(`<h2>${isBest ? 'New personal best!' : 'Stage complete'}</h2>
      <div class="results">${rows}<span><b>Finish</b></span><span data-final><b>${formatTime(r.timeS)}</b></span>
      <span class="${dT === null ? '' : dT < 0 ? 'faster' : 'slower'}">${dT === null ? '' : formatDelta(dT)}</span>
      <span>Penalties</span><span>${r.penaltyS.toFixed(0)} s</span><span></span>
      <span>Personal best</span><span>${formatTime(isBest || !prev ? r.timeS : prev.timeS)}</span><span></span></div>
      <button class="item default" data-a="retry">Retry</button>
      <button class="item" data-a="next">Next stage</button>
      <button class="item" data-a="analyse">Compare with previous run</button>
      <button class="item" data-a="menu">Main menu</button>`, 'screen overlay');
    const act = (a: string): void => {
      if (a === 'retry') ctx.show('loading');
      // issue 9: this run's telemetry beside the previous run of the stage (src/app/telemetry/analysis-screen.ts)
      else if (a === 'analyse') ctx.show('analysis', { stageId: r.stageId, runTimeS: r.timeS, from: 'finish', backParams: params });
      else if (a === 'next') {
        const list = stageList ?? [];
        const i = list.findIndex((s) => s.id === choice.stage?.id);
        choice.stage = list[(i + 1) % Math.max(1, list.length)] ?? choice.stage;
        ctx.show('loading');
      } else {
        app.startSession(null);
        ctx.show('title');
      }
    };
    el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => (b.onclick = () => act(b.dataset.a!)));
    addWatchReplayButton(el, ctx, params, app.session?.replayBytes);
    applyScreenExtras(el, screenExtras('finish', params));
    addSubmissionStatus(el, app, app.session?.replayBytes, r.stageId);
    return { el, overlay: true, back: () => act('menu') };
  });
}

/** An error message and a way back. */
function registerErrorScreen(): void {
  registerScreen('error', (ctx, params) => {
    const el = html(`<h2>Something went wrong</h2><div class="error">${esc(String(params.message))}</div><button class="item default">Back</button>`);
    const back = (): void => ctx.show(typeof params.back === 'string' ? params.back : 'title');
    el.querySelector('button')!.onclick = back;
    return { el, back };
  });
}

/** The value `d` steps from `v` in a list of choices, wrapping round. */
function cycle<T>(choices: readonly T[], v: T, d: -1 | 1): T {
  return choices[(choices.indexOf(v) + d + choices.length) % choices.length]!;
}

/** Settings rows, each adjusted with left/right (toggles once per press) and saved on every change. */
function registerSettingsScreen(app: AppContext): void {
  registerScreen('settings', (ctx, params) => {
    const from = params.from === 'pause' ? 'pause' : 'title';
    const el = html(`<h2>Settings</h2><div class="list"></div><div class="hint">←/→ change · A: toggle · B: back</div>`);
    const list = el.querySelector('.list')!;
    const s = app.settings;
    // toggle rows act once per press; a held stick or key never flips them back and forth (screens.ts)
    type Row = { key: string; label: string; get: () => string; adjust: (d: -1 | 1) => void; toggle?: boolean };
    const pct = (v: number): string => `${Math.round(v * 100)}%`;
    const step = (v: number, d: number, lo: number, hi: number, st: number): number => Math.round(Math.max(lo, Math.min(hi, v + d * st)) / st) * st;
    const rows: Row[] = [
      { key: 'units', label: 'Speed units', get: () => (s.units === 'kmh' ? 'km/h' : 'mph'), adjust: () => (s.units = s.units === 'kmh' ? 'mph' : 'kmh'), toggle: true },
      { key: 'masterVolume', label: 'Master volume', get: () => pct(s.masterVolume), adjust: (d) => (s.masterVolume = step(s.masterVolume, d, 0, 1, 0.1)) },
      { key: 'engineVolume', label: 'Engine volume', get: () => pct(s.engineVolume), adjust: (d) => (s.engineVolume = step(s.engineVolume, d, 0, 1, 0.1)) },
      { key: 'effectsVolume', label: 'Effects volume', get: () => pct(s.effectsVolume), adjust: (d) => (s.effectsVolume = step(s.effectsVolume, d, 0, 1, 0.1)) },
      {
        key: 'camera',
        label: 'Camera',
        toggle: true,
        get: () => s.camera,
        adjust: (d) => (s.camera = cycle(CAMERA_MODES, s.camera, d)),
      },
      { key: 'steerSpeed', label: 'Steering speed (keys)', get: () => s.steerSpeed.toFixed(1), adjust: (d) => (s.steerSpeed = step(s.steerSpeed, d, 0.5, 10, 0.5)) },
      { key: 'codriver', label: 'Co-driver calls', get: () => (s.codriver ? 'on' : 'off'), adjust: () => (s.codriver = !s.codriver), toggle: true },
      { key: 'codriverVolume', label: 'Co-driver volume', get: () => pct(s.codriverVolume), adjust: (d) => (s.codriverVolume = step(s.codriverVolume, d, 0, 1, 0.1)) },
      { key: 'codriverTiming', label: 'Co-driver timing', get: () => s.codriverTiming, adjust: (d) => (s.codriverTiming = cycle(CODRIVER_TIMINGS, s.codriverTiming, d)), toggle: true },
      { key: 'codriverVoice', label: 'Co-driver voice', get: () => (s.codriverVoice === 'clips' ? 'recorded' : 'system'), adjust: (d) => (s.codriverVoice = cycle(CODRIVER_VOICES, s.codriverVoice, d)), toggle: true },
      { key: 'cornerBoards', label: 'Corner arrow boards (next stage)', get: () => (s.cornerBoards ? 'on' : 'off'), adjust: () => (s.cornerBoards = !s.cornerBoards), toggle: true },
      { key: 'rumble', label: 'Rumble', get: () => (s.rumble ? 'on' : 'off'), adjust: () => (s.rumble = !s.rumble), toggle: true },
      { key: 'perfOverlay', label: 'Performance overlay', get: () => (s.perfOverlay ? 'on' : 'off'), adjust: () => (s.perfOverlay = !s.perfOverlay), toggle: true },
      { key: 'submitRuns', label: 'Submit runs online (needs a server)', get: () => (s.submitRuns ? 'on' : 'off'), adjust: () => (s.submitRuns = !s.submitRuns), toggle: true },
      { key: 'graphics', label: 'Graphics quality', get: () => s.graphics, adjust: (d) => (s.graphics = cycle(GRAPHICS_PRESETS, s.graphics, d)), toggle: true },
    ];
    for (const r of rows) {
      const b = document.createElement('button');
      b.className = 'item';
      b.dataset.key = r.key;
      const label = document.createElement('span');
      label.textContent = r.label;
      const value = document.createElement('span');
      value.className = 'val';
      b.append(label, value);
      const val = (): void => {
        value.textContent = `‹ ${r.get()} ›`;
      };
      val();
      const change = (d: -1 | 1): void => {
        r.adjust(d);
        app.saveSettings(s);
        val();
      };
      adjustable(b, change, r.toggle ? 'toggle' : 'step');
      b.onclick = () => change(1);
      list.appendChild(b);
    }
    const ctl = document.createElement('button');
    ctl.className = 'item';
    ctl.textContent = 'Controls…';
    ctl.onclick = () => ctx.show('controls', { from });
    list.appendChild(ctl);
    const back = document.createElement('button');
    back.className = 'item';
    back.textContent = 'Back';
    back.onclick = () => ctx.show(from);
    list.appendChild(back);
    return { el, back: () => ctx.show(from) };
  });
}

async function finishRun(app: AppContext, r: RunResult): Promise<void> {
  const prev = await app.bests.get(r.stageId, r.carId);
  const isBest = await app.bests.submit({ stageId: r.stageId, carId: r.carId, timeS: r.timeS, splitsS: r.splitsS, date: new Date().toISOString() });
  (window.__bitrally as Record<string, unknown>).lastResult = { ...r, isBest };
  app.screens.show('finish', { result: r, prevBest: prev, isBest });
}
