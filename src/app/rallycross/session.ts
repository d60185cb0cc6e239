/**
 * A rallycross race in the browser (issue 8): the player and up to 7 AI cars on a closed mixed-surface circuit,
 * standing start (lights), laps and live positions, car–car collisions in play. The race rules and the world
 * live in src/run/race.ts (pure); this class feeds the player's device input into the race's
 * HeldInput, steps it with the fixed-step scheduler, and draws every car (views only read the world).
 */
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Matrix } from '@babylonjs/core/Maths/math.vector';
import { FixedStepScheduler } from '../../ecs/scheduler';
import { quantizeInput } from '../../ecs/controls';
import type { Stage } from '../../../terrain/stage';
import { JUMP_START_PENALTY_S, RallycrossRace } from '../../run/race';
import type { RaceRunState } from '../../run/race-rules';
import type { SceneKit } from '../../systems/view/scene';
import { TerrainView } from '../../systems/view/terrain-view';
import { StageView } from '../../systems/view/stage-view';
import { CarView } from '../../systems/view/car-view';
import { GameCamera, type CameraView } from '../../systems/view/camera';
import { Hud } from '../../systems/view/hud';
import { ActionMixer, readActions, toRawInput } from '../input/actions';
import type { InputDevices } from '../input/devices';
import type { Settings } from '../settings';
import { carChoice } from '../cars';
import { boardLineHtml, type Standing } from './standings-html';
import { raceEventToast, raceTimerS, showRaceHud } from './race-hud';
import { emptyTelemetry, type CarTelemetryView, type DrivableCar } from '../car-link';

export interface RallycrossSetup {
  playerCarId: string;
  /** AI opponents, 0–7. */
  opponents: number;
  laps: number;
  seed?: number;
  /** Most simulated seconds per frame (URL flag simcap; default 0.1). */
  simCapS?: number;
}

export type { Standing };

const AI_CARS = ['rally-awd', 'hatch-gti', 'classic-rwd'];

/** One car as the e2e test reads it (testState). */
function carTestState(name: string, x: number, z: number, speedMS: number, run: RaceRunState): Record<string, unknown> {
  return { name, x, z, speedMS, progressM: run.progressM, lap: run.lap, finishS: run.finishTimeS, penaltyS: run.penaltyS, jokers: run.jokers, jumpStart: run.jumpStart };
}

export class RallycrossSession {
  readonly race: RallycrossRace;
  readonly scheduler: FixedStepScheduler;
  readonly cars: DrivableCar[];
  private readonly views: CarView[];
  private readonly terrain: TerrainView;
  private readonly stageView: StageView;
  readonly camera: GameCamera;
  readonly hud: Hud;
  private readonly board: HTMLDivElement;
  private readonly mixer = new ActionMixer();
  private readonly tele: CarTelemetryView = emptyTelemetry();
  private readonly aiTele: CarTelemetryView = emptyTelemetry();
  private frameCount = 0;
  private nowS = 0;
  private boardSnapshot: { name: string; progressM: number; finishS: number | null }[] = [];
  private jokerPosts: Mesh | null = null;
  onFinish?: (standings: Standing[]) => void;
  private reported = false;

  constructor(
    private readonly kit: SceneKit,
    readonly stage: Stage,
    readonly setup: RallycrossSetup,
    private readonly settings: Settings,
    private readonly devices: InputDevices,
    hudParent: HTMLElement,
  ) {
    const n = Math.max(0, Math.min(7, Math.round(setup.opponents)));
    const choices = [carChoice(setup.playerCarId), ...Array.from({ length: n }, (_, k) => carChoice(AI_CARS[k % AI_CARS.length]!))];
    // the player starts from the back of the grid
    const order = [...choices.slice(1), choices[0]!];
    this.race = new RallycrossRace({ stage, cars: order.map((c) => c.cfg), laps: setup.laps, playerIndex: order.length - 1, seed: setup.seed ?? 1, countdownS: 4 });
    this.cars = this.race.entrants.map((e, k) => order[k]!.wrap(this.race.world, e.eid));
    this.terrain = new TerrainView(kit.scene, stage);
    this.stageView = new StageView(kit.scene, stage, kit.shadows);
    this.views = this.cars.map((c) => new CarView(kit.scene, c.shape, kit.shadows));
    this.jokerPosts = this.buildJokerPosts();
    this.camera = new GameCamera(kit.scene, (x, z) => stage.bspline.height(x, z));
    this.camera.view = settings.camera as CameraView;
    this.hud = new Hud(hudParent);
    this.hud.show(true);
    this.board = document.createElement('div');
    this.board.className = 'rx-board';
    this.board.style.cssText = 'position:absolute;left:12px;top:12px;font:14px/1.35 system-ui,sans-serif;color:#fff;background:rgba(8,12,18,.82);padding:8px 12px;border-radius:6px;min-width:190px;pointer-events:none';
    hudParent.appendChild(this.board);
    this.scheduler = new FixedStepScheduler({ dt: this.race.world.dt, maxTicksPerFrame: Math.ceil((setup.simCapS ?? 0.1) / this.race.world.dt) }, () => this.race.tick());
    const p = this.playerEntrant();
    this.terrain.update(this.race.world.c.RigidBody.px[p.eid]!, this.race.world.c.RigidBody.pz[p.eid]!);
    this.updateViews(0);
  }

