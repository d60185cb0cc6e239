/**
 * One call wires replays (issue 7) into the app: `installReplays(app)` from main.ts.
 *  - the library ('replays', 'replay-entry') and the viewer ('replay') screens;
 *  - finished runs are saved to the library automatically (the session's recorder produces the bytes at
 *    the finish line: `session.replayBytes`);
 *  - the ghost: when a run starts, the chosen replay for that stage (library "Race against it") or the
 *    personal best with that car races along as a translucent car in its own world, with the live delta;
 *  - a test hook `window.__bitrally.replays` (list, export as base64, import bytes, viewer/ghost state).
 */
import type { SceneKit } from '../../systems/view/scene';
import type { GameAudio } from '../../systems/view/audio';
import { CodriverView } from '../../systems/view/codriver/codriver';
import type { Stage } from '../../../terrain/stage';
import type { StageProgressView } from '../../run/stage-progress-view';
import { formatDelta } from '../../run/stage-run';
import { adjustable, html, registerScreen, type ScreenManager } from '../screens';
import type { InputDevices } from '../input/devices';
import type { Settings } from '../settings';
import { decodeReplay, ReplayFormatError } from '../../replay/format';
import { buildRunWorld } from '../../run/run-world';
import { resolveStage } from '../../replay/stage-check';
import { verifyReplay } from '../../replay/verify';
import { vehicleCarAdapter } from '../../run/cars';
import { sharedReplayLibrary, type ReplayLibrary, type ReplayEntry } from './library';
import { registerLibraryScreens } from './library-screen';
import { browserStageSource } from './stage-source';
import { ReplayViewer, VIEWER_SPEEDS } from './viewer';
import { TownReplayViewer } from './town-viewer';
import { GhostRun } from './ghost';
import { pickGhost } from './ghost-choice';
import { replayDrivable } from './replay-car';
import { formatClock } from '../../systems/view/hud';
import { loadHavokBrowser } from '../havok-browser';

import './replay.css';
import { escapeHtml as esc } from '../escape-html';

/** What replays need from a running game session (GameSession satisfies it structurally). */
export interface ReplaySessionLike {
  world: { tick: number; dt: number };
  stage: Stage;
  car: { eid: number; info: { id: string } };
  run: StageProgressView;
  scheduler: { alpha: number };
  hud: { el: HTMLElement };
  replayBytes?: Uint8Array | null;
}

export interface ReplayApp {
  kit: SceneKit;
  audio: GameAudio;
  devices: InputDevices;
  settings: Settings;
  screens: ScreenManager;
  session: ReplaySessionLike | null;
  startSession(s: null): void;
}


function toB64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}
function fromB64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export interface Replays {
  library: ReplayLibrary;
}

export function installReplays(app: ReplayApp): Replays {
  const library = sharedReplayLibrary();
  const opened = library.open();
  const hook = installTestHook(library);
  registerLibraryScreens({
    library,
    onImported: (e, error) => {
      hook.lastImport = { id: e?.id ?? null, error };
    },
  });
  registerViewerScreen(app, library, opened, hook);
  installSaveAndGhost(app, library, opened, hook);
  return { library };
}

