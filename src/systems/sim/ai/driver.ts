/**
 * AI driver: an InputSource (src/ecs/controls.ts) that produces one QuantizedInput per car per tick from the
 * car's state and its path, with the driver model of Félez et al. §6:
 *  - steering: look-ahead point at d_s = t_s·u + d_0 on the path (eq 6), arc steering angle (eq 7), PD (eq 8);
 *  - speed: the most restrictive of the references ahead (corner speeds of the target-speed profile at their
 *    distances, and the profile speed just ahead), a_r from eq 9, throttle PD (eqs 10–12) or brake (eq 13);
 *  - spin recovery: counter-steer toward the velocity in a slide, brake to a stop when facing the wrong way,
 *    reverse out (three-point turn), and as a last resort press Recover (the stage logic resets the car).
 * Aggressiveness and skill per driver set t_s, c_dδ, a_m, how much of the grip is used and how late it brakes.
 * Reads only the car's RigidBody (and Car.gear when present); writes nothing in the world.
 */
import { quantizeInputInto, neutralInput, type InputSource, type QuantizedInput, type RawInput } from '../../../ecs/controls';
import type { SimWorld } from '../../../ecs/world';
import {
  arcSteerAngle,
  brakePedal,
  fullThrottleAcceleration,
  G,
  lookAheadDistance,
  lowPass,
  pdSteer,
  requiredAcceleration,
  throttlePedal,
  wrapPi,
} from './driver-model';
import { AiPath, type PathLocation, type ProfileLimits } from './path';
import { datan, datan2, dcos, dsin } from '../../../../terrain/dmath';

/** What the driver needs to know about its car (from the car config; see car-params.ts). */
export interface DriverVehicle {
  wheelbaseM: number;
  /** Road-wheel angle at full steering input, rad. */
  maxSteerRad: number;
  massKg: number;
  /** Peak engine power, W. */
  powerW: number;
  /** Share of the weight on the driven wheels (1 for 4WD). */
  drivenWeightFraction: number;
  /** Deceleration the brakes give at full pedal on high grip, m/s² (≈ μ g on tarmac for most cars). */
  brakeDecelMS2: number;
  topSpeedMS: number;
  /**
   * Peak wheel force in each gear, N: peak engine torque × total ratio × efficiency / wheel radius (index =
   * gear, 0 = neutral → 0). With the power limit P/u it gives the acceleration full throttle makes now.
   */
  peakWheelForceN: number[];
  /** Drag coefficient × frontal area, m², and the rolling-resistance coefficient. */
  dragAreaM2: number;
  rollingResistance: number;
}

/** Per-driver character. Both in [0, 1]. */
export interface DriverParams {
  /** 0 = cautious, 1 = aggressive (shorter look-ahead time, faster steering, harder acceleration, later braking). */
  aggressiveness: number;
  /** 0 = novice, 1 = expert (uses more of the available grip, follows the racing line). */
  skill: number;
  name?: string;
}

/** Controller gains derived from DriverParams (documented in docs/ai.md). */
export interface DriverGains {
  /** Eq 6 look-ahead time t_s (s) and distance d_0 (m). */
  tS: number;
  d0: number;
  /** Eq 8 derivative gain c_dδ (s). */
  cDSteer: number;
  /** Eq 10 derivative gain c_d (s) and the mean acceleration a_m as a fraction of μ g (eqs 11–12). */
  cDThrottle: number;
  aMeanOfMuG: number;
  /** Fraction of μ used in corners, and of μ g used for braking in the profile. */
  gripUse: number;
  brakeUse: number;
  /** Brake only when the required deceleration exceeds this fraction of the braking capacity. */
  brakeThreshold: number;
  /** Speed reference distance for holding the profile speed, m (eq 9's d_r for the speed-keeping reference). */
  holdDistM: number;
  /** Curvature feedback: proportional gain and integral rate (1/s) on κ_d − κ (see decide()). */
  kCurv: number;
  kIntPerS: number;
}

export function driverGains(p: DriverParams): DriverGains {
  const a = clamp01(p.aggressiveness), s = clamp01(p.skill);
  return {
    tS: 0.75 - 0.3 * a,
    d0: 5,
    cDSteer: 0.04 + 0.06 * a,
    cDThrottle: 0.02,
    aMeanOfMuG: 0.55 + 0.4 * a,
    gripUse: 0.55 + 0.25 * s + 0.05 * a,
    brakeUse: 0.55 + 0.2 * s + 0.1 * a,
    brakeThreshold: 0.12,
    holdDistM: 8,
    kCurv: 1 + 0.5 * s,
    kIntPerS: 2,
  };
}

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);
const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

export type DriverMode = 'drive' | 'slide' | 'stop' | 'reverse' | 'hold';

export interface AiDriverOptions {
  path: AiPath;
  vehicle: DriverVehicle;
  params: DriverParams;
  /** Lateral offset from the path this driver prefers (spreads a field of cars), m (+ = left). */
  laneOffsetM?: number;
  /** Seconds stuck before pressing Recover (default 8). */
  recoverAfterS?: number;
  /** Half the road width, m: how far from the centreline a passing line may go (default 6.5). */
  halfWidthM?: number;
  /** Decisions per second, Hz (default AI_DECISION_HZ); the input is held between decisions. */
  decisionHz?: number;
}

