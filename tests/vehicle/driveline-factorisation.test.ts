/**
 * The driveline solve keeps each clamped-row set's factorisation of A_aa between solves (vehicle-block.ts,
 * `factorActive`) and replays its pivots and multipliers on the right-hand side. That must give the bits of
 * eliminating the whole system afresh: a world whose factorisations are made stale before every solve has to
 * reach the same state hash, tick by tick, as one that reuses them.
 */
import { describe, expect, it } from 'vitest';
import { rig, SplitMu, type Rig } from './helpers';
import { forcePasses } from '../../src/run/pipeline';
import { vehicles } from '../../src/systems/sim/vehicle/registry';
import { stateHash } from '../../src/ecs/hash';
import { DRIVELINE_SCRATCH_SIZE } from '../../src/systems/sim/vehicle/vehicle-block';
import type { SimWorld } from '../../src/ecs/world';

/** A launch on split μ: the clutch-pack diffs slip and lock in turn. */
function launch(): Rig {
  const r = rig('rally-awd', { ground: new SplitMu() });
  r.input.input.throttle = 1000;
  r.input.input.steer = 150;
  return r;
}

describe('driveline solve with stored factorisations', () => {
  it('matches a fresh elimination at every tick through a launch, slipping diffs and gear shifts', () => {
    const reused = launch();
    const fresh = launch();
    // Before every force evaluation of `fresh`, a zeroed solve scratch and invalid rows: the solve rebuilds A
    // (same values) and factorises every clamped set anew (nothing else in the scratch outlives a solve).
    const invalidate = (world: SimWorld): void => {
      if (world !== fresh.world) return;
      for (const rt of vehicles(world).list) {
        rt.scratch = new Float64Array(DRIVELINE_SCRATCH_SIZE);
        rt.cache.dlValid = false;
      }
    };
    forcePasses.unshift(invalidate);
    try {
      const C = reused.world.c.Car;
      const eid = reused.eid;
      let clutchSlipTicks = 0;
      let diffSlipTicks = 0;
      const gears = new Set<number>();
      const ticks = Math.round(4 / reused.world.dt);
      for (let t = 0; t < ticks; t++) {
        reused.run(reused.world.dt);
        fresh.run(fresh.world.dt);
        expect(stateHash(fresh.world)).toBe(stateHash(reused.world));
        if (C.clutchTorque[eid] !== 0 && !C.clutchSticking[eid]) clutchSlipTicks++;
        if (C.diffSticking[eid] !== 7) diffSlipTicks++;
        gears.add(C.gear[eid]!);
      }
      // The run exercised clamped rows and row rebuilds (each gear has its own ratio in the clutch row).
      expect(clutchSlipTicks).toBeGreaterThan(10);
      expect(diffSlipTicks).toBeGreaterThan(10);
      expect(gears.size).toBeGreaterThanOrEqual(3);
    } finally {
      forcePasses.splice(forcePasses.indexOf(invalidate), 1);
    }
  });
});
