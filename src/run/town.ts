/**
 * A town run (issue 23): a generated town, the player's car (the full vehicle model, driven by the AI
 * autopilot round the town's ring road) and the traffic model around it. The traffic is stepped by this
 * runner, not as a pipeline pass: it runs at its own rate (TRAFFIC_DT_S, every 10th world tick), over its own
 * pool of vehicles, and reads the player's pose after the world tick (docs/traffic.md, "Why a runner").
 * Deterministic: same seed, cars and inputs → same state hash (the world's and the traffic's).
 */
import type { CarConfig } from '../content/car-schema';
import { createSimWorld, DEFAULT_DT, type SimWorld } from '../ecs/world';
import { setInputSource, type InputSource } from '../ecs/controls';
import { Hasher, stateHash } from '../ecs/hash';
import { spawnCar } from '../systems/sim/vehicle/prefab-car';
import { StageGround } from '../systems/sim/vehicle/stage-ground';
import { AiDriver } from '../systems/sim/ai/driver';
import { AiPath } from '../systems/sim/ai/path';
import { DEFAULT_DRIVER } from '../systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../systems/sim/ai/car-params';
import { datan2 } from '../../terrain/dmath';
import { evalPath, generateTown, pathPoint, type Town, type TownOptions } from '../../terrain/town/index';
import {
  TrafficSim,
  TRAFFIC_DT_S,
  VAN,
  desiredGap,
  findPlayerLeader,
  grantPlayer,
  hashTraffic,
  startTraffic,
  stepTraffic,
  trafficTypeFromCar,
  STREET_SPEED_MS,
  type Leader,
  type TrafficVehicleType,
} from '../systems/sim/traffic/index';
import { notifyObservers, stepRun, type RunObservers } from './step';
import { locateOnTown, type TownLocation } from './town-player';
import { TownLod } from './town-lod';
import { addTownScenery } from './town-scenery';
import { AccidentLog, instructVehicle, pickVehicle, trafficSerial, type InstructorPick } from './town-accidents';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import { collisionRuntime } from '../systems/sim/collision/runtime';

/** The player's car's name in collision events and the accident log. */
const PLAYER_NAME = 'player';

export interface TownRunOptions {
  seed: number;
  /** Traffic vehicles kept around the player. */
  cars: number;
  /** The player's car (null: no player, the control zone covers the whole town). */
  player: CarConfig | null;
  /** Cars whose dimensions the traffic uses (the van is always added). */
  trafficCars: readonly CarConfig[];
  town?: Partial<TownOptions>;
  /** Times (s) at which the instructor blinds a vehicle (issue 23 item 4; the CLI's --accidents K spreads K). */
  instructorTimesS?: readonly number[];
  /**
   * What drives the player's car: absent = the autopilot round the ring road; an input source (the game's
   * pad/keyboard, a replay's recorded inputs) = that, and the car is located on the lanes (town-player.ts).
   */
  playerInput?: InputSource;
}

/** Sample spacing of the player's route for its AI path, m. */
const ROUTE_STEP_M = 2;
/** Time headway the player's autopilot keeps to traffic ahead, s; hysteresis of its brake hold, m. */
const PLAYER_HEADWAY_S = 1.5;
const PLAYER_HOLD_HYSTERESIS_M = 4;
const PLAYER_BRAKE_PLAN_MS2 = 3;
/** The player's car starts this far along the first lane of the ring road, m. */
const PLAYER_START_S_M = 10;

/** The ring road, anticlockwise seen from above (+Y): kerb-lane paths and the connectors between them. */
export function ringRoute(town: Town): number[] {
  const net = town.network;
  const nx = net.colLanes.length, nz = net.rowLanes.length;
  const ring: number[] = [];
  for (let i = 0; i < nx - 1; i++) ring.push(i);
  for (let j = 0; j < nz - 1; j++) ring.push(j * nx + nx - 1);
  for (let i = nx - 1; i > 0; i--) ring.push((nz - 1) * nx + i);
  for (let j = nz - 1; j > 0; j--) ring.push(j * nx);
  const lanes = ring.map((a, k) => {
    const b = ring[(k + 1) % ring.length]!;
    return town.paths.find((p) => p.kind === 'lane' && p.fromNode === a && p.node === b && p.lane === 0)!.id;
  });
  const route: number[] = [];
  lanes.forEach((l, k) => {
    const next = lanes[(k + 1) % lanes.length]!;
    route.push(l, town.paths[l]!.next.find((c) => town.paths[c]!.next[0] === next)!);
  });
  return route;
}