/**
 * A driver's decision rate, Hz: a human's control loop runs at tens of Hz (reaction ≈ 0.1–0.2 s, so a 20 ms
 * step is well inside it), far below the 500 Hz physics step. Deciding at 50 Hz and holding the input in between
 * (the steering rack's rate limit smooths the steps) costs a tenth of deciding every tick, and held inputs
 * repeat in a replay's stream.
 */
export const AI_DECISION_HZ = 50;

/** A fraction: every float field of a driver is created holding it (see AiDriver.createFloatFields). */
const FLOAT_SHAPE = 0.5;

/** Traffic (Félez §6.3): body length and the lateral overlap below which a car is "in my lane", m. */
const CAR_LENGTH_M = 4.6;
/** Farther than this from its path (m; the road's edge, shoulder, ditch and tree line lie within ~10 m) for longer
 *  than OFF_ROAD_RECOVER_S, the driver is lost in the scenery and presses Recover, as a player would: wandering
 *  back through a forest can miss a checkpoint gate and so the finish. */
const OFF_ROAD_RECOVER_M = 20;
const OFF_ROAD_RECOVER_S = 4;
const LANE_OVERLAP_M = 2.3;
/** Lateral distance of a passing line from the car being passed (centre to centre), m. */
const PASS_LATERAL_M = 3.0;
/** Safe following gap d_safe = d_min + t_gap·u (bumper to bumper). */
const FOLLOW_MIN_M = 2.5;
const FOLLOW_HEADWAY_S = 0.35;
/** Speed advantage needed to start a pass, m/s; lateral speed of the lane change, m/s. */
const PASS_SPEED_ADV_MS = 1;
const LANE_CHANGE_MS = 1.6;
/** Least share of μ g a driver brakes with however hard the car corners (the speed profile's floor, path.ts). */
const BRAKE_SHARE_FLOOR = 0.35;

/** Profile limits for a driver on a car (used for the path's target-speed profile). */
export function profileLimits(vehicle: DriverVehicle, gains: DriverGains): ProfileLimits {
  return {
    gripUse: gains.gripUse,
    brakeUse: Math.min(gains.brakeUse, vehicle.brakeDecelMS2 / G),
    vMaxMS: vehicle.topSpeedMS,
    accelMS2: (v, mu) => Math.min(gains.aMeanOfMuG * mu * G, fullThrottleAcceleration(v, mu, vehicle.drivenWeightFraction, vehicle.powerW, vehicle.massKg)),
  };
}

/** The car this tick: position (m), body forward f and left l (unit, xz), velocity (m/s), forward speed u and
 * speed (m/s), path distance s (m), heading and heading error to the path (rad). */
interface Kinematics {
  px: number;
  pz: number;
  fx: number;
  fz: number;
  lx: number;
  lz: number;
  vx: number;
  vz: number;
  u: number;
  speed: number;
  s: number;
  /** The path's heading at s, rad. */
  pathHeading: number;
  carHeading: number;
  headingErr: number;
}

export class AiDriver implements InputSource {
  readonly path: AiPath;
  readonly vehicle: DriverVehicle;
  readonly params: DriverParams;
  readonly gains: DriverGains;
  /** Target speed at each path point, m/s. */
  readonly profile: Float64Array;
  declare laneOffsetM: number;
  /** When true the car is held on the brakes (countdown, race over). */
  hold = false;
  mode: DriverMode = 'drive';
  /** Recover presses so far (a finish "without help" has none). */
  recoveries = 0;
  /** Last located position on the path. */
  readonly loc: PathLocation = { index: -1, s: 0, lateral: 0 };
  /** Other cars this driver sees (entity ids, set by the race; Félez §6.3). */
  rivals: readonly number[] = [];
  /** Extra lateral offset for a pass (m, + = left) and the car being passed (−1 = none). */
  declare passOffsetM: number;
  passEid = -1;
  private declare passTargetM: number;
  /** Gap to the car ahead in this driver's lane (bumper to bumper, m; Infinity = clear) and its speed, m/s. */
  traffic = { gapM: Infinity, aheadEid: -1, aheadSpeedMS: FLOAT_SHAPE, following: false };
  declare halfWidthM: number;
  /** Debug / telemetry of the last tick. */
  last = { deltaP: 0, aR: 0, u: 0, uRef: 0, headingErr: 0 };

