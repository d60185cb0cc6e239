import { describe, expect, it } from 'vitest';
import { DEFAULT_BINDINGS, DEFAULT_TUNING, readActions, type Binding, type DeviceSnapshot } from '../../src/app/input/actions';
import {
  assign,
  bindingsIn,
  clearInput,
  findConflicts,
  slotLabel,
  slotsOf,
  swapInput,
  type Bindings,
  type Slot,
} from '../../src/app/input/bindings';
import { ACTION_LABELS, bindingLabel } from '../../src/app/input/labels';

const snap = (axes: number[] = [], buttons: number[] = [], keys: string[] = []): DeviceSnapshot => ({ axes, buttons, keys: new Set(keys) });
const LEFT: Slot = { action: 'steer', dir: -1 };
const RIGHT: Slot = { action: 'steer', dir: 1 };
const THROTTLE: Slot = { action: 'throttle', dir: 0 };
const fresh = (): Bindings => structuredClone(DEFAULT_BINDINGS);
const steerKeys = (b: Bindings, keys: string[]): number => readActions(snap([], [], keys), b, DEFAULT_TUNING).digital.steer;

describe('half-axis slots', () => {
  it('steer has a left and a right slot, throttle one', () => {
    expect(slotsOf('steer').map(slotLabel)).toEqual(['Steer left', 'Steer right']);
    expect(slotsOf('throttle').map(slotLabel)).toEqual(['Throttle']);
  });
  it('binding J to steer left and L to steer right drives both ways; the other half keeps its keys meanwhile', () => {
    let b = assign(fresh(), LEFT, { type: 'key', code: 'KeyJ' }).bindings;
    expect(steerKeys(b, ['KeyJ'])).toBe(-1);
    // the right half still has its default keys after the left was rebound
    expect(steerKeys(b, ['KeyD'])).toBe(1);
    expect(steerKeys(b, ['KeyA'])).toBe(0); // replaced
    b = assign(b, RIGHT, { type: 'key', code: 'KeyL' }).bindings;
    expect(steerKeys(b, ['KeyJ'])).toBe(-1);
    expect(steerKeys(b, ['KeyL'])).toBe(1);
    expect(steerKeys(b, ['KeyD'])).toBe(0);
    // keys do not touch the pad: the full stick axis still steers both ways
    expect(readActions(snap([-1]), b, DEFAULT_TUNING).analog.steer).toBe(-1);
    expect(readActions(snap([1]), b, DEFAULT_TUNING).analog.steer).toBe(1);
  });
  it('binding a pad button to steer left splits the full stick axis: its right half keeps steering right', () => {
    const b = assign(fresh(), LEFT, { type: 'button', index: 4 }).bindings;
    const t = { ...DEFAULT_TUNING, steer: { deadzone: 0, linearity: 1 } };
    const lb = [0, 0, 0, 0, 1];
    expect(readActions(snap([0], lb), b, t).analog.steer).toBe(-1);
    expect(readActions(snap([0.5]), b, t).analog.steer).toBe(0.5);
    expect(readActions(snap([-0.5]), b, t).analog.steer).toBe(0); // the left stick half was replaced by LB
    expect(bindingsIn(b, RIGHT).map((x) => bindingLabel(x))).toEqual(['Left stick →', '→', 'D']);
  });
  it('two stick halves bound to the two slots read like the full axis', () => {
    let b = fresh();
    b.steer = [];
    b = assign(b, LEFT, { type: 'axis', index: 2, range: 'neg' }).bindings;
    b = assign(b, RIGHT, { type: 'axis', index: 2, range: 'pos' }).bindings;
    const t = { ...DEFAULT_TUNING, steer: { deadzone: 0, linearity: 1 } };
    for (const v of [-1, -0.3, 0, 0.4, 1]) expect(readActions(snap([0, 0, v]), b, t).analog.steer).toBeCloseTo(v, 15);
  });
  it('rebinding a unipolar slot replaces inputs of the same kind only', () => {
    const b = assign(fresh(), THROTTLE, { type: 'key', code: 'KeyI' }).bindings;
    expect(b.throttle).toEqual([{ type: 'button', index: 7 }, { type: 'key', code: 'KeyI' }]);
  });
});

