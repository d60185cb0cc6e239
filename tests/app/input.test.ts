import { describe, expect, it } from 'vitest';
import {
  ActionMixer,
  DEFAULT_BINDINGS,
  DEFAULT_SMOOTHING,
  DEFAULT_TUNING,
  readActions,
  readBinding,
  shapeAxis,
  smoothToward,
  toRawInput,
  type Binding,
  type DeviceSnapshot,
} from '../../src/app/input/actions';

const snap = (axes: number[] = [], buttons: number[] = [], keys: string[] = []): DeviceSnapshot => ({ axes, buttons, keys: new Set(keys) });

describe('binding reads', () => {
  it('maps axis ranges: full, pos, neg, unit (wheel pedal −1 → 0, +1 → 1), invert', () => {
    const s = snap([-0.5, 0.25, -1, 1]);
    expect(readBinding({ type: 'axis', index: 0, range: 'full' }, s)).toBe(-0.5);
    expect(readBinding({ type: 'axis', index: 0, range: 'neg' }, s)).toBe(0.5);
    expect(readBinding({ type: 'axis', index: 0, range: 'pos' }, s)).toBe(0);
    expect(readBinding({ type: 'axis', index: 2, range: 'unit' }, s)).toBe(0);
    expect(readBinding({ type: 'axis', index: 3, range: 'unit' }, s)).toBe(1);
    expect(readBinding({ type: 'axis', index: 1, range: 'unit' }, s)).toBe(0.625);
    expect(readBinding({ type: 'axis', index: 3, range: 'unit', invert: true }, s)).toBe(0);
  });
  it('reads triggers as analog button values and NaN / missing values as 0', () => {
    const s = snap([NaN], [0, 0, 0, 0, 0, 0, 0.3, 0.75]);
    expect(readBinding({ type: 'button', index: 7 }, s)).toBe(0.75);
    expect(readBinding({ type: 'axis', index: 0, range: 'full' }, s)).toBe(0);
    expect(readBinding({ type: 'axis', index: 9, range: 'full' }, s)).toBe(0);
    expect(readBinding({ type: 'button', index: 30 }, s)).toBe(0);
  });
});

describe('axis shaping', () => {
  it('is 0 inside the deadzone, continuous at its edge and reaches 1 at full deflection', () => {
    const t = { deadzone: 0.1, linearity: 1 };
    expect(shapeAxis(0.1, t)).toBe(0);
    expect(shapeAxis(0.1 + 1e-9, t)).toBeCloseTo(0, 7);
    expect(shapeAxis(1, t)).toBe(1);
    expect(shapeAxis(-1, t)).toBe(-1);
    // linear rescale: (0.55 − 0.1)/(0.9) = 0.5
    expect(shapeAxis(0.55, t)).toBeCloseTo(0.5, 12);
  });
  it('applies the response exponent and keeps the sign', () => {
    expect(shapeAxis(-0.5, { deadzone: 0, linearity: 2 })).toBeCloseTo(-0.25, 12);
  });
});

describe('readActions with default bindings', () => {
  it('steer from stick, throttle from RT, brake from LT; keys come back as digital targets', () => {
    const buttons = new Array(17).fill(0);
    buttons[7] = 0.8;
    buttons[6] = 0.2;
    const r = readActions(snap([0.5], buttons, ['KeyA']), DEFAULT_BINDINGS, DEFAULT_TUNING);
    const st = DEFAULT_TUNING.steer;
    expect(r.analog.steer).toBeCloseTo(Math.pow((0.5 - st.deadzone) / (1 - st.deadzone), st.linearity), 12);
    expect(r.analog.throttle).toBeCloseTo((0.8 - 0.04) / 0.96, 12);
    expect(r.analog.brake).toBeCloseTo((0.2 - 0.04) / 0.96, 12);
    expect(r.digital.steer).toBe(-1);
  });
  it('remapping steer to a wheel axis 2 and throttle to a unit-range pedal on axis 5 works', () => {
    const b = structuredClone(DEFAULT_BINDINGS);
    b.steer = [{ type: 'axis', index: 2, range: 'full' } as Binding];
    b.throttle = [{ type: 'axis', index: 5, range: 'unit' } as Binding];
    const r = readActions(snap([0, 0, -1, 0, 0, 0]), b, { ...DEFAULT_TUNING, steer: { deadzone: 0, linearity: 1 }, throttle: { deadzone: 0, linearity: 1 } });
    expect(r.analog.steer).toBe(-1);
    expect(r.analog.throttle).toBe(0.5);
  });
});

