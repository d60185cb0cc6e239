/**
 * The replay viewer ('replay' screen): re-simulates a replay with `ReplayPlayer` (checksums compared as it
 * plays; after a desync it resyncs on recorded keyframes and says so) and shows it with the game's own view
 * systems (terrain, stage dressing, car, camera, HUD, dust/skids). Play/pause, 0.25×–4×, frame step (one
 * 60 Hz frame either way), seek anywhere (nearest keyframe + re-simulation), a timeline with splits,
 * collisions, recoveries and the finish marked; cameras chase / hood / TV (trackside stations along the
 * road that switch as the car passes) / free (orbit: stick or mouse drag). HUD and input telemetry as
 * recorded (the consumed Controls values).
 */
import type { SceneKit } from '../../systems/view/scene';
import { TerrainView } from '../../systems/view/terrain-view';
import { StageView } from '../../systems/view/stage-view';
import { CarView } from '../../systems/view/car-view';
import { GameCamera } from '../../systems/view/camera';
import { Hud } from '../../systems/view/hud';
import type { CodriverView } from '../../systems/view/codriver/codriver';
import { Effects } from '../../systems/view/effects';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { Stage, StagePose } from '../../../terrain/stage';
import type { RoadProjection } from '../../../terrain/road';
import type { ReplayData } from '../../replay/format';
import { ReplayPlayer } from '../../replay/player';
import { carConfigOf, vehicleCarAdapter } from '../../run/cars';
import type { CarConfig } from '../../content/car-schema';
import type { RunWorld } from '../../run/run-world';
import { DEFAULT_RUN, formatTime } from '../../run/stage-run';
import { emptyTelemetry, type CarTelemetryView, type DrivableCar } from '../car-link';
import { replayDrivable } from './replay-car';

export type ViewerCamera = 'chase' | 'hood' | 'tv' | 'free';
export const VIEWER_CAMERAS: ViewerCamera[] = ['chase', 'hood', 'tv', 'free'];
export const VIEWER_SPEEDS = [0.25, 0.5, 1, 2, 4];

/** The playback speed one step slower (−1) or faster (+1) than `speed`, held at the ends (an unknown one counts as 1×). */
export function stepSpeed(speed: number, dir: -1 | 1): number {
  const i = VIEWER_SPEEDS.indexOf(speed);
  return VIEWER_SPEEDS[Math.max(0, Math.min(VIEWER_SPEEDS.length - 1, (i < 0 ? 2 : i) + dir))]!;
}

/** The entry `dir` steps from `cur` in `list`, wrapping round (the camera cycle). */
export function cycleIn<T>(list: readonly T[], cur: T, dir: -1 | 1): T {
  return list[(list.indexOf(cur) + dir + list.length) % list.length]!;
}

/** Trackside TV camera stations: every `spacingM` along the road, alternately left and right, raised. */
export function tvStations(stage: Stage, spacingM = 140): { d: number; x: number; y: number; z: number }[] {
  const out: { d: number; x: number; y: number; z: number }[] = [];
  const d0 = stage.start.distanceM;
  const d1 = stage.finish.distanceM;
  let side = 1;
  for (let d = d0 + spacingM * 0.6; d < d1 + spacingM; d += spacingM) {
    const p: StagePose = stage.road.poseAt(Math.min(d, stage.road.lengthM));
    // left of the heading h (forward = (sin h, cos h)) is (cos h, −sin h)
    const off = side * 11;
    const x = p.x + Math.cos(p.heading) * off;
    const z = p.z - Math.sin(p.heading) * off;
    out.push({ d, x, y: stage.bspline.height(x, z) + 4, z });
    side = -side;
  }
  return out;
}

/** Ticks the stage countdown takes (StageRun decrements countdownLeftS by dt each tick until ≤ 1e-9). */
export function countdownTicks(dt: number, countdownS = DEFAULT_RUN.countdownS): number {
  let left = countdownS;
  let n = 0;
  while (n < 1e7) {
    left -= dt;
    n++;
    if (left <= 1e-9) return n;
  }
  return n;
}

/** Car 0's pose for the camera: position, forward and up axes (m, unit vectors) and speed (m/s). */
interface Focus {
  x: number;
  y: number;
  z: number;
  fx: number;
  fy: number;
  fz: number;
  ux: number;
  uy: number;
  uz: number;
  speed: number;
}

