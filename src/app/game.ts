/**
 * One stage run in the browser: the simulation world (fixed step via FixedStepScheduler + runTick), the
 * device input feeding the car's HeldInput, the stage timing (StageProgress pass, read through StageProgressView), and the views (terrain, stage
 * dressing, car, camera, HUD, audio, dust, skid marks), which interpolate between the last two ticks with
 * scheduler.alpha. Views only read the world.
 */
import { isShippedStageId } from './stages';
import type { SimEvent, SimWorld } from '../ecs/world';
import { stepRun, type RunObservers } from '../run/step';
import { FixedStepScheduler } from '../ecs/scheduler';
import { Button, HeldInput, neutralInput, quantizeInput, setInputSource } from '../ecs/controls';
import type { Stage, StageFiles } from '../../terrain/stage';
import { stageHash } from '../replay/stage-check';
import { buildGameRunWorld, releaseGameRunWorld } from './game-run-world';
import { ReplayRecorder } from '../replay/recorder';
import { AiDriver } from '../systems/sim/ai/driver';
import { DEFAULT_DRIVER, stagePath } from '../systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../systems/sim/ai/car-params';
import type { CarChoice } from './cars';
import { stagePropsEnabled } from './game-setup';
import { formatDelta, formatTime } from '../run/stage-run';
import { StageProgressView } from '../run/stage-progress-view';
import { addStageRecovery, stageEventsOf } from '../run/stage-progress';
import { emptyTelemetry, type DrivableCar } from './car-link';
import { SUN_LIGHT_DIR, type SceneKit } from '../systems/view/scene';
import { TerrainView } from '../systems/view/terrain-view';
import { StageView } from '../systems/view/stage-view';
import { CarView } from '../systems/view/car-view';
import { GameCamera, type CameraView } from '../systems/view/camera';
import { CockpitView } from '../systems/view/cockpit-view';
import { Hud } from '../systems/view/hud';
import { CodriverView } from '../systems/view/codriver/codriver';
import { RenderStats } from '../systems/view/render-stats';
import type { GameAudio } from '../systems/view/audio';
import { Effects } from '../systems/view/effects';
import { PropsView } from '../systems/view/props-view';
import { collisionRuntime } from '../systems/sim/collision/runtime';
import { HavokProps } from '../systems/sim/collision/props';
import { ActionMixer, readActions, toRawInput, type ActionValues } from './input/actions';
import type { InputDevices } from './input/devices';
import type { Settings } from './settings';
import type { CarConfig } from '../content/car-schema';
import { CAMERA_MODES } from './settings';
import { RECOVER_BACK_M } from '../systems/sim/vehicle/recovery';
import type { GraphicsPreset } from '../systems/view/graphics-presets';
import { COAST_STOPPED_MS, CoastToStop, groundSpeed } from './coast-stop';
import { readCarDamage, type CarDamage } from '../systems/sim/collision/damage-state';
import { perfFromWindow, type PerfNumbers } from './perf-window';

export interface RunResult {
  stageId: string;
  carId: string;
  timeS: number;
  splitsS: number[];
  penaltyS: number;
  /** The car's damage at the finish (a rally carries it to the next stage). */
  damage: CarDamage;
}

export { RUN_SETUP } from './game-setup';

export interface SessionOptions {
  /** Most simulated seconds one frame may run (the rest is dropped: the game slows down). */
  simCapS?: number;
  /** Best run on this stage with this car (split deltas). */
  bestSplitsS?: number[];
  bestTimeS?: number;
  /** Damage the car starts with (a rally stage after the first). */
  startDamage?: CarDamage;
}

export type { PerfNumbers } from './perf-window';

/** Views, input smoothing and effects step at most this much per frame, s (the simulation keeps real time). */
const MAX_VIEW_STEP_S = 0.25;
/**
 * The chase camera's spring steps the frame's real time up to this, s: the car moves by the simulated time,
 * which keeps real time at any frame rate, so a camera held to MAX_VIEW_STEP_S fell far behind at a few fps
 * (the exact spring step is stable at any step).
 */
