/**
 * The Controls screen: one row per binding slot ("Steer left", "Steer right", "Throttle", … "Shift up"),
 * A / Enter / click captures the next key, pad button or axis move for it; Escape or B cancels a capture.
 * A captured input that is already bound elsewhere shows a conflict panel (swap / clear / keep both) and the
 * rows that share an input stay marked ⚠. Below: deadzone and response (gamma) of every analog action.
 * Pad bindings and the response belong to the connected controller's profile (src/app/input/profiles.ts).
 * All names are set as text (textContent), never as HTML.
 */
import type { AppContext } from './app-context';
import { adjustable, html, registerScreen, type ScreenContext, type ScreenInstance } from './screens';
import { defaultSettings } from './settings';
import { ANALOG_ACTIONS, PadButton, type AnalogAction, type AxisRange, type Binding } from './input/actions';
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
  registerScreen('controls', (ctx, params) => new ControlsScreen(app, ctx, params).instance());
}

interface SlotRow {
  b: HTMLButtonElement;
  val: HTMLSpanElement;
  slot: Slot;
}

/** One visit of the Controls screen: the rows, the capture in progress and a conflict awaiting an answer. */
class ControlsScreen {
  private readonly root: HTMLDivElement;
  private readonly msg: HTMLElement;
  private readonly panel: HTMLElement;
  private readonly rows = new Map<string, SlotRow>();
  private capturing: Slot | null = null;
  private pending: PendingConflict | null = null;
  private baseAxes: number[] = [];
  private baseButtons: number[] = [];
  private armed = 0;
  private readonly backTo: () => void;

  constructor(
    private readonly app: AppContext,
    ctx: ScreenContext,
    params: Record<string, unknown>,
  ) {
    const from = params.from === 'pause' ? 'pause' : 'title';
    this.backTo = () => ctx.show(from === 'pause' ? 'settings' : 'title', { from });
    this.root = html(`<h2>Controls</h2><div class="sub" data-profile></div>
      <div class="sub" data-msg></div><div class="controls-conflict" data-conflict hidden></div><div class="list"></div>
      <div class="hint">A: rebind · ←/→: invert axis, adjust · Esc / B: cancel, back</div>`);
    this.msg = this.root.querySelector<HTMLElement>('[data-msg]')!;
    this.panel = this.root.querySelector<HTMLElement>('[data-conflict]')!;
    this.msg.textContent = 'A: rebind a slot, then press a key, a pad button or move an axis';
    this.root.querySelector<HTMLElement>('[data-profile]')!.textContent = app.devices.padId
      ? `Controller: ${app.devices.padId} — pad bindings and response are this controller's own; keys are shared`
      : 'No controller connected — keyboard bindings; pad bindings apply to the next controller';
    const list = this.root.querySelector<HTMLElement>('.list')!;
    for (const slot of ALL_SLOTS) list.appendChild(this.slotRow(slot));
    list.appendChild(el('div', 'sub section', 'Analog response (pad axes and triggers)'));
    for (const a of ANALOG_ACTIONS) appendTuningRows(app, list, a);
    appendFooter(app, ctx, list, params, this.backTo);
    this.renderRows();
  }

  instance(): ScreenInstance {
    return {
      el: this.root,
      back: () => (this.pending ? this.resolve('keep') : this.backTo()),
      onKey: (k) => {
        if (!this.capturing) return false;
        if (k === 'back') this.cancelCapture();
        return true; // while capturing, menu keys do not navigate
      },
      update: (dt) => {
        if (this.capturing) this.pollCapture(dt);
      },
    };
  }

  private get settings(): AppContext['settings'] {
    return this.app.settings;
  }

  private std(): boolean {
    return this.app.devices.padStandard;
  }

  private slotRow(slot: Slot): HTMLButtonElement {
    const row = itemRow(slotLabel(slot), 'data-slot', slotId(slot));
    this.rows.set(slotId(slot), { ...row, slot });
    row.b.onclick = () => {
      if (!this.pending) this.startCapture(slot);
    };
    const invert = (): void => {
      const ax = bindingsIn(this.settings.bindings, slot).find((x) => x.type === 'axis');
      if (ax?.type !== 'axis') return;
      ax.invert = !ax.invert;
      this.save();
    };
    adjustable(row.b, invert, 'toggle');
    return row.b;
  }

  private labelOf(slot: Slot): string {
    const bs = bindingsIn(this.settings.bindings, slot);
    const pad = bs.filter(isPadBinding).map((b) => bindingLabel(b, this.std()));
    const keys = bs.filter((b) => !isPadBinding(b)).map((b) => bindingLabel(b));
    return `${pad.join(', ') || '—'} | ${keys.join(', ') || '—'}`;
  }

  private renderRows(): void {
    const conflicts = findConflicts(this.settings.bindings);
    for (const { b, val, slot } of this.rows.values()) {
      const clash = conflicts.some((c) => c.slots.some((x) => sameSlot(x, slot)));
      b.classList.toggle('conflict', clash);
      const listening = this.capturing && sameSlot(this.capturing, slot);
      val.textContent = listening ? 'press a key or button, move an axis…' : `${clash ? '⚠ ' : ''}${this.labelOf(slot)}`;
    }
    if (!this.pending) this.renderStandingConflicts(conflicts);
  }

