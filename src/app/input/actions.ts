/**
 * Driver actions and their bindings to devices. Pure: the device layers (gamepad.ts, keyboard.ts) hand in a
 * snapshot of raw values and `readActions` maps them through the player's bindings. Everything here is
 * unit-tested in tests/app/input.test.ts.
 *
 * Sign conventions in the app layer: steer > 0 = RIGHT (as a pad stick reads); the sim wants + = left,
 * `toRawInput` converts once.
 */
import type { RawInput } from '../../ecs/controls';

export const ANALOG_ACTIONS = ['steer', 'throttle', 'brake', 'clutch', 'handbrake'] as const;
export const BUTTON_ACTIONS = ['shiftUp', 'shiftDown', 'camera', 'pause', 'recover', 'perf', 'telemetry', 'instructor'] as const;
export type AnalogAction = (typeof ANALOG_ACTIONS)[number];
export type ButtonAction = (typeof BUTTON_ACTIONS)[number];
export type Action = AnalogAction | ButtonAction;
export const ALL_ACTIONS: readonly Action[] = [...ANALOG_ACTIONS, ...BUTTON_ACTIONS];
/** Actions read as −1…+1 (bound as two half-axes on the controls screen, src/app/input/bindings.ts). */
export const BIPOLAR_ACTIONS: readonly Action[] = ['steer'];

/**
 * How an axis is read: 'full' = v ∈ [−1, 1]; 'pos' = max(v, 0); 'neg' = max(−v, 0);
 * 'unit' = (v + 1)/2 (wheel pedals that rest at −1 and read +1 fully pressed).
 */
export type AxisRange = 'full' | 'pos' | 'neg' | 'unit';

export type Binding =
  | { type: 'axis'; index: number; range: AxisRange; invert?: boolean; scale?: number }
  | { type: 'button'; index: number; scale?: number }
  | { type: 'key'; code: string; scale?: number };

/**
 * Response of one analog action to a pad axis or trigger (keys are smoothed instead). Applied in
 * `readActions`, i.e. before `quantizeInput` (src/ecs/controls.ts): the replay stores the shaped, quantised
 * value, so a replay re-simulates exactly whatever curve the player used.
 */
export interface ActionTuning {
  /** Inputs with |v| below this read 0; the rest is rescaled to start at 0. */
  deadzone: number;
  /** Response exponent (gamma): out = in^linearity (1 = linear, 2 = finer near centre, 0.5 = quicker). */
  linearity: number;
}

/** Raw device state for one frame. Axes/buttons of the active pad (empty if none), keys held. */
export interface DeviceSnapshot {
  axes: readonly number[];
  buttons: readonly number[];
  keys: ReadonlySet<string>;
}

export type ActionValues = Record<Action, number>;

export const zeroActions = (): ActionValues =>
  Object.fromEntries(ALL_ACTIONS.map((a) => [a, 0])) as ActionValues;

/** Standard-mapping gamepad button indices (W3C Gamepad "standard" layout). */
export const PadButton = {
  A: 0, B: 1, X: 2, Y: 3, LB: 4, RB: 5, LT: 6, RT: 7, Back: 8, Start: 9, LS: 10, RS: 11,
  Up: 12, Down: 13, Left: 14, Right: 15,
} as const;

export const DEFAULT_BINDINGS: Record<Action, Binding[]> = {
  steer: [
    { type: 'axis', index: 0, range: 'full' },
    { type: 'key', code: 'ArrowLeft', scale: -1 },
    { type: 'key', code: 'KeyA', scale: -1 },
    { type: 'key', code: 'ArrowRight', scale: 1 },
    { type: 'key', code: 'KeyD', scale: 1 },
  ],
  throttle: [{ type: 'button', index: PadButton.RT }, { type: 'key', code: 'ArrowUp' }, { type: 'key', code: 'KeyW' }],
  brake: [{ type: 'button', index: PadButton.LT }, { type: 'key', code: 'ArrowDown' }, { type: 'key', code: 'KeyS' }],
  clutch: [{ type: 'button', index: PadButton.LB }, { type: 'key', code: 'ShiftLeft' }],
  handbrake: [{ type: 'button', index: PadButton.X }, { type: 'key', code: 'Space' }],
  shiftUp: [{ type: 'button', index: PadButton.RB }, { type: 'key', code: 'KeyE' }],
  shiftDown: [{ type: 'button', index: PadButton.Y }, { type: 'key', code: 'KeyQ' }],
  camera: [{ type: 'button', index: PadButton.Back }, { type: 'key', code: 'KeyC' }],
  pause: [{ type: 'button', index: PadButton.Start }, { type: 'key', code: 'Escape' }, { type: 'key', code: 'KeyP' }],
  recover: [{ type: 'button', index: PadButton.RS }, { type: 'key', code: 'KeyR' }],
  perf: [{ type: 'key', code: 'F3' }, { type: 'key', code: 'Backquote' }],
  // the live telemetry panel (issue 9): left-stick click, T
  telemetry: [{ type: 'button', index: PadButton.LS }, { type: 'key', code: 'KeyT' }],
  // town mode's instructor action (issue 23): D-pad up (the other pad buttons drive), I
  instructor: [{ type: 'button', index: PadButton.Up }, { type: 'key', code: 'KeyI' }],
};

export const DEFAULT_TUNING: Record<AnalogAction, ActionTuning> = {
  steer: { deadzone: 0.08, linearity: 1.3 },
  throttle: { deadzone: 0.04, linearity: 1 },
  brake: { deadzone: 0.04, linearity: 1 },
  clutch: { deadzone: 0.05, linearity: 1 },
  handbrake: { deadzone: 0.1, linearity: 1 },
};

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);
const finite = (v: number | undefined): number => (v !== undefined && Number.isFinite(v) ? v : 0);