function routePath(town: Town, route: readonly number[]): { path: AiPath; starts: number[] } {
  const pts: number[] = [];
  const starts: number[] = [];
  let total = 0;
  const pt = pathPoint();
  for (const id of route) {
    const p = town.paths[id]!;
    starts.push(total);
    const n = Math.max(1, Math.round(p.length / ROUTE_STEP_M));
    for (let i = 0; i < n; i++) {
      evalPath(p.prims, (p.length * i) / n, pt);
      pts.push(pt.x, 0, pt.z);
    }
    total += p.length;
  }
  const widths = new Float64Array(pts.length / 3).fill(3.5);
  return { path: AiPath.fromCentreline({ points: new Float64Array(pts), widths }, { closed: true, racingLine: 0, iterations: 1 }), starts };
}

export class TownRun {
  readonly town: Town;
  readonly world: SimWorld;
  readonly traffic: TrafficSim;
  readonly playerEid: number;
  readonly driver: AiDriver | null;
  readonly route: number[];
  private readonly routeStarts: number[];
  private readonly routeLengthM: number;
  private readonly playerCfg: CarConfig | null;
  private readonly ticksPerTraffic: number;
  private readonly leader: Leader = { gap: Infinity, u: 0, slot: -1 };
  readonly lod: TownLod;
  readonly accidents: AccidentLog;
  /** Instructor actions taken (the vehicle picked, when and where). */
  readonly picks: InstructorPick[] = [];
  private readonly instructorTimesS: readonly number[];
  private readonly cars: number[] = [];
  /** A driven player's car on the lanes (kept while it is off every lane). */
  private located: TownLocation = { path: 0, s: 0, next1: -1 };

  constructor(opts: TownRunOptions) {
    this.town = generateTown(opts.seed, opts.town);
    this.world = createSimWorld({ dt: DEFAULT_DT, integrator: 'midpoint', seed: opts.seed, ground: new StageGround(this.town.ground) });
    this.ticksPerTraffic = Math.round(TRAFFIC_DT_S / this.world.dt);
    const types: TrafficVehicleType[] = [...opts.trafficCars.map(trafficTypeFromCar), VAN];
    this.traffic = new TrafficSim(this.town, { cars: opts.cars, seed: opts.seed, types });
    this.playerCfg = opts.player;
    this.route = opts.player ? ringRoute(this.town) : [];
    if (opts.player) {
      const { path, starts } = routePath(this.town, this.route);
      this.routeStarts = starts;
      this.routeLengthM = path.lengthM;
      // a town autopilot: the street speed limit is its top speed
      const vehicle = { ...driverVehicleFromConfig(opts.player), topSpeedMS: STREET_SPEED_MS };
      this.driver = opts.playerInput ? null : new AiDriver({ path, vehicle, params: DEFAULT_DRIVER, halfWidthM: 1.75 });
      const start = evalPath(this.town.paths[this.route[0]!]!.prims, PLAYER_START_S_M, pathPoint());
      this.playerEid = spawnCar(this.world, opts.player, { x: start.x, z: start.z, heading: start.psi });
      attachCarColliderFromConfig(this.world, this.playerEid, opts.player);
      collisionRuntime(this.world).names.set(this.playerEid, PLAYER_NAME);
      setInputSource(this.world, this.playerEid, opts.playerInput ?? this.driver!);
      this.located = { path: this.route[0]!, s: PLAYER_START_S_M, next1: this.route[1]! };
      this.updatePlayerPose();
    } else {
      this.routeStarts = [];
      this.routeLengthM = 0;
      this.driver = null;
      this.playerEid = -1;
    }
    addTownScenery(this.world, this.town);
    this.lod = new TownLod(this.world, this.traffic, [...opts.trafficCars, null]);
    this.accidents = new AccidentLog(this.world, this.traffic, (name) => this.entityOf(name));
    this.instructorTimesS = [...(opts.instructorTimesS ?? [])].sort((a, b) => a - b);
    startTraffic(this.traffic);
    this.lod.update();
  }

  /** The world entity of a party named in a collision event (−1: scenery). */
  private entityOf(name: string): number {
    if (name === PLAYER_NAME) return this.playerEid;
    const serial = trafficSerial(name), st = this.traffic.state;
    if (serial >= 0) for (let k = 0; k < st.capacity; k++) if (st.alive[k] && st.serial[k] === serial) return st.eid[k]!;
    return -1;
  }

  /** The instructor action now: blinds the vehicle `pickVehicle` chooses (one the full model can take). */
  instruct(): InstructorPick | null {
    const k = pickVehicle(this.traffic, (j) => this.lod.canPromote(j));
    if (k < 0) return null;
    const pick = instructVehicle(this.traffic, k);
    this.picks.push(pick);
    this.lod.update();
    return pick;
  }

