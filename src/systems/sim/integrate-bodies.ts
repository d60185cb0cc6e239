/**
 * Pass 8: advance every integrable state block (rigid bodies, wheels, engine…) by one fixed step with the
 * world's integrator, Deák (seed 003) §4.3: semi-implicit Euler, midpoint (2 evaluations) or RK4 (4).
 * The force passes have already run at the start-of-step state; midpoint and RK4 re-run them at each
 * intermediate stage through `evaluateForces`.
 */
import type { SimWorld } from '../../ecs/world';

function ensure(world: SimWorld, n: number): void {
  const s = world.scratch;
  if (s.y0.length < n) {
    s.y0 = new Float64Array(n);
    s.y = new Float64Array(n);
    s.k = new Float64Array(n);
    s.acc = new Float64Array(n);
  }
}

// Block offsets into the state vector, computed once per step (entities do not change inside a step).
let offsets = new Int32Array(8);

function gatherAll(world: SimWorld, y: Float64Array): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) blocks[i]!.gather(world, y, offsets[i]!);
}

function scatterAll(world: SimWorld, y: Float64Array): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) blocks[i]!.scatter(world, y, offsets[i]!);
}

function derivativeAll(world: SimWorld, dy: Float64Array): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) blocks[i]!.derivative(world, dy, offsets[i]!);
}

export function makeIntegrateBodies(evaluateForces: (world: SimWorld) => void): (world: SimWorld) => void {
  return function integrateBodies(world: SimWorld): void {
    const dt = world.dt;
    if (world.integrator === 'euler') {
      for (const b of world.stateBlocks) b.stepEuler(world, dt);
      return;
    }
    const blocks = world.stateBlocks;
    if (offsets.length < blocks.length) offsets = new Int32Array(blocks.length * 2);
    let n = 0;
    for (let i = 0; i < blocks.length; i++) {
      offsets[i] = n;
      n += blocks[i]!.size(world);
    }
    ensure(world, n);
    const { y0, y, k, acc } = world.scratch;
    gatherAll(world, y0);
    derivativeAll(world, k); // k1 at y0
    if (world.integrator === 'midpoint') {
      for (let i = 0; i < n; i++) y[i] = y0[i]! + 0.5 * dt * k[i]!;
      scatterAll(world, y);
      evaluateForces(world);
      derivativeAll(world, k); // k2 at the midpoint
      for (let i = 0; i < n; i++) y[i] = y0[i]! + dt * k[i]!;
    } else {
      for (let i = 0; i < n; i++) {
        acc[i] = k[i]!;
        y[i] = y0[i]! + 0.5 * dt * k[i]!;
      }
      scatterAll(world, y);
      evaluateForces(world);
      derivativeAll(world, k); // k2
      for (let i = 0; i < n; i++) {
        acc[i] = acc[i]! + 2 * k[i]!;
        y[i] = y0[i]! + 0.5 * dt * k[i]!;
      }
      scatterAll(world, y);
      evaluateForces(world);
      derivativeAll(world, k); // k3
      for (let i = 0; i < n; i++) {
        acc[i] = acc[i]! + 2 * k[i]!;
        y[i] = y0[i]! + dt * k[i]!;
      }
      scatterAll(world, y);
      evaluateForces(world);
      derivativeAll(world, k); // k4
      for (let i = 0; i < n; i++) y[i] = y0[i]! + (dt / 6) * (acc[i]! + k[i]!);
    }
    scatterAll(world, y);
    for (const b of world.stateBlocks) b.normalize?.(world);
  };
}