describe('keyboard smoothing', () => {
  it('ramps at the rise rate and never overshoots', () => {
    let v = 0;
    for (let i = 0; i < 10; i++) v = smoothToward(v, 1, 2.5, 4, 0.01);
    expect(v).toBeCloseTo(0.25, 12); // 10 × 0.01 s × 2.5 /s
    for (let i = 0; i < 100; i++) v = smoothToward(v, 1, 2.5, 4, 0.01);
    expect(v).toBe(1);
  });
  it('returns to centre at the fall rate, also when reversing', () => {
    expect(smoothToward(1, 0, 2.5, 4, 0.1)).toBeCloseTo(0.6, 12);
    expect(smoothToward(0.2, -1, 2.5, 4, 0.1)).toBeCloseTo(-0.2, 12);
  });
  it('mixer: a held key reaches full throttle after 1/pedalSpeed seconds; pad and key combine by magnitude', () => {
    const m = new ActionMixer();
    const sm = { ...DEFAULT_SMOOTHING, pedalSpeed: 5 };
    let out = m.update(readActions(snap([], [], ['ArrowUp']), DEFAULT_BINDINGS, DEFAULT_TUNING), sm, 0.1);
    expect(out.throttle).toBeCloseTo(0.5, 12);
    out = m.update(readActions(snap([], [], ['ArrowUp']), DEFAULT_BINDINGS, DEFAULT_TUNING), sm, 0.1);
    expect(out.throttle).toBe(1);
    const raw = toRawInput(out);
    expect(raw.throttle).toBe(1);
  });
  it('toRawInput flips steer to the sim convention (+ = left)', () => {
    const m = new ActionMixer();
    const out = m.update(readActions(snap([1]), DEFAULT_BINDINGS, DEFAULT_TUNING), DEFAULT_SMOOTHING, 0.016);
    expect(out.steer).toBe(1);
    expect(toRawInput(out).steer).toBe(-1);
  });
});

describe('response curves for every analog action, applied before quantisation', () => {
  it('each analog action takes its own deadzone and gamma; the quantised input is the shaped value', async () => {
    const { quantizeInput } = await import('../../src/ecs/controls');
    const tuning = {
      steer: { deadzone: 0.1, linearity: 2 },
      throttle: { deadzone: 0.2, linearity: 0.5 },
      brake: { deadzone: 0, linearity: 3 },
      clutch: { deadzone: 0.5, linearity: 1 },
      handbrake: { deadzone: 0.3, linearity: 1 },
    };
    const b = structuredClone(DEFAULT_BINDINGS);
    b.clutch = [{ type: 'axis', index: 3, range: 'pos' }];
    b.handbrake = [{ type: 'axis', index: 4, range: 'neg' }];
    const buttons = new Array(17).fill(0);
    buttons[7] = 0.6; // RT: throttle
    buttons[6] = 0.5; // LT: brake
    const r = readActions(snap([-0.55, 0, 0, 0.75, -0.2], buttons), b, tuning);
    // out = sign · ((|v| − dz)/(1 − dz))^γ
    const expected = {
      steer: -Math.pow(0.45 / 0.9, 2),
      throttle: Math.pow(0.4 / 0.8, 0.5),
      brake: Math.pow(0.5, 3),
      clutch: 0.25 / 0.5,
      handbrake: 0, // inside its deadzone
    };
    for (const [k, v] of Object.entries(expected)) expect(r.analog[k as keyof typeof expected]).toBeCloseTo(v, 12);
    const q = quantizeInput(toRawInput(new ActionMixer().update(r, DEFAULT_SMOOTHING, 0.016)));
    expect(q).toMatchObject({
      steer: Math.round(-expected.steer * 1000),
      throttle: Math.round(expected.throttle * 1000),
      brake: Math.round(expected.brake * 1000),
      clutch: 500,
      handbrake: 0,
    });
  });
});