const MAX_CAMERA_STEP_S = 1;

export class GameSession {
  readonly world: SimWorld;
  /** Re-wrapped by a live config swap (`onCarSwapped`); the entity stays the same. */
  car: DrivableCar;
  readonly run: StageProgressView;
  /** Called after each tick, in stepRun's order: the recorder; telemetry while its service is attached. */
  readonly observers: RunObservers;
  /** The stage rules fed from the player car after each tick (the replay verifier uses the same). */
  readonly scheduler: FixedStepScheduler;
  /** Records this run (inputs, recoveries, checksums, keyframes) into a `.bitrally` replay. */
  readonly recorder: ReplayRecorder;
  /** The finished run's replay file (set at the finish line). */
  replayBytes: Uint8Array | null = null;
  /** The AI autopilot while it drives (test hook, demo); null = the devices drive. */
  private autopilot: AiDriver | null = null;
  private aiRecoverPrev = false;
  /** Collision events with an audible impulse (> 50 N·s) so far. */
  impacts = 0;
  private readonly input = new HeldInput();
  private readonly mixer = new ActionMixer();
  private readonly tele = emptyTelemetry();
  private readonly terrain: TerrainView;
  private readonly stageView: StageView;
  private carView: CarView;
  /** The interior the cockpit camera sees (on the car view's root). */
  private cockpit: CockpitView;
  /** The config the car drives with now (the chosen car's, or the last live swap's). */
  private carCfg: CarConfig;
  readonly camera: GameCamera;
  readonly hud: Hud;
  /** Pace-note calls and strip, read from the player's car. */
  private readonly codriver: CodriverView;
  private readonly effects: Effects;
  private readonly propsView: PropsView | null;
  /** Shown when Havok did not load (collision issue: the game still runs, on the TS scene, without props). */
  readonly havokNotice: HTMLElement | null;
  private readonly prev = new Float64Array(7);
  private readonly cur = new Float64Array(7);
  private actions: ActionValues | null = null;
  private prevButtons = { camera: 0, recover: 0, perf: 0, telemetry: 0 };
  /** Presses of the telemetry action (remappable, settings) while driving; the tuning loop toggles its panel. */
  telemetryPresses = 0;
  paused = false;
  finished = false;
  /** After the finish: the autopilot rolls the car to a stop (coast-stop.ts); the simulation ticks until it stands. */
  coasting = false;
  /** Put on the road by `viewAt` (view tests): held on the brakes, the devices do not drive. */
  private parked = false;
  onFinish?: (r: RunResult) => void;
  perf: PerfNumbers = { simMs: 0, viewMs: 0, renderMs: 0, ticks: 0, triangles: 0, fps: 0, frameMs: 0, drawCalls: 0, tickCap: 0, slowed: 0 };
  private readonly renderStats: RenderStats;
  private perfAcc = { sim: 0, view: 0, render: 0, ticks: 0, frames: 0, t: 0 };
  private lastGear = 0;
  private lastCountdownLit = -1;
  private nowS = 0;
  private frameCount = 0;
  /** performance.now() when the car first became drivable (lights out). */
  drivableAtMs: number | null = null;