  /** The joker branch, marked with orange posts along both edges (views only read the race). */
  private buildJokerPosts(): Mesh | null {
    const J = this.race.joker;
    if (!J) return null;
    const post = CreateCylinder('joker-post', { height: 1.4, diameter: 0.35, tessellation: 8 }, this.kit.scene);
    const m = new StandardMaterial('joker-post', this.kit.scene);
    m.diffuseColor = new Color3(1, 0.45, 0.05);
    m.emissiveColor = new Color3(0.35, 0.12, 0);
    post.material = m;
    const h = (x: number, z: number): number => this.stage.bspline.height(x, z);
    const mats = J.markers.map(([x, z]) => Matrix.Translation(x, h(x, z) + 0.7, z));
    post.thinInstanceAdd(mats);
    return post;
  }

  private playerEntrant(): (typeof this.race.entrants)[number] {
    return this.race.entrants[this.race.playerIndex]!;
  }

  /** The player's race (the RaceProgress component). */
  private playerRun(): RaceRunState {
    return this.race.runOf(this.race.playerIndex);
  }

  standings(): Standing[] {
    return this.race.positions().map((i) => {
      const e = this.race.entrants[i]!;
      const run = this.race.runOf(i);
      return {
        name: e.name,
        carId: e.car.id,
        lap: Math.min(this.setup.laps, run.lap + 1),
        finishS: run.finishTimeS,
        penaltyS: run.penaltyS,
        jokers: run.jokers,
        jumpStart: run.jumpStart,
        player: i === this.race.playerIndex,
      };
    });
  }

  /** What the e2e test reads (window.__bitrally.rallycross()): phase, clock, standings, per-car state, the board text. */
  testState(): Record<string, unknown> {
    const b = this.race.world.c.RigidBody;
    return {
      phase: this.race.phase,
      raceTimeS: this.race.raceTimeS,
      countdownLeftS: this.race.countdownLeftS,
      laps: this.setup.laps,
      playerIndex: this.race.playerIndex,
      order: this.race.positions(),
      standings: this.standings(),
      cars: this.race.entrants.map((e, i) => carTestState(e.name, b.px[e.eid]!, b.pz[e.eid]!, Math.hypot(b.vx[e.eid]!, b.vz[e.eid]!), this.race.runOf(i))),
      playerOnJoker: this.race.playerAutopilot?.onJoker ?? false,
      // the joker road's ribbon (stage.toml [joker], drawn by StageView) and the ground under the player's car
      jokerRoadVertices: this.kit.scene.getMeshByName('jokerRoad')?.getTotalVertices() ?? 0,
      playerSurface: this.stage.surfaceMap.surfaceIdAt(b.px[this.playerEntrant().eid]!, b.pz[this.playerEntrant().eid]!),
      playerNearJokerGate: this.race.joker ? Math.hypot(b.px[this.playerEntrant().eid]! - this.race.joker.gateX, b.pz[this.playerEntrant().eid]! - this.race.joker.gateZ) < this.race.joker.gateRadiusM : false,
      toast: (document.querySelector('.hud-toast') as HTMLElement | null)?.textContent ?? null,
      boardSnapshot: this.boardSnapshot,
      board: [...this.board.children].map((c) => c.textContent).join('\n'),
    };
  }