  private declare prevDeltaP: number;
  private declare dDeltaP: number;
  private declare prevAr: number;
  private declare kInt: number;
  private declare thrInt: number;
  /** Felt grip relative to the planned μ (adapts down in understeer, recovers slowly), in [0.5, 1]. */
  declare gripScale: number;
  private declare aMeas: number;
  private declare prevU: number;
  private firstAcc = true;
  private declare dAr: number;
  private firstTick = true;
  private declare stuckS: number;
  /** Time spent farther than OFF_ROAD_RECOVER_M from the path, s. */
  private declare offRoadS: number;
  private declare modeS: number;
  /** Progress watchdog: unwrapped path distance, the mark last beaten by 3 m, and the time since. */
  private declare progM: number;
  private declare progMarkM: number;
  private declare noProgS: number;
  /** Stall time summed over unstick attempts that did not lead to progress (→ Recover), s. */
  private declare stallS: number;
  /** Reverse that does not move (backed into something): time, and the forward try that follows, s. */
  private declare revStallS: number;
  private declare forwardTryS: number;
  private lastS = NaN;
  /** Reversing to get unstuck (not turning round), attempts so far, and the sidestep around the obstacle. */
  private unstick = false;
  private unstickTries = 0;
  private declare unstickFromM: number;
  /** Sideways offset (m, + = left) held until the path distance `dodgeUntilM` to steer round what stopped the car. */
  declare dodgeM: number;
  private declare dodgeUntilM: number;
  private declare recoverAfterS: number;
  private readonly pt = new Float64Array(2);
  /** Path indices of the look-ahead point and of the speed-keeping reference at the last decision (indexNear's hints). */
  private aimIdx = 0;
  private holdIdx = 0;
  /** The traffic scan's pose, path frame (forward f, left = (fz, −fx)), lateral position and road offset, for `laneFits`. */
  private readonly lane = { px: 0, pz: 0, fx: 0, fz: 1, myLat: 0, roadOff: 0 };
  /** This tick's pose and velocity (sense), reused so a tick allocates nothing for it. */
  private readonly k: Kinematics = { px: 0, pz: 0, fx: 0, fz: 1, lx: 1, lz: 0, vx: 0, vz: 0, u: 0, speed: 0, s: 0, pathHeading: 0, carHeading: 0, headingErr: 0 };
  private pressToggle = false;
  private readonly decisionHz: number;
  /** The input decided last (rewritten in place per decision) and the ticks it is still held for (0: decide on the next call). */
  private readonly held: QuantizedInput = neutralInput();
  private heldTicks = 0;
  /** The decision being made (`decide` rewrites it: no object per decision). */
  private readonly raw: RawInput = { steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 0, shiftUp: false, shiftDown: false, recover: false };

  constructor(opts: AiDriverOptions) {
    this.path = opts.path;
    this.vehicle = opts.vehicle;
    this.params = opts.params;
    this.gains = driverGains(opts.params);
    this.profile = opts.path.speedProfile(profileLimits(opts.vehicle, this.gains));
    this.createFloatFields();
    this.laneOffsetM = opts.laneOffsetM ?? 0;
    this.recoverAfterS = opts.recoverAfterS ?? 8;
    this.halfWidthM = opts.halfWidthM ?? 6.5;
    this.decisionHz = opts.decisionHz ?? AI_DECISION_HZ;
  }

  /**
   * Creates the driver's float fields holding a fraction (FLOAT_SHAPE), then sets their start values: V8 keeps
   * the representation a field was created with, and a float field created from a small integer changes the
   * driver's hidden class at its first fraction (a stall late in a race did that: every method deoptimised at once).
   */
  private createFloatFields(): void {
    this.laneOffsetM = this.recoverAfterS = this.halfWidthM = this.gripScale = this.passOffsetM = this.dodgeM =
      this.passTargetM = this.prevDeltaP = this.dDeltaP = this.prevAr = this.kInt = this.thrInt = this.aMeas =
      this.prevU = this.dAr = this.stuckS = this.offRoadS = this.modeS = this.progM = this.progMarkM =
      this.noProgS = this.stallS = this.revStallS = this.forwardTryS = this.unstickFromM = this.dodgeUntilM = FLOAT_SHAPE;
    this.passOffsetM = this.dodgeM = this.passTargetM = this.prevDeltaP = this.dDeltaP = this.prevAr =
      this.kInt = this.thrInt = this.aMeas = this.prevU = this.dAr = this.stuckS = this.offRoadS = this.modeS =
      this.progM = this.progMarkM = this.noProgS = this.stallS = this.revStallS = this.forwardTryS =
      this.unstickFromM = this.dodgeUntilM = 0;
    this.gripScale = 1;
    this.traffic.aheadSpeedMS = 0;
  }

  /**
   * Félez et al. §6.3.1: a driver is influenced by the vehicles ahead in its lane. If the car ahead is slower
   * than the driver's objective speed and the adjacent lane has room (inside the road, no other car there) it
   * changes lane to overtake, and returns to its line once the car is behind; otherwise it follows at the safe
   * distance d_safe = d_min + t_gap·u, taking the car ahead as a moving speed reference in eq 9. Returns that
   * acceleration (Infinity when nothing is ahead) and moves `passOffsetM` toward the chosen lane.
   */
  private scanTraffic(world: SimWorld, px: number, pz: number, u: number, uObjective: number, dt: number): number {
    const rv = this.rivals;
    const path = this.path;
    const tr = this.traffic;
    tr.gapM = Infinity;
    tr.aheadEid = -1;
    tr.following = false;
    let aFollow = Infinity;
    if (rv.length > 0) {
      const b = world.c.RigidBody, bpx = b.px, bpz = b.pz;
      const h = this.k.pathHeading;
      const fx = dsin(h), fz = dcos(h), lx = fz, lz = -fx;
      const myLat = this.loc.lateral;
      const lane = this.laneOffsetM + this.passOffsetM;
      const range = 12 + 2.5 * Math.max(0, u);
      let gap = Infinity, uj = 0, latJ = 0, ahead = -1;
      for (const j of rv) {
        const dx = bpx[j]! - px, dz = bpz[j]! - pz;
        const along = dx * fx + dz * fz;
        if (along <= 0 || along > range) continue;
        const lat = myLat + dx * lx + dz * lz;
        if (Math.abs(lat - lane) > LANE_OVERLAP_M && Math.abs(lat - myLat) > LANE_OVERLAP_M) continue;
        const g = along - CAR_LENGTH_M;
        if (g < gap) {
          gap = g;
          uj = b.vx[j]! * fx + b.vz[j]! * fz;
          latJ = lat;
          ahead = j;
        }
      }
      const lf = this.lane;
      lf.px = px;
      lf.pz = pz;
      lf.fx = fx;
      lf.fz = fz;
      lf.myLat = myLat;
      lf.roadOff = path.offset[this.loc.index]!;
      // a pass in progress: hold the passing lane until the car is a length behind, or the lane closes
      if (this.passEid >= 0) {
        const j = this.passEid;
        const dx = b.px[j]! - px, dz = b.pz[j]! - pz;
        const along = dx * fx + dz * fz;
        if (along < -CAR_LENGTH_M - 3 || along > range || !this.laneFits(world, this.laneOffsetM + this.passTargetM, Math.max(8, along + 8), j)) {
          this.passEid = -1;
          this.passTargetM = 0;
        }
      }
      if (ahead >= 0 && ahead !== this.passEid) aFollow = this.followOrPass(world, u, uObjective, myLat, ahead, gap, uj, latJ);
    } else {
      this.passEid = -1;
      this.passTargetM = 0;
    }
    // move toward the chosen lane at a bounded lateral speed (back to the line once the pass is done)
    const step = LANE_CHANGE_MS * dt;
    this.passOffsetM += clamp(this.passTargetM - this.passOffsetM, -step, step);
    return aFollow;
  }