  private renderStandingConflicts(conflicts: Conflict[]): void {
    this.panel.replaceChildren();
    this.panel.hidden = conflicts.length === 0;
    for (const c of conflicts) this.panel.append(el('div', 'warn', `⚠ ${bindingLabel(c.binding, this.std())} is bound to ${c.slots.map(slotLabel).join(' and ')}`));
  }

  private save(): void {
    this.app.saveSettings(this.settings);
    this.renderRows();
  }

  private focusRow(slot: Slot): void {
    const i = this.app.screens.items().indexOf(this.rows.get(slotId(slot))!.b);
    if (i >= 0) this.app.screens.setFocus(i);
  }

  private resolve(how: 'swap' | 'clear' | 'keep'): void {
    const p = this.pending!;
    const s = this.settings;
    if (how === 'swap') s.bindings = swapInput(s.bindings, p.other, p.conflict.id, p.replaced);
    else if (how === 'clear') s.bindings = clearInput(s.bindings, p.other, p.conflict.id);
    this.msg.textContent = how === 'keep' ? `Kept ${bindingLabel(p.conflict.binding, this.std())} on both` : `${slotLabel(p.other)}: ${this.labelOf(p.other)}`;
    this.pending = null;
    this.save();
    this.focusRow(p.slot);
  }

  /** The conflict panel right after a capture: swap (when the capture replaced something), clear, keep both. */
  private showConflict(p: PendingConflict): void {
    this.pending = p;
    this.panel.replaceChildren();
    this.panel.hidden = false;
    const name = bindingLabel(p.conflict.binding, this.std());
    this.panel.append(el('div', 'warn', `⚠ ${name} is also bound to ${slotLabel(p.other)}`));
    const opts: [string, 'swap' | 'clear' | 'keep'][] = [];
    if (p.replaced.length) opts.push([`Swap: ${slotLabel(p.other)} gets ${p.replaced.map((b) => bindingLabel(b, this.std())).join(', ')}`, 'swap']);
    opts.push([`Clear ${name} from ${slotLabel(p.other)}`, 'clear'], ['Keep both', 'keep']);
    for (const [text, how] of opts) {
      const b = el('button', 'item', text);
      b.dataset.resolve = how;
      b.onclick = () => this.resolve(how);
      this.panel.append(b);
    }
    this.app.screens.setFocus(0);
  }

  private finishCapture(bind: Binding): void {
    const slot = this.capturing!;
    this.capturing = null;
    const r = assign(this.settings.bindings, slot, bind);
    this.settings.bindings = r.bindings;
    this.msg.textContent = `${slotLabel(slot)} → ${bindingLabel(bind, this.std())}`;
    this.save();
    this.app.devices.swallowMenu();
    const ids = inputIds(bind);
    const c = findConflicts(r.bindings).find((x) => ids.includes(x.id) && x.slots.some((y) => sameSlot(y, slot)));
    const other = c?.slots.find((y) => !sameSlot(y, slot));
    if (c && other) this.showConflict({ slot, other, conflict: c, replaced: r.replaced });
  }

  private cancelCapture(): void {
    const slot = this.capturing;
    this.capturing = null;
    this.msg.textContent = 'Capture cancelled';
    this.renderRows();
    if (slot) this.focusRow(slot);
  }

  private startCapture(slot: Slot): void {
    this.capturing = slot;
    this.rebase();
    this.armed = CAPTURE_ARM_S; // ignore the confirm press itself
    this.msg.textContent = `${slotLabel(slot)}: press a key or pad button, or move an axis — Esc / B cancels`;
    this.renderRows();
  }

  /** Take the current pad state as the resting state and drop pending key presses. */
  private rebase(): void {
    this.baseAxes = this.app.devices.lastAxes.slice();
    this.baseButtons = this.app.devices.lastButtons.slice();
    this.app.devices.takeKeyEdges();
  }

  private pollCapture(dt: number): void {
    this.armed -= dt;
    if (this.armed > 0) return this.rebase();
    const dev = this.app.devices;
    const keys = dev.takeKeyEdges();
    // Escape cancels, also when pressed and released within one frame (the menu poll would miss it)
    if (keys.includes('Escape')) return this.cancelCapture();
    if (keys.length) return this.finishCapture({ type: 'key', code: keys[0]! });
    const ax = dev.lastAxes;
    for (let i = 0; i < ax.length; i++) {
      const rest = this.baseAxes[i] ?? 0;
      if (Math.abs(ax[i]! - rest) > AXIS_CAPTURE_DELTA) return this.finishCapture(axisBinding(this.capturing!, i, ax[i]!, rest));
    }
    const bt = dev.lastButtons;
    for (let i = 0; i < bt.length; i++) {
      // B is the cancel button on a standard pad (the menu's back press cancels in onKey)
      if (this.std() && i === PadButton.B) continue;
      if (bt[i]! > 0.5 && (this.baseButtons[i] ?? 0) < 0.5) return this.finishCapture({ type: 'button', index: i });
    }
  }
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

function appendFooter(app: AppContext, ctx: ScreenContext, list: HTMLElement, params: Record<string, unknown>, backTo: () => void): void {
  const reset = el('button', 'item', 'Reset to defaults (this controller and the keys)');
  reset.onclick = () => {
    const d = defaultSettings();
    app.settings.bindings = d.bindings;
    app.settings.tuning = d.tuning;
    app.saveSettings(app.settings);
    ctx.show('controls', params);
  };
  const back = el('button', 'item', 'Back');
  back.onclick = backTo;
  list.append(reset, back);
}
