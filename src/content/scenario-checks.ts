/**
 * Cross-field checks of a scenario file, run by the loader after every key is in its own range
 * (ranges: scenario-limits.ts). Each failure names its key path, the expectation and what was found.
 */
import type { z } from 'zod';
import { rangeText } from '../validate/ranges';
import { MAX_SCENARIO_TICKS, SCENARIO_LIMITS as L, scenarioTicks, SCENE_CELL_M } from './scenario-limits';
import { dcos, dsin } from '../../terrain/dmath';

type V3 = readonly [number, number, number];
type XZ = readonly [number, number];

/** What the checks read of a scenario (the schema's output, structurally). */
interface ScenarioShape {
  dt: number;
  cars: readonly { id: string; ai: boolean; inputs: readonly unknown[] }[];
  terrain: { kind: string };
  duration_s: number;
  bodies: readonly { id: string; mass_kg: number; inertia_kg_m2: V3; orientation_quat: readonly number[]; force_n: V3; force_point_body_m: V3; torque_nm: V3 }[];
  obstacles: readonly (
    | { kind: 'wall'; a: XZ; b: XZ }
    | { kind: 'box'; center: XZ; half_extents: XZ; rot_y_deg: number }
    | { kind: 'cylinder'; center: XZ; radius: number }
  )[];
  props: readonly { position_m: XZ }[];
  trace?: { rate_hz: number; fields: readonly string[] };
}

type Ctx = z.RefinementCtx;

function fail(ctx: Ctx, path: (string | number)[], message: string, input: unknown): void {
  ctx.addIssue({ code: 'custom', path, message, input });
}

const norm = (v: readonly number[]): number => Math.hypot(...v);

/** The run's tick count within MAX_SCENARIO_TICKS (dt = 1e-300 or duration 1e300 would never finish). */
function checkTicks(s: ScenarioShape, ctx: Ctx): void {
  const ticks = scenarioTicks(s);
  if (!(ticks <= MAX_SCENARIO_TICKS)) {
    fail(ctx, ['duration_s'], `expected duration_s / dt ≤ ${MAX_SCENARIO_TICKS} ticks (the scenario tick budget; dt = ${s.dt} s)`, ticks);
  }
}

/** Rigid-body sense: principal moments obey the triangle inequality, quaternion not zero, bounded accelerations. */
function checkBody(b: ScenarioShape['bodies'][number], i: number, ctx: Ctx): void {
  const [a, bb, c] = b.inertia_kg_m2;
  const sum = a + bb + c;
  if (2 * Math.max(a, bb, c) > sum * (1 + 1e-9)) {
    fail(ctx, ['bodies', i, 'inertia_kg_m2'], 'expected principal moments with each ≤ the sum of the other two (a real mass distribution)', `[${a}, ${bb}, ${c}]`);
  }
  const qn = norm(b.orientation_quat);
  if (!(qn >= L.quatNorm[0] && qn <= L.quatNorm[1])) {
    fail(ctx, ['bodies', i, 'orientation_quat'], `expected a quaternion of norm ${rangeText(L.quatNorm[0], L.quatNorm[1])} (normalised on load)`, qn);
  }
  const f = norm(b.force_n);
  if (f / b.mass_kg > L.accelM_s2) {
    fail(ctx, ['bodies', i, 'force_n'], `expected |force_n| / mass_kg ≤ ${L.accelM_s2} m/s² (1000 g)`, f / b.mass_kg);
  }
  const tau = norm(b.torque_nm) + norm(b.force_point_body_m) * f;
  const iMin = Math.min(a, bb, c);
  if (tau / iMin > L.angularAccelRad_s2) {
    fail(ctx, ['bodies', i, 'torque_nm'], `expected (|torque_nm| + |force_point_body_m|·|force_n|) / min inertia ≤ ${L.angularAccelRad_s2} rad/s²`, tau / iMin);
  }
}

