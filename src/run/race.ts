/**
 * A rallycross race: standing-start grid behind the start line and a race world with up to 32 cars (one
 * optionally driven by the player, the rest by AI drivers with their own aggressiveness, skill and lane offset),
 * with car–car collisions (every car has its collider). The race's rules (countdown, jump start, laps, joker,
 * penalties, finish) are the RaceProgress pass (src/run/race-progress.ts, rules in race-rules.ts): this class
 * builds the world, steps it and reacts to the pass's `race-*` events (the drivers' hold and joker strategy, the
 * recovery placing). Pure and headless: the rallycross screen (src/app/rallycross/) and the benchmark use it.
 */
import type { Stage } from '../../terrain/stage';
import type { CarConfig } from '../content/car-schema';
import { createSimWorld, DEFAULT_DT, type IntegratorKind, type SimWorld } from '../ecs/world';
import { HeldInput, setInputSource, type InputSource, type QuantizedInput } from '../ecs/controls';
import { spawnCar } from '../systems/sim/vehicle/prefab-car';
import { stepRun } from './step';
import { Prng } from '../../terrain/prng';
import { StageGround } from '../systems/sim/vehicle/stage-ground';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import { AiDriver, type DriverParams } from '../systems/sim/ai/driver';
import type { AiPath } from '../systems/sim/ai/path';
import { DEFAULT_DRIVER, stagePath } from '../systems/sim/ai/stage-path';
import { driverVehicleFromConfig, plannedMu } from '../systems/sim/ai/car-params';
import { jokerRoute, type JokerRoute } from '../systems/sim/ai/joker';
import { dcos, dsin } from '../../terrain/dmath';
import { DEFAULT_RACE_RULES, racePositions, type RaceEvent, type RaceRunState } from './race-rules';
import { RACE_PHASE_COUNTDOWN, RACE_PHASE_FINISHED, RACE_PHASE_RACING } from '../ecs/components';
import { attachRaceProgress, raceEventOf, raceRunOf, resetRaceLocation, setRaceCourse } from './race-progress';
import { recoverOnPath } from './recover-on-path';

export { JOKER_PENALTY_S, JUMP_START_PENALTY_S, JUMP_START_TOLERANCE_M, racePositions } from './race-rules';

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
  name: string;
}

export type RacePhase = 'countdown' | 'racing' | 'finished';

/** The race events the view shows (jump starts, jokers, penalties), by entrant. */
export interface RaceViewEvent {
  kind: 'jump-start' | 'joker' | 'joker-penalty' | 'recover';
  entrant: number;
  timeS: number;
}
const VIEW_EVENTS: ReadonlySet<RaceEvent> = new Set<RaceEvent>(['jump-start', 'joker', 'joker-penalty', 'recover']);

/** The AI drivers' characters when the options give none: spread from the race seed. */
function drawnDriver(rng: Prng, k: number): DriverParams {
  return { aggressiveness: 0.35 + 0.5 * rng.next(), skill: 0.55 + 0.4 * rng.next(), name: `AI ${k + 1}` };
}

export class RallycrossRace {
  readonly world: SimWorld;
  readonly path: AiPath;
  readonly entrants: Entrant[] = [];
  readonly playerInput = new HeldInput();
  readonly startS: number;
  /** The joker branch (null when the rule is off). */
  readonly joker: JokerRoute | null;
  /** Race events for the view (jump starts, jokers, penalties), from the pass's world events; the view empties it. */
  readonly events: RaceViewEvent[] = [];
  private readonly entrantOfEid = new Map<number, number>();

