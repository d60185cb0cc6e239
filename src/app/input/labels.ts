/**
 * Human labels for the controls screen: action names ("Shift up", not `shiftUp`), W3C standard-mapping
 * gamepad names (A/B/X/Y, LB/RB, LT/RT, Back/Start, L3/R3, D-pad, sticks) and key names. Pads that do not
 * report the standard mapping (wheels, pedals) get plain "Button 17" / "Axis 5".
 */
import type { Action, Binding } from './actions';

export const ACTION_LABELS: Record<Action, string> = {
  steer: 'Steering',
  throttle: 'Throttle',
  brake: 'Brake',
  clutch: 'Clutch',
  handbrake: 'Handbrake',
  shiftUp: 'Shift up',
  shiftDown: 'Shift down',
  camera: 'Change camera',
  pause: 'Pause',
  recover: 'Recover car',
  perf: 'Performance overlay',
  telemetry: 'Telemetry panel',
  instructor: 'Instructor action',
};

/** Names of the two halves of a bipolar action (index 0 = negative half). */
export const HALF_LABELS: Partial<Record<Action, readonly [string, string]>> = {
  steer: ['Steer left', 'Steer right'],
};

/** W3C Gamepad "standard" layout, button index → name. */
export const STANDARD_BUTTON_NAMES: readonly string[] = [
  'A', 'B', 'X', 'Y', 'LB', 'RB', 'LT', 'RT', 'Back', 'Start', 'L3', 'R3',
  'D-pad up', 'D-pad down', 'D-pad left', 'D-pad right', 'Home',
];

/** Standard layout axes: [name, negative direction, positive direction]. */
const STANDARD_AXES: readonly (readonly [string, string, string])[] = [
  ['Left stick', '←', '→'],
  ['Left stick', '↑', '↓'],
  ['Right stick', '←', '→'],
  ['Right stick', '↑', '↓'],
];

const KEY_NAMES: Record<string, string> = {
  ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓',
  ShiftLeft: 'Left Shift', ShiftRight: 'Right Shift', ControlLeft: 'Left Ctrl', ControlRight: 'Right Ctrl',
  AltLeft: 'Left Alt', AltRight: 'Right Alt', Backquote: '`', Minus: '-', Equal: '=', BracketLeft: '[',
  BracketRight: ']', Semicolon: ';', Quote: "'", Comma: ',', Period: '.', Slash: '/', Backslash: '\\',
  Escape: 'Esc', Enter: 'Enter', Space: 'Space', Backspace: 'Backspace', Tab: 'Tab',
};

export function keyLabel(code: string): string {
  if (KEY_NAMES[code]) return KEY_NAMES[code];
  const m = /^(?:Key|Digit)(.)$/.exec(code) ?? /^Numpad(.+)$/.exec(code);
  if (m) return code.startsWith('Numpad') ? `Num ${m[1]}` : m[1]!;
  return code;
}

export function buttonLabel(index: number, standard = true): string {
  return (standard && STANDARD_BUTTON_NAMES[index]) || `Button ${index}`;
}

/** Physical side of the axis a binding reads: −1, +1, or 0 for the whole axis ('full' / 'unit'). */
export function axisSide(b: Extract<Binding, { type: 'axis' }>): -1 | 0 | 1 {
  if (b.range === 'full' || b.range === 'unit') return 0;
  const s = b.range === 'pos' ? 1 : -1;
  return (b.invert ? -s : s) as -1 | 1;
}

export function axisLabel(b: Extract<Binding, { type: 'axis' }>, standard = true): string {
  const std = standard ? STANDARD_AXES[b.index] : undefined;
  const side = axisSide(b);
  const name = std ? std[0] : `Axis ${b.index}`;
  const dirs = std ? [std[1], std[2]] : ['−', '+'];
  const dir = side === 0 ? (b.range === 'unit' ? ' (pedal)' : ` ${dirs[0]}${dirs[1]}`) : ` ${side < 0 ? dirs[0] : dirs[1]}`;
  const inv = b.invert && side === 0 ? ' inverted' : '';
  return `${name}${dir}${inv}`;
}

/** Human label of one binding ("LB", "Left stick ←", "Left Shift"). */
export function bindingLabel(b: Binding, standard = true): string {
  if (b.type === 'key') return keyLabel(b.code);
  if (b.type === 'button') return buttonLabel(b.index, standard);
  return axisLabel(b, standard);
}
