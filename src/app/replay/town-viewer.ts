/**
 * The replay viewer for a town replay (issue 23 item 5): `TownReplayPlayer` rebuilds the town run from the
 * header and re-simulates it (world + traffic, checksums compared as it plays), drawn with town mode's own
 * views (`TownScene`: town ground, scenery, lights and traffic bodies, the player's and the promoted vehicles'
 * car views, the HUD and the town HUD with its incident feed). Same controls as the stage viewer
 * (src/app/replay/install.ts drives either): play/pause, speed, frame step, seek (back = re-simulation from
 * tick 0, see src/replay/town-replay-player.ts), cameras chase / hood / free.
 */
import type { SceneKit } from '../../systems/view/scene';
import type { ReplayData } from '../../replay/format';
import { TownReplayPlayer } from '../../replay/town-replay-player';
import type { TownRun } from '../../run/town';
import { carConfigFromReplay } from '../../run/cars';
import type { DrivableCar } from '../car-link';
import { drivable } from '../cars';
import { TownScene } from '../town/town-scene';
import { cycleIn, stepSpeed } from './viewer';

export type TownViewerCamera = 'chase' | 'hood' | 'free';
export const TOWN_VIEWER_CAMERAS: TownViewerCamera[] = ['chase', 'hood', 'free'];
/** Most simulated time per frame, s: a machine that cannot keep up slows the replay rather than spiral. */
const MAX_SIM_PER_FRAME_S = 0.3;
/** Real time per frame counted at most, s (a stalled tab does not dump seconds of ticks into one frame). */
const MAX_FRAME_DT_S = 0.25;

/** The player's car of `run` as the views see it, from the car file the header embeds. */
function headerPlayer(run: TownRun, data: ReplayData): DrivableCar {
  const car = data.header.cars[0]!, cfg = carConfigFromReplay(car);
  return drivable(run.world, run.playerEid, { id: car.id, name: cfg.name, stats: [], color: cfg.look.primary }, cfg);
}

export class TownReplayViewer {
  readonly player: TownReplayPlayer;
  /** The player's car (index 0, like the stage viewer's `cars`). */
  readonly cars: DrivableCar[];
  private readonly scene: TownScene;
  /** The run the views draw (a seek back rebuilds the run: the views follow). */
  private viewedRun: TownRun;
  private readonly markTicks: { tick: number; kind: string; label: string }[];
  private acc = 0;
  private nowS = 0;
  playing = true;
  speed = 1;
  view: TownViewerCamera = 'chase';
  orbitInput = { dx: 0, dy: 0 };
  onToast?: (text: string) => void;

  constructor(
    kit: SceneKit,
    readonly data: ReplayData,
    hudParent: HTMLElement,
    readonly units: 'kmh' | 'mph',
    file = 'replay',
  ) {
    this.player = new TownReplayPlayer(data, file);
    const run = (this.viewedRun = this.player.run);
    const town = data.header.town!;
    this.cars = [headerPlayer(run, data)];
    const traffic = town.trafficCars.map((c) => ({ id: c.id, cfg: carConfigFromReplay(c) }));
    this.scene = new TownScene(kit, run, this.cars[0]!, traffic, hudParent, town.seed);
    this.markTicks = town.instructorTicks.map((tick) => ({ tick, kind: 'instructor', label: 'Instructor action' }));
    this.render(0);
  }

  get world(): TownReplayPlayer['world'] {
    return this.player.world;
  }

  get camera(): TownScene['camera'] {
    return this.scene.camera;
  }

  /** Timeline marks: the recorded instructor actions. */
  get marks(): readonly { tick: number; kind: string; label: string }[] {
    return this.markTicks;
  }

  /** The clock a town run shows: simulated time since the start. */
  stageTimeAt(tick: number): number {
    return tick * this.world.dt;
  }

  private stepOne(): boolean {
    const before = this.world.tick;
    const ok = this.player.step();
    if (ok) for (const m of this.markTicks) if (m.tick >= before && m.tick < this.world.tick) this.onToast?.(m.label);
    return ok;
  }

  /** Moves to `tick` (back: the run is rebuilt and re-simulated from tick 0); views snap. */
  seek(tick: number): void {
    this.player.seek(tick);
    this.acc = 0;
    const run = this.player.run;
    if (run !== this.viewedRun) {
      this.viewedRun = run;
      this.cars[0] = headerPlayer(run, this.data);
      this.scene.setRun(run, this.cars[0]);
    }
    this.camera.snap();
  }

  /** One 60 Hz frame forward (+1) or back (−1); pauses. */
  stepFrame(dir: 1 | -1): void {
    this.playing = false;
    const n = Math.max(1, Math.round(1 / 60 / this.world.dt));
    if (dir > 0) for (let i = 0; i < n && this.stepOne(); i++);
    else this.seek(this.world.tick - n);
    this.acc = 0;
    this.render(0);
  }

  setSpeed(dir: -1 | 1): void {
    this.speed = stepSpeed(this.speed, dir);
  }

  cycleCamera(dir: -1 | 1 = 1): void {
    this.view = cycleIn(TOWN_VIEWER_CAMERAS, this.view, dir);
    this.camera.resetUp();
    this.camera.snap();
  }

  /** Per animation frame (real dt, s). Returns ticks simulated. */
  frame(dt: number): number {
    this.nowS += dt;
    let n = 0;
    if (this.playing && !this.player.ended) {
      const wdt = this.world.dt;
      this.acc += Math.min(dt, MAX_FRAME_DT_S) * this.speed;
      const cap = Math.ceil(MAX_SIM_PER_FRAME_S / wdt);
      while (this.acc >= wdt && n < cap && this.stepOne()) {
        this.acc -= wdt;
        n++;
      }
      if (n === cap) this.acc = 0;
    }
    if (this.player.ended) {
      this.playing = false;
      this.acc = 0;
    }
    this.render(dt);
    return n;
  }

  /** Draws the current tick (no interpolation: ticks are 2 ms). */
  private render(dt: number): void {
    if (this.view === 'free') {
      this.camera.orbit(this.orbitInput.dx, this.orbitInput.dy, Math.max(dt, 1 / 60));
      this.orbitInput.dx = this.orbitInput.dy = 0;
    }
    this.camera.view = this.view;
    this.scene.draw(dt, { units: this.units, nowS: this.nowS, terrain: true });
  }

  /** The recorded (consumed) inputs of the player's car at the current tick (−1..1 / 0..1). */
  inputs(): { steer: number; throttle: number; brake: number; clutch: number; handbrake: number } {
    const c = this.world.c.Controls, e = this.player.run.playerEid;
    return { steer: c.steer[e]!, throttle: c.throttle[e]!, brake: c.brake[e]!, clutch: c.clutch[e]!, handbrake: c.handbrake[e]! };
  }

  /** Traffic vehicles alive now, by serial, with their positions (the e2e test checks that the traffic moves). */
  trafficPositions(): { serial: number; x: number; z: number }[] {
    return this.scene.trafficPositions();
  }

  toast(text: string): void {
    this.scene.hud.showToast(text, this.nowS, 2);
  }

  dispose(): void {
    this.player.dispose();
    this.scene.dispose();
  }
}
