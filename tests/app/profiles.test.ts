import { describe, expect, it } from 'vitest';
import { DEFAULT_BINDINGS } from '../../src/app/input/actions';
import { assign } from '../../src/app/input/bindings';
import { MAX_PROFILES, padPart, switchProfile } from '../../src/app/input/profiles';
import { defaultSettings, loadSettings, saveSettings } from '../../src/app/settings';

class MemStore {
  m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, v);
  }
}

const PAD_A = 'Xbox Wireless Controller (STANDARD GAMEPAD Vendor: 045e Product: 0b13)';
const PAD_B = 'DualSense Wireless Controller (STANDARD GAMEPAD Vendor: 054c Product: 0ce6)';

describe('per-controller profiles', () => {
  it('each pad keeps its own pad bindings and tuning; a new pad gets the defaults; keys are shared', () => {
    const s = defaultSettings();
    expect(switchProfile(s, PAD_A)).toBe(true);
    expect(switchProfile(s, PAD_A)).toBe(false);
    s.bindings = assign(s.bindings, { action: 'throttle', dir: 0 }, { type: 'button', index: 5 }).bindings;
    s.bindings = assign(s.bindings, { action: 'brake', dir: 0 }, { type: 'key', code: 'KeyK' }).bindings;
    s.tuning.steer.deadzone = 0.2;
    switchProfile(s, PAD_B);
    expect(padPart(s.bindings).throttle).toEqual(padPart(DEFAULT_BINDINGS).throttle);
    expect(s.tuning.steer.deadzone).toBe(defaultSettings().tuning.steer.deadzone);
    expect(s.bindings.brake.filter((b) => b.type === 'key')).toEqual([{ type: 'key', code: 'KeyK' }]);
    switchProfile(s, PAD_A);
    expect(padPart(s.bindings).throttle).toEqual([{ type: 'button', index: 5 }]);
    expect(s.tuning.steer.deadzone).toBe(0.2);
  });
  it('the first pad adopts the bindings made before any pad (settings from before profiles)', () => {
    const s = defaultSettings();
    s.bindings.throttle = [{ type: 'axis', index: 5, range: 'unit' }];
    switchProfile(s, PAD_A);
    expect(s.bindings.throttle).toEqual([{ type: 'axis', index: 5, range: 'unit' }]);
  });
  it('profiles survive a save/load round trip; the active one is filed under its id on save', () => {
    const st = new MemStore();
    const s = defaultSettings();
    switchProfile(s, PAD_A);
    s.tuning.throttle.linearity = 2;
    saveSettings(st, s);
    const r = loadSettings(st);
    expect(r.problems).toEqual([]);
    expect(r.settings.activeProfile).toBe(PAD_A);
    expect(r.settings.profiles[PAD_A]!.tuning.throttle.linearity).toBe(2);
    expect(r.settings).toEqual(s);
  });
  it(`keeps at most ${MAX_PROFILES} profiles, dropping the oldest, never the active one`, () => {
    const s = defaultSettings();
    for (let i = 0; i < MAX_PROFILES + 5; i++) switchProfile(s, `pad ${i}`);
    expect(Object.keys(s.profiles)).toHaveLength(MAX_PROFILES);
    expect(s.profiles[`pad ${MAX_PROFILES + 4}`]).toBeDefined();
    expect(s.profiles['pad 0']).toBeUndefined();
  });
});
