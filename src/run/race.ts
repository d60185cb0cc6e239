/**
 * Rallycross race logic (issue 8): standing-start grid behind the start line, lap counting on the circuit's
 * closed path, positions, and a race world with up to 32 cars (one optionally driven by the player, the rest by
 * AI drivers with their own aggressiveness, skill and lane offset), with car–car collisions (issue 5's collider
 * on every car). Pure and headless: the rallycross screen (src/app/rallycross/) and the benchmark use it.
 */
import type { Stage } from '../../terrain/stage';
import type { CarConfig } from '../content/car-schema';
import { createSimWorld, DEFAULT_DT, type IntegratorKind, type SimWorld } from '../ecs/world';
import { Button, HeldInput, setInputSource, type InputSource, type QuantizedInput } from '../ecs/controls';
import { spawnCar } from '../systems/sim/vehicle/prefab-car';
import { stepRun } from './step';
import { Prng } from '../../terrain/prng';
import { StageGround } from '../systems/sim/vehicle/stage-ground';
import { placeCarAtRest, RECOVER_BACK_M, RECOVER_PENALTY_S } from '../systems/sim/vehicle/recovery';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import { AiDriver, type DriverParams } from '../systems/sim/ai/driver';
import type { AiPath } from '../systems/sim/ai/path';
import { DEFAULT_DRIVER, stagePath } from '../systems/sim/ai/stage-path';
import { driverVehicleFromConfig, plannedMu } from '../systems/sim/ai/car-params';
import { jokerRoute, type JokerRoute } from '../systems/sim/ai/joker';
import { dcos, dsin } from '../../terrain/dmath';

/** Time added for a jump start (moving off the grid before the lights go out), s. */
export const JUMP_START_PENALTY_S = 5;
/** Time added at the finish per joker lap missed (or taken more than once), s. */
export const JOKER_PENALTY_S = 30;
/** Distance a car may roll on the grid before the lights go out without a jump start, m. */
export const JUMP_START_TOLERANCE_M = 0.5;

export interface GridSlot {
  x: number;
  z: number;
  heading: number;
  /** Lateral offset from the path, m (+ = left). */
  lateral: number;
}

/**
 * Standing-start grid: two abreast, rows `rowGapM` apart, the first row `firstRowM` behind the start line,
 * columns at ±`halfSpacingM` from the path (pole on the left).
 */
export function gridSlots(path: AiPath, startS: number, count: number, opts: { firstRowM?: number; rowGapM?: number; halfSpacingM?: number } = {}): GridSlot[] {
  const first = opts.firstRowM ?? 4;
  const gap = opts.rowGapM ?? 8;
  const half = opts.halfSpacingM ?? 2.4;
  const out: GridSlot[] = [];
  const pt = [0, 0];
  for (let k = 0; k < count; k++) {
    const row = Math.floor(k / 2);
    const side = k % 2 === 0 ? 1 : -1;
    // stagger the right column half a row back, as on a real grid
    const s = startS - first - row * gap - (side < 0 ? gap / 2 : 0);
    path.pointAt(s, pt);
    const h = path.headingAt(s);
    const lat = side * half;
    out.push({ x: pt[0]! + lat * dcos(h), z: pt[1]! - lat * dsin(h), heading: h, lateral: lat });
  }
  return out;
}

/** Lap counting on a closed path: progress is unwrapped arc length from the start line; small steps only. */
export class LapTracker {
  /** Signed distance driven along the path since the start line (negative on the grid), m. */
  progress: number;
  finishedAt: number | null = null;
  /** Penalties so far (jump start, joker), s: added to the finish time for the result. */
  penaltyS = 0;
  private lastS: number;

  constructor(
    readonly path: AiPath,
    readonly startS: number,
    readonly laps: number,
    initialS: number,
  ) {
    this.lastS = initialS;
    let d = initialS - startS;
    if (d > path.lengthM / 2) d -= path.lengthM;
    else if (d < -path.lengthM / 2) d += path.lengthM;
    this.progress = d;
  }