  constructor(
    private readonly kit: SceneKit,
    readonly stage: Stage,
    stageFiles: StageFiles,
    private readonly carChoice: CarChoice,
    private settings: Settings,
    private readonly devices: InputDevices,
    private readonly audio: GameAudio,
    hudParent: HTMLElement,
    opts: SessionOptions = {},
  ) {
    const s = stage.start;
    // the same world builder the replay player and `npm run replay -- verify` use
    const { run, replayCar } = buildGameRunWorld(stage, carChoice, opts.startDamage);
    this.world = run.world;
    this.car = carChoice.wrap(this.world, run.cars[0]!);
    this.carCfg = carChoice.cfg;
    this.recorder = new ReplayRecorder(this.world, {
      name: `${stage.name} — ${carChoice.info.name}`,
      createdAt: new Date().toISOString(),
      stage: { id: stage.id, hash: stageHash(stageFiles) },
      // a stage the game does not ship (generated, imported) travels in the replay, for ghosts and other players
      stageFiles: isShippedStageId(stage.id) ? null : stageFiles,
      cars: [{ car: replayCar, eid: this.car.eid }],
    });
    this.observers = { recorder: this.recorder };
    setInputSource(this.world, this.car.eid, this.input);
    // the StageProgress pass (src/run/pipeline.ts) times the car; this is its read side with the personal bests
    this.run = new StageProgressView(this.world, this.car.eid, { bestSplitsS: opts.bestSplitsS, bestTimeS: opts.bestTimeS });
    // frame pacing: the measured cost per tick raises the cap up to half of each frame (src/ecs/scheduler.ts)
    const clock = (): number => performance.now() / 1000;
    this.scheduler = new FixedStepScheduler({ dt: this.world.dt, maxTicksPerFrame: Math.ceil((opts.simCapS ?? 0.1) / this.world.dt), clock }, () => this.tick());
    this.renderStats = new RenderStats(kit.scene);
    this.terrain = new TerrainView(kit.scene, stage);
    this.stageView = new StageView(kit.scene, stage, kit.shadows);
    this.carView = new CarView(kit.scene, this.car.shape, kit.shadows);
    this.camera = new GameCamera(kit.scene, (x, z) => stage.bspline.height(x, z));
    this.camera.view = settings.camera;
    this.cockpit = new CockpitView(kit.scene, this.car.shape, this.carView.root);
    this.camera.setCockpitEye(this.cockpit.eye);
    this.hud = new Hud(hudParent);
    this.hud.showPerf(settings.perfOverlay);
    const runLen = this.run.cfg.finishM - this.run.cfg.startM;
    this.hud.setCheckpoints(this.run.cfg.checkpointsM.map((d) => (d - this.run.cfg.startM) / runLen));
    this.codriver = new CodriverView(kit.scene, stage, hudParent, audio.codriver, settings);
    this.effects = new Effects(kit.scene, stage);
    const props = collisionRuntime(this.world).props;
    this.propsView = props instanceof HavokProps && props.eids.length > 0 ? new PropsView(kit.scene, this.world, props.eids, kit.shadows) : null;
    // props wanted but no Havok (its wasm did not load): scenery on the TS grid (the same contacts), no props
    this.havokNotice = stagePropsEnabled() && !collisionRuntime(this.world).queries ? havokFallbackNotice(hudParent) : null;
    this.captureCur();
    this.prev.set(this.cur);
    this.terrain.update(s.x, s.z);
    this.audio.playLoops();
    this.updateViews(0, 0);
  }

  applySettings(s: Settings): void {
    this.settings = s;
    this.hud.showPerf(s.perfOverlay);
    this.camera.view = s.camera;
    this.codriver.applySettings(s);
  }

  private captureCur(): void {
    const b = this.world.c.RigidBody;
    const e = this.car.eid;
    this.cur[0] = b.px[e]!;
    this.cur[1] = b.py[e]!;
    this.cur[2] = b.pz[e]!;
    this.cur[3] = b.qw[e]!;
    this.cur[4] = b.qx[e]!;
    this.cur[5] = b.qy[e]!;
    this.cur[6] = b.qz[e]!;
  }

