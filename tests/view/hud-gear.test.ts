/**
 * The HUD's gear display (src/systems/view/hud.ts `shownGear`): during a shift the gearbox is in neutral
 * (drivetrain.ts startShift sets gear 0 and the target in shiftTarget until shiftTimer runs out); the display
 * shows the target gear then, and the engaged gear otherwise.
 */
import { describe, expect, it } from 'vitest';
import { gearLabel, shownGear } from '../../src/systems/view/hud';

describe('gear display', () => {
  it('labels reverse, neutral and the forward gears', () => {
    expect([-1, 0, 1, 6].map(gearLabel)).toEqual(['R', 'N', '1', '6']);
  });
  it('shows the target gear during a shift, the engaged gear otherwise', () => {
    expect(shownGear(0, 3)).toBe('3'); // 2 → 3 upshift under way: neutral in the box, "3" on the HUD
    expect(shownGear(0, -1)).toBe('R');
    expect(shownGear(0, 0)).toBe('N'); // a shift to neutral shows N
    expect(shownGear(2, null)).toBe('2');
    expect(shownGear(0, null)).toBe('N');
    expect(shownGear(4, undefined)).toBe('4');
  });
});
