/**
 * A room's drive in the browser (issue #22): this player's car is a NetCar (the real simulation of one car on the
 * room's stage or circuit, src/net/net-car.ts) driven by the pad through the game's input path (bindings, the
 * action mixer, quantised input), stepped on the room's timeline (RoomPacer) from the room's 'go', one state
 * packet sent per packet interval. In a race room the car races the room's laps (lap n/N, joker, the
 * penalty-inclusive timer: the offline race's HUD pieces) and Recover puts it back (NetCar.recover). The room's
 * impulses are applied at their stamped tick (rewinding when late) and logged (CollisionLog); the other cars are
 * drawn from their relayed states (RemoteCars). A rewind's jump of the own car is smoothed on screen
 * (CorrectionSmoother: the drawn car and the camera slide onto the simulated pose, τ = 0.12 s); a recovery snaps.
 * The world cannot stop: while the pause menu is open the car is stepped on with neutral controls and the
 * handbrake. Views only read.
 */
import { quantizeInput, type QuantizedInput } from '../../ecs/controls';
import type { Stage } from '../../../terrain/stage';
import { NetCar } from '../../net/net-car';
import { CorrectionSmoother, readPose, rotateByQuat } from '../../net/correction-smoother';
import { builtinRunCar, createRaceDriver, createStageDriver } from '../../net/bot-car';
import { gridPose } from '../../net/grid';
import type { Lobby, RoomClient } from '../../net/room-client';
import type { ImpulsePacket } from '../../net/packets';
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
import { emptyTelemetry, type CarTelemetryView, type DrivableCar } from '../car-link';
import { CollisionLog } from './collision-log';
import { RoomPacer, SendThrottle } from './pacer';
import { RemoteCars } from './remote-cars';
import type { ServerClock } from './server-clock';
import { PilotSwitch } from './pilot-switch';
import { raceEventsOf, raceRunOf } from '../../run/race-progress';
import { raceEventToast, raceTimerS, showRaceHud } from '../rallycross/race-hud';
import { StandingsTower } from './standings-tower';
import type { Standings } from '../../net/standings';

/** How far behind this car's tick the other cars are drawn, in packet intervals: their states have arrived by then. */
const INTERPOLATION_DELAY_PACKETS = 2;
/** How long a contact's toast stays, s. */
const CONTACT_TOAST_S = 1.5;
/** How long the "no recovery here" notice stays, s. */
const NO_RECOVERY_TOAST_S = 3;
/** The controls while the pause menu is open: no steering or throttle, the handbrake on (the car cannot be frozen). */
const PAUSED_INPUT: QuantizedInput = quantizeInput({ steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 1 });

export class MultiplayerSession {
  readonly car: NetCar;
  readonly log = new CollisionLog();
  /** The drawn car's visual error after a rewind (the simulation is never touched). */
  readonly smoother = new CorrectionSmoother();
  readonly pacer: RoomPacer;
  private readonly throttle: SendThrottle;
  lobby: Lobby;
  private readonly pilot = new PilotSwitch();
  /** The Recover binding's state last frame (a press recovers once). */
  private recoverWas = false;
  private readonly mixer = new ActionMixer();
  private readonly drivable: DrivableCar;
  private readonly tele: CarTelemetryView = emptyTelemetry();
  private readonly terrain: TerrainView;
  private readonly stageView: StageView;
  private readonly view: CarView;
  private readonly remotes: RemoteCars;
  readonly camera: GameCamera;
  readonly hud: Hud;
  private readonly panel: HTMLDivElement;
  /** A race room's standings tower (null in a stage room) and the room's latest standings. */
  private readonly tower: StandingsTower | null;
  private standings: Standings | null = null;
  private nowS = 0;
  private frames = 0;
  packetsSent = 0;

  constructor(
    private readonly kit: SceneKit,
    readonly stage: Stage,
    readonly client: RoomClient,
    lobby: Lobby,
    private readonly settings: Settings,
    private readonly devices: InputDevices,
    hudParent: HTMLElement,
    /** The room's clock as the lobby sampled it (the countdown lights). */
    private readonly clock: ServerClock,
  ) {
    const seat = client.seat;
    this.lobby = lobby;
    this.pacer = new RoomPacer(seat.simDtS * seat.ticksPerPacket);
    this.throttle = new SendThrottle(seat.simDtS * seat.ticksPerPacket);
    this.car = new NetCar(builtinRunCar(`player-${seat.slot}`, seat.car, gridPose(stage, seat.slot)), seat.simDtS, seat.ticksPerPacket, { stage, driver: this.pilot, laps: seat.laps });
    this.drivable = carChoice(seat.car).wrap(this.car.run.world, this.car.eid);
    this.terrain = new TerrainView(kit.scene, stage);
    this.stageView = new StageView(kit.scene, stage, kit.shadows);
    this.view = new CarView(kit.scene, this.drivable.shape, kit.shadows);
    this.remotes = new RemoteCars(kit.scene, kit.shadows, stage, seat.simDtS);
    this.remotes.sync(lobby.seats, seat.slot);
    this.camera = new GameCamera(kit.scene, (x, z) => stage.bspline.height(x, z));
    this.camera.view = settings.camera as CameraView;
    this.hud = new Hud(hudParent);
    this.hud.show(true);
    this.panel = document.createElement('div');
    this.panel.className = 'mp-log';
    hudParent.appendChild(this.panel);
    this.tower = this.car.raceCourse ? new StandingsTower(this.hud.el) : null;
    this.listen();
    this.updateViews(0);
  }