  /** One fixed simulation tick with the latest device input. */
  private tick(): void {
    this.prev.set(this.cur);
    const a = this.actions;
    if (this.autopilot) this.autopilot.hold = !this.run.canDrive || this.finished;
    if (a && this.run.canDrive && !this.finished && !this.parked) {
      this.input.input = quantizeInput(toRawInput(a));
    } else {
      // before the lights go out: handbrake on, no throttle (the car waits on the line)
      const n = neutralInput();
      n.handbrake = 1000;
      n.brake = 1000;
      this.input.input = n;
    }
    stepRun(this.world, this.observers);
    this.captureCur();
    const e = this.car.eid;
    this.run.sync();
    for (const ev of stageEventsOf(this.world.events, e)) {
      if (ev === 'start') {
        this.drivableAtMs ??= performance.now();
        this.audio.beep(true);
        this.hud.setLights('go');
        this.hud.showToast('GO!', this.nowS, 1);
      } else if (ev === 'checkpoint') {
        const sp = this.run.lastSplit!;
        const txt = `CP${sp.index + 1} ${formatTime(sp.timeS)}${sp.deltaS !== null ? '  ' + formatDelta(sp.deltaS) : ''}`;
        this.hud.setSplit(txt, sp.deltaS === null ? null : sp.deltaS < 0);
        this.hud.showToast(txt, this.nowS);
        this.recorder.mark('split', `CP${sp.index + 1}`);
      } else if (ev === 'finish') {
        this.finish();
      } else if (ev === 'stuck') {
        this.recover('Recovered (stuck)');
      }
    }
    // the autopilot asks for a recovery with the Recover button, like a player
    const aiRecover = this.autopilot !== null && (this.world.c.Controls.buttons[e]! & Button.Recover) !== 0;
    if (aiRecover && !this.aiRecoverPrev && this.run.phase === 'running') this.recover('Recovered');
    this.aiRecoverPrev = aiRecover;
    for (const ev of this.world.events) {
      // collision events (src/systems/sim/collision/system.ts) carry the impulse magnitude |J| in N·s
      const imp = typeof ev.impulse_ns === 'number' ? ev.impulse_ns : 0;
      if (ev.kind.includes('collision')) this.recorder.mark('collision', ev.kind);
      if (ev.kind === 'car-halted') this.showHalt(ev, e);
      if (imp > 50) {
        this.impacts++;
        this.audio.impactSound(imp, this.world.time);
        if (this.settings.rumble) this.devices.rumble(Math.min(1, imp / 3000), Math.min(1, imp / 6000), 220);
      }
    }
    this.world.events.length = 0;
    if (this.coasting && groundSpeed(this.world, e) < COAST_STOPPED_MS) this.coasting = false;
  }

  /** The simulation stopped a car whose state went non-finite or ran away (halt-guard.ts): say so on the HUD. */
  private showHalt(ev: SimEvent, player: number): void {
    console.error(`simulation: ${String(ev.message)}`);
    const text = ev.car === player
      ? `Simulation error: your car was stopped (${String(ev.reason)}). Recover to drive on`
      : `Simulation error: ${String(ev.message)}`;
    this.hud.showToast(text, this.nowS, 6);
  }

  recover(reason = 'Recovered'): void {
    if (this.finished || !this.run.canDrive) return;
    const d = Math.max(this.stage.start.distanceM, this.run.progressM - RECOVER_BACK_M);
    const p = this.stage.road.poseAt(d);
    const pose = { x: p.x, y: p.y, z: p.z, heading: p.heading };
    this.car.place(this.world, pose);
    this.recorder.edit(0, pose);
    this.autopilot?.resetTracking();
    addStageRecovery(this.world, this.car.eid);
    this.run.sync();
    this.captureCur();
    this.prev.set(this.cur);
    this.camera.snap();
    this.hud.showToast(`${reason} +${this.run.cfg.recoverPenaltyS.toFixed(0)} s`, this.nowS);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.startCoasting();
    this.audio.stopLoops();
    const r = this.run;
    this.recorder.mark('finish', 'finish');
    this.recorder.setResult({ finished: true, stageTimeS: r.finishTimeS ?? r.timeS, splitsS: r.splits.map((x) => x.timeS), penaltyS: r.penaltyS });
    try {
      this.replayBytes = this.recorder.finish();
    } catch (e) {
      console.warn(`replay: could not finish the recording: ${(e as Error).message}`);
    }
    this.onFinish?.({
      stageId: this.stage.id,
      carId: this.car.info.id,
      timeS: this.run.finishTimeS ?? this.run.timeS,
      splitsS: this.run.splits.map((s) => s.timeS),
      penaltyS: this.run.penaltyS,
      damage: this.damage(),
    });
  }

