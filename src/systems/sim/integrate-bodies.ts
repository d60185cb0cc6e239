/**
 * Pass 8: advance every integrable state block (rigid bodies, wheels, engine…) by one fixed step with the
 * world's integrator, Deák §4.3: semi-implicit Euler, midpoint (2 evaluations) or RK4 (4).
 * The force passes have already run at the start-of-step state; midpoint and RK4 re-run them at each
 * intermediate stage through `evaluateForces`.
 */
import type { SimWorld, StateBlock } from '../../ecs/world';
import { forceStage } from '../../ecs/ground';

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
// Length of the state vector this step.
let total = 0;

function gatherAll(world: SimWorld, y: Float64Array): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) blocks[i]!.gather(world, y, offsets[i]!);
}

function derivativeAll(world: SimWorld, dy: Float64Array): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) blocks[i]!.derivative(world, dy, offsets[i]!);
}

/**
 * Components ← y0 + h·k (then normalised when `last`): each block's fused `stage` where it has one (no y
 * vector pass, one derived-quantity refresh), else the same expression into y and `scatter`/`normalize`.
 */
function stageAll(world: SimWorld, y0: Float64Array, k: Float64Array, y: Float64Array, h: number, last: boolean): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    const o = offsets[i]!;
    if (b.stage) {
      b.stage(world, y0, k, h, o, last);
      continue;
    }
    const end = i + 1 < blocks.length ? offsets[i + 1]! : total;
    for (let j = o; j < end; j++) y[j] = y0[j]! + h * k[j]!;
    b.scatter(world, y, o);
    if (last) b.normalize?.(world);
  }
}

/** Components ← y, normalised (fused where the block has `scatterNormalized`). */
function scatterNormalizedAll(world: SimWorld, y: Float64Array): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.scatterNormalized) b.scatterNormalized(world, y, offsets[i]!);
    else {
      b.scatter(world, y, offsets[i]!);
      b.normalize?.(world);
    }
  }
}

const hasDerivativeStage = (b: StateBlock): boolean => b.derivativeStage !== undefined;

/** Each block's fused derivative and stage (`StateBlock.derivativeStage`), in block order. */
function derivativeStageAll(world: SimWorld, y0: Float64Array, h: number, last: boolean): void {
  const blocks = world.stateBlocks;
  for (let i = 0; i < blocks.length; i++) blocks[i]!.derivativeStage!(world, y0, h, offsets[i]!, last);
}

export function makeIntegrateBodies(evaluateForces: (world: SimWorld) => void): (world: SimWorld) => void {
  /** The force passes at the midpoint stage: wheel contacts from the start-of-step ground patches (ecs/ground.ts). */
  function evaluateMidpointForces(world: SimWorld): void {
    forceStage.midpointStage = true;
    try {
      evaluateForces(world);
    } finally {
      forceStage.midpointStage = false;
    }
  }
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
    total = n;
    ensure(world, n);
    const { y0, y, k, acc } = world.scratch;
    gatherAll(world, y0);
    // Stage states y0 + h·k evaluate exactly as before the fusion (h = 0.5·dt or dt computed first, then
    // y0 + h·k), so results are bit-identical to gather → axpy → scatter.
    const half = 0.5 * dt;
    if (world.integrator === 'midpoint' && blocks.every(hasDerivativeStage)) {
      derivativeStageAll(world, y0, half, false); // k1 at y0, state ← y0 + ½dt·k1
      evaluateMidpointForces(world);
      derivativeStageAll(world, y0, dt, true); // k2 at the midpoint, state ← y0 + dt·k2
      return;
    }
    derivativeAll(world, k); // k1 at y0
    if (world.integrator === 'midpoint') {
      stageAll(world, y0, k, y, half, false);
      evaluateMidpointForces(world);
      derivativeAll(world, k); // k2 at the midpoint
      stageAll(world, y0, k, y, dt, true);
      return;
    }
    for (let i = 0; i < n; i++) acc[i] = k[i]!;
    stageAll(world, y0, k, y, half, false);
    evaluateForces(world);
    derivativeAll(world, k); // k2
    for (let i = 0; i < n; i++) acc[i] = acc[i]! + 2 * k[i]!;
    stageAll(world, y0, k, y, half, false);
    evaluateForces(world);
    derivativeAll(world, k); // k3
    for (let i = 0; i < n; i++) acc[i] = acc[i]! + 2 * k[i]!;
    stageAll(world, y0, k, y, dt, false);
    evaluateForces(world);
    derivativeAll(world, k); // k4
    const sixth = dt / 6;
    for (let i = 0; i < n; i++) y[i] = y0[i]! + sixth * (acc[i]! + k[i]!);
    scatterNormalizedAll(world, y);
  };
}
