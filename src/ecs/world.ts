/**
 * The simulation world: a bitecs 0.4 world whose context holds the component stores (SoA typed arrays),
 * the fixed step, the integrator choice, simulation time and tick, the seeded PRNG, the ground, and the
 * event list that systems append to (collisions, checkpoints…) and runners drain.
 */
import { addComponent, addEntity, createWorld } from 'bitecs';
import { createComponents } from './components';
import type { IntegratorKind, SimWorld, SimWorldContext } from './world-types';
import { Prng } from '../../terrain/prng';
import { FlatGround, type Ground } from './ground';
import { rigidBodyBlock } from './rigid-body';
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from '../content/world-constants';

export type { IntegratorKind, SimEvent, StateBlock, SimWorldContext, SimWorld } from './world-types';
export const INTEGRATORS: readonly IntegratorKind[] = ['euler', 'midpoint', 'rk4'];

export interface SimWorldOptions {
  /** Fixed step, s (default DEFAULT_DT). */
  dt?: number;
  integrator?: IntegratorKind;
  seed?: number;
  capacity?: number;
  /** Magnitude of gravity, acting along −Y, m/s² (default STANDARD_GRAVITY_M_S2). */
  gravity?: number;
  ground?: Ground;
}

/** The default fixed step (1/500 s), defined in src/content/world-constants.ts; re-exported for world builders. */
export { DEFAULT_DT };

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
    gravity: { x: 0, y: -(opts.gravity ?? STANDARD_GRAVITY_M_S2), z: 0 },
    ground: opts.ground ?? new FlatGround(0),
    events: [],
    course: null,
    runtime: {},
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