  /** Past the finish line the autopilot takes the car (whoever drove) and rolls it to a stop. */
  private startCoasting(): void {
    const cfg = this.carCfg;
    const driver = new AiDriver({ path: stagePath(this.stage, cfg), vehicle: driverVehicleFromConfig(cfg), params: DEFAULT_DRIVER });
    this.autopilot = null;
    setInputSource(this.world, this.car.eid, new CoastToStop(driver));
    this.coasting = true;
  }

  /** Ground speed of the player's car, m/s (tests: the coast to a stop after the finish). */
  get speedMS(): number {
    return groundSpeed(this.world, this.car.eid);
  }

  /** A graphics preset's share of the views: terrain error, scenery density and distance, particles, far plane. */
  setGraphics(p: GraphicsPreset): void {
    this.terrain.maxErrorPx = p.terrainErrorPx;
    this.stageView.setGraphics(p);
    this.effects.particles = p.particles;
    this.camera.camera.maxZ = p.drawDistanceM;
    this.updateViews(0, this.scheduler.alpha);
    this.terrain.update(this.camera.camera);
  }

  /**
   * Puts the car at rest on the road `distanceM` from its start (`lateralM` to the left of the centreline, on the
   * terrain there), held on the brakes, and the camera behind it (the render budget test measures views along
   * every stage this way, the dressing test parks a car in a ditch; nothing is recorded for it).
   */
  viewAt(distanceM: number, lateralM = 0): void {
    const p = this.stage.road.poseAt(distanceM);
    this.parked = true;
    this.setAutopilot(false);
    const x = p.x + lateralM * Math.cos(p.heading), z = p.z - lateralM * Math.sin(p.heading);
    const y = lateralM === 0 ? p.y : this.stage.bspline.height(x, z);
    this.car.place(this.world, { x, y, z, heading: p.heading });
    this.captureCur();
    this.prev.set(this.cur);
    this.camera.snap();
    this.updateViews(0, 1);
    this.terrain.update(this.camera.camera);
  }

  /**
   * The run stops unfinished (a rally retirement): its replay is closed with `finished: false` and kept in
   * `replayBytes`, so the replay library saves it like a finished run.
   */
  abandon(): void {
    if (this.finished) return;
    this.finished = true;
    this.audio.stopLoops();
    this.recorder.mark('retired', 'retired');
    this.recorder.setResult({ finished: false, stageTimeS: null, splitsS: this.run.splits.map((x) => x.timeS), penaltyS: this.run.penaltyS });
    try {
      this.replayBytes = this.recorder.finish();
    } catch (e) {
      console.warn(`replay: could not finish the recording: ${(e as Error).message}`);
    }
  }

  /** The player car body's roll now, rad (+ = its left side up): the world y component of its left axis. */
  carRoll(): number {
    return Math.asin(Math.max(-1, Math.min(1, this.world.c.RigidBody.R3[this.car.eid]!)));
  }

  /** The player car's damage now (crush per end, collisions). */
  damage(): CarDamage {
    return readCarDamage(this.world, this.car.eid);
  }

  /** Hand the car to the AI autopilot (on) or back to the devices (off). Returns the new state. */
  setAutopilot(on: boolean): boolean {
    if (on && !this.autopilot) {
      const cfg = this.carCfg;
      this.autopilot = new AiDriver({ path: stagePath(this.stage, cfg), vehicle: driverVehicleFromConfig(cfg), params: DEFAULT_DRIVER });
      this.autopilot.hold = !this.run.canDrive;
      setInputSource(this.world, this.car.eid, this.autopilot);
    } else if (!on && this.autopilot) {
      this.autopilot = null;
      setInputSource(this.world, this.car.eid, this.input);
    }
    return this.autopilot !== null;
  }