  /**
   * A lane at lateral position `cand` (m from the path) fits: inside the road, and no rival but `except` in it from
   * two lengths behind to `beyondM` ahead (this scan's pose and frame in `this.lane`; a method, not a closure per scan).
   */
  private laneFits(world: SimWorld, cand: number, beyondM: number, except: number): boolean {
    const lf = this.lane;
    if (Math.abs(cand + lf.roadOff) > this.halfWidthM - 1.3) return false;
    const b = world.c.RigidBody, bpx = b.px, bpz = b.pz;
    const rv = this.rivals;
    const fx = lf.fx, fz = lf.fz, px = lf.px, pz = lf.pz, myLat = lf.myLat;
    for (let i = 0; i < rv.length; i++) {
      const k = rv[i]!;
      if (k === except) continue;
      const dx = bpx[k]! - px, dz = bpz[k]! - pz;
      const along = dx * fx + dz * fz;
      if (along < -CAR_LENGTH_M - 2 || along > beyondM) continue;
      // left axis (fz, −fx)
      if (Math.abs(myLat + dx * fz + dz * -fx - cand) < LANE_OVERLAP_M) return false;
    }
    return true;
  }

  /**
   * The car `ahead` in this driver's lane (gap m, speed uj m/s, lateral position latJ m): start a pass when
   * faster and a lane beside it fits, else follow it (eq 9 toward its speed at d_safe). Returns that
   * acceleration (Infinity: not following).
   */
  private followOrPass(world: SimWorld, u: number, uObjective: number, myLat: number, ahead: number, gap: number, uj: number, latJ: number): number {
    const tr = this.traffic;
    let aFollow = Infinity;
    tr.gapM = gap;
    tr.aheadEid = ahead;
    tr.aheadSpeedMS = uj;
    // start a pass: faster than the car ahead (objective speed), close enough, and a lane beside it fits
    if (this.passEid < 0 && gap < 25 && uObjective > uj + PASS_SPEED_ADV_MS) {
      const pref = myLat >= latJ ? 1 : -1;
      // the side the car already leans to first, then the other (two tries, no array per decision)
      for (let t = 0, sg = pref; t < 2; t++, sg = -pref) {
        const cand = latJ + sg * PASS_LATERAL_M;
        if (this.laneFits(world, cand, gap + CAR_LENGTH_M + 10, ahead)) {
          this.passEid = ahead;
          this.passTargetM = cand - this.laneOffsetM;
          break;
        }
      }
    }
    // follow unless already beside it in the passing lane
    if (!(this.passEid === ahead && Math.abs(myLat - latJ) > LANE_OVERLAP_M)) {
      // eq 9 with the car ahead as the reference: reach its speed at the safe distance behind it
      // (only while closing in; inside d_safe, back off in proportion to the shortfall)
      const dSafe = FOLLOW_MIN_M + FOLLOW_HEADWAY_S * Math.max(0, u);
      if (u > uj) aFollow = requiredAcceleration(u, Math.max(0, uj), Math.max(0.5, gap - dSafe));
      if (gap < dSafe) aFollow = Math.min(aFollow, -((dSafe - gap) / dSafe) * 6);
      tr.following = aFollow < Infinity;
    }
    return aFollow;
  }

  /** Forget the tracking state (after the car was moved by a reset). */
  resetTracking(): void {
    this.loc.index = -1;
    this.heldTicks = 0;
    this.firstTick = true;
    this.stuckS = 0;
    this.offRoadS = 0;
    this.noProgS = 0;
    this.lastS = NaN;
    this.unstick = false;
    this.dodgeM = 0;
    this.revStallS = 0;
    this.forwardTryS = 0;
    this.mode = 'drive';
    this.modeS = 0;
    this.kInt = 0;
    this.thrInt = 0;
    this.firstAcc = true;
    this.passEid = -1;
    this.passTargetM = 0;
    this.passOffsetM = 0;
  }

