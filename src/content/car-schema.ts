/**
 * Car configuration files (`src/content/cars/*.toml`): schema (zod 4), loader with `extends`, setup ranges,
 * and conversion to SI units (`CarConfig`). Units live in the key names; the loader converts once.
 * Errors are ContentError lines naming the file, the key path, what was expected and what was found.
 * The JSON Schema for editor completion is generated from `CarFileSchema` (`npm run schema`).
 */
import { z } from 'zod';
import { CrashSchema, crashConfig, type CrashConfig } from './crash-schema';
import { rangeOf, rangeText } from './car-ranges';
import { STANDARD_GRAVITY_M_S2 } from './world-constants';
import { LookSchema, lookConfig, type CarLook } from './car-look';
import { springForce } from './spring-force';

export { springForce };

/** A number inside the documented physical range of `key` (car-ranges.ts), described for the JSON Schema. */
function num(key: string) {
  const k = rangeOf(key);
  const expected = `expected ${rangeText(k)} (physical range)`;
  return z
    .number()
    .min(k.min, { error: expected })
    .max(k.max, { error: expected })
    .meta({ description: `${k.meaning}${k.unit ? ` (${k.unit})` : ''}. Range ${rangeText(k)}; typical ${k.typical}.` });
}

const DiffSchema = z.strictObject({
  type: z.enum(['open', 'viscous', 'clutch', 'locked']).default('open').meta({ description: 'Differential: open, viscous LSD, clutch-pack LSD or locked' }),
  preload_nm: num('diff.preload_nm').default(0),
  power_ramp: num('diff.power_ramp').default(0),
  coast_ramp: num('diff.coast_ramp').default(0),
  viscous_nm_per_rad_s: num('diff.viscous_nm_per_rad_s').default(0),
});

const SuspensionSchema = z.strictObject({
  spring_rate_n_per_mm: num('suspension.spring_rate_n_per_mm'),
  progression_n_per_mm2: num('suspension.progression_n_per_mm2').default(0),
  travel_mm: num('suspension.travel_mm'),
  bump_damping_n_s_per_m: num('suspension.bump_damping_n_s_per_m'),
  rebound_damping_n_s_per_m: num('suspension.rebound_damping_n_s_per_m'),
  bump_stop_gap_mm: num('suspension.bump_stop_gap_mm').default(20),
  bump_stop_rate_n_per_mm: num('suspension.bump_stop_rate_n_per_mm').default(150),
  anti_roll_n_per_mm: num('suspension.anti_roll_n_per_mm').default(0),
  /** Moves on its own suspension travel DOF (Deák §5.1, 5-body car). Default 3.5 % of body.mass_kg. */
  unsprung_mass_kg: num('suspension.unsprung_mass_kg').optional(),
});

const TireSchema = z.strictObject({
  radius_m: num('tires.radius_m'),
  width_mm: num('tires.width_mm').default(205),
  inertia_kg_m2: num('tires.inertia_kg_m2'),
  radial_stiffness_n_per_mm: num('tires.radial_stiffness_n_per_mm').default(250),
  long_stiffness_n: num('tires.long_stiffness_n'),
  cornering_stiffness_n_per_rad: num('tires.cornering_stiffness_n_per_rad'),
  /** Degressive C(N) = C0·x(1+k)/(1+kx), k = (1−p)/p (tires.ts). */
  stiffness_load_exponent: num('tires.stiffness_load_exponent').default(0.8),
  /** μ(N) clamped to [0.6μ, 1.3μ]. */
  load_sensitivity: num('tires.load_sensitivity').default(0.1),
  grip: num('tires.grip').default(1),
  relaxation_length_long_m: num('tires.relaxation_length_long_m').default(0.15),
  relaxation_length_lat_m: num('tires.relaxation_length_lat_m').default(0.4),
  rolling_resistance: num('tires.rolling_resistance').default(0.012),
  pressure_uniformity: num('tires.pressure_uniformity').default(0.6),
});

const point = (value: string) =>
  z.tuple([num('engine.torque_rpm[]'), num(value)]).meta({ description: `[rpm, ${value === 'engine.torque_curve[]' ? 'fraction of peak' : 'N·m'}]` });

