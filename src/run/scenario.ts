/**
 * Builds a world from a validated scenario and steps it; pure (no fs, no clock) so tests and the CLI share it.
 */
import { createSimWorld, type SimWorld, type SimEvent } from '../ecs/world';
import { spawnBody, setAppliedForce } from '../ecs/prefabs';
import { stepRun } from './step';
import { stateHash } from '../ecs/hash';
import { carTraceField, scenarioGround, setupScenarioCars, type ScenarioResources } from '../systems/sim/vehicle/scenario-cars';
import { setupScenarioAi } from '../systems/sim/ai/scenario-ai';
import type { Scenario } from '../content/scenario-schema';
import { MAX_SCENARIO_TICKS, scenarioTicks } from '../content/scenario-limits';
import { ContentError } from '../validate/errors';
import { collisionTraceResolver, setupScenarioCollisions } from '../systems/sim/collision/scenario-setup';

export interface ScenarioEntity {
  id: string;
  eid: number;
  kind: 'body' | string;
}

export interface ScenarioRun {
  world: SimWorld;
  entities: ScenarioEntity[];
  scenario: Scenario;
}

/** Resolves a trace field `<id>.<field>` to a getter, or null if this resolver does not know it. */
export type TraceResolver = (run: ScenarioRun, entity: ScenarioEntity, field: string) => ((w: SimWorld) => number) | null;

const bodyFields: Record<string, (w: SimWorld, e: number) => number> = {
  x: (w, e) => w.c.RigidBody.px[e]!,
  y: (w, e) => w.c.RigidBody.py[e]!,
  z: (w, e) => w.c.RigidBody.pz[e]!,
  vx: (w, e) => w.c.RigidBody.vx[e]!,
  vy: (w, e) => w.c.RigidBody.vy[e]!,
  vz: (w, e) => w.c.RigidBody.vz[e]!,
  wx: (w, e) => w.c.RigidBody.wx[e]!,
  wy: (w, e) => w.c.RigidBody.wy[e]!,
  wz: (w, e) => w.c.RigidBody.wz[e]!,
  qw: (w, e) => w.c.RigidBody.qw[e]!,
  qx: (w, e) => w.c.RigidBody.qx[e]!,
  qy: (w, e) => w.c.RigidBody.qy[e]!,
  qz: (w, e) => w.c.RigidBody.qz[e]!,
  Lx: (w, e) => w.c.RigidBody.Lx[e]!,
  Ly: (w, e) => w.c.RigidBody.Ly[e]!,
  Lz: (w, e) => w.c.RigidBody.Lz[e]!,
  speed: (w, e) => Math.hypot(w.c.RigidBody.vx[e]!, w.c.RigidBody.vy[e]!, w.c.RigidBody.vz[e]!),
};

/** Trace resolvers, tried in order; later issues (cars…) push their own. */
export const traceResolvers: TraceResolver[] = [
  (_run, ent, field) => {
    const f = bodyFields[field];
    return f ? (w) => f(w, ent.eid) : null;
  },
  collisionTraceResolver,
  (_run, ent, field) => carTraceField(ent.kind, ent.eid, field),
];

export function buildScenario(s: Scenario, res: ScenarioResources = {}): ScenarioRun {
  const { ground, stage } = scenarioGround(s, res);
  const world = createSimWorld({ dt: s.dt, integrator: s.integrator, seed: s.seed, gravity: s.gravity_m_s2, ground });
  const entities: ScenarioEntity[] = [];
  const ids = new Set<string>();
  for (const body of s.bodies) {
    if (ids.has(body.id)) throw new Error(`bodies: id "${body.id}" used twice`);
    ids.add(body.id);
    const eid = spawnBody(world, {
      mass: body.mass_kg,
      inertia: body.inertia_kg_m2,
      position: body.position_m,
      orientation: body.orientation_quat,
      velocity: body.velocity_m_s,
      angularVelocity: body.angular_velocity_rad_s,
      gravity: body.gravity,
    });
    if (body.force_n.some((v) => v !== 0) || body.torque_nm.some((v) => v !== 0)) {
      setAppliedForce(world, eid, body.force_n, body.torque_nm, body.force_point_body_m);
    }
    entities.push({ id: body.id, eid, kind: 'body' });
  }
  entities.push(...setupScenarioCars(world, s, stage, ids, res));
  setupScenarioAi(world, s, stage, entities); // cars with ai = true: AI driver input (issue 8)
  setupScenarioCollisions(world, s, entities, stage);
  return { world, entities, scenario: s };
}