  /** Completed laps (0 before the first crossing after the start). */
  get lap(): number {
    return Math.max(0, Math.floor(this.progress / this.path.lengthM));
  }

  /** Finish time with penalties (null before the finish). */
  get resultS(): number | null {
    return this.finishedAt === null ? null : this.finishedAt + this.penaltyS;
  }

  get finished(): boolean {
    return this.finishedAt !== null;
  }

  /** Feed the car's arc-length position this tick; returns true on the tick it finishes. */
  update(s: number, time: number): boolean {
    let ds = s - this.lastS;
    const L = this.path.lengthM;
    if (ds > L / 2) ds -= L;
    else if (ds < -L / 2) ds += L;
    this.lastS = s;
    if (this.finishedAt !== null) return false;
    if (Math.abs(ds) < 30) this.progress += ds;
    if (this.progress >= this.laps * L) {
      this.finishedAt = time;
      return true;
    }
    return false;
  }
}

/** Race order: finished cars by finish time plus penalties, then the rest by progress (ties: lower index first). */
export function racePositions(trackers: readonly LapTracker[]): number[] {
  const idx = trackers.map((_, i) => i);
  idx.sort((a, b) => {
    const A = trackers[a]!, B = trackers[b]!;
    if (A.finishedAt !== null || B.finishedAt !== null) {
      if (A.finishedAt === null) return 1;
      if (B.finishedAt === null) return -1;
      return A.finishedAt + A.penaltyS - (B.finishedAt + B.penaltyS) || a - b;
    }
    return B.progress - A.progress || a - b;
  });
  return idx;
}

/**
 * An AI entrant's input source: its driver on the circuit, and a second one on the joker branch that takes over
 * at the branch's start on the lap the driver's strategy chose (`wantJoker`, set by the race) and hands back at
 * its end.
 */
export class RaceDriver implements InputSource {
  onJoker = false;
  /** Set by the race: take the joker at the next branch. */
  wantJoker = false;

  constructor(
    readonly main: AiDriver,
    readonly joker: AiDriver | null,
    readonly route: JokerRoute | null,
    /** Completed laps after which this driver takes the joker (its strategy). */
    readonly jokerLap: number,
  ) {}

  get active(): AiDriver {
    return this.onJoker && this.joker ? this.joker : this.main;
  }

  set hold(v: boolean) {
    this.main.hold = v;
    if (this.joker) this.joker.hold = v;
  }

  get hold(): boolean {
    return this.main.hold;
  }

  next(world: SimWorld, eid: number): QuantizedInput {
    const r = this.route, j = this.joker;
    if (r && j) {
      if (!this.onJoker && this.wantJoker && this.main.loc.index >= 0) {
        const L = this.main.path.lengthM;
        let d = this.main.loc.s - (r.entryS - r.leadM);
        d -= L * Math.round(d / L);
        if (d >= 0 && d < 15) {
          this.onJoker = true;
          j.resetTracking();
        }
      } else if (this.onJoker && j.loc.index >= 0 && j.loc.s > j.path.lengthM - 12) {
        this.onJoker = false;
        this.main.resetTracking();
      }
    }
    return this.active.next(world, eid);
  }
}

export interface RaceOptions {
  stage: Stage;
  /** One car config per entrant (grid order). */
  cars: CarConfig[];
  laps: number;
  /** Index of the player's car (driven by `playerInput`), or −1 for an all-AI race. */
  playerIndex?: number;
  /** Driver characters for the AI cars (default: spread from the seed). */
  drivers?: DriverParams[];
  seed?: number;
  countdownS?: number;
  dt?: number;
  integrator?: IntegratorKind;
  /** Car–car collisions (default true). */
  collisions?: boolean;
  /** Joker lap rule (default: on when the stage has a `[joker]` table; true on a stage without one throws):
   * each car must take the joker branch exactly once. */
  joker?: boolean;
  /** Grid layout (see gridSlots; default two abreast, rows 8 m apart, ±2.4 m). */
  grid?: { firstRowM?: number; rowGapM?: number; halfSpacingM?: number };
  /** Per entrant, the completed laps after which its AI takes the joker (default: drawn from the seed; Infinity = never). */
  jokerLaps?: number[];
}

