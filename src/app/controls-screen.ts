/**
 * The Controls screen: one row per binding slot ("Steer left", "Steer right", "Throttle", … "Shift up"),
 * A / Enter / click captures the next key, pad button or axis move for it; Escape or B cancels a capture.
 * A captured input that is already bound elsewhere shows a conflict panel (swap / clear / keep both) and the
 * rows that share an input stay marked ⚠. Below: deadzone and response (gamma) of every analog action.
 * Pad bindings and the response belong to the connected controller's profile (src/app/input/profiles.ts).
 * All names are set as text (textContent), never as HTML.
 */
import type { AppContext } from './menus';
import { adjustable, html, registerScreen, type ScreenContext } from './screens';
import { defaultSettings } from './settings';
import { ANALOG_ACTIONS, type AnalogAction, type AxisRange, type Binding } from './input/actions';
import {
  ALL_SLOTS,
  assign,
  bindingsIn,
  clearInput,
  findConflicts,
  inputIds,
  isBipolar,
  isPadBinding,
  sameSlot,
  slotId,
  slotLabel,
  swapInput,
  type Conflict,
  type Slot,
} from './input/bindings';
import { ACTION_LABELS, bindingLabel } from './input/labels';
import { PadButton } from './input/actions';

/** The confirm press that starts a capture is ignored for this long (s) so it is not bound itself. */
const CAPTURE_ARM_S = 0.25;
/** An axis counts as moved when it leaves its resting value by this much. */
const AXIS_CAPTURE_DELTA = 0.5;
const DEADZONE_STEP = 0.02;
const DEADZONE_MAX = 0.5;
const GAMMA_STEP = 0.1;
const GAMMA_MIN = 0.5;
const GAMMA_MAX = 3;

interface PendingConflict {
  slot: Slot;
  other: Slot;
  conflict: Conflict;
  replaced: Binding[];
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text = ''): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  e.className = cls;
  e.textContent = text;
  return e;
};

/** A menu item "label … value" built from text nodes. */
function itemRow(label: string, dataKey: string, dataVal: string): { b: HTMLButtonElement; val: HTMLSpanElement } {
  const b = el('button', 'item');
  b.setAttribute(dataKey, dataVal);
  const val = el('span', 'val');
  b.append(el('span', 'label', label), val);
  return { b, val };
}

const clampStep = (v: number, d: number, lo: number, hi: number, st: number): number =>
  Math.round(Math.max(lo, Math.min(hi, v + d * st)) / st) * st;

/** Binding that a moved axis makes for `slot` (half axis for a steering half; pedal detection otherwise). */
function axisBinding(slot: Slot, index: number, now: number, rest: number): Binding {
  if (isBipolar(slot.action)) return { type: 'axis', index, range: now - rest > 0 ? 'pos' : 'neg' };
  // a pedal resting at −1 reads 0…1 over its travel; one resting at +1 reads inverted
  if (rest < -0.5) return { type: 'axis', index, range: 'unit' };
  if (rest > 0.5) return { type: 'axis', index, range: 'unit', invert: true };
  return { type: 'axis', index, range: (now > 0 ? 'pos' : 'neg') as AxisRange };
}

export function registerControlsScreen(app: AppContext): void {
  registerScreen('controls', (ctx, params) => controlsScreen(app, ctx, params));
}

