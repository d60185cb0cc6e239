import { describe, expect, it } from 'vitest';
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

describe('settings', () => {
  it('round-trip through storage', () => {
    const st = new MemStore();
    const s = defaultSettings();
    s.units = 'mph';
    s.masterVolume = 0.3;
    s.bindings.steer = [{ type: 'axis', index: 3, range: 'full', invert: true }];
    saveSettings(st, s);
    const r = loadSettings(st);
    expect(r.problems).toEqual([]);
    expect(r.settings).toEqual(s);
  });
  it('keeps valid fields and names each bad one with expected and found', () => {
    const r = parseSettings({ units: 'furlongs', masterVolume: 0.5, bindings: { steer: [{ type: 'axis', index: -1, range: 'full' }], throttle: [{ type: 'button', index: 5 }] } });
    expect(r.settings.masterVolume).toBe(0.5);
    expect(r.settings.units).toBe('kmh');
    expect(r.settings.bindings.throttle).toEqual([{ type: 'button', index: 5 }]);
    expect(r.settings.bindings.steer).toEqual(defaultSettings().bindings.steer);
    expect(r.problems.length).toBe(2);
    expect(r.problems[0]).toMatch(/units/);
    expect(r.problems[0]).toMatch(/furlongs/);
    expect(r.problems[1]).toMatch(/bindings\.steer/);
  });
  it('broken JSON gives defaults and one message naming the storage key', () => {
    const st = new MemStore();
    st.setItem(SETTINGS_KEY, '{oops');
    const r = loadSettings(st);
    expect(r.settings).toEqual(defaultSettings());
    expect(r.problems[0]).toContain(SETTINGS_KEY);
  });
});
