/**
 * Per-world vehicle resources: the car list (ascending eids, iterated in that order for determinism, no
 * bitecs query in the inner loops) and each car's runtime parameters (its CarConfig), plus the surface table.
 */
import type { SimWorld } from '../../../ecs/world';
import type { CarConfig, DiffConfig, TireConfig, SuspensionConfig } from '../../../content/car-schema';
import { curveTorque, engineFriction, totalRatio } from './engine-curve';
import { DEFAULT_SURFACES, type SurfaceTable } from '../../../content/surface-table';
import { tireDerived, type TireDerived } from './tire-derived';

/**
 * Natural frequency of a wheel on its droop stop (rad/s): stiff enough that a hanging wheel sits within a
 * fraction of a millimetre of full droop, soft enough for ω·dt ≈ 0.4 at the 500 Hz tick.
 */
export const DROOP_STOP_OMEGA = 200;

/** Air density (kg/m³, ISA sea level). */
export const AIR_DENSITY = 1.225;

export interface CarRuntime {
  eid: number;
  cfg: CarConfig;
  /** Wheel entity ids FL, FR, RL, RR. */
  wheels: [number, number, number, number];
  /** Torque split of the gearbox output to each wheel through open diffs (sums to 1). */
  split: [number, number, number, number];
  /** Scratch for the driveline solve (DRIVELINE_SCRATCH_SIZE values; its named layout is in vehicle-block.ts). */
  scratch: Float64Array;
  /** Values derived from `cfg` once (rebuilt by `refreshRuntime` when `cfg` is replaced) and per-tick caches. */
  cache: CarCache;
}

/** What `spawnCar` hands to `registerCar`; the caches are built here. */
export type CarRuntimeInit = Pick<CarRuntime, 'eid' | 'cfg' | 'wheels' | 'split' | 'scratch'>;

export interface CarCache {
  /** The config these values were derived from. */
  cfg: CarConfig | null;
  /**
   * Per wheel FL..RR: its tyre and suspension config (front or rear axle), copied into objects of one shape
   * (the loaded configs of different cars have different hidden classes, which made every property read in
   * the tyre loop polymorphic).
   */
  tire: TireConfig[];
  /** Per wheel: tyre constants derived from `tire` (tire-derived.ts). */
  tireD: TireDerived[];
  susp: SuspensionConfig[];
  /** Diffs (same-shape copies) and which of them are constraint rows (clutch-pack / locked) or viscous. */
  frontDiff: DiffConfig;
  rearDiff: DiffConfig;
  centreDiff: DiffConfig;
  frontRow: boolean;
  rearRow: boolean;
  centreRow: boolean;
  frontVisc: boolean;
  rearVisc: boolean;
  centreVisc: boolean;
  /** body.massKg / 4; ½ρ·C_d·A; downforce C_L·A, front fraction; CG to axles (m). */
  cornerMass: number;
  dragK: number;
  downforceClA: number;
  downforceFront: number;
  cgToFront: number;
  cgToRear: number;
  /** Per wheel: 1/m_u and the droop stop's stiffness and damping (unsprung.ts, suspension-contact.ts). */
  invUnsprung: Float64Array;
  dropK: Float64Array;
  dropC: Float64Array;
  /** 1/m_s (sprung mass = body mass − Σ m_u). */
  invSprung: number;
  /** Per wheel i: r × â at [3i..3i+2] (r: wheel centre − CG, world), written by the suspension pass. */
  axisMoment: Float64Array;
  /** Per wheel: the ground patch the start-of-step contact sampled (suspension-contact.ts PATCH_STRIDE). */
  contactPatch: Float64Array;
  /** Driveline inverse inertias (wheels FL..RR, engine). */
  invM: Float64Array;
  /**
   * `totalRatio` (engine-curve.ts) of gear g at [g + 1], g = −1 (reverse), 0 (neutral: 0), 1…; and the gearbox
   * efficiency, manual at 0, automatic at 1 (η and η·(1 − the automatic's loss)). Numbers read from arrays: a small
   * function returning a fresh double that the JIT did not inline boxes it on the heap.
   */
  gearRatio: Float64Array;
  gearEff: Float64Array;
  /** Idle-control throttle floor at idle: friction(idle) / curve(idle). */
  idleThrBase: number;
  /** hasComponent(Damage), refreshed once per tick by the tick logic. */
  damaged: boolean;
  /** sin/cos of each wheel's steer angle, recomputed only when the angle changes (once per tick at most). */
  steerIn: Float64Array;
  steerSin: Float64Array;
  steerCos: Float64Array;
  /** Ackermann: the rack angle last converted (NaN = none) and the four wheel angles it gave. */
  ackIn: number;
  ackOut: Float64Array;
  /** Per wheel i: body-frame centre at static ride x, y, z and the static travel (m) at [4i..4i+3]. */
  wheelPos: Float64Array;
  /** Per wheel: full-pedal brake torque (max·axle bias/2) and full handbrake torque (rear: torque/2, front 0). */
  brakeMax: Float64Array;
  handMax: Float64Array;
  /** Driveline solve: key of the rows J, F and matrix A held in the scratch (vehicle-block.ts). */
  dlValid: boolean;
  dlClutch: boolean;
  dlG: number;
  dlE: number;
}