  /** The room's messages: lobby changes, 'go', impulses, the other cars' states. */
  private listen(): void {
    this.client.onLobby = (l) => this.noteLobby(l, performance.now());
    this.client.onGo = () => this.pacer.start(performance.now());
    this.client.onImpulse = (p) => this.applyImpulse(p);
    this.client.onRemote = (slot, s) => this.remotes.push(slot, s);
    this.client.onStandings = (s) => {
      this.standings = s;
      this.tower?.show(s, this.client.seat.slot);
    };
  }

  private noteLobby(l: Lobby, localMs: number): void {
    this.lobby = l;
    this.clock.sample(l.now, localMs);
    this.remotes.sync(l.seats, this.client.seat.slot);
  }

  /** An impulse from the room: applied at its contact tick (rewound when it is in the past), logged, shown. */
  private applyImpulse(p: ImpulsePacket): void {
    const at = this.car.tick;
    const drawnBefore = this.smoother.drawn(readPose(this.car.run.world, this.car.eid));
    const outcome = this.car.applyImpulse(p);
    if (outcome === 'rewound') this.smoother.correct(drawnBefore, readPose(this.car.run.world, this.car.eid));
    this.log.add(p, outcome, at);
    this.hud.showToast(`Contact with ${this.remotes.nameOf(p.other)}`, this.nowS, CONTACT_TOAST_S);
    this.panel.innerHTML = this.log.panelHtml((s) => this.remotes.nameOf(s));
  }

  /** One frame: the pad's input (neutral with the handbrake while `paused`), Recover, the packets due, the views. */
  frame(dt: number, paused = false): void {
    this.nowS += dt;
    this.frames++;
    const r = readActions(this.devices.snapshot(), this.settings.bindings, this.settings.tuning);
    const a = this.mixer.update(r, this.settings, dt);
    // the car waits on its grid pose for the room's 'go'; then it is stepped on the room's timeline. Recover is
    // not passed through: only NetCar.recover() presses it, with the put-back the room checks
    this.pilot.paused = paused;
    this.pilot.held.input = paused ? PAUSED_INPUT : quantizeInput({ ...toRawInput(a), recover: false });
    const recover = !paused && a.recover > 0.5;
    if (recover && !this.recoverWas) this.recover();
    this.recoverWas = recover;
    const now = performance.now();
    const n = this.pacer.take(now);
    this.throttle.beginFrame(now, n);
    for (let k = 0; k < n; k++) this.stepPacket();
    this.hud.tickToast(this.nowS);
    this.updateViews(dt);
  }

  /**
   * The Recover binding: in a race room, once racing and before the flag, the car is put back (NetCar.recover; the
   * race rules add RECOVER_PENALTY_S, shown by the 'recover' event's toast). A stage room takes no recoveries (its
   * collider refuses a recovered state), so there the player is told to drive back.
   */
  recover(): boolean {
    if (!this.pacer.started) return false;
    if (!this.car.raceCourse) {
      this.hud.showToast('No recovery in a stage-together room: drive back onto the road', this.nowS, NO_RECOVERY_TOAST_S);
      return false;
    }
    if (raceRunOf(this.car.run.world, this.car.eid).finishTimeS !== null) return false;
    this.car.recover();
    this.smoother.reset(); // a put-back is a jump the player asked for: the drawn car snaps with it
    return true;
  }

  /** The AI driver drives this car (the browser test's hook) or the pad does again. */
  setAutopilot(on: boolean): void {
    const seat = this.client.seat;
    this.pilot.ai = !on ? null : this.car.raceCourse ? createRaceDriver(this.stage, seat.slot, seat.car) : createStageDriver(this.stage, seat.slot, seat.car);
  }

