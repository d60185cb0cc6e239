/**
 * The replay viewer for a town replay (issue 23 item 5): `TownReplayPlayer` rebuilds the town run from the
 * header and re-simulates it (world + traffic, checksums compared as it plays), drawn with town mode's own
 * views (town ground, TownView for scenery, lights and traffic, car views for the player and the promoted
 * vehicles, the town HUD with its incident feed). Same controls as the stage viewer (src/app/replay/install.ts
 * drives either): play/pause, speed, frame step, seek (back = re-simulation from tick 0, see src/replay/town-replay-player.ts),
 * cameras chase / hood / free.
 */
import type { SceneKit } from '../../systems/view/scene';
import { TerrainView } from '../../systems/view/terrain-view';
import { townTerrainSource } from '../../systems/view/town-ground';
import { TownView } from '../../systems/view/town-view';
import { TownHud } from '../../systems/view/town-hud';
import { CarView } from '../../systems/view/car-view';
import { GameCamera } from '../../systems/view/camera';
import { Hud } from '../../systems/view/hud';
import type { ReplayData } from '../../replay/format';
import { TownReplayPlayer } from '../../replay/town-replay-player';
import type { TownRun } from '../../run/town';
import { carConfigFromReplay } from '../../run/cars';
import { emptyTelemetry, type DrivableCar } from '../car-link';
import { drivable, shapeOf } from '../cars';
import { PromotedCarViews, type TrafficCarFile } from '../town/promoted-views';
import { VIEWER_SPEEDS } from './viewer';

export type TownViewerCamera = 'chase' | 'hood' | 'free';
export const TOWN_VIEWER_CAMERAS: TownViewerCamera[] = ['chase', 'hood', 'free'];
/** Most simulated time per frame, s: a machine that cannot keep up slows the replay rather than spiral. */
const MAX_SIM_PER_FRAME_S = 0.3;
/** Real time per frame counted at most, s (a stalled tab does not dump seconds of ticks into one frame). */
const MAX_FRAME_DT_S = 0.25;
/** A recorded instructor action is announced when the replay passes it. */
const INSTRUCTOR_LABEL = 'instructor';

export class TownReplayViewer {
  readonly player: TownReplayPlayer;
  /** The player's car (index 0, like the stage viewer's `cars`). */
  readonly cars: DrivableCar[];
  readonly camera: GameCamera;
  readonly hud: Hud;
  private readonly townHud: TownHud;
  private readonly terrain: TerrainView;
  private townView: TownView;
  /** The run the views were made for (a seek back rebuilds the run: the views follow). */
  private viewedRun: TownRun;
  private readonly playerView: CarView;
  private readonly promoted: PromotedCarViews;
  /** The traffic's car files as the header embeds them (promoted views, traffic bodies). */
  private readonly trafficCars: TrafficCarFile[];
  private readonly tele = emptyTelemetry();
  private readonly markTicks: { tick: number; kind: string; label: string }[];
  private acc = 0;
  private nowS = 0;
  playing = true;
  speed = 1;
  view: TownViewerCamera = 'chase';
  orbitInput = { dx: 0, dy: 0 };
  onToast?: (text: string) => void;

  constructor(
    private readonly kit: SceneKit,
    readonly data: ReplayData,
    hudParent: HTMLElement,
    readonly units: 'kmh' | 'mph',
    file = 'replay',
  ) {
    this.player = new TownReplayPlayer(data, file);
    const run = (this.viewedRun = this.player.run);
    const h = data.header;
    const playerCfg = carConfigFromReplay(h.cars[0]!);
    this.cars = [drivable(run.world, run.playerEid, { id: h.cars[0]!.id, name: playerCfg.name, stats: [], color: playerCfg.look.primary }, playerCfg)];
    this.trafficCars = h.town!.trafficCars.map((c) => ({ id: c.id, cfg: carConfigFromReplay(c) }));
    this.promoted = new PromotedCarViews(kit, this.trafficCars);
    // every rebuilt run generates the same town from the seed: the ground drawn once serves them all
    this.terrain = new TerrainView(kit.scene, townTerrainSource(run.town));
    this.townView = new TownView(kit.scene, run.town, run.traffic, this.trafficCars.map((c) => shapeOf(c.cfg)));
    this.playerView = new CarView(kit.scene, this.cars[0]!.shape, kit.shadows);
    this.camera = new GameCamera(kit.scene, (x, z) => run.town.ground.height(x, z));
    this.hud = new Hud(hudParent);
    this.hud.setLights('off');
    this.townHud = new TownHud(hudParent);
    this.markTicks = h.town!.instructorTicks.map((tick) => ({ tick, kind: INSTRUCTOR_LABEL, label: 'Instructor action' }));
    const b = run.world.c.RigidBody, e = run.playerEid;
    this.terrain.update(b.px[e]!, b.pz[e]!);
    this.render(0);
  }