  /**
   * A live config swap (garage Apply, dev live reload; the sim side is `reconfigureCar`): everything the
   * views derived from the old config follows at once — the drawn car is rebuilt (body size, wheel positions
   * and radii, static ride height that wheel travel is drawn from), the HUD tacho gets the new redline and
   * rev range through the re-wrapped car's telemetry, the autopilot re-plans with the new car. Recovery
   * re-spawns from the car adapter's config, which the swap hook updates (src/run/cars.ts
   * `carConfigSwapped`, called by src/app/garage/live-car.ts with the swap).
   */
  onCarSwapped(cfg: CarConfig): void {
    this.carCfg = cfg;
    this.car = this.carChoice.wrap(this.world, this.car.eid, cfg);
    const crush = [...this.tele.damage];
    this.carView.dispose();
    this.carView = new CarView(this.kit.scene, this.car.shape, this.kit.shadows);
    this.carView.setCrush(crush);
    this.cockpit.dispose();
    this.cockpit = new CockpitView(this.kit.scene, this.car.shape, this.carView.root);
    this.camera.setCockpitEye(this.cockpit.eye);
    if (this.autopilot) {
      this.setAutopilot(false);
      this.setAutopilot(true);
    }
    this.updateViews(0, this.scheduler.alpha);
  }

  /** What is drawn for the car right now (e2e, tests): wheel radii and body size of the mesh, tacho redline. */
  drawnCar(): { wheelRadiusM: number[]; lengthM: number; redlineRpm: number } {
    return { wheelRadiusM: this.carView.drawnWheelRadii(), lengthM: this.carView.shape.lengthM, redlineRpm: this.hud.redlineRpm };
  }

  setPaused(p: boolean): void {
    this.paused = p;
    if (p) this.scheduler.pause();
    else this.scheduler.resume();
    this.audio.setPaused(p);
    this.camera.view = p ? 'free' : this.settings.camera;
    this.camera.resetUp();
    this.camera.snap();
  }

  /** Called every animation frame with the real elapsed time (unclamped: the simulation keeps real time). */
  frame(frameS: number): void {
    const dt = Math.min(frameS, MAX_VIEW_STEP_S);
    this.nowS += dt;
    this.frameCount++;
    const r = readActions(this.devices.snapshot(), this.settings.bindings, this.settings.tuning);
    // key presses since the last frame (the controls screen's capture, updated before this, took its own)
    const keyEdges = this.devices.takeKeyEdges();
    const padTelemetry = r.analog.telemetry > 0.5 ? 1 : 0;
    const a = this.mixer.update(r, this.settings, dt);
    this.actions = a;
    if (!this.paused) {
      if (a.camera && !this.prevButtons.camera) this.cycleCamera();
      if (a.recover && !this.prevButtons.recover && this.run.phase === 'running') this.recover();
      // telemetry panel: pad bindings on their rising edge, key bindings per keydown (a tap shorter than a
      // frame still counts at a low frame rate)
      if (padTelemetry && !this.prevButtons.telemetry) this.telemetryPresses++;
      for (const code of keyEdges) if ((this.settings.bindings.telemetry ?? []).some((b) => b.type === 'key' && b.code === code)) this.telemetryPresses++;
    } else {
      this.camera.orbit(r.analog.steer, -(this.devices.snapshot().axes[1] ?? 0), dt);
    }
    if (a.perf && !this.prevButtons.perf) {
      this.settings.perfOverlay = !this.settings.perfOverlay;
      this.hud.showPerf(this.settings.perfOverlay);
    }
    this.prevButtons = { camera: a.camera, recover: a.recover, perf: a.perf, telemetry: padTelemetry };
    const t0 = performance.now();
    const ticks = this.finished && !this.coasting ? 0 : this.scheduler.advance(frameS);
    const t1 = performance.now();
    this.updateViews(dt, this.scheduler.alpha, Math.min(frameS, MAX_CAMERA_STEP_S));
    const t2 = performance.now();
    const pa = this.perfAcc;
    pa.sim += t1 - t0;
    pa.view += t2 - t1;
    pa.ticks += ticks;
    pa.frames++;
    pa.t += frameS;
    if (pa.t >= 0.5) {
      this.perf = perfFromWindow(pa, this.renderStats, this.scheduler);
      this.hud.updatePerf(this.perf);
      this.hud.setSlowdown(this.finished || this.paused ? 0 : this.perf.slowed);
      pa.sim = pa.view = pa.render = pa.ticks = pa.frames = pa.t = 0;
    }
  }