  /** Ticks per decision at this world's step: the decision period rounded to whole ticks, at least one. */
  decisionTicks(dt: number): number {
    return Math.max(1, Math.round(1 / (this.decisionHz * dt)));
  }

  /** This tick's input: a fresh decision every `decisionTicks`, the last one held in between. */
  next(world: SimWorld, eid: number): QuantizedInput {
    if (this.heldTicks <= 0) {
      const period = this.decisionTicks(world.dt);
      quantizeInputInto(this.decide(world, eid, period * world.dt), this.held);
      this.heldTicks = period;
    }
    this.heldTicks--;
    return this.held;
  }

  /**
   * The unquantised decision for the next `dt` (one decision period, default one tick): held, a recovery manoeuvre (stop, reverse, Recover), or driving:
   * traffic (§6.3), steering (eqs 6–8) and speed (eqs 9–13). The returned object is the driver's own, rewritten
   * by the next call.
   */
  decide(world: SimWorld, eid: number, dt = world.dt): RawInput {
    const k = this.sense(world, eid);
    const out = this.raw;
    out.steer = out.throttle = out.brake = out.clutch = out.handbrake = 0;
    out.shiftUp = out.shiftDown = out.recover = false;
    this.watchProgress(k.s, dt);
    if (this.hold) {
      out.brake = 1;
      this.firstTick = true;
      return out;
    }
    this.modeS += dt;
    const gear = world.c.Car ? world.c.Car.gear[eid]! : 1;
    const shiftTarget = world.c.Car ? world.c.Car.shiftTarget[eid]! : gear;
    this.updateMode(gear, k.headingErr, k.speed, dt);
    if (this.detectStuck(k.headingErr, k.speed, dt)) {
      out.recover = true;
      return out;
    }
    if (this.manoeuvre(world, eid, out, gear, shiftTarget)) return out;
    // traffic (§6.3): follow the car ahead, or a passing lane beside it
    const aFollow = this.scanTraffic(world, k.px, k.pz, k.u, Math.sqrt(this.gripScale) * this.profile[this.loc.index]!, dt);
    const beta = this.steer(world, eid, out, dt);
    if (Math.abs(beta) > 0.8 && k.speed > 3) {
      // spinning: off the power, brakes on, counter-steer; the state machine turns the car round once slow
      out.brake = 0.6;
      return out;
    }
    this.controlSpeed(world, eid, out, gear, aFollow, beta, dt);
    return out;
  }

  /** The car's pose and velocity in its own frame and on the path (into the reused `this.k`). */
  private sense(world: SimWorld, eid: number): Kinematics {
    const b = world.c.RigidBody;
    const k = this.k;
    k.px = b.px[eid]!;
    k.pz = b.pz[eid]!;
    // body +Z (forward) and +X (left) in world: columns of R (row-major R0..R8)
    let fx = b.R2[eid]!, fz = b.R8[eid]!;
    // square roots, not Math.hypot (a builtin V8 calls with boxed arguments; no overflow at these magnitudes)
    const fl = Math.sqrt(fx * fx + fz * fz) || 1;
    fx /= fl;
    fz /= fl;
    k.fx = fx;
    k.fz = fz;
    k.lx = fz;
    k.lz = -fx;
    k.vx = b.vx[eid]!;
    k.vz = b.vz[eid]!;
    k.u = k.vx * fx + k.vz * fz;
    k.speed = Math.sqrt(k.vx * k.vx + k.vz * k.vz);
    const path = this.path;
    path.locate(k.px, k.pz, this.loc.index, this.loc);
    k.s = this.loc.s;
    // the index of loc.s is the located segment's or (at its far end, or across the lap line) a neighbour's
    k.pathHeading = path.headingOf(path.indexNear(k.s, this.loc.index));
    k.carHeading = datan2(fx, fz);
    k.headingErr = wrapPi(k.pathHeading - k.carHeading);
    this.last.headingErr = k.headingErr;
    this.last.u = k.u;
    return k;
  }

  /** Progress watchdog (any stall: head-on against a post, scraping a fence, rocking in a ditch). */
  private watchProgress(s: number, dt: number): void {
    const path = this.path;
    if (!Number.isNaN(this.lastS)) {
      let ds = s - this.lastS;
      if (path.closed) ds -= path.lengthM * Math.round(ds / path.lengthM);
      if (Math.abs(ds) < 30) this.progM += ds;
    }
    this.lastS = s;
    // (counts only while driving forward: reversing out of trouble loses ground on purpose)
    if (this.hold || this.mode !== 'drive' || this.progM > this.progMarkM + 3) {
      if (this.mode === 'drive' && !this.hold) this.stallS = Math.max(0, this.stallS - 1.5);
      this.progMarkM = this.progM;
      this.noProgS = 0;
    } else this.noProgS += dt;
    if (this.dodgeM !== 0 && this.progM > this.dodgeUntilM) this.dodgeM = 0;
  }

  /** The recovery state machine: facing the wrong way → stop / reverse; reverse → drive when it has done its job. */
  private updateMode(gear: number, headingErr: number, speed: number, dt: number): void {
    const wrongWay = Math.abs(headingErr) > 1.9; // > ~110°: facing back down the road
    if (this.mode === 'drive' || this.mode === 'slide') {
      if (wrongWay && this.forwardTryS <= 0) this.setMode(speed < 4 ? 'reverse' : 'stop');
    } else if (this.mode === 'stop') {
      if (!wrongWay) this.setMode('drive');
      else if (speed < 1.5) this.setMode('reverse');
    } else if (this.mode === 'reverse') this.updateReverse(gear, headingErr, speed, dt);
    this.forwardTryS = Math.max(0, this.forwardTryS - dt);
  }

