/**
 * Town mode's instructor action is an input action like the others (src/app/input/actions.ts): default I and the
 * pad's D-pad up, which no other action's defaults use (the D-pad's other buttons and the face buttons drive);
 * remappable; listed on the Controls screen with its label; settings saved before it existed load with its
 * defaults.
 */
import { describe, expect, it } from 'vitest';
import { ActionMixer, ALL_ACTIONS, DEFAULT_BINDINGS, DEFAULT_SMOOTHING, DEFAULT_TUNING, PadButton, readActions, type DeviceSnapshot } from '../../src/app/input/actions';
import { ALL_SLOTS, slotLabel } from '../../src/app/input/bindings';
import { defaultSettings, parseSettings } from '../../src/app/settings';

const snap = (keys: string[] = [], buttons: Record<number, number> = {}): DeviceSnapshot => {
  const b = new Array<number>(17).fill(0);
  for (const [i, v] of Object.entries(buttons)) b[Number(i)] = v;
  return { axes: [0, 0, 0, 0], buttons: b, keys: new Set(keys) };
};

/** The instructor action's value after one frame (the mixer turns button actions into 0/1). */
const instructor = (s: DeviceSnapshot, bindings = defaultSettings().bindings): number => new ActionMixer().update(readActions(s, bindings, DEFAULT_TUNING), DEFAULT_SMOOTHING, 1 / 60).instructor;

describe('instructor action', () => {
  it('defaults to I and D-pad up, which no other action uses', () => {
    expect(ALL_ACTIONS).toContain('instructor');
    expect(DEFAULT_BINDINGS.instructor).toEqual([{ type: 'button', index: PadButton.Up }, { type: 'key', code: 'KeyI' }]);
    expect(instructor(snap(['KeyI']))).toBe(1);
    expect(instructor(snap([], { [PadButton.Up]: 1 }))).toBe(1);
    expect(instructor(snap())).toBe(0);
    for (const a of ALL_ACTIONS) {
      if (a === 'instructor') continue;
      for (const b of DEFAULT_BINDINGS[a]) {
        expect(b.type === 'key' && b.code === 'KeyI').toBe(false);
        expect(b.type === 'button' && b.index === PadButton.Up).toBe(false);
      }
    }
  });

  it('remapped: the new inputs act, the old ones do not', () => {
    const s = defaultSettings();
    s.bindings.instructor = [{ type: 'button', index: PadButton.Down }, { type: 'key', code: 'KeyO' }];
    expect(instructor(snap(['KeyO']), s.bindings)).toBe(1);
    expect(instructor(snap([], { [PadButton.Down]: 1 }), s.bindings)).toBe(1);
    expect(instructor(snap(['KeyI']), s.bindings)).toBe(0);
    expect(instructor(snap([], { [PadButton.Up]: 1 }), s.bindings)).toBe(0);
  });

  it('has a row on the Controls screen, and old settings get its defaults', () => {
    const slot = ALL_SLOTS.find((s) => s.action === 'instructor');
    expect(slot).toBeDefined();
    expect(slotLabel(slot!)).toMatch(/^Instructor/);
    const old = defaultSettings() as unknown as { bindings: Record<string, unknown> };
    delete old.bindings.instructor;
    const { settings, problems } = parseSettings(JSON.parse(JSON.stringify(old)));
    expect(problems).toEqual([]);
    expect(settings.bindings.instructor).toEqual(DEFAULT_BINDINGS.instructor);
  });
});