  /** Spray particles alive now (the e2e spray visibility check). */
  get sprayParticles(): number {
    return this.effects.activeParticles;
  }

  /** Hides or shows the spray (the e2e spray visibility check). */
  setSprayHidden(hidden: boolean): void {
    this.effects.setSprayHidden(hidden);
  }

  /** Babylon's counters of the last rendered frame: active triangles and draw calls. */
  renderCounts(): { triangles: number; drawCalls: number } {
    return { triangles: this.renderStats.activeTriangles(), drawCalls: this.renderStats.drawCalls() };
  }

  /** CPU time of the scene's render call (draw submission; with a software GPU also rasterisation). */
  noteRenderMs(ms: number): void {
    this.perfAcc.render += ms;
  }

  private cycleCamera(): void {
    const i = CAMERA_MODES.indexOf(this.settings.camera);
    this.settings.camera = CAMERA_MODES[(i + 1) % CAMERA_MODES.length]!;
    this.camera.view = this.settings.camera as CameraView;
    this.camera.resetUp();
    this.camera.snap();
  }

  /** Views at the interpolated pose; `cameraDt`: the chase camera's spring step, s (the others step `dt`). */
  private updateViews(dt: number, alpha: number, cameraDt = dt): void {
    const p = this.prev;
    const c = this.cur;
    const L = (k: number): number => p[k]! + (c[k]! - p[k]!) * alpha;
    const x = L(0), y = L(1), z = L(2);
    // nlerp (shortest arc) between the two tick orientations
    const dot = p[3]! * c[3]! + p[4]! * c[4]! + p[5]! * c[5]! + p[6]! * c[6]!;
    const sgn = dot < 0 ? -1 : 1;
    let qw = p[3]! * (1 - alpha) + sgn * c[3]! * alpha;
    let qx = p[4]! * (1 - alpha) + sgn * c[4]! * alpha;
    let qy = p[5]! * (1 - alpha) + sgn * c[5]! * alpha;
    let qz = p[6]! * (1 - alpha) + sgn * c[6]! * alpha;
    const n = Math.hypot(qw, qx, qy, qz) || 1;
    qw /= n; qx /= n; qy /= n; qz /= n;
    this.car.readTelemetry(this.world, this.tele);
    const t = this.tele;
    this.carView.update(x, y, z, { w: qw, x: qx, y: qy, z: qz }, t.wheels, t.brake > 0.05);
    this.carView.setCrush(t.damage);
    this.cockpit.update(this.camera.view === 'cockpit', (t.wheels[0]!.steer + t.wheels[1]!.steer) / 2);
    // body axes from the quaternion: forward = R·(0,0,1), up = R·(0,1,0)
    const fx = 2 * (qx * qz + qw * qy), fy = 2 * (qy * qz - qw * qx), fz = 1 - 2 * (qx * qx + qy * qy);
    const ux = 2 * (qx * qy - qw * qz), uy = 1 - 2 * (qx * qx + qz * qz), uz = 2 * (qy * qz + qw * qx);
    this.camera.update({ x, y, z, fx, fy, fz, ux, uy, uz, speed: t.speedMS }, cameraDt);
    if (this.frameCount % 2 === 0) this.terrain.update(this.camera.camera);
    this.stageView.updateVisibility(this.camera.camera.position.x, this.camera.camera.position.z);
    this.kit.sun.position.set(x + 40, y + 80, z + 30);
    this.kit.sun.direction.set(...SUN_LIGHT_DIR);
    this.effects.update(this.world, this.car, t, dt, { x, y, z, fx, fz });
    this.propsView?.update();
    this.hud.update({ speedMS: t.speedMS, rpm: t.rpm, redlineRpm: t.redlineRpm, maxRpm: t.maxRpm, gear: t.gear, shiftTo: t.shiftTo, timeS: this.run.timeS, damage: t.damage, units: this.settings.units });
    this.hud.setPenalty(this.run.penaltyS);
    this.hud.setProgress((this.run.progressM - this.run.cfg.startM) / (this.run.cfg.finishM - this.run.cfg.startM));
    this.hud.tickToast(this.nowS);
    this.codriver.update(this.world, this.car.eid, dt);
    if (this.run.phase === 'countdown') {
      const lit = Math.min(5, Math.floor(((this.run.cfg.countdownS - this.run.countdownLeftS) / this.run.cfg.countdownS) * 5) + 1);
      if (lit !== this.lastCountdownLit) {
        this.lastCountdownLit = lit;
        this.hud.setLights(lit);
        this.audio.beep(false);
      }
    } else if (this.run.timeS > 1.2 && this.lastCountdownLit !== 99) {
      this.lastCountdownLit = 99;
      this.hud.setLights('off');
    }
    if (t.gear !== this.lastGear) {
      if (this.run.canDrive) this.audio.shiftSound();
      this.lastGear = t.gear;
    }
    this.audio.update({ rpm: t.rpm, throttle: t.throttle, speedMS: t.speedMS, slip: t.slip, surface: t.surface, contact: t.contact });
    // rumble: rough surfaces and heavy slip
    if (this.settings.rumble && !this.paused && this.frameCount % 6 === 0 && t.contact > 0) {
      const rough = t.surface === 'gravel' ? 0.15 : t.surface === 'grass' ? 0.25 : 0.03;
      const k = Math.min(1, t.speedMS / 25);
      if (rough * k + t.slip * 0.3 > 0.05) this.devices.rumble(rough * k, Math.min(1, t.slip * 0.5), 120);
    }
  }

