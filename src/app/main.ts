/**
 * Browser bootstrap: scene, devices, settings, storage, audio, screens, and the frame loop.
 * Flow: title → stages → cars → loading → drive (countdown lights, run) ⇄ pause → finish.
 * A test hook on window.__bitrally exposes state for the e2e tests (no pixel reading needed).
 */
import { createSceneKit, type SceneKit } from '../systems/view/scene';
import { GameAudio } from '../systems/view/audio';
import { InputDevices } from './input/devices';
import { loadSettings, saveSettings, type Settings } from './settings';
import { BestTimes } from './storage';
import { ScreenManager } from './screens';
import type { GameSession } from './game';
import { quickStart, registerAllScreens, type AppContext } from './menus';
import { setStagePropsEnabled } from './game-setup';
import { loadOnce, registerLazyScreens } from './lazy-screens';
import { registerOfflineCache } from './offline';
import { switchProfile } from './input/profiles';
import { escapeHtml } from './escape-html';
import { applyGraphicsPreset } from '../systems/view/graphics-apply';
import { loadOnlineModule } from './online-link';
import { configuredServer } from './online-config';
import { patchKernelError } from '../../terrain/patch-kernel';
import { forceKernelError, forceKernelOf } from '../systems/sim/vehicle/force-kernel';

declare global {
  interface Window {
    __bitrally?: Record<string, unknown>;
  }
}

const t0 = performance.now();
/**
 * Test / tuning URL flags: `scale=N` renders at 1/N resolution (engine hardware scaling), `simcap=S` lets
 * one frame always run S seconds of simulation (default 0.1; the measured cost per tick raises it further:
 * docs/game.md "Frame pacing"), `framedelay=MS` busy-waits MS milliseconds every frame (test-only: a slow
 * renderer for the frame-pacing test).
 */
const urlFlags = new URLSearchParams(window.location.search);
const flagNumber = (k: string, lo: number, hi: number): number | null => {
  const v = urlFlags.get(k);
  if (v === null) return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n < lo || n > hi) {
    console.warn(`URL flag ${k}: expected a number in [${lo}, ${hi}], found "${v}" (ignored)`);
    return null;
  }
  return n;
};
const canvas = document.getElementById('view') as HTMLCanvasElement;
const ui = document.getElementById('ui') as HTMLDivElement;

const { settings, problems } = loadSettings(window.localStorage);
for (const p of problems) console.warn(p);

let kit: SceneKit;
try {
  // the shadow generator always exists; the graphics preset turns its pass on or off
  kit = createSceneKit(canvas, { shadows: true });
} catch (e) {
  ui.innerHTML = `<div class="screen"><h2>WebGL is not available</h2><div class="error">${escapeHtml((e as Error).message)}</div></div>`;
  throw e;
}
const scale = flagNumber('scale', 0.25, 8);
// the graphics preset's resolution scale, unless the `scale` flag fixes it
applyGraphicsPreset(kit, settings.graphics, null, scale);
const simCapS = flagNumber('simcap', 0.02, 1) ?? 0.1;
let frameDelayMs = flagNumber('framedelay', 0, 2000) ?? 0;
setStagePropsEnabled(urlFlags.get('props') !== '0'); // Havok props on by default (docs/collisions.md "Game"); props=0 turns them off
const devices = new InputDevices(window);
const audio = new GameAudio();
audio.setVolumes({ master: settings.masterVolume, engine: settings.engineVolume, effects: settings.effectsVolume });
const bests = new BestTimes();
void bests.open();
const screens = new ScreenManager(ui);

