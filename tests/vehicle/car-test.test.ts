/**
 * The built-in cars' standard car-test results land in the plausible ranges documented in docs/vehicle.md
 * (real-world references: Golf Mk7 GTI, E30 M3, Impreza WRC on tarmac).
 */
import { describe, expect, it } from 'vitest';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { runCarTests } from '../../src/run/car-test';

const RANGES: Record<string, Record<string, [number, number]>> = {
  'hatch-gti': {
    '0-100 km/h': [5.8, 7.5],
    'top speed': [225, 255],
    '100-0 km/h braking': [33, 42],
    'max steady lateral acceleration': [0.85, 1.0],
    'understeer gradient': [0.3, 3],
  },
  'classic-rwd': {
    '0-100 km/h': [6.2, 8.0],
    'top speed': [215, 245],
    '100-0 km/h braking': [34, 44],
    'max steady lateral acceleration': [0.8, 1.0],
    'understeer gradient': [0, 2.5],
  },
  'rally-awd': {
    '0-100 km/h': [3.5, 5.0],
    'top speed': [190, 230],
    '100-0 km/h braking': [33, 42],
    'max steady lateral acceleration': [0.95, 1.2],
    'understeer gradient': [0, 2.5],
  },
};

describe('car test results in documented ranges (tarmac, midpoint)', () => {
  for (const [id, ranges] of Object.entries(RANGES)) {
    it(id, () => {
      const results = runCarTests(loadBuiltinCar(id));
      for (const [name, [lo, hi]] of Object.entries(ranges)) {
        const r = results.find((x) => x.name === name);
        expect(r, name).toBeDefined();
        expect(r!.value, `${id} ${name}`).toBeGreaterThanOrEqual(lo);
        expect(r!.value, `${id} ${name}`).toBeLessThanOrEqual(hi);
      }
    });
  }
});