  constructor(readonly opts: RaceOptions) {
    const { stage } = opts;
    if (opts.cars.length < 1 || opts.cars.length > 32) throw new Error(`rallycross: expected 1–32 cars, found ${opts.cars.length}`);
    if (!(opts.laps >= 1)) throw new Error(`rallycross: laps must be ≥ 1, found ${opts.laps}`);
    this.world = createSimWorld({ dt: opts.dt ?? DEFAULT_DT, integrator: opts.integrator ?? 'midpoint', ground: StageGround.fromStage(stage), capacity: 1024, seed: opts.seed ?? 1 });
    this.path = stagePath(stage, opts.cars[0]!);
    if (!this.path.closed) throw new Error(`rallycross: stage "${stage.id}" is not a closed circuit`);
    this.startS = this.path.locate(stage.start.x, stage.start.z).s;
    const car0 = opts.cars[0]!;
    if (opts.joker === true && !stage.joker) throw new Error(`rallycross: the joker rule needs a [joker] table in stage "${stage.id}"'s stage.toml`);
    this.joker = opts.joker ?? true ? jokerRoute(stage, this.path, (x, z) => plannedMu(car0, stage.surfaceMap.surfaceAt(x, z)), { edgeMarginM: car0.body.widthM / 2 + 0.9 }) : null;
    setRaceCourse(this.world, {
      ...DEFAULT_RACE_RULES, countdownS: opts.countdownS ?? DEFAULT_RACE_RULES.countdownS, laps: opts.laps,
      lapLengthM: this.path.lengthM, joker: this.joker, path: this.path, startS: this.startS,
    });
    const rng = new Prng(opts.seed ?? 1);
    const slots = gridSlots(this.path, this.startS, opts.cars.length, opts.grid);
    opts.cars.forEach((car, k) => this.addEntrant(car, k, slots[k]!, rng));
    // every AI sees every other car (Félez §6.3: following and overtaking)
    const eids = this.entrants.map((e) => e.eid);
    for (const e of this.entrants) {
      const others = eids.filter((x) => x !== e.eid);
      if (e.raceDriver) {
        e.raceDriver.main.rivals = others;
        if (e.raceDriver.joker) e.raceDriver.joker.rivals = others;
      }
    }
  }

  /** Entrant `k` on its grid slot: its car and collider, its race state, and its driver (the player's input or an AI). */
  private addEntrant(car: CarConfig, k: number, slot: GridSlot, rng: Prng): void {
    const { opts } = this;
    const eid = spawnCar(this.world, car, { x: slot.x, z: slot.z, heading: slot.heading });
    if (opts.collisions ?? true) attachCarColliderFromConfig(this.world, eid, car);
    attachRaceProgress(this.world, eid);
    let driver: AiDriver | null = null;
    let raceDriver: RaceDriver | null = null;
    if (k === this.playerIndex) setInputSource(this.world, eid, this.playerInput);
    else {
      const params = opts.drivers?.[k] ?? drawnDriver(rng, k);
      const vehicle = driverVehicleFromConfig(car);
      const roadHalf = opts.stage.road.poseAt(opts.stage.start.distanceM).width / 2;
      // each AI starts in a lane on its grid side (it reacts to the cars around it: AiDriver traffic)
      driver = new AiDriver({ path: this.path, vehicle, params, laneOffsetM: slot.lateral * 0.5, halfWidthM: roadHalf });
      const jd = this.joker ? new AiDriver({ path: this.joker.path, vehicle, params, halfWidthM: this.joker.widthM / 2 }) : null;
      // strategy: the joker on a lap drawn from the seed (the last lap at the latest)
      const drawn = Math.min(opts.laps - 1, Math.floor(rng.next() * opts.laps));
      raceDriver = new RaceDriver(driver, jd, this.joker, opts.jokerLaps?.[k] ?? drawn);
      raceDriver.hold = true;
      setInputSource(this.world, eid, raceDriver);
    }
    this.entrantOfEid.set(eid, this.entrants.length);
    this.entrants.push({ eid, car, driver, raceDriver, name: k === this.playerIndex ? 'You' : (driver?.params.name ?? `AI ${k + 1}`) });
  }

  /** Entrant `i`'s race (the RaceProgress component, read now). */
  runOf(i: number): RaceRunState {
    return raceRunOf(this.world, this.entrants[i]!.eid);
  }