export class ReplayViewer {
  readonly player: ReplayPlayer;
  readonly cars: DrivableCar[];
  private readonly terrain: TerrainView;
  private readonly stageView: StageView;
  private readonly carViews: CarView[];
  /** The config each car view was built from (a recorded swap changes the simulation's; the view follows). */
  private readonly carCfgs: (CarConfig | undefined)[];
  private readonly effects: Effects;
  readonly camera: GameCamera;
  readonly hud: Hud;
  private readonly tele: CarTelemetryView[];
  private readonly prev: Float64Array;
  private readonly cur: Float64Array;
  private readonly proj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
  private readonly stations: { d: number; x: number; y: number; z: number }[];
  private readonly startTicks: number;
  private readonly finishTick: number | null;
  private readonly playerEditTicks: number[];
  private readonly markTicks: { tick: number; kind: string; label: string }[];
  private acc = 0;
  private frameCount = 0;
  playing = true;
  speed = 1;
  view: ViewerCamera = 'chase';
  /** Orbit input for the free camera (stick / mouse), consumed per frame. */
  orbitInput = { dx: 0, dy: 0 };
  onToast?: (text: string) => void;
  /** The co-driver reading to the recorded player's car (set by the replay screen), disposed with the viewer. */
  codriver: CodriverView | null = null;
  private readonly playerIndex: number;
  private nowS = 0;

  constructor(
    private readonly kit: SceneKit,
    readonly data: ReplayData,
    run: RunWorld,
    readonly stage: Stage,
    hudParent: HTMLElement,
    readonly units: 'kmh' | 'mph',
  ) {
    this.player = new ReplayPlayer(data, run, vehicleCarAdapter);
    const w = run.world;
    this.cars = run.cars.map((eid, i) => replayDrivable(w, eid, data.header.cars[i]!, i));
    this.tele = this.cars.map(() => emptyTelemetry());
    this.prev = new Float64Array(7 * this.cars.length);
    this.cur = new Float64Array(7 * this.cars.length);
    this.terrain = new TerrainView(kit.scene, stage);
    this.stageView = new StageView(kit.scene, stage, kit.shadows);
    this.carViews = this.cars.map((c) => new CarView(kit.scene, c.shape, kit.shadows));
    this.carCfgs = this.cars.map((c) => carConfigOf(w, c.eid));
    this.effects = new Effects(kit.scene, stage);
    this.camera = new GameCamera(kit.scene, (x, z) => stage.bspline.height(x, z));
    this.hud = new Hud(hudParent);
    this.stations = tvStations(stage);
    this.startTicks = countdownTicks(w.dt);
    const pc = Math.max(0, data.header.cars.findIndex((c) => c.role === 'player'));
    this.playerIndex = pc;
    this.playerEditTicks = data.edits.filter((e) => e.car === pc).map((e) => e.tick);
    this.markTicks = [...data.header.marks, ...data.edits.map((e) => ({ tick: e.tick, kind: 'recovery', label: 'recovery' }))].sort((a, b) => a.tick - b.tick);
    const fin = data.header.marks.find((m) => m.kind === 'finish');
    this.finishTick = fin ? fin.tick : null;
    this.capture(this.cur);
    this.prev.set(this.cur);
    const c0 = this.cars[0];
    if (c0) this.terrain.update(w.c.RigidBody.px[c0.eid]!, w.c.RigidBody.pz[c0.eid]!, 1e9);
    this.render(0, 0);
  }

  get world(): ReplayPlayer['world'] {
    return this.player.world;
  }

  /** Timeline marks (splits, collisions, recoveries, finish) with their tick. */
  get marks(): readonly { tick: number; kind: string; label: string }[] {
    return this.markTicks;
  }

  private capture(out: Float64Array): void {
    const b = this.world.c.RigidBody;
    this.cars.forEach((c, i) => {
      const e = c.eid;
      const o = i * 7;
      out[o] = b.px[e]!;
      out[o + 1] = b.py[e]!;
      out[o + 2] = b.pz[e]!;
      out[o + 3] = b.qw[e]!;
      out[o + 4] = b.qx[e]!;
      out[o + 5] = b.qy[e]!;
      out[o + 6] = b.qz[e]!;
    });
  }

  /** Stage clock at `tick` as the game showed it: time since the lights went out, plus recovery penalties. */
  stageTimeAt(tick: number): number {
    const dt = this.world.dt;
    const end = this.finishTick !== null ? Math.min(tick, this.finishTick) : tick;
    let pen = 0;
    for (const t of this.playerEditTicks) if (t <= tick) pen += DEFAULT_RUN.recoverPenaltyS;
    return Math.max(0, (end - this.startTicks) * dt) + (end > this.startTicks ? pen : 0);
  }

  private stepOne(): boolean {
    const before = this.world.tick;
    this.prev.set(this.cur);
    const ok = this.player.step();
    this.capture(this.cur);
    if (ok) for (const m of this.markTicks) if (m.tick > before && m.tick <= this.world.tick && m.kind !== 'collision') this.onToast?.(m.kind === 'split' ? `${m.label} ${formatTime(this.stageTimeAt(m.tick))}` : m.label);
    return ok;
  }