  frame(dt: number): void {
    this.frameCount++;
    this.nowS += dt;
    const r = readActions(this.devices.snapshot(), this.settings.bindings, this.settings.tuning);
    const a = this.mixer.update(r, this.settings, dt);
    this.race.playerInput.input = quantizeInput(toRawInput(a));
    const playerDone = this.playerRun().finishTimeS !== null;
    if (this.race.phase !== 'finished') this.scheduler.advance(dt);
    // race events for the player: jump start, joker taken, joker penalty
    for (const ev of this.race.events) {
      const toast = ev.entrant === this.race.playerIndex ? raceEventToast(ev.kind) : null;
      if (toast) this.hud.showToast(toast.text, this.nowS, toast.durS);
    }
    this.race.events.length = 0;
    // the race read the tick's world events (race-*, collisions); nothing else here keeps them
    this.race.world.events.length = 0;
    this.hud.tickToast(this.nowS);
    this.updateViews(dt);
    if ((playerDone || this.race.phase === 'finished') && !this.reported) {
      this.reported = true;
      this.onFinish?.(this.standings());
    }
  }

  private updateViews(dt: number): void {
    const w = this.race.world;
    const b = w.c.RigidBody;
    this.cars.forEach((car, k) => {
      const eid = car.eid;
      const t = k === this.race.playerIndex ? this.tele : this.aiTele;
      car.readTelemetry(w, t);
      this.views[k]!.update(b.px[eid]!, b.py[eid]!, b.pz[eid]!, { w: b.qw[eid]!, x: b.qx[eid]!, y: b.qy[eid]!, z: b.qz[eid]! }, t.wheels, t.brake > 0.05);
      this.views[k]!.setCrush(t.damage);
    });
    const p = this.playerEntrant().eid;
    const x = b.px[p]!, y = b.py[p]!, z = b.pz[p]!;
    this.camera.update({ x, y, z, fx: b.R2[p]!, fy: b.R5[p]!, fz: b.R8[p]!, ux: b.R1[p]!, uy: b.R4[p]!, uz: b.R7[p]!, speed: this.tele.speedMS }, Math.min(dt, 0.1));
    if (this.frameCount % 2 === 0) this.terrain.update(this.camera.camera);
    this.kit.sun.position.set(x + 40, y + 80, z + 30);
    const t = this.tele;
    // the timer includes the player's penalties (jump start, missed joker, recoveries), as the results do
    const me = this.playerRun();
    this.hud.update({ speedMS: t.speedMS, rpm: t.rpm, redlineRpm: t.redlineRpm, maxRpm: t.maxRpm, gear: t.gear, shiftTo: t.shiftTo, timeS: raceTimerS(me, this.race.raceTimeS), damage: t.damage, units: this.settings.units });
    showRaceHud(this.hud, me, this.setup.laps, this.race.joker !== null);
    if (this.race.phase === 'countdown') {
      const total = this.race.opts.countdownS ?? 4;
      this.hud.setLights(Math.min(5, Math.floor(((total - this.race.countdownLeftS) / total) * 5) + 1));
    } else this.hud.setLights(this.race.raceTimeS < 1.5 ? 'go' : 'off');
    if (this.frameCount % 10 === 0 || dt === 0) this.renderBoard();
  }

  private renderBoard(): void {
    const st = this.standings();
    // what the board was drawn from (the e2e test checks the drawn order against these progress figures)
    this.boardSnapshot = this.race.positions().map((i) => {
      const run = this.race.runOf(i);
      return { name: this.race.entrants[i]!.name, progressM: run.progressM, finishS: run.finishTimeS };
    });
    const me = st.findIndex((s) => s.player);
    const lines = st.map(boardLineHtml);
    const mine = st[me]!;
    const joker = this.race.joker ? `<div data-joker style="color:${mine.jokers > 0 ? '#7be37b' : '#ff8a1e'}">Joker lap: ${mine.jokers > 0 ? 'taken ✓' : 'not taken yet'}${mine.jumpStart ? ` · <span style="color:#ff6b5a">jump start +${JUMP_START_PENALTY_S} s</span>` : ''}</div>` : '';
    this.board.innerHTML = `<div style="font-size:20px;font-weight:700">P${me + 1}/${st.length} · Lap ${mine.lap}/${this.setup.laps}</div>${joker}${lines.join('')}`;
  }

  dispose(): void {
    this.terrain.dispose();
    this.stageView.dispose();
    for (const v of this.views) v.dispose();
    this.hud.dispose();
    this.board.remove();
    this.jokerPosts?.material?.dispose();
    this.jokerPosts?.dispose();
    this.kit.scene.activeCamera = this.kit.menuCamera;
    this.camera.camera.dispose();
  }
}