/** The test hook `window.__bitrally.replays`: list, export as base64, import bytes, verify in the page. */
function installTestHook(library: ReplayLibrary): Record<string, unknown> {
  const hook: Record<string, unknown> = {
    lastSavedId: null,
    lastImport: null,
    viewer: null,
    ghost: null,
    saveError: null,
  };
  const root = (window.__bitrally ??= {});
  root.replays = hook;
  hook.list = async () => (await library.list()).map((e) => ({ id: e.id, name: e.name, stageId: e.stageId, carIds: e.carIds, timeS: e.timeS, durationS: e.durationS, bytes: e.bytes.length }));
  hook.exportBase64 = async (id: string) => {
    const e = await library.get(id);
    return e ? toB64(e.bytes) : null;
  };
  hook.importBase64 = async (b64: string, name: string) => {
    try {
      const e = await library.importFile(new File([fromB64(b64).slice().buffer as ArrayBuffer], name));
      return { id: e.id, error: null };
    } catch (err) {
      return { id: null, error: (err as Error).message };
    }
  };

  /** Re-simulates a library replay headless in this page (straight through, no seeking): the verifier's report. */
  hook.verifyInPage = async (id: string) => {
    const e = await library.get(id);
    if (!e) return null;
    await loadHavokBrowser().catch(() => undefined);
    const r = await verifyReplay(e.bytes, { stages: browserStageSource, cars: vehicleCarAdapter, file: e.name });
    return { ok: r.ok, ticks: r.ticks, checked: r.checksumsChecked, matched: r.checksumsMatched, desync: r.firstDesync ? { tick: r.firstDesync.tick, differences: r.firstDesync.differences.slice(0, 12) } : null, stageTimeS: r.stageTimeS, recordedStageTimeS: r.recordedStageTimeS };
  };
  return hook;
}

// ---- viewer screen ----------------------------------------------------------------------------------

/** The viewer screen's mutable state: the viewer once the replay has loaded, and whether the screen was left. */
/** The viewer of a stage replay or of a town replay (same controls and test hook). */
type AnyViewer = ReplayViewer | TownReplayViewer;

interface ViewerSlot {
  viewer: AnyViewer | null;
  disposed: boolean;
}

/** The viewer's DOM: title and status, input bars, the timeline and the transport buttons. */
function viewerMarkup(): HTMLElement {
  return html(
    `<div class="rv-top"><div class="rv-title" data-title>Loading replay…</div><div class="rv-status" data-status></div><div class="error" data-error></div></div>
      <div class="rv-tele"><div><span>steer</span><i data-in="steer"></i></div><div><span>throttle</span><i data-in="throttle"></i></div>
        <div><span>brake</span><i data-in="brake"></i></div><div><span>clutch</span><i data-in="clutch"></i></div><div><span>handbrake</span><i data-in="handbrake"></i></div></div>
      <div class="rv-bar">
        <div class="rv-timeline" data-timeline><div class="rv-fill" data-fill></div><div class="rv-marks" data-marks></div></div>
        <div class="rv-buttons">
          <button class="item rv-btn default" data-a="play">Pause</button>
          <button class="item rv-btn" data-a="back1">◀ frame</button>
          <button class="item rv-btn" data-a="fwd1">frame ▶</button>
          <button class="item rv-btn" data-a="seek"><span>Seek</span><span class="val" data-time>0:00.000</span></button>
          <button class="item rv-btn" data-a="speed"><span>Speed</span><span class="val" data-speed>1×</span></button>
          <button class="item rv-btn" data-a="camera"><span>Camera</span><span class="val" data-camera>chase</span></button>
          <button class="item rv-btn" data-a="exit">Back</button>
        </div>
        <div class="hint rv-hint">Space play/pause · , . frame · ←/→ on Seek ±5 s · click the timeline to seek · C camera · drag to orbit (free)</div>
      </div>`,
    'replay-viewer',
  );
}

function registerViewerScreen(app: ReplayApp, library: ReplayLibrary, opened: Promise<unknown>, hook: Record<string, unknown>): void {
  registerScreen('replay', (ctx, params) => {
    const from = typeof params.from === 'string' ? params.from : 'replays';
    const el = viewerMarkup();
    const slot: ViewerSlot = { viewer: null, disposed: false };
    const vh: Record<string, unknown> = { ready: false, error: null };
    hook.viewer = vh;
    app.startSession(null);

    // a caller that needs its own params back (the finish screen) passes them as backParams
    const back = (): void => ctx.show(from, (params.backParams as Record<string, unknown> | undefined) ?? { id: params.id });
    const unbindControls = bindViewerControls(el, slot, back);
    const unbindDrag = bindOrbitDrag(app.kit.engine.getRenderingCanvas(), slot);
    void loadViewer(app, library, opened, params, el, slot, vh);

    const ui = viewerUi(el);
    return {
      el,
      overlay: true,
      back,
      update: (dt) => {
        const v = slot.viewer;
        if (v) updateViewer(v, app.devices, ui, vh, dt);
      },
      dispose: () => {
        slot.disposed = true;
        unbindControls();
        unbindDrag();
        slot.viewer?.dispose();
        slot.viewer = null;
        vh.ready = false;
      },
    };
  });
}

