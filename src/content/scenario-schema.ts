/**
 * Scenario files (TOML) for the headless runner: `npm run sim -- <scenario.toml>`.
 * Units are in the key names; the loader converts nothing else. Unknown keys are errors (typos must not pass).
 * Every number has a physical range (docs/scenarios.md), checked by the loader with the cross-field checks in
 * scenario-checks.ts (tick budget, inertia triangle inequality, accelerations, broad-phase footprint, trace size).
 */
import { z } from 'zod';
import type { IntegratorKind } from '../ecs/world';
import { parseTomlFile, validate } from '../validate/errors';
import { inRange, intInRange, shortString, vecInRange } from '../validate/ranges';
import { checkScenario } from './scenario-checks';
import { SCENARIO_LIMITS as L } from './scenario-limits';
import { STANDARD_GRAVITY_M_S2 } from './world-constants';

/**
 * The integrators a scenario may name: exactly the world's `IntegratorKind`s (the mapped type makes a missing or
 * extra name a compile error), listed here because content loaders import no simulation code (docs/architecture.md).
 */
const INTEGRATOR_NAMES: { [K in IntegratorKind]: K } = { euler: 'euler', midpoint: 'midpoint', rk4: 'rk4' };

export { MAX_SCENARIO_TICKS, SCENARIO_LIMITS, scenarioTicks } from './scenario-limits';

const coord = inRange(-L.coordM, L.coordM, 'm');
const xz = z.tuple([coord, coord]);
const xyz = z.tuple([coord, coord, coord]);
const id = shortString(L.idChars, 1);
const angleDeg = inRange(-L.angleDeg, L.angleDeg, '°');
const heightM = inRange(L.minSizeM, L.obstacleHeightM, 'm');
const baseM = inRange(-L.altitudeM, L.altitudeM, 'm').default(0);

export const BodySchema = z.strictObject({
  id,
  mass_kg: inRange(L.massKg[0], L.massKg[1], 'kg'),
  /** Principal moments; they must satisfy the triangle inequality Ixx ≤ Iyy + Izz (and cyclic). */
  inertia_kg_m2: vecInRange(3, L.inertiaKgM2[0], L.inertiaKgM2[1], 'kg·m²'),
  position_m: xyz.default([0, 0, 0]),
  /** Quaternion (w, x, y, z) with norm in [QUAT_NORM_MIN, QUAT_NORM_MAX]; normalised on load. A zero one is refused. */
  orientation_quat: vecInRange(4, -L.quatNorm[1], L.quatNorm[1]).default([1, 0, 0, 0]),
  velocity_m_s: vecInRange(3, -L.speedM_s, L.speedM_s, 'm/s').default([0, 0, 0]),
  angular_velocity_rad_s: vecInRange(3, -L.angularSpeedRad_s, L.angularSpeedRad_s, 'rad/s').default([0, 0, 0]),
  /** Constant world-frame force, applied at `force_point_body_m` (body frame). */
  force_n: vecInRange(3, -L.forceN, L.forceN, 'N').default([0, 0, 0]),
  force_point_body_m: vecInRange(3, -L.bodyPointM, L.bodyPointM, 'm').default([0, 0, 0]),
  torque_nm: vecInRange(3, -L.torqueNm, L.torqueNm, 'N·m').default([0, 0, 0]),
  gravity: z.boolean().default(true),
  /** Car collision rectangle + body box (docs/collisions.md); turns the body into a collider. */
  collider: z
    .strictObject({
      cg_to_front_m: inRange(L.carLengthM[0], L.carLengthM[1], 'm'),
      cg_to_rear_m: inRange(L.carLengthM[0], L.carLengthM[1], 'm'),
      width_m: inRange(L.carSizeM[0], L.carSizeM[1], 'm'),
      height_m: inRange(L.carSizeM[0], L.carSizeM[1], 'm'),
      cg_height_m: inRange(0, L.carSizeM[1], 'm'),
      clearance_m: inRange(0, L.clearanceM, 'm').optional(),
      method: z.enum(['restitution', 'energy']).default('restitution'),
    })
    .optional(),
});

const obstacleSize = inRange(L.minSizeM, L.obstacleSizeM, 'm');
/** Static obstacles in the yaw plane, extruded from base_m up by height_m (world y). */
export const ObstacleSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('wall'), id: id.optional(), a: xz, b: xz, base_m: baseM, height_m: heightM }),
  z.strictObject({
    kind: z.literal('box'), id: id.optional(), center: xz, half_extents: z.tuple([obstacleSize, obstacleSize]),
    rot_y_deg: angleDeg.default(0), base_m: baseM, height_m: heightM,
  }),
  z.strictObject({ kind: z.literal('cylinder'), id: id.optional(), center: xz, radius: obstacleSize, base_m: baseM, height_m: heightM }),
]);

