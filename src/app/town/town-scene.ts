/**
 * The views of a town run, shared by the town drive (`TownSession`) and the town replay viewer: the town's
 * ground (terrain view), `TownView` (scenery, lights, traffic bodies), the player's car and the promoted
 * vehicles' car views, the chase camera, the HUD and the town HUD (info line, incident feed). Reads the run only.
 */
import type { TownRun } from '../../run/town';
import type { SceneKit } from '../../systems/view/scene';
import { TerrainView } from '../../systems/view/terrain-view';
import { townTerrainSource } from '../../systems/view/town-ground';
import { TownView } from '../../systems/view/town-view';
import { TownHud } from '../../systems/view/town-hud';
import { CarView } from '../../systems/view/car-view';
import { GameCamera } from '../../systems/view/camera';
import { Hud } from '../../systems/view/hud';
import { emptyTelemetry, type CarTelemetryView, type DrivableCar } from '../car-link';
import { carShapeOf } from '../../systems/view/car/car-shape';
import { PromotedCarViews, type TrafficCarFile } from './promoted-views';

/** Longest view step the chase camera smooths over, s (a stalled frame does not fling it). */
const MAX_CAMERA_DT_S = 0.1;

/** What a frame shows besides the run: the speed units, the HUD clock, the toast clock, whether to relayout the ground. */
export interface TownFrame {
  units: 'kmh' | 'mph';
  /** Toasts' clock, s (wall time of the session or viewer). */
  nowS: number;
  /** Reselect the ground's level of detail this frame. */
  terrain: boolean;
}

export class TownScene {
  readonly camera: GameCamera;
  readonly hud: Hud;
  readonly tele: CarTelemetryView = emptyTelemetry();
  private readonly townHud: TownHud;
  private readonly terrain: TerrainView;
  private townView: TownView;
  private readonly playerView: CarView;
  private readonly promoted: PromotedCarViews;

  constructor(
    private readonly kit: SceneKit,
    private run: TownRun,
    private player: DrivableCar,
    private readonly trafficCars: readonly TrafficCarFile[],
    hudParent: HTMLElement,
    private readonly seed: number,
  ) {
    this.promoted = new PromotedCarViews(kit, trafficCars);
    // every run of a seed generates the same town: the ground drawn once serves a rebuilt run too
    this.terrain = new TerrainView(kit.scene, townTerrainSource(run.town));
    this.townView = this.makeTownView();
    this.playerView = new CarView(kit.scene, player.shape, kit.shadows);
    this.camera = new GameCamera(kit.scene, (x, z) => run.town.ground.height(x, z));
    this.hud = new Hud(hudParent);
    // no countdown in a town: the start lights stay dark and hidden
    this.hud.setLights('off');
    this.townHud = new TownHud(hudParent);
    const b = run.world.c.RigidBody, e = run.playerEid;
    this.terrain.update(b.px[e]!, b.pz[e]!);
  }

  private makeTownView(): TownView {
    return new TownView(this.kit.scene, this.run.town, this.run.traffic, this.trafficCars.map((c) => carShapeOf(c.cfg)));
  }

  /** Draws another run of the same town (a replay rebuilt for a seek back), its player's car `player`. */
  setRun(run: TownRun, player: DrivableCar): void {
    this.run = run;
    this.player = player;
    this.townView.dispose();
    this.townView = this.makeTownView();
    this.promoted.clear();
  }

  /** Vehicles drawn with a car view now. */
  get promotedCount(): number {
    return this.promoted.size;
  }

  /** The colour index (0 green, 1 yellow, 2 red) of every light head now. */
  lightStates(): number[] {
    return this.townView.lightStates();
  }

  /** The run's latest tick drawn: cars, traffic and lights from the camera's place, ground, HUDs. */
  draw(dt: number, f: TownFrame): void {
    const run = this.run, w = run.world, b = w.c.RigidBody, e = run.playerEid;
    this.player.readTelemetry(w, this.tele);
    const t = this.tele;
    const x = b.px[e]!, y = b.py[e]!, z = b.pz[e]!;
    this.playerView.update(x, y, z, { w: b.qw[e]!, x: b.qx[e]!, y: b.qy[e]!, z: b.qz[e]! }, t.wheels, t.brake > 0.05);
    this.playerView.setCrush(t.damage);
    this.promoted.update(run);
    this.camera.update({ x, y, z, fx: b.R2[e]!, fy: b.R5[e]!, fz: b.R8[e]!, ux: b.R1[e]!, uy: b.R4[e]!, uz: b.R7[e]!, speed: t.speedMS }, Math.min(dt, MAX_CAMERA_DT_S));
    this.kit.scene.activeCamera = this.camera.camera;
    const cp = this.camera.camera.position;
    this.townView.update(cp.x, cp.z);
    if (f.terrain) this.terrain.update(this.camera.camera);
    this.kit.sun.position.set(x + 40, y + 80, z + 30);
    this.hud.update({ speedMS: t.speedMS, rpm: t.rpm, redlineRpm: t.redlineRpm, maxRpm: t.maxRpm, gear: t.gear, shiftTo: t.shiftTo, timeS: w.time, damage: t.damage, units: f.units });
    this.hud.tickToast(f.nowS);
    const lights: [number, number, number] = [0, 0, 0];
    for (const c of this.townView.lightStates()) lights[c]!++;
    const st = run.traffic.state;
    let alive = 0;
    for (let k = 0; k < st.capacity; k++) alive += st.alive[k]!;
    const acc = run.accidents.accidents;
    this.townHud.update({ seed: this.seed, simulated: alive, promoted: this.promoted.size, lights, accidents: acc.length }, acc, w.time);
  }

  /** Traffic vehicles alive now, by serial, with their positions (the e2e tests check that the traffic moves). */
  trafficPositions(): { serial: number; x: number; z: number }[] {
    const st = this.run.traffic.state, out: { serial: number; x: number; z: number }[] = [];
    for (let k = 0; k < st.capacity; k++) if (st.alive[k]) out.push({ serial: st.serial[k]!, x: st.x[k]!, z: st.z[k]! });
    return out;
  }

  dispose(): void {
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
