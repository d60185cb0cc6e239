/**
 * Browser input devices: the Gamepad API (polled every frame, standard mapping or raw for wheels) and the
 * keyboard. Produces a DeviceSnapshot for the action mapper, edge-detected menu navigation, connection
 * events (a pad that disconnects while driving pauses the game) and rumble through vibrationActuator.
 */
import { PadButton, type DeviceSnapshot } from './actions';

export type MenuKey = 'up' | 'down' | 'left' | 'right' | 'confirm' | 'back' | 'start';

interface PadLike {
  index: number;
  id: string;
  connected: boolean;
  mapping: string;
  axes: readonly number[];
  buttons: readonly { pressed: boolean; value: number }[];
  vibrationActuator?: { playEffect?: (type: string, params: Record<string, number>) => Promise<unknown> } | null;
}

const REPEAT_DELAY = 0.38;
const REPEAT_RATE = 0.12;
/** Stick deflection that presses a menu direction, and the lower one that releases it (hysteresis: a stick
 * resting near the threshold does not chatter into a stream of presses). */
const STICK_PRESS = 0.6;
const STICK_RELEASE = 0.4;

export class InputDevices {
  readonly keys = new Set<string>();
  private readonly keyEdges: string[] = [];
  private pad: PadLike | null = null;
  private padIndex = -1;
  private prevMenu = new Map<MenuKey, boolean>();
  private heldFor = new Map<MenuKey, number>();
  /** Which of the last `menuPresses` result were auto-repeats (toggles ignore those: screens.ts). */
  readonly menuRepeats = new Set<MenuKey>();
  private readonly snap: { axes: number[]; buttons: number[]; keys: Set<string> };
  onPadConnected?: (id: string) => void;
  onPadDisconnected?: (id: string) => void;
  /** Raw pad state of the last poll (for the remapping UI: "press a button / move an axis"). */
  lastAxes: number[] = [];
  lastButtons: number[] = [];

  constructor(private readonly target: Window) {
    this.snap = { axes: [], buttons: [], keys: this.keys };
    target.addEventListener('keydown', (e) => {
      if (!e.repeat) this.keyEdges.push(e.code);
      this.keys.add(e.code);
      if (['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Space', 'F3'].includes(e.code)) e.preventDefault();
    });
    target.addEventListener('keyup', (e) => this.keys.delete(e.code));
    target.addEventListener('blur', () => this.keys.clear());
    target.addEventListener('gamepadconnected', (e) => {
      const gp = (e as GamepadEvent).gamepad;
      if (this.padIndex < 0) this.padIndex = gp.index;
      this.onPadConnected?.(gp.id);
    });
    target.addEventListener('gamepaddisconnected', (e) => {
      const gp = (e as GamepadEvent).gamepad;
      if (gp.index === this.padIndex) {
        this.padIndex = -1;
        this.pad = null;
        this.onPadDisconnected?.(gp.id);
      }
    });
  }

  get padConnected(): boolean {
    return this.pad !== null;
  }

  get padId(): string {
    return this.pad?.id ?? '';
  }

  /** The pad reports the W3C standard mapping (button names A/B/X/Y… apply); true when none is connected. */
  get padStandard(): boolean {
    return !this.pad || this.pad.mapping === 'standard';
  }

  /** Read the pads; call once per frame before reading snapshots. */
  poll(): void {
    let pads: readonly (PadLike | null)[];
    try {
      pads = (this.target.navigator.getGamepads?.() ?? []) as unknown as (PadLike | null)[];
    } catch {
      pads = [];
    }
    let pad: PadLike | null = null;
    if (this.padIndex >= 0) pad = pads[this.padIndex] ?? null;
    if (!pad || !pad.connected) {
      pad = null;
      for (const p of pads) {
        if (p && p.connected) {
          pad = p;
          this.padIndex = p.index;
          break;
        }
      }
    }
    this.pad = pad;
    const axes = this.snap.axes;
    const buttons = this.snap.buttons;
    axes.length = 0;
    buttons.length = 0;
    if (pad) {
      for (const a of pad.axes ?? []) axes.push(Number.isFinite(a) ? a : 0);
      for (const b of pad.buttons ?? []) {
        const v = b && Number.isFinite(b.value) ? b.value : 0;
        buttons.push(v > 0 ? v : b?.pressed ? 1 : 0);
      }
    }
    this.lastAxes = axes.slice();
    this.lastButtons = buttons.slice();
  }