export function resolveTraceField(run: ScenarioRun, spec: string): (w: SimWorld) => number {
  const dot = spec.indexOf('.');
  const id = dot > 0 ? spec.slice(0, dot) : '';
  const field = spec.slice(dot + 1);
  const ent = run.entities.find((e) => e.id === id);
  if (!ent) throw new Error(`trace.fields: "${spec}" names no entity; expected one of ${run.entities.map((e) => e.id).join(', ') || '(none)'}`);
  for (const r of traceResolvers) {
    const g = r(run, ent, field);
    if (g) return g;
  }
  throw new Error(`trace.fields: "${spec}": unknown field "${field}" for ${ent.kind} "${id}"`);
}

export interface BodySummary {
  id: string;
  position: number[];
  orientation: number[];
  velocity: number[];
  angular_velocity: number[];
}

export interface ScenarioSummary {
  name: string;
  ticks: number;
  /** The most ticks a run may take (RunOptions.maxTicks, default MAX_SCENARIO_TICKS). */
  tick_budget: number;
  sim_seconds: number;
  state_hash: string;
  bodies: BodySummary[];
  events: SimEvent[];
  [extra: string]: unknown;
}

export interface RunOptions {
  /** Called after each tick (trace sampling, AI logging…). */
  onTick?: (run: ScenarioRun) => void;
  /** Tick budget: a run of more ticks is refused before it starts (default MAX_SCENARIO_TICKS). */
  maxTicks?: number;
}

/**
 * Refuses a run of more than `budget` ticks before it starts (the loader checks the same, but a Scenario can be
 * built in code). Throws a ContentError naming the scenario and duration_s.
 */
export function checkTickBudget(scenario: Scenario, budget = MAX_SCENARIO_TICKS): number {
  const ticks = scenarioTicks(scenario);
  if (!(ticks <= budget)) {
    throw new ContentError(`scenario "${scenario.name}"`, [
      `duration_s: expected duration_s / dt ≤ ${budget} ticks (the tick budget), found ${scenario.duration_s} s / ${scenario.dt} s = ${ticks} ticks; not run`,
    ]);
  }
  return ticks;
}

/** Runs the scenario to its duration; returns the summary (without wall-clock fields). */
export function runScenario(run: ScenarioRun, opts: RunOptions = {}): ScenarioSummary {
  const { world, scenario } = run;
  const budget = opts.maxTicks ?? MAX_SCENARIO_TICKS;
  const ticks = checkTickBudget(scenario, budget);
  const events: SimEvent[] = [];
  for (let i = 0; i < ticks; i++) {
    stepRun(world);
    if (world.events.length) {
      events.push(...world.events);
      world.events.length = 0;
    }
    opts.onTick?.(run);
  }
  return summarize(run, events, budget);
}

export function summarize(run: ScenarioRun, events: SimEvent[], tickBudget = MAX_SCENARIO_TICKS): ScenarioSummary {
  const { world } = run;
  const b = world.c.RigidBody;
  return {
    name: run.scenario.name,
    ticks: world.tick,
    tick_budget: tickBudget,
    sim_seconds: world.time,
    state_hash: stateHash(world),
    bodies: run.entities.map(({ id, eid }) => ({
      id,
      position: [b.px[eid]!, b.py[eid]!, b.pz[eid]!],
      orientation: [b.qw[eid]!, b.qx[eid]!, b.qy[eid]!, b.qz[eid]!],
      velocity: [b.vx[eid]!, b.vy[eid]!, b.vz[eid]!],
      angular_velocity: [b.wx[eid]!, b.wy[eid]!, b.wz[eid]!],
    })),
    events,
  };
}
