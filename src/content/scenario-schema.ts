/**
 * Scenario files (TOML) for the headless runner: `npm run sim -- <scenario.toml>`.
 * Units are in the key names; the loader converts nothing else. Unknown keys are errors (typos must not pass).
 */
import { z } from 'zod';
import type { IntegratorKind } from '../ecs/world';
import { parseTomlFile, validate } from './errors';

/**
 * The integrators a scenario may name: exactly the world's `IntegratorKind`s (the mapped type makes a missing or
 * extra name a compile error), listed here because content loaders import no simulation code (docs/architecture.md).
 */
const INTEGRATOR_NAMES: { [K in IntegratorKind]: K } = { euler: 'euler', midpoint: 'midpoint', rk4: 'rk4' };

const vec3 = z.tuple([z.number(), z.number(), z.number()]);

export const BodySchema = z.strictObject({
  id: z.string().min(1),
  mass_kg: z.number().positive(),
  inertia_kg_m2: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
  position_m: vec3.default([0, 0, 0]),
  /** Unit quaternion (w, x, y, z); normalised on load. */
  orientation_quat: z.tuple([z.number(), z.number(), z.number(), z.number()]).default([1, 0, 0, 0]),
  velocity_m_s: vec3.default([0, 0, 0]),
  angular_velocity_rad_s: vec3.default([0, 0, 0]),
  /** Constant world-frame force, applied at `force_point_body_m` (body frame). */
  force_n: vec3.default([0, 0, 0]),
  force_point_body_m: vec3.default([0, 0, 0]),
  torque_nm: vec3.default([0, 0, 0]),
  gravity: z.boolean().default(true),
  /** Car collision rectangle + body box (docs/collisions.md); turns the body into a collider. */
  collider: z
    .strictObject({
      cg_to_front_m: z.number().positive(),
      cg_to_rear_m: z.number().positive(),
      width_m: z.number().positive(),
      height_m: z.number().positive(),
      cg_height_m: z.number().nonnegative(),
      clearance_m: z.number().nonnegative().optional(),
      method: z.enum(['restitution', 'energy']).default('restitution'),
    })
    .optional(),
});

const xz = z.tuple([z.number(), z.number()]);
/** Static obstacles in the yaw plane, extruded from base_m up by height_m (world y). */
export const ObstacleSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('wall'), id: z.string().optional(), a: xz, b: xz, base_m: z.number().default(0), height_m: z.number().positive() }),
  z.strictObject({
    kind: z.literal('box'), id: z.string().optional(), center: xz, half_extents: z.tuple([z.number().positive(), z.number().positive()]),
    rot_y_deg: z.number().default(0), base_m: z.number().default(0), height_m: z.number().positive(),
  }),
  z.strictObject({ kind: z.literal('cylinder'), id: z.string().optional(), center: xz, radius: z.number().positive(), base_m: z.number().default(0), height_m: z.number().positive() }),
]);

const SurfaceName = z.enum(['tarmac', 'gravel', 'snow', 'ice', 'grass']);

export const TerrainSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('flat'), height_m: z.number().default(0), surface: SurfaceName.default('tarmac') }),
  z.strictObject({ kind: z.literal('slope'), grade: z.number(), surface: SurfaceName.default('tarmac') }),
  /** A shipped stage (src/content/stages/<stage>/) or a stage directory path. */
  z.strictObject({ kind: z.literal('stage'), stage: z.string().min(1) }),
]);

/** Timed driver input for a scenario car: values hold from `t_s` until the next entry (vehicle issue). */
export const CarInputSchema = z.strictObject({
  t_s: z.number().nonnegative(),
  throttle: z.number().min(0).max(1).optional(),
  brake: z.number().min(0).max(1).optional(),
  /** −1 … 1, + = left. */
  steer: z.number().min(-1).max(1).optional(),
  clutch: z.number().min(0).max(1).optional(),
  handbrake: z.number().min(0).max(1).optional(),
  /** One-tick shift requests at t_s. */
  shift_up: z.boolean().optional(),
  shift_down: z.boolean().optional(),
});

/** A car in a scenario (vehicle issue): built-in id ("rally-awd") or a .toml path relative to the scenario. */
export const CarEntrySchema = z.strictObject({
  id: z.string().min(1),
  car: z.string().min(1),
  /** Ground position (x, z) in m; on a stage, omit it to start on the start line. */
  position_m: z.tuple([z.number(), z.number()]).optional(),
  heading_deg: z.number().default(0),
  speed_m_s: z.number().default(0),
  gear: z.number().int().optional(),
  auto_clutch: z.boolean().default(true),
  auto_gear: z.boolean().default(true),
  inputs: z.array(CarInputSchema).default([]),
  /** Driven by the AI autopilot along the stage road (issue 8; needs terrain.kind = "stage", no inputs). */
  ai: z.boolean().default(false),
  ai_aggressiveness: z.number().min(0).max(1).default(0.6),
  ai_skill: z.number().min(0).max(1).default(0.8),
});

export const TraceSchema = z.strictObject({
  rate_hz: z.number().positive().default(50),
  /** `<entity id>.<field>`, e.g. "ball.y", "ball.vy", "car.rpm". */
  fields: z.array(z.string()).min(1),
});

export const ScenarioSchema = z.strictObject({
  name: z.string().default('unnamed'),
  dt: z.number().positive().max(0.05),
  integrator: z.enum(INTEGRATOR_NAMES).default('midpoint'),
  duration_s: z.number().positive(),
  seed: z.number().int().nonnegative().default(1),
  gravity_m_s2: z.number().nonnegative().default(9.81),
  terrain: TerrainSchema.default({ kind: 'flat', height_m: 0, surface: 'tarmac' }),
  bodies: z.array(BodySchema).default([]),
  cars: z.array(CarEntrySchema).default([]),
  obstacles: z.array(ObstacleSchema).default([]),
  /** Havok dynamic props standing on the (flat) ground. */
  props: z
    .array(
      z.strictObject({
        kind: z.enum(['cone', 'hay-bale', 'barrel', 'fence-post']),
        id: z.string().optional(),
        position_m: xz,
        rot_y_deg: z.number().default(0),
      }),
    )
    .default([]),
  trace: TraceSchema.optional(),
});

export type Scenario = z.output<typeof ScenarioSchema>;

export function parseScenario(text: string, file: string): Scenario {
  return validate(ScenarioSchema, parseTomlFile(text, file), file);
}