describe('conflicts', () => {
  it('the defaults have none', () => {
    expect(findConflicts(fresh())).toEqual([]);
  });
  it('one key on two actions is a conflict naming both slots; clear removes it from the other one', () => {
    const r = assign(fresh(), LEFT, { type: 'key', code: 'KeyW' });
    const c = findConflicts(r.bindings);
    expect(c).toHaveLength(1);
    expect(c[0]!.id).toBe('key:KeyW');
    expect(c[0]!.slots.map(slotLabel).sort()).toEqual(['Steer left', 'Throttle']);
    const cleared = clearInput(r.bindings, THROTTLE, 'key:KeyW');
    expect(findConflicts(cleared)).toEqual([]);
    expect(cleared.throttle.map((x) => bindingLabel(x))).toEqual(['RT', '↑']);
  });
  it('swap gives the other action what the capture replaced', () => {
    const r = assign(fresh(), LEFT, { type: 'key', code: 'KeyW' });
    expect(r.replaced.map((x) => bindingLabel(x))).toEqual(['←', 'A']);
    const sw = swapInput(r.bindings, THROTTLE, 'key:KeyW', r.replaced);
    expect(findConflicts(sw)).toEqual([]);
    expect(sw.throttle.map((x) => bindingLabel(x))).toEqual(['RT', '↑', '←', 'A']);
    // moved into a unipolar slot the keys lose the steering sign: ← now gives full throttle
    expect(readActions(snap([], [], ['ArrowLeft']), sw, DEFAULT_TUNING).digital.throttle).toBe(1);
    expect(readActions(snap([], [], ['KeyW']), sw, DEFAULT_TUNING).digital.steer).toBe(-1);
  });
  it('the same key on both steering halves is a conflict too; the two sides of one stick are not', () => {
    const b = assign(fresh(), LEFT, { type: 'key', code: 'KeyD' }).bindings;
    expect(findConflicts(b).map((c) => c.slots.map(slotLabel).sort())).toEqual([['Steer left', 'Steer right']]);
    const pedals = fresh();
    pedals.throttle = [{ type: 'axis', index: 5, range: 'pos' }];
    pedals.brake = [{ type: 'axis', index: 5, range: 'neg' }];
    expect(findConflicts(pedals)).toEqual([]);
    pedals.brake.push({ type: 'axis', index: 5, range: 'full' } as Binding);
    expect(findConflicts(pedals).map((c) => c.id)).toEqual(['axis:5+']);
  });
});

describe('labels', () => {
  it('standard-mapping names and human action labels', () => {
    expect([4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 12].map((i) => bindingLabel({ type: 'button', index: i }))).toEqual([
      'LB', 'RB', 'LT', 'RT', 'A', 'B', 'X', 'Y', 'Back', 'Start', 'L3', 'R3', 'D-pad up',
    ]);
    expect(bindingLabel({ type: 'button', index: 4 }, false)).toBe('Button 4');
    expect(bindingLabel({ type: 'axis', index: 0, range: 'full' })).toBe('Left stick ←→');
    expect(bindingLabel({ type: 'axis', index: 2, range: 'neg' })).toBe('Right stick ←');
    expect(bindingLabel({ type: 'axis', index: 5, range: 'unit' }, false)).toBe('Axis 5 (pedal)');
    expect(bindingLabel({ type: 'key', code: 'ShiftLeft' })).toBe('Left Shift');
    expect(bindingLabel({ type: 'key', code: 'KeyQ' })).toBe('Q');
    expect(ACTION_LABELS.shiftUp).toBe('Shift up');
    expect(Object.values(ACTION_LABELS).every((l) => /^[A-Z][a-z]+( [a-z]+)*$/.test(l))).toBe(true);
  });
});