export interface VehicleResources {
  /** The running cars (ascending eids): every car whose body is not halted (halt-guard.ts). */
  cars: number[];
  byEid: Map<number, CarRuntime>;
  /** Runtimes of the running cars, ascending eids: the list every vehicle pass walks. */
  list: CarRuntime[];
  /** Every registered car, halted or not, ascending eids. */
  all: CarRuntime[];
  surfaces: SurfaceTable;
}

declare module '../../../ecs/world-types' {
  interface WorldRuntime {
    vehicles?: VehicleResources;
  }
}

export function vehicles(world: SimWorld): VehicleResources {
  return (world.runtime.vehicles ??= { cars: [], byEid: new Map(), list: [], all: [], surfaces: DEFAULT_SURFACES });
}

function rebuildLists(world: SimWorld, res: VehicleResources): void {
  const halted = world.c.RigidBody.halted;
  res.all = [...res.byEid.values()].sort((a, b) => a.eid - b.eid);
  res.list = res.all.filter((r) => halted[r.eid] === 0);
  res.cars = res.list.map((r) => r.eid);
}

/**
 * Make `list`/`cars` the cars whose body is not halted (RigidBody.halted, state: a keyframe restore or a
 * recovery can change it between ticks). One comparison per car when nothing changed.
 */
export function syncRunningCars(world: SimWorld): void {
  const res = vehicles(world);
  const halted = world.c.RigidBody.halted;
  let n = 0;
  let same = true;
  for (const rt of res.all) {
    if (halted[rt.eid] !== 0) continue;
    if (res.list[n] !== rt) same = false;
    n++;
  }
  if (!same || n !== res.list.length) rebuildLists(world, res);
}

/** Replace the surface friction table of this world (e.g. after loading a modded surfaces.toml). */
export function setSurfaces(world: SimWorld, table: SurfaceTable): void {
  vehicles(world).surfaces = table;
}