/** Value of one binding in the snapshot (NaN/undefined device values read as 0, never crash). */
export function readBinding(b: Binding, s: DeviceSnapshot): number {
  const scale = b.scale ?? 1;
  if (b.type === 'key') return s.keys.has(b.code) ? scale : 0;
  if (b.type === 'button') return clamp(finite(s.buttons[b.index]), 0, 1) * scale;
  let v = clamp(finite(s.axes[b.index]), -1, 1);
  if (b.invert) v = -v;
  switch (b.range) {
    case 'full':
      return v * scale;
    case 'pos':
      return Math.max(v, 0) * scale;
    case 'neg':
      return Math.max(-v, 0) * scale;
    case 'unit':
      return ((v + 1) / 2) * scale;
  }
}

/** Deadzone (rescaled so output is continuous) then response curve |v|^linearity, sign kept. */
export function shapeAxis(v: number, t: ActionTuning): number {
  const a = Math.abs(v);
  const dz = clamp(t.deadzone, 0, 0.95);
  if (a <= dz) return 0;
  const r = Math.min(1, (a - dz) / (1 - dz));
  return Math.sign(v) * Math.pow(r, Math.max(0.1, t.linearity));
}

/** Which bindings are digital (keys): those get smoothed over time instead of shaped. */
export const isDigital = (b: Binding): boolean => b.type === 'key';

export interface ReadResult {
  /** Analog part (pad axes/buttons), shaped. */
  analog: ActionValues;
  /** Digital part (keys), unshaped targets for the smoother. */
  digital: ActionValues;
}

/**
 * Map a device snapshot through the bindings. For each action the analog contributions are summed then
 * shaped; the digital (keyboard) contributions are returned separately for smoothing.
 */
export function readActions(
  s: DeviceSnapshot,
  bindings: Record<Action, Binding[]>,
  tuning: Record<AnalogAction, ActionTuning>,
): ReadResult {
  const analog = zeroActions();
  const digital = zeroActions();
  for (const action of ALL_ACTIONS) {
    let a = 0;
    let d = 0;
    for (const b of bindings[action] ?? []) {
      const v = readBinding(b, s);
      if (isDigital(b)) d += v;
      else a += v;
    }
    const bipolar = BIPOLAR_ACTIONS.includes(action);
    a = clamp(a, bipolar ? -1 : 0, 1);
    d = clamp(d, bipolar ? -1 : 0, 1);
    const t = (tuning as Partial<Record<Action, ActionTuning>>)[action];
    analog[action] = t ? shapeAxis(a, t) : a;
    digital[action] = d;
  }
  return { analog, digital };
}

/**
 * Keyboard smoothing: move `current` toward `target` at `rise` per second when moving away from 0 and at
 * `fall` per second when returning toward 0 (and when reversing). Exact: never overshoots the target.
 */
export function smoothToward(current: number, target: number, rise: number, fall: number, dt: number): number {
  const away = Math.abs(target) > Math.abs(current) && Math.sign(target) !== -Math.sign(current);
  const rate = (away ? rise : fall) * dt;
  const d = target - current;
  return Math.abs(d) <= rate ? target : current + Math.sign(d) * rate;
}

export interface SmoothingSettings {
  /** Full lock per second for keyboard steering (and rate limit for pad steering). */
  steerSpeed: number;
  /** Return-to-centre speed for keyboard steering, full lock per second. */
  steerReturn: number;
  /** Pedal ramp per second for keys. */
  pedalSpeed: number;
}

export const DEFAULT_SMOOTHING: SmoothingSettings = { steerSpeed: 2.5, steerReturn: 4, pedalSpeed: 5 };

/** Keeps the smoothed keyboard state between frames and combines it with the analog pad values. */
export class ActionMixer {
  private readonly smoothed = zeroActions();
  readonly out = zeroActions();

  update(r: ReadResult, sm: SmoothingSettings, dt: number): ActionValues {
    for (const action of ALL_ACTIONS) {
      const isAnalog = (ANALOG_ACTIONS as readonly string[]).includes(action);
      if (!isAnalog) {
        this.out[action] = Math.max(r.analog[action], r.digital[action]) > 0.5 ? 1 : 0;
        continue;
      }
      const rise = action === 'steer' ? sm.steerSpeed : sm.pedalSpeed;
      const fall = action === 'steer' ? sm.steerReturn : sm.pedalSpeed * 2;
      this.smoothed[action] = smoothToward(this.smoothed[action], r.digital[action], rise, fall, dt);
      const a = r.analog[action];
      const k = this.smoothed[action];
      // whichever device is pushed further wins (pad and keyboard can both be connected)
      this.out[action] = Math.abs(a) >= Math.abs(k) ? a : k;
    }
    return this.out;
  }

  reset(): void {
    for (const a of ALL_ACTIONS) {
      this.smoothed[a] = 0;
      this.out[a] = 0;
    }
  }
}

/**
 * App action values → the simulation's RawInput (steer sign flipped: sim + = left). Shift buttons are passed
 * as held; the controls pass (src/ecs/controls.ts) turns them into one shift per press.
 */
export function toRawInput(v: ActionValues): RawInput {
  return {
    steer: -v.steer,
    throttle: v.throttle,
    brake: v.brake,
    clutch: v.clutch,
    handbrake: v.handbrake,
    shiftUp: v.shiftUp > 0.5,
    shiftDown: v.shiftDown > 0.5,
    recover: v.recover > 0.5,
  };
}
