/**
 * Junction pieces: the degree of visibility of Félez Figure 10 (angle between a driver's heading and the line
 * to the other vehicle) and the oriented-box contact test.
 */
import { describe, expect, it } from 'vitest';
import { boxesOverlap, visibilityAngle } from '../../src/systems/sim/traffic/index';

describe('visibility angle (Félez Fig. 10)', () => {
  it('is the angle between the heading and the line to the other vehicle', () => {
    // heading ψ = 0 is +Z; a vehicle at (1, 1) is 45° to the left-of-+Z side (+X = bearing +π/4)
    expect(visibilityAngle(0, 0, 0, 1, 1)).toBeCloseTo(Math.PI / 4, 14);
    expect(visibilityAngle(0, 0, 0, 0, 5)).toBeCloseTo(0, 14);
    expect(visibilityAngle(0, 0, 0, 0, -5)).toBeCloseTo(Math.PI, 14);
    expect(visibilityAngle(0, 0, Math.PI / 2, 3, 0)).toBeCloseTo(0, 14);
  });
  it('of two drivers meeting at right angles, the one with the other dead ahead sees it best', () => {
    // A at (0,−10) heading +Z toward the junction; B at (−10, 0) heading +X
    const aSeesB = visibilityAngle(0, -10, 0, -10, 0);
    const bSeesA = visibilityAngle(-10, 0, Math.PI / 2, 0, -10);
    expect(aSeesB).toBeCloseTo(Math.PI / 4, 12);
    expect(bSeesA).toBeCloseTo(Math.PI / 4, 12);
  });
});

describe('box contact (separating axes)', () => {
  const box = (x: number, z: number, psi: number) => ({ x, z, fx: Math.sin(psi), fz: Math.cos(psi), hl: 2.2, hw: 0.9 });
  it('touches exactly when the rectangles overlap', () => {
    // nose to tail along Z: lengths 4.4 → touching below 4.4 m centre distance
    expect(boxesOverlap(box(0, 0, 0), box(0, 4.39, 0))).toBe(true);
    expect(boxesOverlap(box(0, 0, 0), box(0, 4.41, 0))).toBe(false);
    // side by side: widths 1.8
    expect(boxesOverlap(box(0, 0, 0), box(1.79, 0, 0))).toBe(true);
    expect(boxesOverlap(box(0, 0, 0), box(1.81, 0, 0))).toBe(false);
    // crossed at 90°: half length + half width = 3.1
    expect(boxesOverlap(box(0, 0, 0), box(3.09, 0, Math.PI / 2))).toBe(true);
    expect(boxesOverlap(box(0, 0, 0), box(3.11, 0, Math.PI / 2))).toBe(false);
  });
});