  /** Moves to `tick` (nearest keyframe + re-simulation); views snap. */
  seek(tick: number): void {
    this.player.seek(tick);
    this.capture(this.cur);
    this.prev.set(this.cur);
    this.acc = 0;
    this.camera.snap();
    const c0 = this.cars[0];
    if (c0) this.terrain.update(this.world.c.RigidBody.px[c0.eid]!, this.world.c.RigidBody.pz[c0.eid]!, 1e9);
  }

  /** One 60 Hz frame forward (+1) or back (−1); pauses. */
  stepFrame(dir: 1 | -1): void {
    this.playing = false;
    const n = Math.max(1, Math.round(1 / 60 / this.world.dt));
    if (dir > 0) {
      for (let i = 0; i < n && this.stepOne(); i++);
      this.acc = 0;
    } else this.seek(this.world.tick - n);
  }

  setSpeed(dir: -1 | 1): void {
    this.speed = stepSpeed(this.speed, dir);
  }

  cycleCamera(dir: -1 | 1 = 1): void {
    this.view = cycleIn(VIEWER_CAMERAS, this.view, dir);
    this.camera.resetUp();
    this.camera.snap();
  }

  /** Per animation frame (real dt, s). Returns ticks simulated. */
  frame(dt: number): number {
    this.nowS += dt;
    this.frameCount++;
    let n = 0;
    if (this.playing && !this.player.ended) {
      const wdt = this.world.dt;
      this.acc += Math.min(dt, 0.25) * this.speed;
      const cap = Math.ceil(0.3 / wdt);
      while (this.acc >= wdt && n < cap) {
        if (!this.stepOne()) break;
        this.acc -= wdt;
        n++;
      }
      if (n === cap) this.acc = 0; // the machine cannot keep up: slow down rather than spiral
    }
    if (this.player.ended) {
      this.playing = false;
      this.acc = 0;
    }
    const alpha = this.playing ? Math.min(1, this.acc / this.world.dt) : 1;
    this.render(dt, alpha);
    return n;
  }

  /** Draws the frame: cars interpolated by `alpha` between the last two ticks, the camera, terrain, HUD. */
  private render(dt: number, alpha: number): void {
    const focus = this.drawCars(dt, alpha);
    this.placeCamera(focus, dt);
    const cam = this.camera;
    this.kit.scene.activeCamera = cam.camera;
    const cp = cam.camera.position;
    if (this.frameCount % 4 === 0) this.terrain.update(cp.x, cp.z);
    this.kit.sun.position.set(focus.x + 40, focus.y + 80, focus.z + 30);
    this.kit.sun.direction.set(-0.45, -0.8, -0.35);
    this.updateHud();
    const player = this.cars[this.playerIndex];
    if (player) this.codriver?.update(this.world, player.eid, dt);
  }

  /** Every car at its interpolated pose (and car 0's effects); returns car 0's pose for the camera. */
  private drawCars(dt: number, alpha: number): Focus {
    const w = this.world;
    let focus: Focus = { x: 0, y: 0, z: 0, fx: 0, fy: 0, fz: 1, ux: 0, uy: 1, uz: 0, speed: 0 };
    this.cars.forEach((car, i) => {
      const o = i * 7;
      const p = this.prev;
      const c = this.cur;
      const L = (k: number): number => p[o + k]! + (c[o + k]! - p[o + k]!) * alpha;
      const x = L(0), y = L(1), z = L(2);
      const dot = p[o + 3]! * c[o + 3]! + p[o + 4]! * c[o + 4]! + p[o + 5]! * c[o + 5]! + p[o + 6]! * c[o + 6]!;
      const sg = dot < 0 ? -1 : 1;
      let qw = p[o + 3]! * (1 - alpha) + sg * c[o + 3]! * alpha;
      let qx = p[o + 4]! * (1 - alpha) + sg * c[o + 4]! * alpha;
      let qy = p[o + 5]! * (1 - alpha) + sg * c[o + 5]! * alpha;
      let qz = p[o + 6]! * (1 - alpha) + sg * c[o + 6]! * alpha;
      const nq = Math.hypot(qw, qx, qy, qz) || 1;
      qw /= nq; qx /= nq; qy /= nq; qz /= nq;
      // a recorded mid-run car swap (garage apply / live reload), reached by playing or seeking: draw the car
      // the simulation drives now (shape, wheel radii, ride height, tacho), as the game did when it happened
      const cfgNow = carConfigOf(w, car.eid);
      if (cfgNow && cfgNow !== this.carCfgs[i]) {
        this.carCfgs[i] = cfgNow;
        car = this.cars[i] = replayDrivable(w, car.eid, this.data.header.cars[i]!, i);
        const crush = [...this.tele[i]!.damage];
        this.carViews[i]!.dispose();
        this.carViews[i] = new CarView(this.kit.scene, car.shape, this.kit.shadows);
        this.carViews[i]!.setCrush(crush);
      }
      const t = this.tele[i]!;
      car.readTelemetry(w, t);
      const cv = this.carViews[i]!;
      cv.update(x, y, z, { w: qw, x: qx, y: qy, z: qz }, t.wheels, t.brake > 0.05);
      cv.setCrush(t.damage);
      const fx = 2 * (qx * qz + qw * qy), fy = 2 * (qy * qz - qw * qx), fz = 1 - 2 * (qx * qx + qy * qy);
      const ux = 2 * (qx * qy - qw * qz), uy = 1 - 2 * (qx * qx + qz * qz), uz = 2 * (qy * qz + qw * qx);
      if (i === 0) {
        focus = { x, y, z, fx, fy, fz, ux, uy, uz, speed: t.speedMS };
        this.effects.update(w, car, t, dt, { x, y, z, fx, fz });
      }
    });
    return focus;
  }

