/**
 * Town mode in the browser (issue 23 item 5): the player's car (pad / keyboard) in a generated town with its
 * traffic (src/run/town.ts), stepped by the fixed-step scheduler and recorded as a town replay
 * (src/replay/town-replay.ts). The instructor action (remappable in Controls; default key I and the pad's D-pad up)
 * blinds a vehicle near the player; its accident is resolved by the collision models and shown in the incident
 * feed. Views only read the run.
 */
import { FixedStepScheduler } from '../../ecs/scheduler';
import { HeldInput, neutralInput, quantizeInput } from '../../ecs/controls';
import { carConfigFromReplay } from '../../run/cars';
import { TownRun } from '../../run/town';
import { builtinTrafficCars, TownRecording } from '../../replay/town-replay';
import type { SceneKit } from '../../systems/view/scene';
import type { CameraView } from '../../systems/view/camera';
import { RenderStats } from '../../systems/view/render-stats';
import { ActionMixer, readActions, toRawInput } from '../input/actions';
import type { InputDevices } from '../input/devices';
import type { Settings } from '../settings';
import { carChoice } from '../cars';
import { TownScene } from './town-scene';
import { perfFromWindow, type PerfNumbers, type PerfWindow } from '../perf-window';

export interface TownSetup {
  seed: number;
  /** Traffic vehicles kept around the player. */
  cars: number;
  carId: string;
  /** Most simulated seconds per frame (URL flag simcap; default 0.1). */
  simCapS?: number;
}

/** Perf overlay figures are averaged over this much wall time, s. */
const PERF_WINDOW_S = 0.5;

export class TownSession {
  readonly run: TownRun;
  readonly recording: TownRecording;
  readonly scheduler: FixedStepScheduler;
  /** The run's views (ground, town, cars, camera, HUDs). */
  readonly view: TownScene;
  private readonly input = new HeldInput();
  private readonly mixer = new ActionMixer();
  private readonly renderStats: RenderStats;
  private frameCount = 0;
  private padInstructorPrev = false;
  private perfPrev = 0;
  /** Wall time of the frames run so far, s (the sim clock is checked against it). */
  wallS = 0;
  /** The instructor's last action: the vehicle picked, or why none. */
  lastInstruction = '';
  perf: PerfNumbers = { simMs: 0, viewMs: 0, renderMs: 0, ticks: 0, triangles: 0, fps: 0, frameMs: 0, drawCalls: 0, tickCap: 0, slowed: 0 };
  private perfAcc: PerfWindow = { sim: 0, view: 0, render: 0, ticks: 0, frames: 0, t: 0 };
  /** The recording, closed when the session is left. */
  replayBytes: Uint8Array | null = null;

  constructor(
    kit: SceneKit,
    readonly setup: TownSetup,
    private readonly settings: Settings,
    private readonly devices: InputDevices,
    hudParent: HTMLElement,
  ) {
    const choice = carChoice(setup.carId);
    const replayCar = choice.replayCar({ x: 0, y: 0, z: 0, heading: 0 });
    const traffic = builtinTrafficCars();
    // the configs the replay verifier will parse from the same embedded texts
    const trafficCfgs = traffic.map((c) => carConfigFromReplay(c));
    this.input.input = neutralInput();
    this.run = new TownRun({ seed: setup.seed, cars: setup.cars, player: carConfigFromReplay(replayCar), trafficCars: trafficCfgs, playerInput: this.input });
    const b = this.run.world.c.RigidBody, e = this.run.playerEid;
    replayCar.pose = { x: b.px[e]!, y: b.py[e]!, z: b.pz[e]!, heading: Math.atan2(b.R2[e]!, b.R8[e]!) };
    this.recording = new TownRecording(this.run, { seed: setup.seed, cars: setup.cars, player: replayCar, trafficCars: traffic, name: `Town ${setup.seed} — ${choice.info.name}`, createdAt: new Date().toISOString() });
    const files = traffic.map((c, i) => ({ id: c.id, cfg: trafficCfgs[i]! }));
    this.view = new TownScene(kit, this.run, choice.wrap(this.run.world, e), files, hudParent, setup.seed);
    this.view.camera.view = settings.camera as CameraView;
    this.view.hud.show(true);
    this.view.hud.showPerf(settings.perfOverlay);
    this.renderStats = new RenderStats(kit.scene);
    const clock = (): number => performance.now() / 1000;
    this.scheduler = new FixedStepScheduler({ dt: this.run.world.dt, maxTicksPerFrame: Math.ceil((setup.simCapS ?? 0.1) / this.run.world.dt), clock }, () => this.recording.tick());
    this.updateViews(0);
  }