/** Buttons, timeline clicks and keys drive the loaded viewer; returns the cleanup for the window listener. */
function bindViewerControls(el: HTMLElement, slot: ViewerSlot, back: () => void): () => void {
  const timeline = el.querySelector<HTMLElement>('[data-timeline]')!;
  const act = (a: string, dir: -1 | 1 = 1): void => {
    if (a === 'exit') return back();
    const v = slot.viewer;
    if (!v) return;
    if (a === 'play') {
      if (v.player.ended) v.seek(0);
      v.playing = !v.playing;
    } else if (a === 'back1') v.stepFrame(-1);
    else if (a === 'fwd1') v.stepFrame(1);
    else if (a === 'seek') v.seek(v.world.tick + dir * Math.round(5 / v.world.dt));
    else if (a === 'speed') v.setSpeed(dir);
    else if (a === 'camera') v.cycleCamera(dir);
  };
  el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => {
    b.onclick = () => act(b.dataset.a!);
    if (b.dataset.a === 'seek' || b.dataset.a === 'speed' || b.dataset.a === 'camera') adjustable(b, (d) => act(b.dataset.a!, d));
  });
  timeline.addEventListener('pointerdown', (ev) => {
    const v = slot.viewer;
    if (!v) return;
    const r = timeline.getBoundingClientRect();
    v.seek(((ev.clientX - r.left) / r.width) * v.player.totalTicks);
  });
  const onKey = (ev: KeyboardEvent): void => {
    if (!slot.viewer) return;
    if (ev.code === 'Space') act('play');
    else if (ev.code === 'Comma') act('back1');
    else if (ev.code === 'Period') act('fwd1');
    else if (ev.code === 'KeyC') act('camera');
    else if (ev.code === 'BracketLeft') act('speed', -1);
    else if (ev.code === 'BracketRight') act('speed', 1);
    else return;
    ev.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}

/** Dragging on the canvas orbits the free camera; returns the cleanup for the listeners. */
function bindOrbitDrag(canvas: HTMLCanvasElement | null, slot: ViewerSlot): () => void {
  let drag: { x: number; y: number } | null = null;
  const down = (e: PointerEvent): void => {
    drag = { x: e.clientX, y: e.clientY };
  };
  const move = (e: PointerEvent): void => {
    const viewer = slot.viewer;
    if (!drag || !viewer || viewer.view !== 'free') return;
    viewer.orbitInput.dx += (e.clientX - drag.x) * 0.3;
    viewer.orbitInput.dy += (e.clientY - drag.y) * 0.3;
    drag = { x: e.clientX, y: e.clientY };
  };
  const up = (): void => {
    drag = null;
  };
  canvas?.addEventListener('pointerdown', down);
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  return () => {
    canvas?.removeEventListener('pointerdown', down);
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
  };
}

/** The replay's bytes: given by the caller (an import) or the library entry `params.id`. */
async function replayBytesFor(library: ReplayLibrary, params: Record<string, unknown>): Promise<{ bytes: Uint8Array; name: string }> {
  const bytes = params.bytes instanceof Uint8Array ? params.bytes : null;
  const name = typeof params.name === 'string' ? params.name : 'replay';
  if (bytes) return { bytes, name };
  const e: ReplayEntry | undefined = await library.get(String(params.id));
  if (!e) throw new Error(`no replay with id ${String(params.id)} in the library`);
  return { bytes: e.bytes, name: e.name };
}