const SurfaceName = z.enum(['tarmac', 'gravel', 'snow', 'ice', 'grass']);

export const TerrainSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('flat'), height_m: inRange(-L.altitudeM, L.altitudeM, 'm').default(0), surface: SurfaceName.default('tarmac') }),
  /** grade = dy/dz (0.1 = 10 %). */
  z.strictObject({ kind: z.literal('slope'), grade: inRange(-L.grade, L.grade), surface: SurfaceName.default('tarmac') }),
  /** A shipped stage (src/content/stages/<stage>/) or a stage directory path. */
  z.strictObject({ kind: z.literal('stage'), stage: shortString(L.pathChars, 1) }),
]);

const unit = inRange(0, 1);
/** Timed driver input for a scenario car: values hold from `t_s` until the next entry (vehicle issue). */
export const CarInputSchema = z.strictObject({
  t_s: inRange(0, L.durationS[1], 's'),
  throttle: unit.optional(),
  brake: unit.optional(),
  /** −1 … 1, + = left. */
  steer: inRange(-1, 1).optional(),
  clutch: unit.optional(),
  handbrake: unit.optional(),
  /** One-tick shift requests at t_s. */
  shift_up: z.boolean().optional(),
  shift_down: z.boolean().optional(),
});

/** A car in a scenario (vehicle issue): built-in id ("rally-awd") or a .toml path relative to the scenario. */
export const CarEntrySchema = z.strictObject({
  id,
  car: shortString(L.pathChars, 1),
  /** Ground position (x, z) in m; on a stage, omit it to start on the start line. */
  position_m: xz.optional(),
  heading_deg: angleDeg.default(0),
  speed_m_s: inRange(-L.carSpeedM_s, L.carSpeedM_s, 'm/s').default(0),
  /** −1 = reverse, 0 = neutral; the car file's gear count is checked at spawn. */
  gear: intInRange(-1, L.maxGear).optional(),
  auto_clutch: z.boolean().default(true),
  auto_gear: z.boolean().default(true),
  inputs: z.array(CarInputSchema).max(L.inputsPerCar).default([]),
  /** Driven by the AI autopilot along the stage road (issue 8; needs terrain.kind = "stage", no inputs). */
  ai: z.boolean().default(false),
  ai_aggressiveness: unit.default(0.6),
  ai_skill: unit.default(0.8),
});

export const TraceSchema = z.strictObject({
  rate_hz: inRange(L.traceRateHz[0], L.traceRateHz[1], 'Hz').default(50),
  /** `<entity id>.<field>`, e.g. "ball.y", "ball.vy", "car.rpm". */
  fields: z.array(shortString(L.idChars * 2, 1)).min(1).max(L.traceFields),
});

export const PropSchema = z.strictObject({
  kind: z.enum(['cone', 'hay-bale', 'barrel', 'fence-post']),
  id: id.optional(),
  position_m: xz,
  rot_y_deg: angleDeg.default(0),
});

export const ScenarioSchema = z
  .strictObject({
    name: shortString(L.nameChars).default('unnamed'),
    dt: inRange(L.dtS[0], L.dtS[1], 's'),
    integrator: z.enum(INTEGRATOR_NAMES).default('midpoint'),
    duration_s: inRange(L.durationS[0], L.durationS[1], 's'),
    seed: intInRange(0, 2 ** 32 - 1).default(1),
    gravity_m_s2: inRange(0, L.gravityM_s2, 'm/s²').default(STANDARD_GRAVITY_M_S2),
    terrain: TerrainSchema.default({ kind: 'flat', height_m: 0, surface: 'tarmac' }),
    bodies: z.array(BodySchema).max(L.bodies).default([]),
    cars: z.array(CarEntrySchema).max(L.cars).default([]),
    obstacles: z.array(ObstacleSchema).max(L.obstacles).default([]),
    /** Havok dynamic props standing on the ground. */
    props: z.array(PropSchema).max(L.props).default([]),
    trace: TraceSchema.optional(),
  })
  // cross-field checks only once every key is valid (one clear message per problem, no echoes)
  .superRefine(checkScenario, { when: (payload) => payload.issues.length === 0 });

export type Scenario = z.output<typeof ScenarioSchema>;

export function parseScenario(text: string, file: string): Scenario {
  return validate(ScenarioSchema, parseTomlFile(text, file), file);
}