const EngineSchema = z.strictObject({
  idle_rpm: num('engine.idle_rpm'),
  redline_rpm: num('engine.redline_rpm'),
  limiter_rpm: num('engine.limiter_rpm').optional(),
  stall_rpm: num('engine.stall_rpm').default(450),
  /** Normalised torque curve (Deák §5.2): [rpm, fraction of peak] pairs × peak_torque_nm… */
  peak_torque_nm: num('engine.peak_torque_nm').optional(),
  torque_curve: z.array(point('engine.torque_curve[]')).min(2).max(64).optional()
    .meta({ description: 'Normalised full-throttle torque curve: [rpm, fraction of peak_torque_nm] pairs, rpm increasing' }),
  /** …or an absolute table [rpm, N·m]. Exactly one of the two forms. */
  torque_table_nm: z.array(point('engine.torque_table_nm[]')).min(2).max(64).optional()
    .meta({ description: 'Full-throttle net torque table: [rpm, N·m] pairs, rpm increasing (or torque_curve + peak_torque_nm)' }),
  inertia_kg_m2: num('engine.inertia_kg_m2'),
  /** Friction torque = static + per_krpm · rpm/1000 (rises with speed, Deák §5.2). */
  friction_nm: num('engine.friction_nm').default(15),
  friction_per_krpm_nm: num('engine.friction_per_krpm_nm').default(4),
  starter_torque_nm: num('engine.starter_torque_nm').default(60),
});

const GearboxSchema = z.strictObject({
  ratios: z.array(num('gearbox.ratios[]')).min(1).max(8).meta({ description: 'Forward gear ratios, first gear first, decreasing (1 to 8 gears)' }),
  reverse_ratio: num('gearbox.reverse_ratio'),
  final_drive: num('gearbox.final_drive'),
  efficiency: num('gearbox.efficiency').default(0.92),
  shift_time_s: num('gearbox.shift_time_s').default(0.15),
  /** Deák §5.4 gives the manual box a benefit. */
  auto_efficiency_loss: num('gearbox.auto_efficiency_loss').default(0.02),
});

const OPEN_DIFF = { type: 'open', preload_nm: 0, power_ramp: 0, coast_ramp: 0, viscous_nm_per_rad_s: 0 } as const;

const DrivetrainSchema = z.strictObject({
  layout: z.enum(['fwd', 'rwd', 'awd']).meta({ description: 'Driven wheels: front, rear or all four' }),
  front_diff: DiffSchema.default(OPEN_DIFF).meta({ description: 'Front differential (FWD, AWD); default open' }),
  rear_diff: DiffSchema.default(OPEN_DIFF).meta({ description: 'Rear differential (RWD, AWD); default open' }),
  centre_diff: DiffSchema.default(OPEN_DIFF).meta({ description: 'Centre differential (AWD); default open' }),
  front_torque_fraction: num('drivetrain.front_torque_fraction').default(0.5),
  clutch_max_torque_nm: num('drivetrain.clutch_max_torque_nm'),
});

const RangeSchema = z
  .strictObject({
    min: z.number().meta({ description: 'Lowest slider value (inside the key\'s physical range)' }),
    max: z.number().meta({ description: 'Highest slider value, on the grid min + k·step' }),
    step: z.number().positive().meta({ description: 'Slider step (at most 10,000 steps from min to max)' }),
  })
  .meta({ description: 'Setup range of one tunable value' });

/** Car file format this build reads; a file without `format` is this one. */
export const CAR_FORMAT = 1;