/** Decodes the replay, rebuilds its world and opens the viewer on it; an error is shown on the screen. */
async function loadViewer(app: ReplayApp, library: ReplayLibrary, opened: Promise<unknown>, params: Record<string, unknown>, el: HTMLElement, slot: ViewerSlot, vh: Record<string, unknown>): Promise<void> {
  const title = el.querySelector<HTMLElement>('[data-title]')!;
  try {
    await opened;
    const { bytes, name } = await replayBytesFor(library, params);
    const data = decodeReplay(bytes, name);
    if (data.header.town) {
      if (slot.disposed) return;
      slot.viewer = new TownReplayViewer(app.kit, data, el, app.settings.units, name);
      slot.viewer.onToast = (t) => slot.viewer?.toast(t);
      return showLoaded(el, slot, vh);
    }
    const stage = await resolveStage(data.header, data.stageFiles, browserStageSource, name);
    if (!stage) throw new ReplayFormatError(name, 'stage', 'a stage replay (the viewer shows stages)', 'flat ground');
    // the stage setup hooks add Havok props when Havok is loaded, as for the recorded run
    await loadHavokBrowser().catch((e: Error) => console.warn(`Havok not loaded, no props: ${e.message}`));
    const run = buildRunWorld(data.header, stage, vehicleCarAdapter);
    if (slot.disposed) return;
    const viewer = new ReplayViewer(app.kit, data, run, stage, el, app.settings.units);
    slot.viewer = viewer;
    viewer.onToast = (t) => slot.viewer?.toast(t);
    viewer.codriver = new CodriverView(app.kit.scene, stage, el, app.audio.codriver, app.settings);
    showLoaded(el, slot, vh);
  } catch (e) {
    console.warn(e);
    const msg = (e as Error).message;
    vh.error = msg;
    title.textContent = 'This replay cannot be shown';
    el.querySelector<HTMLElement>('[data-error]')!.textContent = msg;
  }
}

/** The title line and the timeline marks of the loaded viewer, then its test hook. */
function showLoaded(el: HTMLElement, slot: ViewerSlot, vh: Record<string, unknown>): void {
  const viewer = slot.viewer!;
  const h = viewer.data.header;
  const place = h.town ? ` · town ${h.town.seed}, ${h.town.cars} cars` : '';
  el.querySelector<HTMLElement>('[data-title]')!.innerHTML = `<b>${esc(h.name)}</b>${place} · ${esc(h.cars.map((c) => c.id).join(', '))} · ${(h.ticks * h.dt).toFixed(1)} s${h.result?.finished && h.result.stageTimeS !== null ? ` · stage time ${formatClock(h.result.stageTimeS)}` : ''}`;
  const total = Math.max(1, h.ticks);
  el.querySelector<HTMLElement>('[data-marks]')!.innerHTML = viewer.marks
    .map((m) => `<i class="rv-mark rv-${esc(m.kind)}" style="left:${((100 * m.tick) / total).toFixed(3)}%" title="${esc(m.label)} @ ${(m.tick * h.dt).toFixed(2)} s"></i>`)
    .join('');
  exposeViewer(vh, slot, h.ticks);
}

/** The test hook's controls for a loaded viewer (seek with its timing, play, camera, speed). */
function exposeViewer(vh: Record<string, unknown>, slot: ViewerSlot, totalTicks: number): void {
  vh.ready = true;
  vh.totalTicks = totalTicks;
  vh.marks = slot.viewer!.marks.map((m) => ({ ...m }));
  vh.seek = (t: number) => {
    const v = slot.viewer!;
    const t0 = performance.now();
    v.seek(t);
    return { tick: v.world.tick, ms: performance.now() - t0 };
  };
  vh.setPlaying = (p: boolean) => {
    slot.viewer!.playing = p;
  };
  vh.setCamera = (c: ReplayViewer['view'] & TownReplayViewer['view']) => {
    slot.viewer!.view = c;
    slot.viewer!.camera.snap();
  };
  vh.setSpeed = (s: number) => {
    if (VIEWER_SPEEDS.includes(s)) slot.viewer!.speed = s;
  };
}

/** The viewer's elements updated every frame, looked up once. */
interface ViewerUi {
  fill: HTMLElement;
  playBtn: HTMLElement;
  time: HTMLElement;
  speed: HTMLElement;
  camera: HTMLElement;
  status: HTMLElement;
  bars: HTMLElement[];
}

