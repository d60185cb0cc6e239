/** Shared helpers for the vehicle tests: build a world with one car and drive it with held inputs. */
import { createSimWorld, type IntegratorKind } from '../../src/ecs/world';
import { spawnCar, type CarOptions, type CarPose } from '../../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../../src/run/pipeline';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { loadBuiltinCar } from '../../src/content/cars/index';
import type { CarConfig } from '../../src/content/car-schema';
import type { Ground, GroundSample } from '../../src/ecs/ground';

export interface Rig {
  world: ReturnType<typeof createSimWorld>;
  eid: number;
  input: HeldInput;
  cfg: CarConfig;
  run(seconds: number, each?: () => void): void;
}

export function rig(car: string | CarConfig, opts: { integrator?: IntegratorKind; ground?: Ground; pose?: Partial<CarPose>; car?: CarOptions } = {}): Rig {
  const cfg = typeof car === 'string' ? loadBuiltinCar(car) : car;
  const world = createSimWorld({ integrator: opts.integrator ?? 'midpoint', ground: opts.ground });
  const eid = spawnCar(world, cfg, { x: 0, z: 0, heading: 0, ...opts.pose }, opts.car);
  const input = new HeldInput();
  setInputSource(world, eid, input);
  return {
    world,
    eid,
    input,
    cfg,
    run(seconds, each) {
      const n = Math.round(seconds / world.dt);
      for (let i = 0; i < n; i++) {
        runTick(world);
        each?.();
      }
    },
  };
}

/** Flat ground, left half (x > 0: left of a car facing +Z) on ice, right half on tarmac. */
export class SplitMu implements Ground {
  sample(x: number, _z: number, out: GroundSample): void {
    out.h = 0;
    out.nx = 0;
    out.ny = 1;
    out.nz = 0;
    out.surface = x > 0 ? 3 : 0;
  }
}