const hook: Record<string, unknown> = {
  state: 'boot',
  speedKmh: 0,
  stageTimeS: 0,
  splits: [],
  lastSplit: null,
  perf: null,
  drivableMs: null,
  bootMs: null,
  carPos: null,
  padConnected: false,
  /** Frames rendered so far (the e2e tests wait on it to know a pad change was polled). */
  frame: 0,
  /** Last menu presses seen (screen:key@frame), for test diagnostics. */
  menuKeys: [],
  screens: () => screens.currentName,
  /** Test hook: change the `framedelay` busy-wait per frame, ms (the frame-pacing test's slow renderer). */
  setFrameDelayMs: (ms: number) => {
    frameDelayMs = Math.min(2000, Math.max(0, ms));
  },
  /** Test hook: stop the run unfinished, as a rally retirement does (its replay is closed and saved to the library). */
  retire: () => app.session?.abandon(),
  /** Test hook: hand the car to the AI autopilot (true) or back to the devices (false). */
  autopilot: (on: boolean) => app.session?.setAutopilot(on) ?? false,
  /** Test hook (render budgets): put the car `distanceM` along the road, camera behind it. */
  viewAt: (distanceM: number, lateralM?: number) => app.session?.viewAt(distanceM, lateralM),
  /** Test hook: the running stage's start and finish distances along the road, m. */
  carRollDeg: () => (app.session ? (app.session.carRoll() * 180) / Math.PI : null),
  stageSpan: () => (app.session ? { startM: app.session.run.cfg.startM, finishM: app.session.run.cfg.finishM } : null),
  /** Test hook: the graphics preset now, as the settings screen would set it (applied at once, saved). */
  setGraphics: (name: Settings['graphics']) => app.saveSettings({ ...app.settings, graphics: name }),
  /** Test hook: the engine's hardware scaling level (the preset's resolution scale) and whether the shadow pass runs. */
  hardwareScaling: () => kit.engine.getHardwareScalingLevel(),
  shadowPass: () => kit.sun.shadowEnabled,
  /** Test hook: the driving camera, as the settings screen would set it. */
  setCamera: (name: Settings['camera']) => app.saveSettings({ ...app.settings, camera: name }),
  /** Test hook: Babylon's counters of the last rendered frame. */
  renderCounts: () => app.session?.renderCounts() ?? null,
  /** Test hook: dust / spray particles alive now. */
  sprayParticles: () => app.session?.sprayParticles ?? 0,
  /**
   * Test hook: the same frame rendered twice, without and with the spray (canvas PNG data URLs), so the spray
   * check compares one car pose and camera (nothing steps between the two renders).
   */
  sprayPair: () => {
    const s = app.session;
    if (!s) return null;
    const shot = (hidden: boolean): string => {
      s.setSprayHidden(hidden);
      kit.scene.render();
      return canvas.toDataURL('image/png');
    };
    const without = shot(true);
    return { without, withSpray: shot(false) };
  },
  /** Test hook: the car's ground speed and whether it is still coasting after the finish. */
  coast: () => (app.session ? { speedMS: app.session.speedMS, coasting: app.session.coasting, finished: app.session.finished } : null),
  /** Test hook: why the terrain contact patch runs in TypeScript here (null: its WebAssembly kernel runs). */
  terrainKernelError: () => patchKernelError(),
  /** Test hook: why the drive's force passes run in TypeScript here (null: their WebAssembly kernel runs on the session's world). */
  forceKernelError: () => (app.session ? (forceKernelOf(app.session.world) ? null : (forceKernelError() ?? 'no kernel')) : 'no session'),
  /** The finished run's replay file, base64 (null before the finish). */
  replayBase64: () => {
    const b = app.session?.replayBytes;
    if (!b) return null;
    let s = '';
    for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return btoa(s);
  },
};
window.__bitrally = hook;

const app: AppContext = {
  kit,
  devices,
  audio,
  bests,
  settings,
  screens,
  session: null,
  simCapS,
  saveSettings(s: Settings) {
    Object.assign(app.settings, s);
    saveSettings(window.localStorage, app.settings);
    audio.setVolumes({ master: app.settings.masterVolume, engine: app.settings.engineVolume, effects: app.settings.effectsVolume });
    app.session?.applySettings(app.settings);
    applyGraphicsPreset(kit, app.settings.graphics, app.session, scale);
  },
  startSession(s: GameSession | null) {
    app.session?.dispose();
    app.session = s;
    if (s) applyGraphicsPreset(kit, app.settings.graphics, s, scale);
  },
  featuresReady: () => Promise.all([loadTuning(), loadReplays(), loadRallycross()]).then(() => undefined),
};
registerAllScreens(app);
// Not in the startup chunk: loaded after the first frame, or at once when one of their screens is opened
// (src/app/lazy-screens.ts); a run starts only once all are installed (telemetry, replay saving, ghost).
// garage, telemetry panel (T), run analysis, dev car live reload (issue 9)
const loadTuning = loadOnce(() => import('./garage/install').then((m) => void m.installTuning(app, ui)));
// replay library + viewer, auto-saved runs, ghost (issue 7)
const loadReplays = loadOnce(() => import('./replay/install').then((m) => void m.installReplays(app)));
// rallycross race mode vs AI drivers (issue 8)
const loadRallycross = loadOnce(() => import('./rallycross/install').then((m) => m.installRallycross(app)));
registerLazyScreens(['garage', 'analysis'], loadTuning);
registerLazyScreens(['replays', 'replay-entry', 'replay'], loadReplays);
registerLazyScreens(['rallycross', 'rallycross-race', 'rallycross-results'], loadRallycross);
// town mode: the player's car in a generated town with traffic (issue 23)
registerLazyScreens(['town', 'town-drive', 'town-pause'], loadOnce(() => import('./town/install').then((m) => m.installTown(app))));
// rally mode: multi-stage rallies with service, rivals, daily rally (issue 20)
const loadRally = loadOnce(() => import('./rally/install').then((m) => void m.installRally(app)));
registerLazyScreens(['rally', 'rally-new', 'rally-stage', 'rally-service', 'rally-standings'], loadRally);
// New stage: the in-game generator (Web Worker), stage packages (issue 20)
// Online: leaderboards, run submissions, the offline queue (issue 21, docs/server.md "The game")
const loadOnline = loadOnce(() => loadOnlineModule().then((m) => m.installOnline(app, quickStart)));
registerLazyScreens(['leaderboards'], loadOnline);
// Multiplayer: stage-together rooms on the server, the lobby, the networked drive (issue 22, docs/multiplayer.md)
registerLazyScreens(['multiplayer', 'multiplayer-lobby', 'multiplayer-drive'], loadOnce(() => import('./multiplayer/install').then((m) => m.installMultiplayer(app))));
registerLazyScreens(['new-stage'], loadOnce(() => import('./stage-gen/install').then((m) => m.installStageGen(app))));