  private updateReverse(gear: number, headingErr: number, speed: number, dt: number): void {
    if (this.unstick) {
      // backing away from what stopped the car: 6 m back (or 4 s in reverse gear), then round it on a
      // sidestep (alternating sides per attempt) held for the next 25 m
      if (gear < 0 && (this.progM < this.unstickFromM - 6 || this.modeS > 5)) {
        this.unstick = false;
        this.unstickTries++;
        const side = (this.loc.lateral >= 0 ? 1 : -1) * (this.unstickTries % 2 === 1 ? 1 : -1);
        this.dodgeM = side * 3;
        this.dodgeUntilM = this.progM + 25;
        this.setMode('drive');
      } else if (this.modeS > 8) this.setMode('drive');
    } else if (Math.abs(headingErr) < 0.9 || this.modeS > 4) this.setMode('drive');
    // reverse until the nose points within ~50° of the road direction, or for at most 4 s
    // backed into something (in reverse gear, not moving for 1.5 s): try forward for 3 s, toward the road
    if (this.mode === 'reverse' && gear < 0 && speed < 0.3) this.revStallS += dt;
    else this.revStallS = 0;
    if (this.revStallS > 1.5) {
      this.revStallS = 0;
      this.unstick = false;
      this.forwardTryS = 3;
      this.stuckS = 0;
      this.noProgS = 0;
      this.stallS += 5;
      this.setMode('drive');
    }
  }

  /**
   * Stuck: barely moving with the pedal down (against a bank, in a ditch), or no progress along the road →
   * reverse out; stuck for longer than `recoverAfterS` (or too many failed attempts), or lost far off the road
   * (OFF_ROAD_RECOVER_M for OFF_ROAD_RECOVER_S) → true: press Recover.
   */
  private detectStuck(headingErr: number, speed: number, dt: number): boolean {
    if (speed < 1 && this.mode !== 'hold') this.stuckS += dt;
    else this.stuckS = Math.max(0, this.stuckS - 2 * dt);
    if ((this.stuckS > 3 || this.noProgS > 5) && this.mode === 'drive' && this.forwardTryS <= 0) {
      this.setMode('reverse');
      this.unstick = Math.abs(headingErr) < 0.9;
      this.unstickFromM = this.progM;
      this.stuckS = 0;
      this.noProgS = 0;
      this.progMarkM = this.progM;
      this.stallS += 5;
    }
    // (stages only: on a closed circuit the joker road runs off the main line, and there is no forest to get lost in)
    this.offRoadS = !this.path.closed && Math.abs(this.loc.lateral) > OFF_ROAD_RECOVER_M ? this.offRoadS + dt : 0;
    if (this.stuckS > this.recoverAfterS || this.stallS > this.recoverAfterS + 2 || this.offRoadS > OFF_ROAD_RECOVER_S) {
      this.stallS = 0;
      this.recoveries++;
      this.resetTracking();
      return true;
    }
    return false;
  }

  /** Stopping, reversing, or leaving reverse: fills `out` and returns true; false when the car may drive. */
  private manoeuvre(world: SimWorld, eid: number, out: RawInput, gear: number, shiftTarget: number): boolean {
    const { speed, headingErr } = this.k;
    if (this.mode === 'stop') {
      out.brake = 1;
      out.steer = 0;
      return true;
    }
    if (this.mode === 'reverse') {
      // steer opposite to the needed turn while backing up (three-point turn), throttle gently
      if (gear >= 0) {
        // request reverse: one edge-triggered press per completed shift (a press during a shift restarts it)
        out.brake = speed > 0.5 ? 1 : 0;
        out.shiftDown = this.pressEdge(world, eid, speed < 0.5 && shiftTarget >= 0);
      } else {
        out.throttle = 0.45;
      }
      out.steer = -Math.sign(headingErr || this.loc.lateral || 1);
      return true;
    }
    if (gear < 0 || shiftTarget < 0) {
      // leaving reverse: stop, then one press up to neutral (the automatic box engages first on throttle)
      out.brake = speed > 0.5 ? 1 : 0;
      out.shiftUp = this.pressEdge(world, eid, speed < 0.5 && shiftTarget < 0);
      return true;
    }
    return false;
  }