  snapshot(): DeviceSnapshot {
    return this.snap;
  }

  /** Keys pressed since the last call (for binding capture and one-shot keys). */
  takeKeyEdges(): string[] {
    return this.keyEdges.splice(0);
  }

  /** Stick past the press threshold, or still past the release threshold while held (hysteresis). */
  private stick(key: MenuKey, v: number): boolean {
    return v > ((this.prevMenu.get(key) ?? false) ? STICK_RELEASE : STICK_PRESS);
  }

  private menuHeld(): Record<MenuKey, boolean> {
    const b = this.snap.buttons;
    const a = this.snap.axes;
    const k = this.keys;
    const btn = (i: number): boolean => (b[i] ?? 0) > 0.5;
    return {
      up: btn(PadButton.Up) || this.stick('up', -(a[1] ?? 0)) || k.has('ArrowUp') || k.has('KeyW'),
      down: btn(PadButton.Down) || this.stick('down', a[1] ?? 0) || k.has('ArrowDown') || k.has('KeyS'),
      left: btn(PadButton.Left) || this.stick('left', -(a[0] ?? 0)) || k.has('ArrowLeft') || k.has('KeyA'),
      right: btn(PadButton.Right) || this.stick('right', a[0] ?? 0) || k.has('ArrowRight') || k.has('KeyD'),
      confirm: btn(PadButton.A) || k.has('Enter') || k.has('Space'),
      back: btn(PadButton.B) || k.has('Escape') || k.has('Backspace'),
      start: btn(PadButton.Start),
    };
  }

  /**
   * Menu navigation presses since the last frame, with auto-repeat on held directions; the repeats are also
   * listed in `menuRepeats` (a toggle acts on the press only, never on a repeat).
   */
  menuPresses(dt: number): MenuKey[] {
    const held = this.menuHeld();
    const out: MenuKey[] = [];
    this.menuRepeats.clear();
    for (const key of Object.keys(held) as MenuKey[]) {
      const now = held[key];
      const was = this.prevMenu.get(key) ?? false;
      if (now && !was) {
        out.push(key);
        this.heldFor.set(key, 0);
      } else if (now && (key === 'up' || key === 'down' || key === 'left' || key === 'right')) {
        const t = (this.heldFor.get(key) ?? 0) + dt;
        if (t > REPEAT_DELAY) {
          out.push(key);
          this.menuRepeats.add(key);
          this.heldFor.set(key, REPEAT_DELAY - REPEAT_RATE);
        } else this.heldFor.set(key, t);
      }
      this.prevMenu.set(key, now);
    }
    return out;
  }

  /** Mark current menu buttons as already held (so a press that opened a screen does not also act in it). */
  swallowMenu(): void {
    this.poll();
    this.menuPresses(0);
  }

  /** Rumble: strong (low-frequency) and weak (high-frequency) magnitudes 0..1 for `ms`. */
  rumble(strong: number, weak: number, ms: number): void {
    const act = this.pad?.vibrationActuator;
    if (!act?.playEffect) return;
    act
      .playEffect('dual-rumble', {
        startDelay: 0,
        duration: ms,
        strongMagnitude: Math.max(0, Math.min(1, strong)),
        weakMagnitude: Math.max(0, Math.min(1, weak)),
      })
      .catch(() => undefined);
  }
}