  /** The instructor action now: blinds a vehicle near the player (town-accidents.ts `pickVehicle`), recorded. */
  instruct(): string {
    const pick = this.recording.instruct();
    this.lastInstruction = pick ? `Instructor: car ${pick.serial} no longer sees the traffic ahead` : 'Instructor: no vehicle to pick here (none moving toward a queue)';
    this.view.hud.showToast(this.lastInstruction, this.wallS, 3);
    return this.lastInstruction;
  }

  frame(dt: number): void {
    this.frameCount++;
    this.wallS += dt;
    const snap = this.devices.snapshot();
    const r = readActions(snap, this.settings.bindings, this.settings.tuning);
    const a = this.mixer.update(r, this.settings, dt);
    this.input.input = quantizeInput(toRawInput(a));
    // the instructor action (remappable, Controls screen): pad and axis bindings on their rising edge, key
    // bindings per keydown (a tap shorter than a frame still counts)
    const pad = r.analog.instructor > 0.5;
    const keyEdges = this.devices.takeKeyEdges();
    const keyPress = keyEdges.some((code) => (this.settings.bindings.instructor ?? []).some((b) => b.type === 'key' && b.code === code));
    if (keyPress || (pad && !this.padInstructorPrev)) this.instruct();
    this.padInstructorPrev = pad;
    if (a.perf && !this.perfPrev) {
      this.settings.perfOverlay = !this.settings.perfOverlay;
      this.view.hud.showPerf(this.settings.perfOverlay);
    }
    this.perfPrev = a.perf;
    const t0 = performance.now();
    const ticks = this.scheduler.advance(dt);
    const t1 = performance.now();
    this.updateViews(dt);
    this.notePerf(t1 - t0, performance.now() - t1, ticks, dt);
  }

  private notePerf(simMs: number, viewMs: number, ticks: number, dt: number): void {
    const pa = this.perfAcc;
    pa.sim += simMs;
    pa.view += viewMs;
    pa.ticks += ticks;
    pa.frames++;
    pa.t += dt;
    if (pa.t < PERF_WINDOW_S) return;
    this.perf = perfFromWindow(pa, this.renderStats, this.scheduler);
    this.view.hud.updatePerf(this.perf);
    this.view.hud.setSlowdown(this.perf.slowed);
    pa.sim = pa.view = pa.ticks = pa.frames = pa.t = 0;
  }

  private updateViews(dt: number): void {
    this.view.draw(dt, { units: this.settings.units, nowS: this.wallS, terrain: this.frameCount % 2 === 0 });
  }

  /** What the e2e test reads (window.__bitrally.town()). */
  testState(): Record<string, unknown> {
    const st = this.run.traffic.state;
    return {
      simS: this.run.world.time,
      wallS: this.wallS,
      trafficS: st.timeS,
      slowed: this.scheduler.slowedFraction,
      // frame pacing's account: simulated + dropped + still due = the wall time fed to the scheduler
      droppedS: this.scheduler.droppedTicks * this.run.world.dt,
      dueS: this.scheduler.accumulator,
      perf: this.perf,
      perfText: (document.querySelector('[data-t="perf"]') as HTMLElement | null)?.textContent ?? '',
      cars: this.view.trafficPositions(),
      lights: this.view.lightStates(),
      accidents: this.run.accidents.accidents.map((a) => ({ kind: a.kind, instructed: a.instructed, closingMS: a.closingMS, timeS: a.timeS })),
      picks: this.run.picks.length,
      incidents: [...document.querySelectorAll('[data-t="incident"]')].map((d) => d.textContent),
      info: (document.querySelector('[data-t="town-info"]') as HTMLElement | null)?.textContent ?? '',
      promoted: this.view.promotedCount,
    };
  }

  /** Closes the recording (kept in `replayBytes`) and frees the views. */
  dispose(): void {
    try {
      this.replayBytes ??= this.recording.recorder.finish();
    } catch (e) {
      console.warn(`town replay: could not finish the recording: ${(e as Error).message}`);
    }
    this.view.dispose();
    this.renderStats.dispose();
  }
}