  /** TV: the fixed station ahead of the car, zoomed on it; otherwise the chase/free camera follows. */
  private placeCamera(focus: Focus, dt: number): void {
    const cam = this.camera;
    if (this.view === 'tv') {
      this.stage.road.project(focus.x, focus.z, this.proj);
      const d = this.proj.distanceM;
      // the first station the car has not yet passed by more than 25 m
      let st = this.stations[this.stations.length - 1]!;
      for (const s of this.stations) {
        if (s.d + 25 >= d) {
          st = s;
          break;
        }
      }
      const c = cam.camera;
      c.position.set(st.x, st.y, st.z);
      c.upVector.set(0, 1, 0);
      c.setTarget(new Vector3(focus.x, focus.y + 0.6, focus.z));
      const dist = Math.hypot(st.x - focus.x, st.y - focus.y, st.z - focus.z);
      c.fov = Math.max(0.12, Math.min(1.0, 2 * Math.atan(7 / Math.max(1, dist))));
      cam.snap();
    } else {
      if (this.view === 'free') {
        cam.orbit(this.orbitInput.dx, this.orbitInput.dy, Math.max(dt, 1 / 60));
        this.orbitInput.dx = this.orbitInput.dy = 0;
      }
      cam.view = this.view;
      cam.update(focus, Math.min(dt, 0.1));
    }
  }

  private updateHud(): void {
    const w = this.world;
    const t0 = this.tele[0];
    if (t0) {
      const tick = w.tick;
      this.hud.update({ speedMS: t0.speedMS, rpm: t0.rpm, redlineRpm: t0.redlineRpm, maxRpm: t0.maxRpm, gear: t0.gear, timeS: this.stageTimeAt(tick), damage: t0.damage, units: this.units });
      const c0 = this.cars[0]!;
      this.stage.road.project(w.c.RigidBody.px[c0.eid]!, w.c.RigidBody.pz[c0.eid]!, this.proj);
      const s0 = this.stage.start.distanceM;
      const s1 = this.stage.finish.distanceM;
      this.hud.setProgress((this.proj.distanceM - s0) / Math.max(1, s1 - s0));
      this.hud.setLights(tick < this.startTicks ? Math.min(5, Math.floor((tick / this.startTicks) * 5) + 1) : tick < this.startTicks + 600 ? 'go' : 'off');
      this.hud.tickToast(this.nowS);
    }
  }

  /** The recorded (consumed) inputs of car 0 at the current tick, in physical units (−1..1 / 0..1). */
  inputs(): { steer: number; throttle: number; brake: number; clutch: number; handbrake: number } {
    const c = this.world.c.Controls;
    const e = this.cars[0]?.eid ?? 0;
    return { steer: c.steer[e]!, throttle: c.throttle[e]!, brake: c.brake[e]!, clutch: c.clutch[e]!, handbrake: c.handbrake[e]! };
  }

  toast(text: string): void {
    this.hud.showToast(text, this.nowS, 2);
  }

  dispose(): void {
    this.player.dispose();
    this.terrain.dispose();
    this.stageView.dispose();
    for (const v of this.carViews) v.dispose();
    this.effects.dispose();
    this.hud.dispose();
    this.codriver?.dispose();
    this.kit.scene.activeCamera = this.kit.menuCamera;
    this.camera.camera.dispose();
  }
}