export interface Entrant {
  eid: number;
  car: CarConfig;
  /** The AI's driver on the circuit (null for the player). */
  driver: AiDriver | null;
  /** The AI's input source (circuit + joker drivers), null for the player. */
  raceDriver: RaceDriver | null;
  tracker: LapTracker;
  name: string;
  /** Where the car is on the circuit's path (updated every racing tick). */
  loc: { index: number; s: number; lateral: number };
  /** Joker branches taken so far, and the lap (completed laps) of the first. */
  jokers: number;
  jokerTakenLap: number | null;
  inJokerGate: boolean;
  jumpStart: boolean;
  /** Grid progress (the jump-start reference), m. */
  gridProgressM: number;
}

export type RacePhase = 'countdown' | 'racing' | 'finished';

export class RallycrossRace {
  readonly world: SimWorld;
  readonly path: AiPath;
  readonly entrants: Entrant[] = [];
  readonly playerInput = new HeldInput();
  readonly startS: number;
  phase: RacePhase = 'countdown';
  countdownLeftS: number;
  /** Race clock since the lights went out, s. */
  raceTimeS = 0;
  /** The joker branch (null when the rule is off). */
  readonly joker: JokerRoute | null;
  /** Race events for the view (jump starts, jokers, penalties); the view empties it. */
  readonly events: { kind: 'jump-start' | 'joker' | 'joker-penalty' | 'recover'; entrant: number; timeS: number }[] = [];
  private readonly recoverPrev: boolean[] = [];

  constructor(readonly opts: RaceOptions) {
    const { stage } = opts;
    if (opts.cars.length < 1 || opts.cars.length > 32) throw new Error(`rallycross: expected 1–32 cars, found ${opts.cars.length}`);
    if (!(opts.laps >= 1)) throw new Error(`rallycross: laps must be ≥ 1, found ${opts.laps}`);
    this.world = createSimWorld({ dt: opts.dt ?? DEFAULT_DT, integrator: opts.integrator ?? 'midpoint', ground: StageGround.fromStage(stage), capacity: 1024, seed: opts.seed ?? 1 });
    this.path = stagePath(stage, opts.cars[0]!);
    if (!this.path.closed) throw new Error(`rallycross: stage "${stage.id}" is not a closed circuit`);
    this.startS = this.path.locate(stage.start.x, stage.start.z).s;
    this.countdownLeftS = opts.countdownS ?? 3;
    const rng = new Prng(opts.seed ?? 1);
    const car0 = opts.cars[0]!;
    if (opts.joker === true && !stage.joker) throw new Error(`rallycross: the joker rule needs a [joker] table in stage "${stage.id}"'s stage.toml`);
    this.joker = opts.joker ?? true ? jokerRoute(stage, this.path, (x, z) => plannedMu(car0, stage.surfaceMap.surfaceAt(x, z)), { edgeMarginM: car0.body.widthM / 2 + 0.9 }) : null;
    const eids: number[] = [];
    const roadHalf = stage.road.poseAt(stage.start.distanceM).width / 2;
    const slots = gridSlots(this.path, this.startS, opts.cars.length, opts.grid);
    const player = opts.playerIndex ?? -1;
    opts.cars.forEach((car, k) => {
      const slot = slots[k]!;
      const eid = spawnCar(this.world, car, { x: slot.x, z: slot.z, heading: slot.heading });
      if (opts.collisions ?? true) attachCarColliderFromConfig(this.world, eid, car);
      eids.push(eid);
      let driver: AiDriver | null = null;
      let raceDriver: RaceDriver | null = null;
      if (k === player) setInputSource(this.world, eid, this.playerInput);
      else {
        const params = opts.drivers?.[k] ?? { aggressiveness: 0.35 + 0.5 * rng.next(), skill: 0.55 + 0.4 * rng.next(), name: `AI ${k + 1}` };
        const vehicle = driverVehicleFromConfig(car);
        // each AI starts in a lane on its grid side (it reacts to the cars around it: AiDriver traffic)
        driver = new AiDriver({ path: this.path, vehicle, params, laneOffsetM: slot.lateral * 0.5, halfWidthM: roadHalf });
        const jd = this.joker ? new AiDriver({ path: this.joker.path, vehicle, params, halfWidthM: this.joker.widthM / 2 }) : null;
        // strategy: the joker on a lap drawn from the seed (the last lap at the latest)
        const drawn = Math.min(opts.laps - 1, Math.floor(rng.next() * opts.laps));
        const jokerLap = opts.jokerLaps?.[k] ?? drawn;
        raceDriver = new RaceDriver(driver, jd, this.joker, jokerLap);
        raceDriver.hold = true;
        setInputSource(this.world, eid, raceDriver);
      }
      const loc = this.path.locate(slot.x, slot.z);
      const tracker = new LapTracker(this.path, this.startS, opts.laps, loc.s);
      this.entrants.push({
        eid,
        car,
        driver,
        raceDriver,
        tracker,
        name: k === player ? 'You' : (driver?.params.name ?? `AI ${k + 1}`),
        loc: { index: loc.index, s: loc.s, lateral: loc.lateral },
        jokers: 0,
        jokerTakenLap: null,
        inJokerGate: false,
        jumpStart: false,
        gridProgressM: tracker.progress,
      });
    });
    // every AI sees every other car (Félez §6.3: following and overtaking)
    for (const e of this.entrants) {
      const others = eids.filter((x) => x !== e.eid);
      if (e.raceDriver) {
        e.raceDriver.main.rivals = others;
        if (e.raceDriver.joker) e.raceDriver.joker.rivals = others;
      }
    }
  }