  dispose(): void {
    this.recorder.detach();
    this.audio.stopLoops();
    this.terrain.dispose();
    this.stageView.dispose();
    this.cockpit.dispose();
    this.carView.dispose();
    this.effects.dispose();
    this.propsView?.dispose();
    this.havokNotice?.remove();
    releaseGameRunWorld(this.world); // its Havok props instance back to the pool, reset: memory flat over Retries
    this.hud.dispose();
    this.codriver.dispose();
    this.renderStats.dispose();
    this.kit.scene.activeCamera = this.kit.menuCamera;
    this.camera.camera.dispose();
  }

  hudTelemetry(): Readonly<import('./car-link').CarTelemetryView> {
    return this.tele;
  }

  get triangles(): number {
    return this.terrain.triangleCount() + this.stageView.triangles;
  }

  carPosition(): [number, number, number] {
    return [this.cur[0]!, this.cur[1]!, this.cur[2]!];
  }

  /**
   * What the car consumed last tick (test hook): steer ∈ [−1, 1] (sim convention, + = left), yaw rate
   * (rad/s, + = turning left about +y) and heading (rad, atan2 of the forward vector's x and z).
   */
  steeringState(): { steer: number; yawRate: number; headingRad: number } {
    const e = this.car.eid;
    const b = this.world.c.RigidBody;
    return { steer: this.world.c.Controls.steer[e]!, yawRate: b.wy[e]!, headingRad: Math.atan2(b.R2[e]!, b.R8[e]!) };
  }
}

/** A visible line on the HUD: Havok (wasm) did not load, so the run has no props and scenery uses the TS grid. */
function havokFallbackNotice(parent: HTMLElement): HTMLElement {
  const el = document.createElement('div');
  el.dataset.t = 'havok-notice';
  el.textContent = 'Havok physics did not load: no props this run; scenery collisions use the built-in detector';
  el.style.cssText = 'position:absolute;left:50%;bottom:12px;transform:translateX(-50%);padding:4px 10px;border-radius:4px;background:rgba(120,40,20,.85);color:#fff;font:13px sans-serif;pointer-events:none;z-index:5';
  parent.appendChild(el);
  return el;
}
