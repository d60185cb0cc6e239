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
  it('co-driver settings persist, and a bad one falls back to its default with a message', () => {
    const st = new MemStore();
    const s = defaultSettings();
    Object.assign(s, { codriver: false, codriverVolume: 0.4, codriverTiming: 'early', codriverVoice: 'system', cornerBoards: false });
    saveSettings(st, s);
    expect(loadSettings(st).settings).toEqual(s);
    const r = parseSettings({ codriverTiming: 'whenever', codriverVolume: 2, codriver: false });
    expect(r.settings.codriverTiming).toBe('normal');
    expect(r.settings.codriverVolume).toBe(defaultSettings().codriverVolume);
    expect(r.settings.codriver).toBe(false);
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toMatch(/codriverVolume: .*found 2/);
    expect(r.problems[1]).toMatch(/codriverTiming: .*found "whenever"/);
  });
  it('the graphics preset persists; an unknown one falls back to medium with a message; the old shadows key is ignored', () => {
    const st = new MemStore();
    const s = defaultSettings();
    expect(s.graphics).toBe('medium');
    s.graphics = 'low';
    saveSettings(st, s);
    expect(loadSettings(st).settings.graphics).toBe('low');
    const r = parseSettings({ graphics: 'ultra', shadows: false });
    expect(r.settings.graphics).toBe('medium');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/graphics: .*found "ultra"/);
  });
  it('broken JSON gives defaults and one message naming the storage key', () => {
    const st = new MemStore();
    st.setItem(SETTINGS_KEY, '{oops');
    const r = loadSettings(st);
    expect(r.settings).toEqual(defaultSettings());
    expect(r.problems[0]).toContain(SETTINGS_KEY);
  });
});

describe('settings migration (version 1 → 2)', () => {
  it('a version-1 blob (no version, no profiles) loads with every field kept', () => {
    const v1 = {
      units: 'mph',
      masterVolume: 0.4,
      tuning: { steer: { deadzone: 0.12, linearity: 1.5 } },
      bindings: { throttle: [{ type: 'axis', index: 5, range: 'unit' }], shiftUp: [{ type: 'button', index: 0 }] },
    };
    const r = parseSettings(v1);
    expect(r.problems).toEqual([]);
    expect(r.settings.units).toBe('mph');
    expect(r.settings.masterVolume).toBe(0.4);
    expect(r.settings.tuning.steer).toEqual({ deadzone: 0.12, linearity: 1.5 });
    expect(r.settings.bindings.throttle).toEqual([{ type: 'axis', index: 5, range: 'unit' }]);
    expect(r.settings.bindings.shiftUp).toEqual([{ type: 'button', index: 0 }]);
    expect(r.settings.version).toBe(2);
    expect(r.settings.profiles).toEqual({});
    expect(r.settings.activeProfile).toBe('');
  });
  it('repairs the version-1 one-key steering (the other direction gets its default keys back)', () => {
    const broken = { bindings: { steer: [{ type: 'axis', index: 0, range: 'full' }, { type: 'key', code: 'KeyJ' }] } };
    const r = parseSettings(broken);
    expect(r.settings.bindings.steer).toEqual([
      { type: 'axis', index: 0, range: 'full' },
      { type: 'key', code: 'KeyJ' },
      { type: 'key', code: 'ArrowLeft', scale: -1 },
      { type: 'key', code: 'KeyA', scale: -1 },
    ]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/migrated from version 1: steer had keys for one direction only; added ←, A/);
    // a version-2 blob is taken as it is
    expect(parseSettings({ ...broken, version: 2 }).settings.bindings.steer).toEqual(broken.bindings.steer);
  });
  it('a bad profile is reported and dropped; the good ones load', () => {
    const r = parseSettings({ version: 2, profiles: { good: { tuning: { brake: { deadzone: 0.3, linearity: 1 } } }, '': {} } });
    expect(r.settings.profiles.good!.tuning.brake).toEqual({ deadzone: 0.3, linearity: 1 });
    expect(Object.keys(r.settings.profiles)).toEqual(['good']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/profiles: expected a pad id/);
  });
});