function viewerUi(el: HTMLElement): ViewerUi {
  const q = (s: string): HTMLElement => el.querySelector<HTMLElement>(s)!;
  return {
    fill: q('[data-fill]'),
    playBtn: q('[data-a="play"]'),
    time: q('[data-time]'),
    speed: q('[data-speed]'),
    camera: q('[data-camera]'),
    status: q('[data-status]'),
    bars: [...el.querySelectorAll<HTMLElement>('[data-in]')],
  };
}

/** One frame of the viewer: orbit from the stick, advance, then the timeline, buttons, input bars and status. */
function updateViewer(v: AnyViewer, devices: InputDevices, ui: ViewerUi, vh: Record<string, unknown>, dt: number): void {
  const snap = devices.snapshot();
  if (v.view === 'free') {
    v.orbitInput.dx += (snap.axes[2] ?? snap.axes[0] ?? 0) * 1;
    v.orbitInput.dy += -(snap.axes[3] ?? 0) * 1;
  }
  v.frame(dt);
  const p = v.player;
  const tick = p.world.tick;
  ui.fill.style.width = `${((100 * tick) / Math.max(1, p.totalTicks)).toFixed(2)}%`;
  ui.playBtn.textContent = v.playing ? 'Pause' : p.ended ? 'Replay' : 'Play';
  ui.time.textContent = `${formatClock(tick * v.world.dt)} / ${formatClock(p.totalTicks * v.world.dt)}`;
  ui.speed.textContent = `${v.speed}×`;
  ui.camera.textContent = v.view;
  drawInputBars(ui.bars, v.inputs());
  const d = p.desync;
  const status = ui.status;
  status.textContent = d
    ? `DESYNC at t = ${d.timeS.toFixed(3)} s (tick ${d.tick}): re-simulation differs from the recording${d.differences.length ? ` (${d.differences.slice(0, 3).map((x) => `${x.what}[${x.eid}]`).join(', ')}…)` : ''}; showing recorded keyframes (${p.resyncs} resyncs)${p.trusted ? '' : ' — waiting for the next keyframe'}`
    : `checksums ${p.checksumsMatched}/${p.checksumsChecked} match`;
  status.classList.toggle('rv-desync', !!d);
  vh.tick = tick;
  vh.playing = v.playing;
  vh.ended = p.ended;
  vh.speed = v.speed;
  vh.camera = v.view;
  vh.checksumsChecked = p.checksumsChecked;
  vh.checksumsMatched = p.checksumsMatched;
  vh.desync = d ? { tick: d.tick, timeS: d.timeS } : null;
  vh.trusted = p.trusted;
  vh.stageTimeS = v.stageTimeAt(tick);
  const b = v.world as unknown as { c: { RigidBody: { px: Float64Array; pz: Float64Array } } };
  vh.carPos = [b.c.RigidBody.px[v.cars[0]!.eid], b.c.RigidBody.pz[v.cars[0]!.eid]];
  vh.town = v instanceof TownReplayViewer ? { cars: v.trafficPositions(), simS: tick * v.world.dt } : null;
}

/** The recorded inputs as bars: steering from the centre, the pedals from the left. */
function drawInputBars(bars: HTMLElement[], inp: ReturnType<ReplayViewer['inputs']>): void {
  for (const b of bars) {
    const k = b.dataset.in as keyof typeof inp;
    const val = inp[k];
    if (k === 'steer') {
      const w = Math.min(50, Math.abs(val) * 50);
      b.style.left = `${val < 0 ? 50 - w : 50}%`;
      b.style.width = `${w}%`;
    } else b.style.width = `${Math.max(0, Math.min(1, val)) * 100}%`;
  }
}

// ---- auto-save and ghost, per frame right before rendering -----------------------------------------

/**
 * The ghost racing the live session: started when a session begins (the chosen replay or the personal best),
 * dropped when it ends. The token discards a ghost still loading for a session that has gone.
 */
