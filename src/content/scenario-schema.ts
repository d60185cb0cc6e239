/**
 * Scenario files (TOML) for the headless runner: `npm run sim -- <scenario.toml>`.
 * Units are in the key names; the loader converts nothing else. Unknown keys are errors (typos must not pass).
 */
import { z } from 'zod';
import { INTEGRATORS } from '../ecs/world';
import { parseTomlFile, validate } from './errors';

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
});

export const TerrainSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('flat'), height_m: z.number().default(0), surface: z.string().default('tarmac') }),
  z.strictObject({ kind: z.literal('slope'), grade: z.number(), surface: z.string().default('tarmac') }),
]);

export const TraceSchema = z.strictObject({
  rate_hz: z.number().positive().default(50),
  /** `<entity id>.<field>`, e.g. "ball.y", "ball.vy", "car.rpm". */
  fields: z.array(z.string()).min(1),
});

export const ScenarioSchema = z.strictObject({
  name: z.string().default('unnamed'),
  dt: z.number().positive().max(0.05),
  integrator: z.enum(INTEGRATORS as unknown as ['euler', 'midpoint', 'rk4']).default('midpoint'),
  duration_s: z.number().positive(),
  seed: z.number().int().nonnegative().default(1),
  gravity_m_s2: z.number().nonnegative().default(9.81),
  terrain: TerrainSchema.default({ kind: 'flat', height_m: 0, surface: 'tarmac' }),
  bodies: z.array(BodySchema).default([]),
  trace: TraceSchema.optional(),
});

export type Scenario = z.output<typeof ScenarioSchema>;

export function parseScenario(text: string, file: string): Scenario {
  return validate(ScenarioSchema, parseTomlFile(text, file), file);
}