/** Axis-aligned bounding box of an obstacle, as the broad phase computes it (scene.ts `add`). */
function obstacleBox(o: ScenarioShape['obstacles'][number]): [number, number, number, number] {
  if (o.kind === 'wall') return [Math.min(o.a[0], o.b[0]), Math.max(o.a[0], o.b[0]), Math.min(o.a[1], o.b[1]), Math.max(o.a[1], o.b[1])];
  if (o.kind === 'cylinder') return [o.center[0] - o.radius, o.center[0] + o.radius, o.center[1] - o.radius, o.center[1] + o.radius];
  const r = (o.rot_y_deg * Math.PI) / 180;
  const c = Math.abs(dcos(r)), s = Math.abs(dsin(r));
  const ex = c * o.half_extents[0] + s * o.half_extents[1], ez = s * o.half_extents[0] + c * o.half_extents[1];
  return [o.center[0] - ex, o.center[0] + ex, o.center[1] - ez, o.center[1] + ez];
}

/** Wall lengths in range and the broad-phase cells all obstacles cover within the cap (memory ∝ cells). */
function checkObstacles(s: ScenarioShape, ctx: Ctx): void {
  let cells = 0;
  s.obstacles.forEach((o, i) => {
    if (o.kind === 'wall') {
      const len = Math.hypot(o.b[0] - o.a[0], o.b[1] - o.a[1]);
      if (!(len >= L.wallLengthM[0] && len <= L.wallLengthM[1])) {
        fail(ctx, ['obstacles', i], `expected wall ends a and b ${rangeText(L.wallLengthM[0], L.wallLengthM[1], 'm')} apart (ends that coincide make no wall)`, len);
      }
    }
    const [x0, x1, z0, z1] = obstacleBox(o);
    const span = (lo: number, hi: number): number => Math.floor(hi / SCENE_CELL_M) - Math.floor(lo / SCENE_CELL_M) + 1;
    cells += span(x0, x1) * span(z0, z1);
  });
  if (cells > L.obstacleCells) {
    fail(ctx, ['obstacles'], `expected obstacles covering at most ${L.obstacleCells} broad-phase cells of ${SCENE_CELL_M} m (≈ 16 km² of bounding boxes)`, cells);
  }
}

function checkProps(s: ScenarioShape, ctx: Ctx): void {
  if (s.props.length === 0) return;
  for (const axis of [0, 1] as const) {
    const v = s.props.map((p) => p.position_m[axis]);
    const spread = Math.max(...v) - Math.min(...v);
    if (spread > L.propsSpreadM) fail(ctx, ['props'], `expected props within ${L.propsSpreadM} m of each other along ${axis ? 'z' : 'x'}`, spread);
  }
}

/** The trace CSV is built in memory: samples × fields within the cap. */
function checkTrace(s: ScenarioShape, ctx: Ctx): void {
  if (!s.trace) return;
  const every = Math.max(1, Math.round(1 / (s.trace.rate_hz * s.dt)));
  const values = (Math.floor(scenarioTicks(s) / every) + 1) * s.trace.fields.length;
  if (values > L.traceValues) {
    fail(ctx, ['trace'], `expected at most ${L.traceValues} traced values (samples × fields; lower rate_hz or duration_s)`, values);
  }
}

/** Body and car ids name entities (trace fields, events): each used once. */
function checkIds(s: ScenarioShape, ctx: Ctx): void {
  const seen = new Set<string>();
  const entries: [string, number, string][] = [...s.bodies.map((b, i) => ['bodies', i, b.id] as [string, number, string]), ...s.cars.map((c, i) => ['cars', i, c.id] as [string, number, string])];
  for (const [list, i, id] of entries) {
    if (seen.has(id)) fail(ctx, [list, i, 'id'], 'expected an id not used by another body or car', id);
    seen.add(id);
  }
}

/** AI cars follow the stage road and drive themselves. */
function checkAi(s: ScenarioShape, ctx: Ctx): void {
  s.cars.forEach((c, i) => {
    if (!c.ai) return;
    if (s.terrain.kind !== 'stage') fail(ctx, ['cars', i, 'ai'], 'expected terrain.kind = "stage" for an AI car (the AI follows the stage road)', s.terrain.kind);
    if (c.inputs.length) fail(ctx, ['cars', i, 'inputs'], 'expected none with ai = true (the AI drives)', c.inputs);
  });
}

/** zod superRefine of ScenarioSchema. */
export function checkScenario(s: ScenarioShape, ctx: Ctx): void {
  checkTicks(s, ctx);
  checkIds(s, ctx);
  checkAi(s, ctx);
  s.bodies.forEach((b, i) => checkBody(b, i, ctx));
  checkObstacles(s, ctx);
  checkProps(s, ctx);
  checkTrace(s, ctx);
}
