/**
 * The types of the simulation world (what `createSimWorld` in world.ts builds), in a module of their own so that
 * the state blocks world.ts installs (rigid-body.ts) can name them without importing world.ts back.
 */
import type { World } from 'bitecs';
import type { Components, StageCourse } from './components';
import type { Prng } from '../../terrain/prng';
import type { Ground } from './ground';

export type IntegratorKind = 'euler' | 'midpoint' | 'rk4';

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
  /**
   * Optional, for the midpoint method: `derivative` at the current state, then that state ← y0 + h·derivative as
   * `stage` does, entity by entity, the derivative never stored (same bits as `derivative` then `stage`). Only for a
   * block whose derivative reads its own state and the force passes' outputs, nothing another block stages.
   */
  derivativeStage?(world: SimWorld, y0: Float64Array, h: number, offset: number, last: boolean): void;
}

/**
 * The runtime pieces a world owns beside its components (input sources, vehicle registry, collision scene and
 * Havok worlds, the guard's start-of-tick poses, an attached replay recorder…). Each owning module adds its
 * optional field to this interface (TypeScript declaration merging, `declare module` beside its accessor), so
 * every piece lives on its world: two worlds in one process never share one, and a dropped world takes its
 * pieces with it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WorldRuntime {}

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
  /** The stage the StageProgress pass times cars on (src/run/stage-progress.ts); null without a stage. */
  course: StageCourse | null;
  stateBlocks: StateBlock[];
  /** What the world's systems and owner keep for it between ticks (not state: rebuilt with the world). */
  runtime: WorldRuntime;
  /** Per-world scratch vectors for the integrator (grown on demand). */
  scratch: { y0: Float64Array; y: Float64Array; k: Float64Array; acc: Float64Array };
}

export type SimWorld = World<SimWorldContext>;