  /** Steering (eqs 6–8) toward the look-ahead point, with curvature feedback; returns the body slip β (rad). */
  private steer(world: SimWorld, eid: number, out: RawInput, dt: number): number {
    const b = world.c.RigidBody;
    const g = this.gains;
    const { px, pz, fx, fz, lx, lz, vx, vz, u, speed, s, carHeading } = this.k;
    // Eq 7's arc is tangent to the direction of travel: with the car sliding (body slip β) that is the velocity,
    // not the body axis; the front wheels are then aimed at the arc plus β (counter-steer in a slide).
    const beta = speed > 3 ? wrapPi(datan2(vx, vz) - carHeading) : 0;
    const cb = dcos(beta), sb = dsin(beta);
    // travel frame: forward (tx, tz) = body forward rotated by β about +Y
    const ux = fx * cb + lx * sb, uz = fz * cb + lz * sb;
    const ulx = uz, ulz = -ux;
    const dS = lookAheadDistance(u, g.tS, g.d0);
    this.aimPoint(s, dS);
    const dx = this.pt[0]! - px, dz = this.pt[1]! - pz;
    const xF = dx * ux + dz * uz;
    const yL = dx * ulx + dz * ulz;
    const deltaP = arcSteerAngle(xF, yL, this.vehicle.wheelbaseM);
    if (this.firstTick) this.prevDeltaP = deltaP;
    // finite-difference derivative, low-passed (τ = 40 ms) so that 500 Hz steps do not amplify noise
    this.dDeltaP = lowPass(this.dDeltaP, (deltaP - this.prevDeltaP) / dt, dt, 0.04);
    this.prevDeltaP = deltaP;
    // Eq 7 is kinematic; a real car understeers (tyre slip grows with lateral acceleration), so the arc's
    // curvature κ_d = 2y/(x²+y²) is also tracked in closed loop against the measured curvature of travel
    // κ = ω_y/u: a proportional + integral correction (addition to the paper's PD, docs/ai.md).
    const kD = (2 * yL) / Math.max(1e-6, xF * xF + yL * yL);
    const kAct = u > 2 ? b.wy[eid]! / u : kD;
    const kErr = kD - kAct;
    this.kInt = clamp(this.kInt + kErr * dt * g.kIntPerS, -0.05, 0.05);
    // the feedback may add at most ~7° beyond the kinematic angle: past the tyres' peak slip angle more lock
    // only scrubs speed (understeer is handled by slowing down, below)
    const fb = clamp(datan(this.vehicle.wheelbaseM * (g.kCurv * kErr + this.kInt)), -0.12, 0.12);
    const delta = pdSteer(deltaP, this.dDeltaP, g.cDSteer) + beta + fb;
    this.feelGrip(u, b.wy[eid]!, kD, kErr, fb, dt);
    if (Math.abs(beta) > 0.3) this.mode = 'slide';
    else if (this.mode === 'slide') this.mode = 'drive';
    out.steer = clamp(delta / this.vehicle.maxSteerRad, -1, 1);
    this.last.deltaP = deltaP;
    return beta;
  }

  /**
   * The look-ahead point `dS` ahead on the path (into `this.pt`), shifted sideways (perpendicular to the path
   * there) by the lane offset, the passing lane and a dodge.
   */
  private aimPoint(s: number, dS: number): void {
    const path = this.path;
    // look-ups from the last decision's index (the point moves a segment or two between decisions); the point's
    // index is that of the arc length wrapped twice (pointAt's), the offset's and heading's of it wrapped once
    this.aimIdx = path.pointNear(s + dS, this.aimIdx, this.pt);
    const i = path.indexNear(s + dS, this.aimIdx);
    // The passing lane stays inside the road where the car will be (the racing line's own offset there moves
    // under a lane change in progress: a lane that fitted at the start of the pass can reach past the edge).
    let pass = this.passOffsetM;
    if (pass !== 0) {
      const lim = this.halfWidthM - 1.3;
      const base = this.laneOffsetM + path.offset[i]!;
      pass = clamp(pass, -lim - base, lim - base);
    }
    const laneOff = this.laneOffsetM + pass + this.dodgeM;
    if (laneOff !== 0) {
      const h = path.headingOf(i);
      this.pt[0] = this.pt[0]! + laneOff * dcos(h);
      this.pt[1] = this.pt[1]! - laneOff * dsin(h);
    }
  }

  /**
   * Grip the driver feels: when the car cannot follow the arc (curvature error with the feedback saturated)
   * the measured lateral acceleration u·ω_y is what the tyres give; corner speeds scale with √μ.
   */
  private feelGrip(u: number, wy: number, kD: number, kErr: number, fb: number, dt: number): void {
    const aLatMeas = Math.abs(u * wy);
    const aLatWant = u * u * Math.abs(kD);
    if (u > 5 && Math.abs(fb) > 0.1 && aLatWant > aLatMeas && Math.sign(kErr) === Math.sign(kD)) {
      this.gripScale = clamp(lowPass(this.gripScale, this.gripScale * (aLatMeas / aLatWant), dt, 0.5), 0.5, 1);
    } else this.gripScale = Math.min(1, this.gripScale + 0.01 * dt);
  }