const BodySchema = z.strictObject({
  mass_kg: num('body.mass_kg'),
  length_m: num('body.length_m'),
  width_m: num('body.width_m'),
  height_m: num('body.height_m'),
  wheelbase_m: num('body.wheelbase_m'),
  cg_to_front_m: num('body.cg_to_front_m'),
  cg_height_m: num('body.cg_height_m'),
  track_front_m: num('body.track_front_m'),
  track_rear_m: num('body.track_rear_m'),
  /** Principal moments about the body axes X (pitch, left), Y (yaw, up), Z (roll, forward). */
  inertia_kg_m2: z.tuple([num('body.inertia_kg_m2[]'), num('body.inertia_kg_m2[]'), num('body.inertia_kg_m2[]')]).optional()
    .meta({ description: 'Principal moments of inertia [pitch X, yaw Y, roll Z] (kg·m²); default from mass and axle distances' }),
  drag_coefficient: num('body.drag_coefficient'),
  frontal_area_m2: num('body.frontal_area_m2'),
  downforce_cla_m2: num('body.downforce_cla_m2').default(0),
  downforce_front_fraction: num('body.downforce_front_fraction').default(0.5),
});

export const CarFileSchema = z.strictObject({
  format: z
    .literal(CAR_FORMAT, { error: `expected ${CAR_FORMAT} (the car file format this build reads)` })
    .default(CAR_FORMAT)
    .meta({ description: `Car file format version; this build reads ${CAR_FORMAT} (the default)` }),
  extends: z.string().optional().meta({ description: 'File name (same folder) or built-in id of a car this one builds on; its tables are deep-merged under this file' }),
  name: z.string().min(1).max(120).meta({ description: 'Display name' }),
  description: z.string().max(2000).default('').meta({ description: 'One-line description shown in the garage' }),
  body: BodySchema.meta({ description: 'Body: mass, dimensions, CG, inertia, aerodynamics' }),
  engine: EngineSchema.meta({ description: 'Engine: speeds, torque curve, inertia, friction (Deák §5.2)' }),
  gearbox: GearboxSchema.meta({ description: 'Gearbox: ratios, final drive, efficiency, shift time' }),
  drivetrain: DrivetrainSchema.meta({ description: 'Driven wheels, differentials, clutch' }),
  steering: z.strictObject({
    max_angle_deg: num('steering.max_angle_deg'),
    max_rate_deg_s: num('steering.max_rate_deg_s').default(360),
    ackermann: num('steering.ackermann').default(1),
  }).meta({ description: 'Steering: lock, rate, Ackermann' }),
  suspension: z
    .strictObject({ front: SuspensionSchema.meta({ description: 'Front axle, per wheel' }), rear: SuspensionSchema.meta({ description: 'Rear axle, per wheel' }) })
    .meta({ description: 'Suspension, per axle (rates at the wheel)' }),
  tires: z
    .strictObject({ front: TireSchema.meta({ description: 'Front tyres' }), rear: TireSchema.meta({ description: 'Rear tyres' }) })
    .meta({ description: 'Tyres (brush model), per axle' }),
  brakes: z.strictObject({
    max_torque_nm: num('brakes.max_torque_nm'),
    front_bias: num('brakes.front_bias'),
    handbrake_torque_nm: num('brakes.handbrake_torque_nm'),
  }).meta({ description: 'Brakes: total torque, bias, handbrake' }),
  /** Tunable values: key path (e.g. "suspension.front.spring_rate_n_per_mm") → {min, max, step}. */
  setup: z.record(z.string(), RangeSchema).default({}).meta({ description: 'Tunable values: "key.path" = { min, max, step } (garage sliders)' }),
  crash: CrashSchema.meta({ description: 'Crash tests the crush parameters are identified from (Tongue §6; docs/collisions.md)' }), // crash tests for the crush identification (collision issue, crash-schema.ts)
  look: LookSchema.optional().meta({ description: 'Body style and livery (presentation only: never read by the simulation)' }),
});

export type CarFile = z.output<typeof CarFileSchema>;

export type DiffKind = 'open' | 'viscous' | 'clutch' | 'locked';

export interface DiffConfig {
  kind: DiffKind;
  preloadNm: number;
  powerRamp: number;
  coastRamp: number;
  viscousNmPerRadS: number;
}

export interface SuspensionConfig {
  /** N/m, N/m², m, N·s/m. */
  springRate: number;
  progression: number;
  travel: number;
  bumpDamping: number;
  reboundDamping: number;
  bumpStopGap: number;
  bumpStopRate: number;
  antiRoll: number;
  /** Unsprung mass per wheel (kg). */
  unsprungMass: number;
}