function controlsScreen(app: AppContext, ctx: ScreenContext, params: Record<string, unknown>): ReturnType<Parameters<typeof registerScreen>[1]> {
  const from = params.from === 'pause' ? 'pause' : 'title';
  const s = app.settings;
  const root = html(`<h2>Controls</h2><div class="sub" data-profile></div>
    <div class="sub" data-msg></div><div class="controls-conflict" data-conflict hidden></div><div class="list"></div>
    <div class="hint">A: rebind · ←/→: invert axis, adjust · Esc / B: cancel, back</div>`);
  const q = <T extends HTMLElement>(sel: string): T => root.querySelector<T>(sel)!;
  const list = q('.list');
  const msg = q('[data-msg]');
  const panel = q('[data-conflict]');
  msg.textContent = 'A: rebind a slot, then press a key, a pad button or move an axis';
  const std = (): boolean => app.devices.padStandard;
  q('[data-profile]').textContent = app.devices.padId
    ? `Controller: ${app.devices.padId} — pad bindings and response are this controller's own; keys are shared`
    : 'No controller connected — keyboard bindings; pad bindings apply to the next controller';

  let capturing: Slot | null = null;
  let pending: PendingConflict | null = null;
  let baseAxes: number[] = [];
  let baseButtons: number[] = [];
  let armed = 0;
  const rows = new Map<string, { b: HTMLButtonElement; val: HTMLSpanElement; slot: Slot }>();

  const labelOf = (slot: Slot): string => {
    const bs = bindingsIn(s.bindings, slot);
    const pad = bs.filter(isPadBinding).map((b) => bindingLabel(b, std()));
    const keys = bs.filter((b) => !isPadBinding(b)).map((b) => bindingLabel(b));
    return `${pad.join(', ') || '—'} | ${keys.join(', ') || '—'}`;
  };
  const renderRows = (): void => {
    const conflicts = findConflicts(s.bindings);
    for (const { b, val, slot } of rows.values()) {
      const clash = conflicts.some((c) => c.slots.some((x) => sameSlot(x, slot)));
      b.classList.toggle('conflict', clash);
      val.textContent = capturing && sameSlot(capturing, slot) ? 'press a key or button, move an axis…' : `${clash ? '⚠ ' : ''}${labelOf(slot)}`;
    }
    if (!pending) renderStandingConflicts(conflicts);
  };
  const renderStandingConflicts = (conflicts: Conflict[]): void => {
    panel.replaceChildren();
    panel.hidden = conflicts.length === 0;
    for (const c of conflicts) panel.append(el('div', 'warn', `⚠ ${bindingLabel(c.binding, std())} is bound to ${c.slots.map(slotLabel).join(' and ')}`));
  };

  const save = (): void => {
    app.saveSettings(s);
    renderRows();
  };
  const focusRow = (slot: Slot): void => {
    const i = app.screens.items().indexOf(rows.get(slotId(slot))!.b);
    if (i >= 0) app.screens.setFocus(i);
  };

  const resolve = (how: 'swap' | 'clear' | 'keep'): void => {
    const p = pending!;
    if (how === 'swap') s.bindings = swapInput(s.bindings, p.other, p.conflict.id, p.replaced);
    else if (how === 'clear') s.bindings = clearInput(s.bindings, p.other, p.conflict.id);
    msg.textContent = how === 'keep' ? `Kept ${bindingLabel(p.conflict.binding, std())} on both` : `${slotLabel(p.other)}: ${labelOf(p.other)}`;
    pending = null;
    save();
    focusRow(p.slot);
  };
  const showConflict = (p: PendingConflict): void => {
    pending = p;
    panel.replaceChildren();
    panel.hidden = false;
    const name = bindingLabel(p.conflict.binding, std());
    panel.append(el('div', 'warn', `⚠ ${name} is also bound to ${slotLabel(p.other)}`));
    const opts: [string, 'swap' | 'clear' | 'keep'][] = [];
    if (p.replaced.length) opts.push([`Swap: ${slotLabel(p.other)} gets ${p.replaced.map((b) => bindingLabel(b, std())).join(', ')}`, 'swap']);
    opts.push([`Clear ${name} from ${slotLabel(p.other)}`, 'clear'], ['Keep both', 'keep']);
    for (const [text, how] of opts) {
      const b = el('button', 'item', text);
      b.dataset.resolve = how;
      b.onclick = () => resolve(how);
      panel.append(b);
    }
    app.screens.setFocus(0);
  };

  const finishCapture = (bind: Binding): void => {
    const slot = capturing!;
    capturing = null;
    const r = assign(s.bindings, slot, bind);
    s.bindings = r.bindings;
    msg.textContent = `${slotLabel(slot)} → ${bindingLabel(bind, std())}`;
    save();
    app.devices.swallowMenu();
    const ids = inputIds(bind);
    const c = findConflicts(s.bindings).find((x) => ids.includes(x.id) && x.slots.some((y) => sameSlot(y, slot)));
    const other = c?.slots.find((y) => !sameSlot(y, slot));
    if (c && other) showConflict({ slot, other, conflict: c, replaced: r.replaced });
  };
  const cancelCapture = (): void => {
    const slot = capturing;
    capturing = null;
    msg.textContent = 'Capture cancelled';
    renderRows();
    if (slot) focusRow(slot);
  };
  const startCapture = (slot: Slot): void => {
    capturing = slot;
    baseAxes = app.devices.lastAxes.slice();
    baseButtons = app.devices.lastButtons.slice();
    app.devices.takeKeyEdges();
    armed = CAPTURE_ARM_S; // ignore the confirm press itself
    msg.textContent = `${slotLabel(slot)}: press a key or pad button, or move an axis — Esc / B cancels`;
    renderRows();
  };

  for (const slot of ALL_SLOTS) {
    const row = itemRow(slotLabel(slot), 'data-slot', slotId(slot));
    rows.set(slotId(slot), { ...row, slot });
    row.b.onclick = () => {
      if (!pending) startCapture(slot);
    };
    adjustable(
      row.b,
      () => {
        const ax = bindingsIn(s.bindings, slot).find((x) => x.type === 'axis');
        if (ax && ax.type === 'axis') {
          ax.invert = !ax.invert;
          save();
        }
      },
      'toggle',
    );
    list.appendChild(row.b);
  }
  list.appendChild(el('div', 'sub section', 'Analog response (pad axes and triggers)'));
  for (const a of ANALOG_ACTIONS) appendTuningRows(app, list, a);
  appendFooter(app, ctx, list, params, from);
  renderRows();

  const pollCapture = (dt: number): void => {
    armed -= dt;
    if (armed > 0) {
      baseAxes = app.devices.lastAxes.slice();
      baseButtons = app.devices.lastButtons.slice();
      app.devices.takeKeyEdges();
      return;
    }
    const keys = app.devices.takeKeyEdges();
    // Escape cancels, also when pressed and released within one frame (the menu poll would miss it)
    if (keys.includes('Escape')) return cancelCapture();
    if (keys.length) return finishCapture({ type: 'key', code: keys[0]! });
    const ax = app.devices.lastAxes;
    for (let i = 0; i < ax.length; i++) {
      const rest = baseAxes[i] ?? 0;
      if (Math.abs(ax[i]! - rest) > AXIS_CAPTURE_DELTA) return finishCapture(axisBinding(capturing!, i, ax[i]!, rest));
    }
    const bt = app.devices.lastButtons;
    for (let i = 0; i < bt.length; i++) {
      // B is the cancel button on a standard pad (the menu's back press cancels in onKey)
      if (std() && i === PadButton.B) continue;
      if (bt[i]! > 0.5 && (baseButtons[i] ?? 0) < 0.5) return finishCapture({ type: 'button', index: i });
    }
  };

  return {
    el: root,
    back: () => (pending ? resolve('keep') : ctx.show(from === 'pause' ? 'settings' : 'title', { from })),
    onKey: (k) => {
      if (!capturing) return false;
      if (k === 'back') cancelCapture();
      return true; // while capturing, menu keys do not navigate
    },
    update: (dt) => {
      if (capturing) pollCapture(dt);
    },
  };
}

