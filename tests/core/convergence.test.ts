import { describe, expect, it } from 'vitest';
import { createSimWorld, type IntegratorKind, type SimWorld } from '../../src/ecs/world';
import { spawnBody } from '../../src/ecs/prefabs';
import { makeIntegrateBodies } from '../../src/systems/sim/integrate-bodies';

/**
 * Smooth problem with an exact solution: a body on an isotropic linear spring F = −k r (gravity off),
 * started at r = (A, 0, 0), v = (0, 0, 0) → x(t) = A cos(√(k/m) t). Global error at t = 1 s for dt and dt/2;
 * the ratio approaches 2^p with p = 1 (Euler), 2 (midpoint), 4 (RK4).
 */
const K = 40,
  M = 2,
  A = 0.5,
  T = 1;

function springForces(world: SimWorld): void {
  const b = world.c.RigidBody;
  for (const eid of [1]) {
    b.fx[eid] = -K * b.px[eid]!;
    b.fy[eid] = -K * b.py[eid]!;
    b.fz[eid] = -K * b.pz[eid]!;
    b.tx[eid] = 0;
    b.ty[eid] = 0;
    b.tz[eid] = 0;
  }
}

function errorAt(integrator: IntegratorKind, dt: number): number {
  const w = createSimWorld({ integrator, dt, gravity: 0 });
  const e = spawnBody(w, { mass: M, inertia: [1, 1, 1], position: [A, 0, 0], gravity: false });
  expect(e).toBe(1);
  const step = makeIntegrateBodies(springForces);
  const n = Math.round(T / dt);
  for (let i = 0; i < n; i++) {
    springForces(w);
    step(w);
  }
  return Math.abs(w.c.RigidBody.px[e]! - A * Math.cos(Math.sqrt(K / M) * n * dt));
}

describe('convergence order (halving dt)', () => {
  it.each([
    ['euler', 2, 0.004],
    ['midpoint', 4, 0.004],
    ['rk4', 16, 0.01],
  ] as const)('%s error shrinks ≈ %i× when dt halves', (integ, ratio, dt) => {
    const r = errorAt(integ, dt) / errorAt(integ, dt / 2);
    // Asymptotic ratio 2^p; allow ±15 % for the higher-order terms still present at these step sizes.
    expect(r).toBeGreaterThan(ratio * 0.85);
    expect(r).toBeLessThan(ratio * 1.15);
  });
});