  /** One simulation tick of the race (countdown → racing → finished). */
  tick(): void {
    const dt = this.world.dt;
    if (this.phase === 'countdown') {
      this.countdownLeftS -= dt;
      if (this.countdownLeftS <= 1e-9) {
        this.countdownLeftS = 0;
        this.phase = 'racing';
        for (const e of this.entrants) if (e.raceDriver) e.raceDriver.hold = false;
        if (this.playerAutopilot) this.playerAutopilot.hold = false;
      }
    }
    if (this.phase === 'countdown' && this.playerIndex >= 0 && !this.playerAutopilot) {
      // the player's car is held on the brakes until the lights go out, unless the player presses the throttle
      // (then it moves: a jump start, below)
      const inp = this.playerInput.input;
      if (inp.throttle === 0) this.playerInput.input = { ...inp, brake: 1000 };
    }
    stepRun(this.world);
    const b = this.world.c.RigidBody;
    if (this.phase === 'countdown') {
      // jump start: moved more than the tolerance along the circuit before the lights went out
      this.entrants.forEach((e, i) => {
        if (e.jumpStart) return;
        const s = this.path.locate(b.px[e.eid]!, b.pz[e.eid]!, e.loc.index, e.loc).s;
        e.tracker.update(s, 0);
        if (e.tracker.progress - e.gridProgressM > JUMP_START_TOLERANCE_M) {
          e.jumpStart = true;
          e.tracker.penaltyS += JUMP_START_PENALTY_S;
          this.events.push({ kind: 'jump-start', entrant: i, timeS: 0 });
        }
      });
      return;
    }
    this.raceTimeS += dt;
    const J = this.joker;
    let done = true;
    this.entrants.forEach((e, i) => {
      const x = b.px[e.eid]!, z = b.pz[e.eid]!;
      const s = this.path.locate(x, z, e.loc.index, e.loc).s;
      const wasFinished = e.tracker.finished;
      // Recover (the player's button, or an AI stuck past its watchdog): back on the circuit, at rest, penalty
      const rec = (this.world.c.Controls.buttons[e.eid]! & Button.Recover) !== 0;
      if (rec && !this.recoverPrev[i] && !wasFinished) this.recover(i);
      this.recoverPrev[i] = rec;
      if (J && !wasFinished) {
        // the joker gate at the middle of the branch: one count per pass
        const dg = Math.hypot(x - J.gateX, z - J.gateZ);
        if (dg < J.gateRadiusM && !e.inJokerGate) {
          e.inJokerGate = true;
          e.jokers++;
          e.jokerTakenLap ??= e.tracker.lap;
          this.events.push({ kind: 'joker', entrant: i, timeS: this.raceTimeS });
        } else if (dg > 3 * J.gateRadiusM) e.inJokerGate = false;
        const rd = e.raceDriver ?? (i === this.playerIndex ? this.playerAutopilot : null);
        if (rd) rd.wantJoker = e.jokers === 0 && e.tracker.lap >= rd.jokerLap;
      }
      if (e.tracker.update(s, this.raceTimeS)) {
        if (J && e.jokers !== 1) {
          // joker missed (or taken more than once): time penalty per lap of difference
          e.tracker.penaltyS += JOKER_PENALTY_S * Math.max(1, Math.abs(e.jokers - 1));
          this.events.push({ kind: 'joker-penalty', entrant: i, timeS: this.raceTimeS });
        }
        // past the flag: lift and coast
        if (e.raceDriver) e.raceDriver.hold = true;
        if (i === this.playerIndex && this.playerAutopilot) this.playerAutopilot.hold = true;
      }
      if (!e.tracker.finished) done = false;
    });
    if (done) this.phase = 'finished';
  }