// audio needs a user gesture
const startAudio = (): void => {
  audio.start();
  if (app.session && !app.session.finished) audio.playLoops();
};
for (const ev of ['pointerdown', 'keydown']) window.addEventListener(ev, startAudio, { once: true });
let audioStarted = false;
devices.onPadConnected = () => {
  hook.padConnected = true;
};
devices.onPadDisconnected = () => {
  hook.padConnected = false;
  if (app.session && !app.session.paused && !app.session.finished && screens.currentName === 'drive') {
    screens.show('pause', { reason: 'Controller disconnected' });
  }
};

screens.onChange = (name) => {
  hook.state = name;
};
screens.show('title');
hook.bootMs = performance.now() - t0;
/** performance.now() is measured from navigation start: page load → title shown. */
hook.titleMs = performance.now();
const qsStage = urlFlags.get('stage');
if (qsStage) void quickStart(app, qsStage, urlFlags.get('car') ?? 'hatch-gti');

let last = performance.now();
kit.engine.runRenderLoop(() => {
  const now = performance.now();
  // the stage session gets the true frame time (frame pacing); screens step at most max(0.25 s, simcap)
  const frameS = (now - last) / 1000;
  const dt = Math.min(Math.max(0.25, simCapS), frameS);
  last = now;
  devices.poll();
  if (!audioStarted && devices.padConnected && devices.snapshot().buttons.some((b) => b > 0.5)) {
    // the first pad button starts the audio too (Chromium counts gamepad button presses as activation)
    audioStarted = true;
    startAudio();
  }
  // menu auto-repeat counts at most 0.1 s per frame: a slow frame never turns one press into two
  const keys = devices.menuPresses(Math.min(dt, 0.1));
  if (keys.length) {
    const log = hook.menuKeys as string[];
    log.push(...keys.map((k) => `${screens.currentName}:${k}@${hook.frame as number}`));
    if (log.length > 30) log.splice(0, log.length - 30);
  }
  // per-controller profiles: a pad seen for the first time gets the default bindings (src/app/input/profiles.ts)
  if (switchProfile(app.settings, devices.padId)) app.saveSettings(app.settings);
  if (screens.currentName !== 'drive') screens.handle(keys, devices.menuRepeats);
  else if (keys.includes('start')) screens.show('pause');
  screens.update(dt);
  const s = app.session;
  if (s) {
    s.frame(frameS);
    const tele = s.hudTelemetry();
    hook.speedKmh = tele.speedMS * 3.6;
    hook.stageTimeS = s.run.timeS;
    hook.phase = s.run.phase;
    hook.splits = s.run.splits.map((x) => ({ ...x }));
    hook.lastSplit = s.run.lastSplit ? { ...s.run.lastSplit } : null;
    hook.perf = { ...s.perf };
    hook.simTimeS = s.world.time;
    hook.frameAtMs = now;
    hook.pacing = { droppedTicks: s.scheduler.droppedTicks, costPerTickUs: s.scheduler.costPerTickS * 1e6, tickCap: s.scheduler.tickCap };
    hook.carPos = s.carPosition();
    hook.steering = s.steeringState();
    hook.progressM = s.run.progressM;
    hook.recoveries = s.run.recoveries;
    hook.impacts = s.impacts;
    hook.damage = s.hudTelemetry().damage.slice();
    hook.gear = tele.gear;
    hook.shiftTo = tele.shiftTo;
    hook.rpm = tele.rpm;
    if (s.drivableAtMs !== null && hook.drivableMs === null) hook.drivableMs = s.drivableAtMs - t0;
  }
  const r0 = performance.now();
  kit.scene.render();
  s?.noteRenderMs(performance.now() - r0);
  if (frameDelayMs > 0) for (const until = performance.now() + frameDelayMs; performance.now() < until; ); // test-only slow frame
  if ((hook.frame as number)++ === 0) {
    app.featuresReady().catch((e: Error) => console.warn(`features not loaded: ${e.message}`));
    void registerOfflineCache(); // the installable, offline game (src/app/offline.ts)
    // with a server set, runs queued while it was away are sent now and retried periodically
    if (configuredServer(app)) loadOnline().catch((e: Error) => console.warn(`online features not loaded: ${e.message}`));
  }
});
window.addEventListener('resize', () => kit.engine.resize());
