/**
 * The simulation world: a bitecs 0.4 world whose context holds the component stores (SoA typed arrays),
 * the fixed step, the integrator choice, simulation time and tick, the seeded PRNG, the ground, and the
 * event list that systems append to (collisions, checkpoints…) and runners drain.
 */
import { addComponent, addEntity, createWorld, type World } from 'bitecs';
import { createComponents, type Components } from './components';
import { Prng } from './prng';
import { FlatGround, type Ground } from './ground';
import { rigidBodyBlock } from '../systems/sim/rigid-body';

export type IntegratorKind = 'euler' | 'midpoint' | 'rk4';
export const INTEGRATORS: readonly IntegratorKind[] = ['euler', 'midpoint', 'rk4'];

/** A simulation event (collision, checkpoint, …). `t` is simulation time in s. */
export interface SimEvent {
  t: number;
  tick: number;
  kind: string;
  [key: string]: unknown;
}

/**
 * A block of integrable state (rigid bodies, wheel spin and travel, engine…). The integrator gathers every
 * block into one vector so that midpoint and RK4 advance all coupled degrees of freedom together.
 */
export interface StateBlock {
  name: string;
  /** Number of scalars this block holds now. */
  size(world: SimWorld): number;
  gather(world: SimWorld, y: Float64Array, offset: number): void;
  /** Write state from y and refresh derived quantities (velocities, rotation matrices…). */
  scatter(world: SimWorld, y: Float64Array, offset: number): void;
  /** dy/dt from the current accumulators (force passes have just run at the scattered state). */
  derivative(world: SimWorld, dy: Float64Array, offset: number): void;
  /** Semi-implicit (symplectic) Euler step from the current accumulators. */
  stepEuler(world: SimWorld, dt: number): void;
  /** Re-normalise (quaternions) after a step. */
  normalize?(world: SimWorld): void;
  /**
   * Optional fused forms the integrator prefers (same bits as the plain ones, fewer passes):
   * `stage` writes state = y0 + h·k straight into the components (= `y[i] = y0[i] + h·k[i]` then `scatter`,
   * then `normalize` when `last`); `scatterNormalized` = `scatter` then `normalize`, the derived quantities
   * refreshed once.
   */
  stage?(world: SimWorld, y0: Float64Array, k: Float64Array, h: number, offset: number, last: boolean): void;
  scatterNormalized?(world: SimWorld, y: Float64Array, offset: number): void;
}

export interface SimWorldContext {
  c: Components;
  capacity: number;
  dt: number;
  integrator: IntegratorKind;
  tick: number;
  time: number;
  rng: Prng;
  seed: number;
  gravity: { x: number; y: number; z: number };
  ground: Ground;
  events: SimEvent[];
  stateBlocks: StateBlock[];
  /** Per-world scratch vectors for the integrator (grown on demand). */
  scratch: { y0: Float64Array; y: Float64Array; k: Float64Array; acc: Float64Array };
}

export type SimWorld = World<SimWorldContext>;

export interface SimWorldOptions {
  dt?: number;
  integrator?: IntegratorKind;
  seed?: number;
  capacity?: number;
  gravity?: number;
  ground?: Ground;
}

export const DEFAULT_DT = 1 / 500;

export function createSimWorld(opts: SimWorldOptions = {}): SimWorld {
  const capacity = opts.capacity ?? 1024;
  const dt = opts.dt ?? DEFAULT_DT;
  if (!(dt > 0) || !Number.isFinite(dt)) throw new Error(`world: dt must be a positive number of seconds, found ${dt}`);
  const seed = opts.seed ?? 1;
  const ctx: SimWorldContext = {
    c: createComponents(capacity),
    capacity,
    dt,
    integrator: opts.integrator ?? 'midpoint',
    tick: 0,
    time: 0,
    rng: new Prng(seed),
    seed,
    gravity: { x: 0, y: -(opts.gravity ?? 9.81), z: 0 },
    ground: opts.ground ?? new FlatGround(0),
    events: [],
    stateBlocks: [rigidBodyBlock],
    scratch: { y0: new Float64Array(0), y: new Float64Array(0), k: new Float64Array(0), acc: new Float64Array(0) },
  };
  return createWorld(ctx);
}

/** addEntity with a capacity check (the stores are fixed-size typed arrays). */
export function spawnEntity(world: SimWorld): number {
  const eid = addEntity(world);
  if (eid >= world.capacity) throw new Error(`world: entity capacity ${world.capacity} exceeded`);
  return eid;
}

export function attach(world: SimWorld, eid: number, store: object): void {
  addComponent(world, eid, store);
}

export function emitEvent(world: SimWorld, kind: string, data: Record<string, unknown>): void {
  world.events.push({ t: world.time, tick: world.tick, kind, ...data });
}