/** Deadzone and response (gamma) rows of one analog action; they edit the active controller's profile. */
function appendTuningRows(app: AppContext, list: HTMLElement, a: AnalogAction): void {
  const s = app.settings;
  const defs: [string, 'deadzone' | 'linearity', (v: number, d: -1 | 1) => number, (v: number) => string][] = [
    ['deadzone', 'deadzone', (v, d) => clampStep(v, d, 0, DEADZONE_MAX, DEADZONE_STEP), (v) => `${Math.round(v * 100)}%`],
    ['response γ', 'linearity', (v, d) => clampStep(v, d, GAMMA_MIN, GAMMA_MAX, GAMMA_STEP), (v) => v.toFixed(1)],
  ];
  for (const [name, key, step, fmt] of defs) {
    const row = itemRow(`${ACTION_LABELS[a]} ${name}`, 'data-tune', `${a}.${key}`);
    const render = (): void => {
      row.val.textContent = `‹ ${fmt(s.tuning[a][key])} ›`;
    };
    const change = (d: -1 | 1): void => {
      s.tuning[a][key] = step(s.tuning[a][key], d);
      app.saveSettings(s);
      render();
    };
    adjustable(row.b, change);
    row.b.onclick = () => change(1);
    render();
    list.appendChild(row.b);
  }
}

function appendFooter(app: AppContext, ctx: ScreenContext, list: HTMLElement, params: Record<string, unknown>, from: string): void {
  const reset = el('button', 'item', 'Reset to defaults (this controller and the keys)');
  reset.onclick = () => {
    const d = defaultSettings();
    app.settings.bindings = d.bindings;
    app.settings.tuning = d.tuning;
    app.saveSettings(app.settings);
    ctx.show('controls', params);
  };
  const back = el('button', 'item', 'Back');
  back.onclick = () => ctx.show(from === 'pause' ? 'settings' : 'title', { from });
  list.append(reset, back);
}