  private stepPacket(): void {
    const s = this.car.step();
    if (this.throttle.send(s.tick / this.car.ticksPerPacket)) {
      this.client.sendState(s);
      this.packetsSent++;
    }
    // the race's events of this car become toasts; nothing else reads the run's events here (scenery impacts are
    // drawn from the car's state): drop them
    const w = this.car.run.world;
    if (this.car.raceCourse) {
      for (const ev of raceEventsOf(w.events, this.car.eid)) {
        const toast = raceEventToast(ev);
        if (toast) this.hud.showToast(toast.text, this.nowS, toast.durS);
      }
    }
    w.events.length = 0;
  }

  private updateViews(dt: number): void {
    const w = this.car.run.world, b = w.c.RigidBody, e = this.car.eid;
    this.drivable.readTelemetry(w, this.tele);
    const t = this.tele;
    // the drawn car (and the camera that follows it) is the simulated one plus the decaying correction error
    this.smoother.decay(dt);
    const d = this.smoother.drawn(readPose(w, e));
    const [fx, fy, fz] = rotateByQuat(this.smoother.rotation, [b.R2[e]!, b.R5[e]!, b.R8[e]!]);
    const [ux, uy, uz] = rotateByQuat(this.smoother.rotation, [b.R1[e]!, b.R4[e]!, b.R7[e]!]);
    this.view.update(d.x, d.y, d.z, { w: d.qw, x: d.qx, y: d.qy, z: d.qz }, t.wheels, t.brake > 0.05);
    this.view.setCrush(t.damage);
    this.remotes.draw(this.car.tick - INTERPOLATION_DELAY_PACKETS * this.car.ticksPerPacket);
    this.camera.update({ x: d.x, y: d.y, z: d.z, fx, fy, fz, ux, uy, uz, speed: t.speedMS }, Math.min(dt, 0.1));
    if (this.frames % 2 === 0 || dt === 0) this.terrain.update(this.camera.camera);
    this.kit.sun.position.set(d.x + 40, d.y + 80, d.z + 30);
    this.hud.update({ speedMS: t.speedMS, rpm: t.rpm, redlineRpm: t.redlineRpm, maxRpm: t.maxRpm, gear: t.gear, shiftTo: t.shiftTo, timeS: this.timerS(), damage: t.damage, units: this.settings.units });
    this.updateLights();
    if (this.frames % 15 === 1 && this.log.entries.length === 0) this.panel.innerHTML = this.log.panelHtml((s) => this.remotes.nameOf(s));
  }

  /**
   * The HUD's timer, s: in a race room the race clock plus the penalties (the results' time; lap and joker beside
   * it), on a stage the time since 'go'.
   */
  private timerS(): number {
    const w = this.car.run.world, course = this.car.raceCourse;
    if (!course) return w.tick * w.dt;
    const run = raceRunOf(w, this.car.eid);
    showRaceHud(this.hud, run, course.rules.laps, course.rules.joker !== null);
    return raceTimerS(run, run.timeS);
  }

  /** Start lights from the room's countdown (one light per second left, green at 'go'). */
  private updateLights(): void {
    if (this.pacer.started) return this.hud.setLights(this.car.tick * this.car.run.world.dt < 1.5 ? 'go' : 'off');
    const left = this.clock.countdownS(this.lobby.startsAt, performance.now());
    this.hud.setLights(left === null ? 'off' : Math.max(1, Math.min(5, 4 - left)));
  }

  /** What the browser test reads (window.__bitrally.multiplayer.state()). */
  testState(): Record<string, unknown> {
    const b = this.car.run.world.c.RigidBody, e = this.car.eid;
    return {
      slot: this.client.seat.slot,
      code: this.client.seat.code,
      started: this.pacer.started,
      tick: this.car.tick,
      packetsSent: this.packetsSent,
      backlog: this.pacer.backlog(performance.now()),
      car: { x: b.px[e]!, z: b.pz[e]!, vx: b.vx[e]!, vz: b.vz[e]!, speedMS: this.tele.speedMS },
      race: this.car.raceCourse ? { laps: this.car.raceCourse.rules.laps, ...raceRunOf(this.car.run.world, e), sentRecoveries: this.car.recoveries } : null,
      autopilot: this.pilot.ai !== null,
      remotes: this.remotes.poses(),
      log: this.log.entries.map((x) => ({ ...x })),
      corrections: { smoothed: this.smoother.smoothed, snapped: this.smoother.snapped, errorM: this.smoother.error().distM },
      panel: this.panel.textContent,
      standings: this.standings,
      position: this.tower?.el.querySelector('[data-mp-position]')?.textContent ?? null,
    };
  }

  dispose(): void {
    this.terrain.dispose();
    this.stageView.dispose();
    this.view.dispose();
    this.remotes.dispose();
    this.hud.dispose();
    this.panel.remove();
    this.kit.scene.activeCamera = this.kit.menuCamera;
    this.camera.camera.dispose();
  }
}
