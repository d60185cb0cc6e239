/**
 * Rallycross race logic (issue 8): standing-start grid behind the start line, lap counting on the circuit's
 * closed path, positions, and a race world with up to 32 cars (one optionally driven by the player, the rest by
 * AI drivers with their own aggressiveness, skill and lane offset), with car–car collisions (issue 5's collider
 * on every car). Pure and headless: the rallycross screen (src/app/rallycross/) and the benchmark use it.
 */
import type { Stage } from '../../../../terrain/stage';
import type { CarConfig } from '../../../content/car-schema';
import { createSimWorld, type IntegratorKind, type SimWorld } from '../../../ecs/world';
import { HeldInput, setInputSource } from '../../../ecs/controls';
import { spawnCar } from '../../../ecs/prefab-car';
import { runTick } from '../../../ecs/pipeline';
import { Prng } from '../../../ecs/prng';
import { StageGround } from '../vehicle/stage-ground';
import { attachCarColliderFromConfig } from '../collision/car-collider';
import { AiDriver, type DriverParams } from './driver';
import type { AiPath } from './path';
import { stagePath } from './autopilot';
import { driverVehicleFromConfig } from './car-params';

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
    out.push({ x: pt[0]! + lat * Math.cos(h), z: pt[1]! - lat * Math.sin(h), heading: h, lateral: lat });
  }
  return out;
}

/** Lap counting on a closed path: progress is unwrapped arc length from the start line; small steps only. */
export class LapTracker {
  /** Signed distance driven along the path since the start line (negative on the grid), m. */
  progress: number;
  finishedAt: number | null = null;
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

/** Race order: finished cars by finish time, then the rest by progress (ties: lower index first). */
export function racePositions(trackers: readonly LapTracker[]): number[] {
  const idx = trackers.map((_, i) => i);
  idx.sort((a, b) => {
    const A = trackers[a]!, B = trackers[b]!;
    if (A.finishedAt !== null || B.finishedAt !== null) {
      if (A.finishedAt === null) return 1;
      if (B.finishedAt === null) return -1;
      return A.finishedAt - B.finishedAt || a - b;
    }
    return B.progress - A.progress || a - b;
  });
  return idx;
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
}

export interface Entrant {
  eid: number;
  car: CarConfig;
  driver: AiDriver | null;
  tracker: LapTracker;
  name: string;
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

  constructor(readonly opts: RaceOptions) {
    const { stage } = opts;
    if (opts.cars.length < 1 || opts.cars.length > 32) throw new Error(`rallycross: expected 1–32 cars, found ${opts.cars.length}`);
    if (!(opts.laps >= 1)) throw new Error(`rallycross: laps must be ≥ 1, found ${opts.laps}`);
    this.world = createSimWorld({ dt: opts.dt ?? 1 / 500, integrator: opts.integrator ?? 'midpoint', ground: StageGround.fromStage(stage), capacity: 1024, seed: opts.seed ?? 1 });
    this.path = stagePath(stage, opts.cars[0]!);
    if (!this.path.closed) throw new Error(`rallycross: stage "${stage.id}" is not a closed circuit`);
    this.startS = this.path.locate(stage.start.x, stage.start.z).s;
    this.countdownLeftS = opts.countdownS ?? 3;
    const rng = new Prng(opts.seed ?? 1);
    const slots = gridSlots(this.path, this.startS, opts.cars.length);
    const player = opts.playerIndex ?? -1;
    opts.cars.forEach((car, k) => {
      const slot = slots[k]!;
      const eid = spawnCar(this.world, car, { x: slot.x, z: slot.z, heading: slot.heading });
      if (opts.collisions ?? true) attachCarColliderFromConfig(this.world, eid, car);
      let driver: AiDriver | null = null;
      if (k === player) setInputSource(this.world, eid, this.playerInput);
      else {
        const params = opts.drivers?.[k] ?? { aggressiveness: 0.35 + 0.5 * rng.next(), skill: 0.55 + 0.4 * rng.next(), name: `AI ${k + 1}` };
        // each AI keeps a lane: its grid side, narrowing toward the racing line over the first lap
        driver = new AiDriver({ path: this.path, vehicle: driverVehicleFromConfig(car), params, laneOffsetM: slot.lateral * 0.5 });
        driver.hold = true;
        setInputSource(this.world, eid, driver);
      }
      const loc = this.path.locate(slot.x, slot.z);
      this.entrants.push({ eid, car, driver, tracker: new LapTracker(this.path, this.startS, opts.laps, loc.s), name: k === player ? 'You' : (driver?.params.name ?? `AI ${k + 1}`) });
    });
  }

  /** One simulation tick of the race (countdown → racing → finished). */
  tick(): void {
    const dt = this.world.dt;
    if (this.phase === 'countdown') {
      this.countdownLeftS -= dt;
      if (this.countdownLeftS <= 1e-9) {
        this.countdownLeftS = 0;
        this.phase = 'racing';
        for (const e of this.entrants) if (e.driver) e.driver.hold = false;
      }
    }
    if (this.phase === 'countdown' && this.playerIndex >= 0) {
      // the player's car is held until the lights go out (clutch in, brakes on)
      const inp = this.playerInput.input;
      this.playerInput.input = { ...inp, brake: 1000 };
    }
    runTick(this.world);
    if (this.phase === 'countdown') return;
    this.raceTimeS += dt;
    const b = this.world.c.RigidBody;
    let done = true;
    for (const e of this.entrants) {
      const s = e.driver ? e.driver.loc.s : this.path.locate(b.px[e.eid]!, b.pz[e.eid]!).s;
      if (e.tracker.update(s, this.raceTimeS) && e.driver) {
        // past the flag: lift and coast
        e.driver.hold = true;
      }
      if (!e.tracker.finished) done = false;
    }
    if (done) this.phase = 'finished';
  }

  get playerIndex(): number {
    return this.opts.playerIndex ?? -1;
  }

  /** Entrant indices in race order. */
  positions(): number[] {
    return racePositions(this.entrants.map((e) => e.tracker));
  }
}