export function registerCar(world: SimWorld, init: CarRuntimeInit): CarRuntime {
  const res = vehicles(world);
  const rt: CarRuntime = {
    eid: init.eid,
    cfg: init.cfg,
    wheels: init.wheels,
    split: init.split,
    scratch: init.scratch,
    cache: {
      cfg: null,
      tire: [],
      tireD: [],
      susp: [],
      frontDiff: copyDiff(init.cfg.drivetrain.frontDiff),
      rearDiff: copyDiff(init.cfg.drivetrain.rearDiff),
      centreDiff: copyDiff(init.cfg.drivetrain.centreDiff),
      frontRow: false,
      rearRow: false,
      centreRow: false,
      frontVisc: false,
      rearVisc: false,
      centreVisc: false,
      cornerMass: 0,
      dragK: 0,
      downforceClA: 0,
      downforceFront: 0,
      cgToFront: 0,
      cgToRear: 0,
      invUnsprung: new Float64Array(4),
      dropK: new Float64Array(4),
      dropC: new Float64Array(4),
      invSprung: 0,
      axisMoment: new Float64Array(12),
      contactPatch: new Float64Array(40),
      invM: new Float64Array(5),
      gearRatio: new Float64Array(0),
      gearEff: new Float64Array(2),
      idleThrBase: 0,
      damaged: false,
      steerIn: new Float64Array([0, 0, 0, 0]),
      steerSin: new Float64Array([0, 0, 0, 0]),
      steerCos: new Float64Array([1, 1, 1, 1]),
      ackIn: Number.NaN,
      ackOut: new Float64Array(4),
      wheelPos: new Float64Array(16),
      brakeMax: new Float64Array(4),
      handMax: new Float64Array(4),
      dlValid: false,
      dlClutch: false,
      dlG: 0,
      dlE: 0,
    },
  };
  refreshRuntime(rt);
  res.byEid.set(rt.eid, rt);
  rebuildLists(world, res);
  return rt;
}

/**
 * Rebuild the config-derived caches if `rt.cfg` was replaced (garage reconfigure). Called once per tick by
 * the tick logic; the same expressions as before caching, so results are bit-identical.
 */
export function refreshRuntime(rt: CarRuntime): void {
  if (rt.cache.cfg !== rt.cfg) rebuildRuntime(rt);
}

/**
 * `refreshRuntime`'s rebuild, apart: its closures capture locals, so V8 allocates a context on every entry to the
 * function that holds them, the early return included.
 */
function rebuildRuntime(rt: CarRuntime): void {
  const k = rt.cache;
  const cfg = rt.cfg;
  k.cfg = cfg;
  k.ackIn = Number.NaN;
  k.dlValid = false;
  const tf = copyTire(cfg.tires.front),
    tr = copyTire(cfg.tires.rear);
  const sf = copySusp(cfg.suspension.front),
    sr = copySusp(cfg.suspension.rear);
  k.tire = cfg.wheels.map((w) => (w.front ? tf : tr));
  k.susp = cfg.wheels.map((w) => (w.front ? sf : sr));
  k.tireD = k.tire.map((t) => tireDerived(t, cfg.body.massKg / 4));
  const bk = cfg.brakes;
  cfg.wheels.forEach((w, i) => {
    k.wheelPos[i * 4] = w.position[0];
    k.wheelPos[i * 4 + 1] = w.position[1];
    k.wheelPos[i * 4 + 2] = w.position[2];
    k.wheelPos[i * 4 + 3] = w.staticTravel;
    k.brakeMax[i] = bk.maxTorque * (w.front ? bk.frontBias : 1 - bk.frontBias) * 0.5;
    k.handMax[i] = w.front ? 0 : bk.handbrakeTorque * 0.5;
  });
  const d = cfg.drivetrain;
  k.frontDiff = copyDiff(d.frontDiff);
  k.rearDiff = copyDiff(d.rearDiff);
  k.centreDiff = copyDiff(d.centreDiff);
  const isRow = (x: DiffConfig): boolean => x.kind !== 'open' && x.kind !== 'viscous';
  k.frontRow = d.layout !== 'rwd' && isRow(d.frontDiff);
  k.rearRow = d.layout !== 'fwd' && isRow(d.rearDiff);
  k.centreRow = d.layout === 'awd' && isRow(d.centreDiff);
  k.frontVisc = d.layout !== 'rwd' && d.frontDiff.kind === 'viscous';
  k.rearVisc = d.layout !== 'fwd' && d.rearDiff.kind === 'viscous';
  k.centreVisc = d.layout === 'awd' && d.centreDiff.kind === 'viscous';
  const b = cfg.body;
  let unsprung = 0;
  for (let i = 0; i < 4; i++) {
    const mu = k.susp[i]!.unsprungMass;
    unsprung += mu;
    k.invUnsprung[i] = 1 / mu;
    k.dropK[i] = mu * DROOP_STOP_OMEGA * DROOP_STOP_OMEGA;
    k.dropC[i] = 2 * mu * DROOP_STOP_OMEGA; // critical damping
  }
  k.invSprung = 1 / (b.massKg - unsprung);
  k.cornerMass = b.massKg / 4;
  k.dragK = 0.5 * AIR_DENSITY * b.dragCoefficient * b.frontalAreaM2; // × v (left-to-right: same bits as before)
  k.downforceClA = b.downforceClA;
  k.downforceFront = b.downforceFrontFraction;
  k.cgToFront = b.cgToFrontM;
  k.cgToRear = b.cgToRearM;
  const invF = 1 / cfg.tires.front.inertia,
    invR = 1 / cfg.tires.rear.inertia;
  k.invM[0] = invF;
  k.invM[1] = invF;
  k.invM[2] = invR;
  k.invM[3] = invR;
  k.invM[4] = 1 / cfg.engine.inertia;
  const gb = cfg.gearbox;
  k.gearRatio = new Float64Array(gb.ratios.length + 1);
  for (let g = -1; g < gb.ratios.length; g++) k.gearRatio[g + 1] = totalRatio(cfg, g);
  k.gearEff[0] = gb.efficiency;
  k.gearEff[1] = gb.efficiency * (1 - gb.autoEfficiencyLoss);
  k.idleThrBase =
    engineFriction(cfg, cfg.engine.idle) / (curveTorque(cfg, cfg.engine.idle) + engineFriction(cfg, cfg.engine.idle));
}