  /** Countdown while any car waits for the lights, finished when every car has, racing in between. */
  get phase(): RacePhase {
    const p = this.world.c.RaceProgress.phase;
    let finished = true;
    for (const e of this.entrants) {
      if (p[e.eid] === RACE_PHASE_COUNTDOWN) return 'countdown';
      if (p[e.eid] !== RACE_PHASE_FINISHED) finished = false;
    }
    return finished ? 'finished' : 'racing';
  }

  /** Race clock since the lights went out, s (the clock of the cars still racing). */
  get raceTimeS(): number {
    let t = 0;
    for (const e of this.entrants) t = Math.max(t, this.world.c.RaceProgress.timeS[e.eid]!);
    return t;
  }

  get countdownLeftS(): number {
    return this.world.c.RaceProgress.countdownLeftS[this.entrants[0]!.eid]!;
  }

  /** One simulation tick of the race: the world's pipeline (the RaceProgress pass included), then its race events. */
  tick(): void {
    if (this.playerIndex >= 0 && !this.playerAutopilot && this.phase === 'countdown') {
      // the player's car is held on the brakes until the lights go out, unless the player presses the throttle
      // (then it moves: a jump start, counted by the pass)
      const inp = this.playerInput.input;
      if (inp.throttle === 0) this.playerInput.input = { ...inp, brake: 1000 };
    }
    const from = this.world.events.length;
    stepRun(this.world);
    this.applyRaceEvents(from);
    this.steerJokerStrategy();
  }

  /** The pass's events of this tick: drivers released at the start and held past the flag, recoveries placed. */
  private applyRaceEvents(from: number): void {
    const evs = this.world.events;
    for (let k = from; k < evs.length; k++) {
      const kind = raceEventOf(evs[k]!.kind);
      const i = this.entrantOfEid.get(evs[k]!.car as number);
      if (kind === undefined || i === undefined) continue;
      const rd = this.driverOf(i);
      if (kind === 'start' && rd) rd.hold = false;
      if (kind === 'finish' && rd) rd.hold = true; // past the flag: lift and coast
      if (kind === 'recover') this.recover(i);
      if (VIEW_EVENTS.has(kind)) this.events.push({ kind: kind as RaceViewEvent['kind'], entrant: i, timeS: evs[k]!.timeS as number });
    }
  }

  /** Each AI takes the joker once it has completed its chosen number of laps, until it has taken it. */
  private steerJokerStrategy(): void {
    if (!this.joker) return;
    const p = this.world.c.RaceProgress;
    this.entrants.forEach((e, i) => {
      const rd = this.driverOf(i);
      if (rd && p.phase[e.eid] === RACE_PHASE_RACING) rd.wantJoker = p.jokers[e.eid] === 0 && p.lap[e.eid]! >= rd.jokerLap;
    });
  }

  private driverOf(i: number): RaceDriver | null {
    return this.entrants[i]!.raceDriver ?? (i === this.playerIndex ? this.playerAutopilot : null);
  }

  /**
   * Put entrant `i`'s car back on the circuit (recoverOnPath: at rest RECOVER_BACK_M behind, facing along the
   * circuit); it and its drivers track the path afresh. The pass counted the penalty with the `race-recover` event.
   */
  private recover(i: number): void {
    const e = this.entrants[i]!;
    recoverOnPath(this.world, e.eid, e.car, this.path, this.world.c.RaceProgress.pathS[e.eid]!);
    resetRaceLocation(this.world, e.eid);
    const rd = this.driverOf(i);
    if (rd) {
      rd.onJoker = false;
      rd.main.resetTracking();
    }
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
      this.playerAutopilot.hold = this.world.c.RaceProgress.phase[e.eid] !== RACE_PHASE_RACING;
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
    return racePositions(this.entrants.map((_, i) => this.runOf(i)));
  }
}
