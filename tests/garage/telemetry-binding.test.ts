/**
 * The telemetry panel toggle is an input action like the others (src/app/input/actions.ts): default T and the
 * left-stick click, remappable (keys, pad buttons, axes), saved with the settings, and settings saved before
 * the action existed still load (they get its defaults).
 */
import { describe, expect, it } from 'vitest';
import { ActionMixer, ALL_ACTIONS, DEFAULT_BINDINGS, DEFAULT_SMOOTHING, DEFAULT_TUNING, PadButton, readActions, type Binding, type DeviceSnapshot } from '../../src/app/input/actions';
import { defaultSettings, loadSettings, parseSettings, saveSettings, SETTINGS_KEY } from '../../src/app/settings';

class MemStore {
  m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, v);
  }
}

const snap = (o: { keys?: string[]; buttons?: Record<number, number>; axes?: number[] } = {}): DeviceSnapshot => {
  const buttons = new Array<number>(17).fill(0);
  for (const [i, v] of Object.entries(o.buttons ?? {})) buttons[Number(i)] = v;
  return { axes: o.axes ?? [0, 0, 0, 0], buttons, keys: new Set(o.keys ?? []) };
};

/** The telemetry action's value after one frame (the mixer turns button actions into 0/1). */
function telemetry(s: DeviceSnapshot, bindings = defaultSettings().bindings): number {
  const mixer = new ActionMixer();
  return mixer.update(readActions(s, bindings, DEFAULT_TUNING), DEFAULT_SMOOTHING, 1 / 60).telemetry;
}

describe('telemetry toggle action', () => {
  it('is an action with defaults T and the left-stick click, and nothing else reads those', () => {
    expect(ALL_ACTIONS).toContain('telemetry');
    expect(DEFAULT_BINDINGS.telemetry).toEqual([{ type: 'button', index: PadButton.LS }, { type: 'key', code: 'KeyT' }]);
    expect(telemetry(snap({ keys: ['KeyT'] }))).toBe(1);
    expect(telemetry(snap({ buttons: { [PadButton.LS]: 1 } }))).toBe(1);
    expect(telemetry(snap())).toBe(0);
    // no driving action shares its default inputs (a toggle must not also steer or shift)
    for (const a of ALL_ACTIONS) {
      if (a === 'telemetry') continue;
      for (const b of DEFAULT_BINDINGS[a]) {
        expect(b.type === 'key' && b.code === 'KeyT').toBe(false);
        expect(b.type === 'button' && b.index === PadButton.LS).toBe(false);
      }
    }
  });

  it('remapped to another key and a pad button: the new inputs toggle, the old ones do not', () => {
    const s = defaultSettings();
    s.bindings.telemetry = [{ type: 'button', index: PadButton.Y }, { type: 'key', code: 'KeyG' }];
    expect(telemetry(snap({ keys: ['KeyG'] }), s.bindings)).toBe(1);
    expect(telemetry(snap({ buttons: { [PadButton.Y]: 1 } }), s.bindings)).toBe(1);
    expect(telemetry(snap({ keys: ['KeyT'] }), s.bindings)).toBe(0);
    expect(telemetry(snap({ buttons: { [PadButton.LS]: 1 } }), s.bindings)).toBe(0);
    // a half-pressed analog trigger bound to it: on above 0.5 only (the mixer's button threshold)
    s.bindings.telemetry = [{ type: 'axis', index: 2, range: 'pos' }];
    expect(telemetry(snap({ axes: [0, 0, 0.4, 0] }), s.bindings)).toBe(0);
    expect(telemetry(snap({ axes: [0, 0, 0.6, 0] }), s.bindings)).toBe(1);
  });

  it('is saved with the settings and loads back', () => {
    const st = new MemStore();
    const s = defaultSettings();
    const mine: Binding[] = [{ type: 'button', index: 3 }, { type: 'key', code: 'KeyG' }];
    s.bindings.telemetry = mine;
    saveSettings(st, s);
    expect(JSON.parse(st.getItem(SETTINGS_KEY)!).bindings.telemetry).toEqual(mine);
    const r = loadSettings(st);
    expect(r.problems).toEqual([]);
    expect(r.settings.bindings.telemetry).toEqual(mine);
  });

  it('settings saved before the action existed get its defaults; a bad binding is named and dropped', () => {
    const old = defaultSettings() as unknown as { bindings: Record<string, unknown> };
    delete old.bindings.telemetry;
    const r = parseSettings(JSON.parse(JSON.stringify(old)));
    expect(r.problems).toEqual([]);
    expect(r.settings.bindings.telemetry).toEqual(DEFAULT_BINDINGS.telemetry);
    const bad = parseSettings({ bindings: { telemetry: [{ type: 'button', index: -2 }] } });
    expect(bad.settings.bindings.telemetry).toEqual(DEFAULT_BINDINGS.telemetry);
    expect(bad.problems).toHaveLength(1);
    expect(bad.problems[0]).toMatch(/bindings\.telemetry/);
    expect(bad.problems[0]).toMatch(/-2/);
  });
});