function copyTire(t: TireConfig): TireConfig {
  return {
    radius: t.radius,
    width: t.width,
    inertia: t.inertia,
    radialStiffness: t.radialStiffness,
    longStiffness: t.longStiffness,
    corneringStiffness: t.corneringStiffness,
    stiffnessLoadExponent: t.stiffnessLoadExponent,
    loadSensitivity: t.loadSensitivity,
    grip: t.grip,
    relaxLong: t.relaxLong,
    relaxLat: t.relaxLat,
    rollingResistance: t.rollingResistance,
    pressureUniformity: t.pressureUniformity,
    nominalLoad: t.nominalLoad,
  };
}

function copySusp(s: SuspensionConfig): SuspensionConfig {
  return {
    springRate: s.springRate,
    progression: s.progression,
    travel: s.travel,
    bumpDamping: s.bumpDamping,
    reboundDamping: s.reboundDamping,
    bumpStopGap: s.bumpStopGap,
    bumpStopRate: s.bumpStopRate,
    antiRoll: s.antiRoll,
    unsprungMass: s.unsprungMass,
  };
}

function copyDiff(d: DiffConfig): DiffConfig {
  return {
    kind: d.kind,
    preloadNm: d.preloadNm,
    powerRamp: d.powerRamp,
    coastRamp: d.coastRamp,
    viscousNmPerRadS: d.viscousNmPerRadS,
  };
}

export function unregisterCar(world: SimWorld, eid: number): void {
  const res = vehicles(world);
  res.byEid.delete(eid);
  rebuildLists(world, res);
}

export function carRuntime(world: SimWorld, eid: number): CarRuntime {
  const rt = vehicles(world).byEid.get(eid);
  if (!rt) throw new Error(`vehicle: entity ${eid} is not a car`);
  return rt;
}

/** Open-diff torque split of the gearbox output over FL, FR, RL, RR. */
export function openSplit(cfg: CarConfig): [number, number, number, number] {
  const f = cfg.drivetrain.frontTorqueFraction;
  return [f / 2, f / 2, (1 - f) / 2, (1 - f) / 2];
}