class GhostSlot {
  ghost: GhostRun | null = null;
  el: HTMLElement | null = null;
  token = 0;
  readonly gh: Record<string, unknown> = { active: false };

  constructor(
    private readonly app: ReplayApp,
    private readonly library: ReplayLibrary,
    private readonly opened: Promise<unknown>,
  ) {}

  drop(): void {
    this.token++;
    this.ghost?.dispose();
    this.ghost = null;
    this.el?.remove();
    this.el = null;
    this.gh.active = false;
    this.gh.delta = null;
  }

  async start(s: ReplaySessionLike, token: number): Promise<void> {
    const { app, gh } = this;
    await this.opened;
    const entry = pickGhost(await this.library.list(), s.stage.id, s.car.info.id);
    if (!entry || token !== this.token) return;
    try {
      await loadHavokBrowser().catch(() => undefined);
      const g = await GhostRun.create(entry.bytes, entry.name, browserStageSource, vehicleCarAdapter);
      if (token !== this.token || app.session !== s) {
        g.dispose();
        return;
      }
      const hc = g.player.data.header.cars[Math.max(0, g.player.data.header.cars.findIndex((c) => c.role === 'player'))]!;
      g.attachView(app.kit.scene, replayDrivable(g.player.world, g.carEid, hc, 0).shape);
      this.ghost = g;
      this.el = document.createElement('div');
      this.el.className = 'hud-ghost';
      this.el.innerHTML = `<small>ghost: ${esc(entry.name)}</small><b data-d></b>`;
      s.hud.el.appendChild(this.el);
      gh.active = true;
      gh.entryId = entry.id;
      gh.name = entry.name;
    } catch (e) {
      console.warn(`ghost: ${(e as Error).message}`);
      gh.error = (e as Error).message;
    }
  }

  /** Advances the ghost to the live tick and shows the delta at the live car's progress. */
  draw(s: ReplaySessionLike): void {
    const ghost = this.ghost;
    if (!ghost) return;
    const tick = s.world.tick;
    // keep up with the live run (and LEAD ahead); never more than ~0.6 s of simulation per frame
    ghost.advance(tick, 300);
    const running = s.run.phase !== 'countdown' && s.run.progressM > s.run.cfg.startM + 1;
    const d = ghost.draw(tick, s.scheduler.alpha, running && s.run.phase === 'running' ? s.run.progressM : null, s.run.timeS);
    this.gh.delta = d;
    this.gh.ghostTick = ghost.player.world.tick;
    const de = this.el?.querySelector<HTMLElement>('[data-d]');
    if (de && d !== null) {
      de.textContent = formatDelta(d);
      de.className = d < 0 ? 'faster' : d > 0 ? 'slower' : '';
    } else if (de && s.run.phase !== 'finished') de.textContent = '';
  }
}

/** Saves a finished run's replay to the library (once per session). */
function saveRun(bytes: Uint8Array, library: ReplayLibrary, opened: Promise<unknown>, hook: Record<string, unknown>): void {
  void opened
    .then(() => library.save(bytes))
    .then((e) => {
      hook.lastSavedId = e.id;
    })
    .catch((e: Error) => {
      hook.saveError = e.message;
      console.warn(`replay: could not save the run: ${e.message}`);
    });
}

/** Per frame before rendering: follow session changes (ghost), save the finished run, draw the ghost. */
function installSaveAndGhost(app: ReplayApp, library: ReplayLibrary, opened: Promise<unknown>, hook: Record<string, unknown>): void {
  let current: ReplaySessionLike | null = null;
  let saved = false;
  const ghost = new GhostSlot(app, library, opened);
  hook.ghost = ghost.gh;
  app.kit.scene.onBeforeRenderObservable.add(() => {
    const s = app.session;
    if (s !== current) {
      ghost.drop();
      current = s;
      saved = false;
      if (s) void ghost.start(s, ghost.token);
    }
    if (!s) return;
    if (!saved && s.replayBytes) {
      saved = true;
      saveRun(s.replayBytes, library, opened, hook);
    }
    ghost.draw(s);
  });
}
