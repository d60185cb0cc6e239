/**
 * Spray styles (src/systems/view/spray-styles.ts): the emission rule per surface. Loose surfaces spray with
 * speed (capped at SPRAY_FULL_SPEED_MS) and slip; sealed surfaces only smoke past the slip threshold; nothing
 * sprays with no wheel on the ground; every style keeps its opacity under one half (the car shows through).
 */
import { describe, expect, it } from 'vitest';
import { SPRAY_FULL_SPEED_MS, SPRAY_STYLES, sprayRate } from '../../src/systems/view/spray-styles';

describe('spray styles', () => {
  it('loose surfaces: rate = ratePerMS·min(v, cap) + ratePerSlip·slip, times contact', () => {
    for (const s of [SPRAY_STYLES.gravel, SPRAY_STYLES.snow, SPRAY_STYLES.grass]) {
      expect(sprayRate(s, 0, 0, 1)).toBe(0);
      expect(sprayRate(s, 10, 0, 1)).toBeCloseTo(10 * s.ratePerMS, 12);
      expect(sprayRate(s, 2 * SPRAY_FULL_SPEED_MS, 0, 1)).toBeCloseTo(SPRAY_FULL_SPEED_MS * s.ratePerMS, 12);
      expect(sprayRate(s, 10, 0.5, 0.5)).toBeCloseTo(0.5 * (10 * s.ratePerMS + 0.5 * s.ratePerSlip), 12);
      expect(sprayRate(s, 20, 1, 0)).toBe(0);
    }
  });

  it('tarmac and ice: no spray from speed, smoke only past the slip threshold', () => {
    for (const s of [SPRAY_STYLES.tarmac, SPRAY_STYLES.ice]) {
      expect(sprayRate(s, 40, 0, 1)).toBe(0);
      expect(sprayRate(s, 40, s.slipThreshold, 1)).toBe(0);
      expect(sprayRate(s, 40, s.slipThreshold + 0.2, 1)).toBeCloseTo(0.2 * s.ratePerSlip, 12);
    }
  });

  it('every style is translucent and sized below the car', () => {
    for (const s of Object.values(SPRAY_STYLES)) {
      expect(s.alpha).toBeLessThanOrEqual(0.5);
      expect(s.minSizeM).toBeLessThan(s.maxSizeM);
      // the largest particle is no taller than the car (the rally car's roof is ~1.4 m up)
      expect(s.maxSizeM).toBeLessThanOrEqual(1.4);
      expect(s.minLifeS).toBeLessThan(s.maxLifeS);
    }
  });
});