  /** Speed (eqs 9–13): the most restrictive reference acceleration ahead, then the pedals that give it. */
  private controlSpeed(world: SimWorld, eid: number, out: RawInput, gear: number, aFollow: number, beta: number, dt: number): void {
    const { u, s } = this.k;
    const g = this.gains;
    const path = this.path;
    const mu = path.mu[this.loc.index]!;
    const brakeCap = Math.min(this.vehicle.brakeDecelMS2, g.brakeUse * mu * G);
    let aR = this.cornerReference(u, s, brakeCap);
    if (aFollow < aR) aR = aFollow;
    this.last.aR = aR;
    if (this.firstTick) this.prevAr = aR;
    this.dAr = lowPass(this.dAr, (aR - this.prevAr) / dt, dt, 0.1);
    this.prevAr = aR;
    this.firstTick = false;
    // eq 11's μ g generalised: the acceleration full throttle gives now, in this gear (first gear while shifting)
    const fGear = this.vehicle.peakWheelForceN[Math.max(1, Math.min(this.vehicle.peakWheelForceN.length - 1, gear))]!;
    const aCap = Math.min(fGear, this.vehicle.powerW / Math.max(1, u)) / this.vehicle.massKg;
    // friction circle: what the cornering acceleration u²κ leaves of μ g for accelerating (floored at 25 %)
    const aLat = u * u * Math.abs(path.kappa[this.loc.index]!);
    const mu2g2 = (mu * G) ** 2;
    const aLong = Math.sqrt(Math.max(0, mu2g2 - aLat * aLat));
    // only the driven axle(s) can put the power down: their share of that (a RWD car on gravel spins its
    // rear tyres otherwise)
    const aM = Math.min(g.aMeanOfMuG * mu * G, Math.max(0.25 * mu * G, aLong) * this.vehicle.drivenWeightFraction);
    // measured longitudinal acceleration (low-passed finite difference of u)
    if (this.firstAcc) {
      this.prevU = u;
      this.firstAcc = false;
    }
    this.aMeas = lowPass(this.aMeas, (u - this.prevU) / dt, dt, 0.15);
    this.prevU = u;
    if (aR >= 0) this.throttleFor(world.c.RigidBody.R5[eid]!, out, aR, aM, aCap, beta, dt);
    else if (-aR > g.brakeThreshold * brakeCap) {
      this.thrInt = Math.max(0, this.thrInt - dt);
      // eq 13 with μ g → the deceleration at full pedal, asking no more than the friction circle leaves beside
      // the lateral acceleration the car has now (u·ω_y): braking past it in a bend slides the tyres (a spin)
      const aLatNow = u * world.c.RigidBody.wy[eid]!;
      const aBrake = Math.sqrt(Math.max(BRAKE_SHARE_FLOOR * BRAKE_SHARE_FLOOR * mu2g2, mu2g2 - aLatNow * aLatNow));
      out.brake = brakePedal(aR > -aBrake ? aR : -aBrake, this.vehicle.brakeDecelMS2);
    } else {
      // coasting band: neither pedal (engine braking) unless the speed is well below the reference
      out.throttle = 0;
    }
  }

  /**
   * Eq 9's reference acceleration: toward the profile speed a short distance ahead (speed keeping), or, when
   * more restrictive, toward every profile point within the braking horizon (corners, §6.2).
   */
  private cornerReference(u: number, s: number, brakeCap: number): number {
    const g = this.gains;
    const path = this.path;
    const prof = this.profile;
    const gs = Math.sqrt(this.gripScale);
    this.holdIdx = path.indexNear(s + g.holdDistM, this.holdIdx);
    const uHold = gs * prof[this.holdIdx]!;
    let aR = requiredAcceleration(u, uHold, g.holdDistM);
    const horizon = (u * u) / (2 * Math.max(0.5, brakeCap)) + 2 * g.holdDistM;
    const i0 = this.loc.index;
    let uRef = uHold;
    const u2 = u * u;
    for (let k = 1, d = 0; d < horizon && k < path.n; k++) {
      let i = i0 + k;
      if (i >= path.n) {
        if (!path.closed) break;
        i -= path.n;
      }
      d = i >= i0 ? path.s[i]! - s : path.lengthM - s + path.s[i]!;
      if (d <= 0) continue;
      const uI = gs * prof[i]!;
      // a point the car is not faster than asks for a ≥ 0 (eq 9's numerator u_I² − u² ≥ 0 over a positive
      // distance): it cannot be below an a_r that is already a deceleration, so skip the division
      if (aR <= 0 && uI * uI - u2 >= 0) continue;
      const a = requiredAcceleration(u, uI, d);
      if (a < aR) {
        aR = a;
        uRef = uI;
      }
    }
    this.last.uRef = uRef;
    return aR;
  }

  /**
   * Eq 10 asks for a_r on a level road without resistance; a real car also has to lift its weight up the
   * grade (g·sin θ = g·f_y with f_y = R5, the forward axis' vertical component) and overcome drag and rolling
   * resistance: those are fed forward, and an integral of the acceleration error removes what is left.
   */
  private throttleFor(fy: number, out: RawInput, aR: number, aM: number, aCap: number, beta: number, dt: number): void {
    const u = this.k.u;
    const grade = G * fy;
    const resist = (0.5 * 1.225 * this.vehicle.dragAreaM2 * u * u) / this.vehicle.massKg + this.vehicle.rollingResistance * G;
    if (Math.abs(beta) < 0.08) this.thrInt = clamp(this.thrInt + (Math.min(aR, aM) - this.aMeas) * dt * 0.25, -0.2, 0.4);
    out.throttle = clamp(throttlePedal(aR, this.dAr, aM, aCap, this.gains.cDThrottle) + (grade + resist) / aCap + this.thrInt, 0, 1);
    // lift progressively as the body slip grows (power oversteer), fully from ~15°
    out.throttle *= clamp(1 - (Math.abs(beta) - 0.06) / 0.2, 0, 1);
    this.thrInt = Math.min(this.thrInt, out.throttle);
  }

  /** A shift button press as an edge: pressed only when wanted, the gearbox is idle and it was up last tick. */
  private pressEdge(world: SimWorld, eid: number, want: boolean): boolean {
    const idle = !world.c.Car || world.c.Car.shiftTimer[eid]! <= 0;
    this.pressToggle = want && idle && !this.pressToggle;
    return this.pressToggle;
  }

  private setMode(m: DriverMode): void {
    if (this.mode !== m) {
      this.mode = m;
      this.modeS = 0;
    }
  }
}
