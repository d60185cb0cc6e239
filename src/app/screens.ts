/**
 * Menu system: a registry of named screens. Each screen builds a DOM element with focusable items
 * (elements with class "item"); the navigator moves focus with up/down, adjusts with left/right
 * (items with a data-adjust handler), activates with confirm and calls the screen's back handler.
 * The same path serves gamepad, keyboard and mouse. To add a screen (replay viewer, garage, …):
 *
 *   registerScreen('garage', (ctx, params) => {
 *     const el = html(`<h1>Garage</h1><button class="item">Back</button>`);
 *     el.querySelector('button')!.onclick = () => ctx.show('title');
 *     return { el, back: () => ctx.show('title') };
 *   });
 *
 * and link to it from another screen with `ctx.show('garage')`. See docs/game.md.
 */
import type { MenuKey } from './input/devices';

export interface ScreenInstance {
  el: HTMLElement;
  /** Called on the back button (B / Escape). */
  back?: () => void;
  /** Per frame while shown. */
  update?: (dt: number) => void;
  /** Raw menu keys before the generic navigation (return true to consume). */
  onKey?: (k: MenuKey) => boolean;
  dispose?: () => void;
  /** Screens that overlay the driving view keep the 3D view visible (pause, finish). */
  overlay?: boolean;
  /**
   * True while the screen's items are still loading (stage cards): presses are queued, not lost, and
   * handled once it returns false (back acts at once, so a list that never loads cannot trap the player).
   */
  loading?: () => boolean;
}

export interface ScreenContext {
  show(name: string, params?: Record<string, unknown>): void;
  /** Moves the focus to `el` (an item of the current screen; no-op otherwise): for lists that re-render live. */
  focusElement?(el: HTMLElement): void;
}

export type ScreenFactory = (ctx: ScreenContext, params: Record<string, unknown>) => ScreenInstance;

const registry = new Map<string, ScreenFactory>();

export function registerScreen(name: string, factory: ScreenFactory): void {
  registry.set(name, factory);
}

export function screenNames(): string[] {
  return [...registry.keys()];
}

export function html(markup: string, className = 'screen'): HTMLDivElement {
  const d = document.createElement('div');
  d.className = className;
  d.innerHTML = markup;
  return d;
}

type AdjustableEl = HTMLElement & { adjust?: (d: -1 | 1) => void; adjustToggle?: boolean };

/**
 * Adjustable item: left/right call fn(−1 / +1). A 'toggle' (on/off, invert, a cycle of a few values) acts on
 * the press only, never on the auto-repeat of a held stick or key; a 'step' (volume, deadzone) repeats.
 */
export function adjustable(el: HTMLElement, fn: (dir: -1 | 1) => void, kind: 'step' | 'toggle' = 'step'): void {
  const a = el as AdjustableEl;
  a.adjust = fn;
  a.adjustToggle = kind === 'toggle';
}

/** Most presses queued while a screen loads (a few quick presses; never an unbounded backlog). */
const MAX_QUEUED_PRESSES = 8;

export class ScreenManager implements ScreenContext {
  current: ScreenInstance | null = null;
  currentName = '';
  private focus = 0;
  /** Presses that arrived while the current screen was loading (handled when it is ready). */
  private queued: MenuKey[] = [];
  onChange?: (name: string) => void;

  constructor(private readonly root: HTMLElement) {}

  show(name: string, params: Record<string, unknown> = {}): void {
    const f = registry.get(name);
    if (!f) throw new Error(`screens: no screen named "${name}" (registered: ${screenNames().join(', ')})`);
    this.close();
    this.queued = [];
    const inst = f(this, params);
    inst.el.dataset.screen = name;
    this.root.appendChild(inst.el);
    this.current = inst;
    this.currentName = name;
    this.focus = 0;
    const items = this.items();
    const pre = items.findIndex((e) => e.classList.contains('default'));
    this.setFocus(pre >= 0 ? pre : 0);
    for (const [i, it] of items.entries()) it.addEventListener('mouseenter', () => this.setFocus(i));
    this.onChange?.(name);
  }

  close(): void {
    if (!this.current) return;
    this.current.dispose?.();
    this.current.el.remove();
    this.current = null;
    this.currentName = '';
  }

  items(): HTMLElement[] {
    return this.current ? [...this.current.el.querySelectorAll<HTMLElement>('.item:not([disabled])')] : [];
  }

  setFocus(i: number): void {
    const items = this.items();
    if (items.length === 0) return;
    this.focus = (i + items.length) % items.length;
    items.forEach((e, k) => e.classList.toggle('focused', k === this.focus));
    items[this.focus]!.scrollIntoView?.({ block: 'nearest' });
  }

  focusElement(el: HTMLElement): void {
    const i = this.items().indexOf(el);
    if (i >= 0) this.setFocus(i);
  }

  /** Re-apply focus after a screen re-rendered its items. */
  refocus(): void {
    this.setFocus(this.focus);
  }

  /** Menu presses of this frame; `repeats` names those that are auto-repeats of a held direction. */
  handle(keys: MenuKey[], repeats: ReadonlySet<MenuKey> = new Set()): void {
    for (const k of keys) {
      const cur = this.current;
      if (!cur) return;
      if (cur.loading?.() && k !== 'back') {
        if (!repeats.has(k) && this.queued.length < MAX_QUEUED_PRESSES) this.queued.push(k);
        continue;
      }
      if (cur.onKey?.(k)) continue;
      const items = this.items();
      const it = items[this.focus];
      switch (k) {
        case 'up':
          this.setFocus(this.focus - 1);
          break;
        case 'down':
          this.setFocus(this.focus + 1);
          break;
        case 'left':
        case 'right': {
          const a = it as AdjustableEl | undefined;
          if (!(a?.adjustToggle && repeats.has(k))) a?.adjust?.(k === 'left' ? -1 : 1);
          break;
        }
        case 'confirm':
          it?.click();
          break;
        case 'back':
          cur.back?.();
          break;
        case 'start':
          break;
      }
      if (this.current !== cur) return; // screen changed: drop the rest of this frame's presses
    }
  }

  update(dt: number): void {
    const cur = this.current;
    if (cur && this.queued.length && !cur.loading?.()) {
      this.handle(this.queued.splice(0));
    }
    this.current?.update?.(dt);
  }
}
