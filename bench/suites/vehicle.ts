/**
 * Vehicle cost: µs per car per tick (all passes for one car: controls, tick logic, suspension/contact,
 * drivetrain, tyres, brakes/aero, driveline solve, integration) for each integrator, measured on 16 cars
 * driving on flat ground (per-car cost amortised over the world's fixed per-tick overhead) and on 1 car.
 */
import { createSimWorld, INTEGRATORS, type IntegratorKind } from '../../src/ecs/world';
import { spawnCar } from '../../src/ecs/prefab-car';
import { runTick } from '../../src/ecs/pipeline';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { loadBuiltinCar } from '../../src/content/cars/index';
import type { BenchResult, BenchSuite } from '../types';

function measure(integrator: IntegratorKind, cars: number, ticks: number): number {
  const world = createSimWorld({ integrator, dt: 1 / 500 });
  const ids = ['hatch-gti', 'classic-rwd', 'rally-awd'];
  for (let i = 0; i < cars; i++) {
    const eid = spawnCar(world, loadBuiltinCar(ids[i % 3]!), { x: i * 6, z: 0, heading: 0, speed: 15 });
    const input = new HeldInput();
    input.input = { steer: 150, throttle: 600, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
    setInputSource(world, eid, input);
  }
  for (let i = 0; i < Math.min(ticks, 1500); i++) runTick(world); // JIT warm-up
  // Process CPU time (user + system), not wall time: the shared 2-core machine is often heavily loaded, and
  // CPU time excludes the time this process waits for a core.
  const c0 = process.cpuUsage();
  for (let i = 0; i < ticks; i++) runTick(world);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / (ticks * cars);
}

export const suite: BenchSuite = {
  name: 'vehicle',
  async run({ quick }) {
    const out: BenchResult[] = [];
    const ticks = quick ? 1000 : 6000;
    for (const integ of INTEGRATORS) {
      for (const n of [1, 16]) {
        out.push({
          suite: 'vehicle',
          name: `${integ}, ${n} car${n === 1 ? '' : 's'}`,
          value: measure(integ, n, ticks),
          unit: 'µs CPU/car/tick',
          target: 5,
          lowerIsBetter: true,
          note:
            integ === 'euler'
              ? '1 force evaluation per tick'
              : integ === 'midpoint'
                ? '2 force evaluations + state gather/scatter per tick'
                : '4 force evaluations + state gather/scatter per tick',
        });
      }
    }
    return out;
  },
};