  get world(): TownReplayPlayer['world'] {
    return this.player.world;
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
    this.followRun();
    this.camera.snap();
  }

  /** After a rebuild the town view and the promoted cars' views belong to the old run: remade for the new one. */
  private followRun(): void {
    const run = this.player.run;
    if (run === this.viewedRun) return;
    this.viewedRun = run;
    this.townView.dispose();
    this.townView = new TownView(this.kit.scene, run.town, run.traffic, this.trafficCars.map((c) => shapeOf(c.cfg)));
    this.promoted.clear();
    this.cars[0] = drivable(run.world, run.playerEid, this.cars[0]!.info, carConfigFromReplay(this.data.header.cars[0]!));
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
    const i = VIEWER_SPEEDS.indexOf(this.speed);
    this.speed = VIEWER_SPEEDS[Math.max(0, Math.min(VIEWER_SPEEDS.length - 1, (i < 0 ? 2 : i) + dir))]!;
  }

  cycleCamera(dir: -1 | 1 = 1): void {
    const i = TOWN_VIEWER_CAMERAS.indexOf(this.view);
    this.view = TOWN_VIEWER_CAMERAS[(i + dir + TOWN_VIEWER_CAMERAS.length) % TOWN_VIEWER_CAMERAS.length]!;
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

  /** Draws the current tick: cars, traffic and lights, camera, ground, HUDs (no interpolation: ticks are 2 ms). */
  private render(dt: number): void {
    const run = this.player.run, w = run.world, b = w.c.RigidBody, e = run.playerEid;
    const car = this.cars[0]!;
    car.readTelemetry(w, this.tele);
    const t = this.tele;
    const x = b.px[e]!, y = b.py[e]!, z = b.pz[e]!;
    this.playerView.update(x, y, z, { w: b.qw[e]!, x: b.qx[e]!, y: b.qy[e]!, z: b.qz[e]! }, t.wheels, t.brake > 0.05);
    this.playerView.setCrush(t.damage);
    this.promoted.update(run);
    if (this.view === 'free') {
      this.camera.orbit(this.orbitInput.dx, this.orbitInput.dy, Math.max(dt, 1 / 60));
      this.orbitInput.dx = this.orbitInput.dy = 0;
    }
    this.camera.view = this.view;
    this.camera.update({ x, y, z, fx: b.R2[e]!, fy: b.R5[e]!, fz: b.R8[e]!, ux: b.R1[e]!, uy: b.R4[e]!, uz: b.R7[e]!, speed: t.speedMS }, Math.min(dt, 0.1));
    this.kit.scene.activeCamera = this.camera.camera;
    this.townView.update(this.camera.camera.position.x, this.camera.camera.position.z);
    this.terrain.update(this.camera.camera);
    this.kit.sun.position.set(x + 40, y + 80, z + 30);
    this.hud.update({ speedMS: t.speedMS, rpm: t.rpm, redlineRpm: t.redlineRpm, maxRpm: t.maxRpm, gear: t.gear, timeS: w.time, damage: t.damage, units: this.units });
    this.hud.tickToast(this.nowS);
    this.updateTownHud(run);
  }

  private updateTownHud(run: TownRun): void {
    const lights: [number, number, number] = [0, 0, 0];
    for (const c of this.townView.lightStates()) lights[c]!++;
    let alive = 0;
    for (let k = 0; k < run.traffic.state.capacity; k++) alive += run.traffic.state.alive[k]!;
    const acc = run.accidents.accidents;
    this.townHud.update({ seed: this.data.header.town!.seed, simulated: alive, promoted: this.promoted.size, lights, accidents: acc.length }, acc, run.world.time);
  }

  /** The recorded (consumed) inputs of the player's car at the current tick (−1..1 / 0..1). */
  inputs(): { steer: number; throttle: number; brake: number; clutch: number; handbrake: number } {
    const c = this.world.c.Controls, e = this.player.run.playerEid;
    return { steer: c.steer[e]!, throttle: c.throttle[e]!, brake: c.brake[e]!, clutch: c.clutch[e]!, handbrake: c.handbrake[e]! };
  }

  /** Traffic vehicles alive now, by serial, with their positions (the e2e test checks that the traffic moves). */
  trafficPositions(): { serial: number; x: number; z: number }[] {
    const st = this.player.run.traffic.state, out: { serial: number; x: number; z: number }[] = [];
    for (let k = 0; k < st.capacity; k++) if (st.alive[k]) out.push({ serial: st.serial[k]!, x: st.x[k]!, z: st.z[k]! });
    return out;
  }

  toast(text: string): void {
    this.hud.showToast(text, this.nowS, 2);
  }

  dispose(): void {
    this.player.dispose();
    this.terrain.dispose();
    this.townView.dispose();
    this.playerView.dispose();
    this.promoted.clear();
    this.hud.dispose();
    this.townHud.dispose();
    this.kit.scene.activeCamera = this.kit.menuCamera;
    this.camera.camera.dispose();
  }
}