  /**
   * Put entrant `i`'s car at rest on the racing line RECOVER_BACK_M behind where it is, facing along the circuit (the state a
   * fresh spawn has there, copied into its entity: the eid, its collider's crush and the driver's inputs stay), and
   * add RECOVER_PENALTY_S.
   */
  recover(i: number): void {
    const e = this.entrants[i]!;
    const s = this.path.wrapS(e.loc.s - RECOVER_BACK_M);
    const pt = [0, 0];
    this.path.pointAt(s, pt);
    placeCarAtRest(this.world, e.eid, e.car, { x: pt[0]!, z: pt[1]!, heading: this.path.headingAt(s) });
    e.loc.index = -1;
    const rd = e.raceDriver ?? (i === this.playerIndex ? this.playerAutopilot : null);
    if (rd) {
      rd.onJoker = false;
      rd.main.resetTracking();
    }
    e.tracker.penaltyS += RECOVER_PENALTY_S;
    this.events.push({ kind: 'recover', entrant: i, timeS: this.raceTimeS });
  }

  /** The AI driving the player's car (test hook, demo), or null while the player's devices drive it. */
  playerAutopilot: RaceDriver | null = null;

  /** Hand the player's car to an AI driver (on) or back to `playerInput` (off). Returns the new state. */
  setPlayerAutopilot(on: boolean): boolean {
    const e = this.entrants[this.playerIndex];
    if (!e) return false;
    if (on && !this.playerAutopilot) {
      const vehicle = driverVehicleFromConfig(e.car);
      const main = new AiDriver({ path: this.path, vehicle, params: DEFAULT_DRIVER, halfWidthM: this.opts.stage.road.poseAt(this.opts.stage.start.distanceM).width / 2 });
      const jd = this.joker ? new AiDriver({ path: this.joker.path, vehicle, params: DEFAULT_DRIVER, halfWidthM: this.joker.widthM / 2 }) : null;
      const others = this.entrants.filter((o) => o !== e).map((o) => o.eid);
      main.rivals = others;
      if (jd) jd.rivals = others;
      // the autopilot takes the joker at the first chance
      this.playerAutopilot = new RaceDriver(main, jd, this.joker, 0);
      this.playerAutopilot.hold = this.phase === 'countdown' || e.tracker.finished;
      setInputSource(this.world, e.eid, this.playerAutopilot);
    } else if (!on && this.playerAutopilot) {
      this.playerAutopilot = null;
      setInputSource(this.world, e.eid, this.playerInput);
    }
    return this.playerAutopilot !== null;
  }

  get playerIndex(): number {
    return this.opts.playerIndex ?? -1;
  }

  /** Entrant indices in race order. */
  positions(): number[] {
    return racePositions(this.entrants.map((e) => e.tracker));
  }
}
