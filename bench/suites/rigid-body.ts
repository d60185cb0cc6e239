/**
 * Rigid-body step cost per body for each integrator: N free bodies (gravity + a constant off-centre force,
 * so the torque path runs), one full tick of the pipeline each.
 */
import { createSimWorld, DEFAULT_DT, INTEGRATORS } from '../../src/ecs/world';
import { spawnBody, setAppliedForce } from '../../src/ecs/prefabs';
import { runTick } from '../../src/run/pipeline';
import type { BenchResult, BenchSuite } from '../types';

function measure(integrator: (typeof INTEGRATORS)[number], bodies: number, ticks: number): number {
  const world = createSimWorld({ integrator, dt: DEFAULT_DT });
  for (let i = 0; i < bodies; i++) {
    const eid = spawnBody(world, { mass: 1 + i, inertia: [1, 2, 3], position: [i, 10, 0], angularVelocity: [0.1, 3, 0.1] });
    setAppliedForce(world, eid, [0, 5, 0], [0, 0, 0], [0.5, 0, 0]);
  }
  for (let i = 0; i < Math.min(ticks, 2000); i++) runTick(world); // warm up the JIT
  const t0 = performance.now();
  for (let i = 0; i < ticks; i++) runTick(world);
  const ms = performance.now() - t0;
  return (ms * 1000) / (ticks * bodies);
}

export const suite: BenchSuite = {
  name: 'rigid-body',
  async run({ quick }) {
    const out: BenchResult[] = [];
    const ticks = quick ? 2000 : 20000;
    for (const integ of INTEGRATORS) {
      for (const n of [1, 100]) {
        out.push({
          suite: 'rigid-body',
          name: `${integ} step, ${n} bod${n === 1 ? 'y' : 'ies'}`,
          value: measure(integ, n, ticks),
          unit: 'µs/body/tick',
          note: n === 1 ? 'dominated by per-tick overhead (queries, passes)' : 'per-body cost amortised',
        });
      }
    }
    return out;
  },
};