export interface TireConfig {
  radius: number;
  width: number;
  inertia: number;
  radialStiffness: number;
  longStiffness: number;
  corneringStiffness: number;
  stiffnessLoadExponent: number;
  loadSensitivity: number;
  grip: number;
  relaxLong: number;
  relaxLat: number;
  rollingResistance: number;
  pressureUniformity: number;
  /** Static load N0 on this tyre (N), computed from the weight distribution. */
  nominalLoad: number;
}

export interface WheelConfig {
  /** Wheel centre at static ride height, body frame (m): +X left, +Y up, +Z forward; origin at the CG. */
  position: [number, number, number];
  /** Suspension compression at static ride (m). */
  staticTravel: number;
  front: boolean;
  left: boolean;
  steered: boolean;
  driven: boolean;
}

/** A validated car in SI units (m, kg, s, N, N·m, rad, rad/s). */
export interface CarConfig {
  id: string;
  name: string;
  file: string;
  /** Crash tests of the `[crash]` table in SI (collision issue; none → its defaults). */
  collision?: CrashConfig;
  body: {
    massKg: number;
    lengthM: number;
    widthM: number;
    heightM: number;
    wheelbaseM: number;
    cgToFrontM: number;
    cgToRearM: number;
    cgHeightM: number;
    trackFrontM: number;
    trackRearM: number;
    /** Principal inertia about body X, Y, Z (kg·m²). */
    inertia: [number, number, number];
    dragCoefficient: number;
    frontalAreaM2: number;
    downforceClA: number;
    downforceFrontFraction: number;
  };
  engine: {
    idle: number;
    redline: number;
    limiter: number;
    stall: number;
    /** Torque table: engine speed (rad/s, increasing) → full-throttle torque (N·m). */
    curveOmega: number[];
    curveTorque: number[];
    peakTorque: number;
    inertia: number;
    friction: number;
    /** N·m per rad/s. */
    frictionPerOmega: number;
    starterTorque: number;
  };
  gearbox: {
    /** Index 0 = reverse (negative ratio), 1..n forward. */
    ratios: number[];
    forwardGears: number;
    finalDrive: number;
    efficiency: number;
    shiftTime: number;
    autoEfficiencyLoss: number;
  };
  drivetrain: {
    layout: 'fwd' | 'rwd' | 'awd';
    frontDiff: DiffConfig;
    rearDiff: DiffConfig;
    centreDiff: DiffConfig;
    frontTorqueFraction: number;
    clutchMaxTorque: number;
  };
  steering: { maxAngle: number; maxRate: number; ackermann: number };
  suspension: { front: SuspensionConfig; rear: SuspensionConfig };
  tires: { front: TireConfig; rear: TireConfig };
  brakes: { maxTorque: number; frontBias: number; handbrakeTorque: number };
  /** Order FL, FR, RL, RR. */
  wheels: [WheelConfig, WheelConfig, WheelConfig, WheelConfig];
  setup: Record<string, { min: number; max: number; step: number }>;
  /** Body style and livery from `[look]` (views only; the simulation never reads it). */
  look: CarLook;
  /** The merged file data (after `extends`), in file units. */
  source: CarFile;
}