  /** The car entities that can collide (the player's and the promoted vehicles'). */
  private collidingCars(): number[] {
    const c = this.cars, st = this.traffic.state;
    c.length = 0;
    if (this.playerEid >= 0) c.push(this.playerEid);
    for (let k = 0; k < st.capacity; k++) if (st.alive[k] && st.eid[k]! >= 0) c.push(st.eid[k]!);
    return c;
  }

  /** Where the autopilot is on its route (path, arc length on it, next path). */
  private routeLocation(): TownLocation {
    let s = this.driver!.loc.index >= 0 ? this.driver!.loc.s : PLAYER_START_S_M;
    s = ((s % this.routeLengthM) + this.routeLengthM) % this.routeLengthM;
    let i = this.routeStarts.length - 1;
    while (i > 0 && this.routeStarts[i]! > s) i--;
    return { path: this.route[i]!, s: s - this.routeStarts[i]!, next1: this.route[(i + 1) % this.route.length]! };
  }

  /** The player's car as the traffic sees it (pose, speed, position on the lanes). */
  private updatePlayerPose(): void {
    const cfg = this.playerCfg!;
    const b = this.world.c.RigidBody, e = this.playerEid;
    const fx = b.R2[e]!, fz = b.R8[e]!;
    const u = fx * b.vx[e]! + b.R5[e]! * b.vy[e]! + fz * b.vz[e]!;
    const psi = datan2(fx, fz);
    const loc = this.driver ? this.routeLocation() : (this.located = locateOnTown(this.town, b.px[e]!, b.pz[e]!, psi, this.located));
    this.traffic.player = { x: b.px[e]!, z: b.pz[e]!, psi, u, lengthM: cfg.body.lengthM, widthM: cfg.body.widthM, path: loc.path, s: loc.s, next1: loc.next1 };
  }

  /** The autopilot keeps its distance to traffic ahead and waits for a junction it would cut across. */
  private governPlayer(): void {
    const sim = this.traffic, pl = sim.player!, d = this.driver!;
    const i = this.route.indexOf(pl.path);
    findPlayerLeader(sim, this.route[(i + 2) % this.route.length]!, this.leader);
    const u = Math.max(0, pl.u);
    let need = desiredGap(u, PLAYER_HEADWAY_S) + Math.max(0, u * u - this.leader.u * this.leader.u) / (2 * PLAYER_BRAKE_PLAN_MS2);
    let gap = this.leader.gap;
    // the junction ahead not granted (a conflicting connector is taken): treat its stop line as a stopped car
    const p = this.town.paths[pl.path]!;
    if (p.kind === 'lane' && !grantPlayer(sim)) {
      const toLine = p.length - pl.s - pl.lengthM / 2;
      if (toLine > 0 && toLine < gap) {
        gap = toLine;
        need = desiredGap(0, 0) + (u * u) / (2 * PLAYER_BRAKE_PLAN_MS2);
      }
    }
    if (gap < need) d.hold = true;
    else if (gap > need + PLAYER_HOLD_HYSTERESIS_M) d.hold = false;
  }

  /** One world tick, then `observers` (a recorder, a replay checker) see it with its traffic step; the traffic steps every `ticksPerTraffic` ticks. */
  tick(observers?: RunObservers): void {
    if (this.driver && this.world.tick % this.ticksPerTraffic === 0) this.governPlayer();
    this.accidents.beforeTick(this.collidingCars());
    stepRun(this.world);
    this.accidents.afterTick();
    if (this.world.tick % this.ticksPerTraffic === 0) {
      // promoted vehicles: the full model's pose in, the driver's controls out (town-lod.ts)
      this.lod.readBackAll();
      if (this.playerEid >= 0) this.updatePlayerPose();
      stepTraffic(this.traffic);
      const due = this.instructorTimesS[this.picks.length];
      if (due !== undefined && this.traffic.state.timeS >= due) this.instruct();
      this.lod.update();
    }
    // after the traffic: a checksum covers the whole tick
    if (observers) notifyObservers(this.world, observers);
  }

  /** Runs for `seconds` of simulated time. */
  run(seconds: number): void {
    const n = Math.round(seconds / this.world.dt);
    for (let i = 0; i < n; i++) this.tick();
  }

  /** 64-bit hash of the world state and the traffic state. */
  stateHash(): string {
    const h = new Hasher();
    const w = stateHash(this.world);
    for (let i = 0; i < w.length; i++) h.word(w.charCodeAt(i));
    hashTraffic(this.traffic.state, (x) => h.word(x), (v) => h.number(v));
    return h.hex();
  }
}