export const RPM = Math.PI / 30;
const DEG = Math.PI / 180;

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const p of path.split('.')) {
    if (!isObj(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function checkCurve(issues: string[], key: string, pts: [number, number][] | undefined): void {
  if (!pts) return;
  for (let i = 1; i < pts.length; i++) {
    if (!(pts[i]![0] > pts[i - 1]![0])) {
      issues.push(`${key}[${i}][0]: expected rpm increasing (> ${pts[i - 1]![0]}), found number ${pts[i]![0]}`);
    }
  }
}

/** Checks of one file's values that zod's per-key ranges can't express (curves, setup grid). */
export function semanticIssues(d: CarFile): string[] {
  const issues: string[] = [];
  const e = d.engine;
  if (!e.torque_table_nm && !(e.torque_curve && e.peak_torque_nm)) {
    issues.push('engine: expected either torque_table_nm or torque_curve + peak_torque_nm, found neither');
  }
  if (e.torque_table_nm && e.torque_curve) {
    issues.push('engine: expected only one of torque_table_nm or torque_curve, found both');
  }
  checkCurve(issues, 'engine.torque_table_nm', e.torque_table_nm);
  checkCurve(issues, 'engine.torque_curve', e.torque_curve);
  if (e.torque_curve && e.torque_curve.some((p) => p[1] > 1.0001)) {
    issues.push('engine.torque_curve: expected fractions of peak torque ≤ 1, found a value > 1');
  }
  if (!(e.redline_rpm > e.idle_rpm)) issues.push(`engine.redline_rpm: expected > idle_rpm (${e.idle_rpm}), found number ${e.redline_rpm}`);
  if (!(e.idle_rpm > e.stall_rpm)) issues.push(`engine.stall_rpm: expected < idle_rpm (${e.idle_rpm}), found number ${e.stall_rpm}`);
  const b = d.body;
  if (!(b.cg_to_front_m < b.wheelbase_m)) issues.push(`body.cg_to_front_m: expected < wheelbase_m (${b.wheelbase_m}), found number ${b.cg_to_front_m}`);
  for (let i = 1; i < d.gearbox.ratios.length; i++) {
    if (!(d.gearbox.ratios[i]! < d.gearbox.ratios[i - 1]!)) {
      issues.push(`gearbox.ratios[${i}]: expected decreasing ratios (< ${d.gearbox.ratios[i - 1]}), found number ${d.gearbox.ratios[i]}`);
    }
  }
  for (const axle of ['front', 'rear'] as const) {
    const s = d.suspension[axle];
    if (s.bump_stop_gap_mm >= s.travel_mm) issues.push(`suspension.${axle}.bump_stop_gap_mm: expected < travel_mm (${s.travel_mm}), found number ${s.bump_stop_gap_mm}`);
    // Four wheels at mass/8 would be half the car: past that the "sprung body on wheels" model is meaningless.
    const mu = s.unsprung_mass_kg;
    if (mu !== undefined && !(mu < b.mass_kg / 8)) {
      issues.push(`suspension.${axle}.unsprung_mass_kg: expected < body.mass_kg / 8 (${b.mass_kg / 8} kg), found number ${mu}`);
    }
  }
  for (const [key, r] of Object.entries(d.setup)) {
    const v = getPath(d, key);
    if (typeof v !== 'number') {
      issues.push(`setup."${key}": expected the key path of a numeric value in this file, found ${v === undefined ? 'nothing' : typeof v}`);
      continue;
    }
    if (!(r.min <= r.max)) issues.push(`setup."${key}".min: expected ≤ max (${r.max}), found number ${r.min}`);
    else if (v < r.min || v > r.max) issues.push(`setup."${key}": expected the value within [${r.min}, ${r.max}], found number ${v}`);
    else {
      if (!onStep(r.max, r.min, r.step)) issues.push(`setup."${key}".max: expected ${stepGrid(r, r.max)} (max on the step grid), found number ${r.max}`);
      if (!onStep(v, r.min, r.step)) issues.push(`setup."${key}": expected a value on ${stepGrid(r, v)}, found number ${v}`);
    }
  }
  return issues;
}

function diff(d: CarFile['drivetrain']['front_diff']): DiffConfig {
  return { kind: d.type, preloadNm: d.preload_nm, powerRamp: d.power_ramp, coastRamp: d.coast_ramp, viscousNmPerRadS: d.viscous_nm_per_rad_s };
}

/** Default unsprung mass per wheel as a fraction of the car's mass (typical 3–4 % for road and rally cars). */
export const DEFAULT_UNSPRUNG_FRACTION = 0.035;

function susp(s: CarFile['suspension']['front'], massKg: number): SuspensionConfig {
  return {
    springRate: s.spring_rate_n_per_mm * 1000,
    progression: s.progression_n_per_mm2 * 1e6,
    travel: s.travel_mm / 1000,
    bumpDamping: s.bump_damping_n_s_per_m,
    reboundDamping: s.rebound_damping_n_s_per_m,
    bumpStopGap: s.bump_stop_gap_mm / 1000,
    bumpStopRate: s.bump_stop_rate_n_per_mm * 1000,
    antiRoll: s.anti_roll_n_per_mm * 1000,
    unsprungMass: s.unsprung_mass_kg ?? DEFAULT_UNSPRUNG_FRACTION * massKg,
  };
}

function tire(t: CarFile['tires']['front'], nominalLoad: number): TireConfig {
  return {
    radius: t.radius_m,
    width: t.width_mm / 1000,
    inertia: t.inertia_kg_m2,
    radialStiffness: t.radial_stiffness_n_per_mm * 1000,
    longStiffness: t.long_stiffness_n,
    corneringStiffness: t.cornering_stiffness_n_per_rad,
    stiffnessLoadExponent: t.stiffness_load_exponent,
    loadSensitivity: t.load_sensitivity,
    grip: t.grip,
    relaxLong: t.relaxation_length_long_m,
    relaxLat: t.relaxation_length_lat_m,
    rollingResistance: t.rolling_resistance,
    pressureUniformity: t.pressure_uniformity,
    nominalLoad,
  };
}

/** Invert springForce by bisection (static compression for a given load). */
function staticTravel(s: SuspensionConfig, load: number): number {
  let lo = 0,
    hi = s.travel * 2;
  for (let i = 0; i < 60; i++) {
    const m = 0.5 * (lo + hi);
    if (springForce(s, m) < load) lo = m;
    else hi = m;
  }
  return 0.5 * (lo + hi);
}

/** The body in SI; without a measured inertia tensor, one estimated from mass and axle distances. */
function bodyConfig(b: CarFile['body']): CarConfig['body'] {
  const a = b.cg_to_front_m;
  const bb = b.wheelbase_m - a;
  const m = b.mass_kg;
  const inertia: [number, number, number] = b.inertia_kg_m2 ?? [0.95 * m * a * bb, m * a * bb, 0.35 * m * a * bb];
  return {
    massKg: m,
    lengthM: b.length_m,
    widthM: b.width_m,
    heightM: b.height_m,
    wheelbaseM: b.wheelbase_m,
    cgToFrontM: a,
    cgToRearM: bb,
    cgHeightM: b.cg_height_m,
    trackFrontM: b.track_front_m,
    trackRearM: b.track_rear_m,
    inertia,
    dragCoefficient: b.drag_coefficient,
    frontalAreaM2: b.frontal_area_m2,
    downforceClA: b.downforce_cla_m2,
    downforceFrontFraction: b.downforce_front_fraction,
  };
}

/** The engine in SI (rad/s): the torque curve from the absolute table or the normalised curve × peak torque. */
function engineConfig(e: CarFile['engine']): CarConfig['engine'] {
  let curveOmega: number[], curveTorque: number[];
  if (e.torque_table_nm) {
    curveOmega = e.torque_table_nm.map((p) => p[0] * RPM);
    curveTorque = e.torque_table_nm.map((p) => p[1]);
  } else {
    curveOmega = e.torque_curve!.map((p) => p[0] * RPM);
    curveTorque = e.torque_curve!.map((p) => p[1] * e.peak_torque_nm!);
  }
  return {
    idle: e.idle_rpm * RPM,
    redline: e.redline_rpm * RPM,
    limiter: (e.limiter_rpm ?? e.redline_rpm + 150) * RPM,
    stall: e.stall_rpm * RPM,
    curveOmega,
    curveTorque,
    peakTorque: Math.max(...curveTorque),
    inertia: e.inertia_kg_m2,
    friction: e.friction_nm,
    frictionPerOmega: e.friction_per_krpm_nm / (1000 * RPM),
    starterTorque: e.starter_torque_nm,
  };
}

/** The driveline: differentials and the share of torque sent to the front axle (all of it for FWD). */
function drivetrainConfig(dt: CarFile['drivetrain']): CarConfig['drivetrain'] {
  const layout = dt.layout;
  return {
    layout,
    frontDiff: diff(dt.front_diff),
    rearDiff: diff(dt.rear_diff),
    centreDiff: diff(dt.centre_diff),
    frontTorqueFraction: layout === 'awd' ? dt.front_torque_fraction : layout === 'fwd' ? 1 : 0,
    clutchMaxTorque: dt.clutch_max_torque_nm,
  };
}

/** Convert validated file data to SI and derive the wheel layout. */
export function toCarConfig(d: CarFile, id: string, file: string, g = STANDARD_GRAVITY_M_S2): CarConfig {
  const b = d.body;
  const a = b.cg_to_front_m;
  const bb = b.wheelbase_m - a;
  const m = b.mass_kg;
  const front = susp(d.suspension.front, m);
  const rear = susp(d.suspension.rear, m);
  const nF = (m * g * bb) / b.wheelbase_m / 2;
  const nR = (m * g * a) / b.wheelbase_m / 2;
  const tf = tire(d.tires.front, nF);
  const tr = tire(d.tires.rear, nR);
  const layout = d.drivetrain.layout;
  const mk = (isFront: boolean, left: boolean): WheelConfig => {
    const t = isFront ? tf : tr;
    const track = isFront ? b.track_front_m : b.track_rear_m;
    return {
      position: [left ? track / 2 : -track / 2, t.radius - b.cg_height_m, isFront ? a : -bb],
      // The spring carries the corner's sprung weight: the tyre load less the wheel's own weight.
      staticTravel: isFront ? staticTravel(front, nF - front.unsprungMass * g) : staticTravel(rear, nR - rear.unsprungMass * g),
      front: isFront,
      left,
      steered: isFront,
      driven: layout === 'awd' || (layout === 'fwd') === isFront,
    };
  };
  return {
    id,
    name: d.name,
    file,
    collision: crashConfig(d.crash),
    body: bodyConfig(b),
    engine: engineConfig(d.engine),
    gearbox: {
      ratios: [-d.gearbox.reverse_ratio, ...d.gearbox.ratios],
      forwardGears: d.gearbox.ratios.length,
      finalDrive: d.gearbox.final_drive,
      efficiency: d.gearbox.efficiency,
      shiftTime: d.gearbox.shift_time_s,
      autoEfficiencyLoss: d.gearbox.auto_efficiency_loss,
    },
    drivetrain: drivetrainConfig(d.drivetrain),
    steering: { maxAngle: d.steering.max_angle_deg * DEG, maxRate: d.steering.max_rate_deg_s * DEG, ackermann: d.steering.ackermann },
    suspension: { front, rear },
    tires: { front: tf, rear: tr },
    brakes: { maxTorque: d.brakes.max_torque_nm, frontBias: d.brakes.front_bias, handbrakeTorque: d.brakes.handbrake_torque_nm },
    wheels: [mk(true, true), mk(true, false), mk(false, true), mk(false, false)],
    setup: d.setup,
    look: lookConfig(d.look),
    source: d,
  };
}

/** Car id from a file name: "cars/hatch-gti.toml" → "hatch-gti". */
export function carIdFromFile(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.toml$/i, '');
}

/**
 * Whether v lies on the setup grid min + k·step (k integer) within a float tolerance of 1e-6 step, so decimal
 * steps (0.01, 0.05) and sums of them accumulated in binary floating point (0.61 + 0.01) pass.
 */
export function onStep(v: number, min: number, step: number): boolean {
  const k = (v - min) / step;
  return Math.abs(k - Math.round(k)) <= 1e-6;
}

/** "min + k·step (min a, step b; nearest c or d)" for an off-grid value v, for error messages. */
export function stepGrid(r: { min: number; step: number }, v: number): string {
  const k = Math.floor((v - r.min) / r.step);
  const at = (j: number): number => Number((r.min + j * r.step).toPrecision(12));
  return `min + k·step (min ${r.min}, step ${r.step}; nearest ${at(k)} or ${at(k + 1)})`;
}

/** JSON Schema of the car file for editor completion (zod 4). */
export function carJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(CarFileSchema, { io: 'input' }) as Record<string, unknown>;
}
