/**
 * The binding model behind the controls screen. An action is bound through *slots*: a unipolar action
 * (throttle, a button) has one slot; a bipolar action (steer) has two half-axis slots, "Steer left" (dir −1)
 * and "Steer right" (dir +1), so binding a key or a stick half to one direction never takes the other away.
 * A full stick axis belongs to both halves. A physical input (key, pad button, one side of an axis) bound in
 * two slots is a conflict; `findConflicts` lists them and `clearInput` / `swapInput` resolve them.
 * Pure functions on `Record<Action, Binding[]>` (unit-tested in tests/app/bindings.test.ts).
 */
import { ALL_ACTIONS, BIPOLAR_ACTIONS, type Action, type Binding } from './actions';
import { axisSide, HALF_LABELS, ACTION_LABELS } from './labels';

export type Bindings = Record<Action, Binding[]>;
/** Most bindings kept per action (the settings schema's bound). */
export const MAX_BINDINGS_PER_ACTION = 8;

export interface Slot {
  action: Action;
  /** −1 / +1: a half of a bipolar action; 0: the whole action. */
  dir: -1 | 0 | 1;
}

export const isBipolar = (a: Action): boolean => BIPOLAR_ACTIONS.includes(a);

export function slotsOf(action: Action): Slot[] {
  return isBipolar(action) ? [{ action, dir: -1 }, { action, dir: 1 }] : [{ action, dir: 0 }];
}

export const ALL_SLOTS: readonly Slot[] = ALL_ACTIONS.flatMap(slotsOf);
export const slotId = (s: Slot): string => `${s.action}${s.dir < 0 ? '-' : s.dir > 0 ? '+' : ''}`;
export const sameSlot = (a: Slot, b: Slot): boolean => a.action === b.action && a.dir === b.dir;

export function slotLabel(s: Slot): string {
  const halves = HALF_LABELS[s.action];
  if (halves && s.dir !== 0) return halves[s.dir < 0 ? 0 : 1];
  return ACTION_LABELS[s.action];
}

export const isPadBinding = (b: Binding): boolean => b.type !== 'key';

/** Sign of what a binding contributes: −1, +1, or 0 for a full axis (both ways). */
export function bindingDir(b: Binding): -1 | 0 | 1 {
  if (b.type === 'axis' && b.range === 'full') return 0;
  return (b.scale ?? 1) < 0 ? -1 : 1;
}

/** Physical sides of the axis an axis binding reads (both for a full or pedal axis). */
const axisSides = (b: Extract<Binding, { type: 'axis' }>): (-1 | 1)[] => {
  const side = axisSide(b);
  return side === 0 ? [-1, 1] : [side];
};

/** Physical inputs a binding reads: key:Code, button:N, axis:N− / axis:N+. */
export function inputIds(b: Binding): string[] {
  if (b.type === 'key') return [`key:${b.code}`];
  if (b.type === 'button') return [`button:${b.index}`];
  return axisSides(b).map((sd) => `axis:${b.index}${sd < 0 ? '-' : '+'}`);
}

/** Which (physical input, slot) pairs a binding of `action` occupies. */
export function occupancy(action: Action, b: Binding): { id: string; slot: Slot }[] {
  const bip = isBipolar(action);
  const halfDir = (): -1 | 1 => (bindingDir(b) < 0 ? -1 : 1);
  if (b.type !== 'axis') return [{ id: inputIds(b)[0]!, slot: { action, dir: bip ? halfDir() : 0 } }];
  return axisSides(b).map((sd) => {
    let dir: -1 | 0 | 1 = 0;
    if (bip) dir = b.range === 'full' ? ((b.invert ? -sd : sd) as -1 | 1) : halfDir();
    return { id: `axis:${b.index}${sd < 0 ? '-' : '+'}`, slot: { action, dir } };
  });
}

export const occupies = (action: Action, b: Binding, slot: Slot): boolean =>
  occupancy(action, b).some((o) => sameSlot(o.slot, slot));

/** The bindings shown in (and replaced by a capture in) one slot. */
export const bindingsIn = (all: Bindings, slot: Slot): Binding[] => (all[slot.action] ?? []).filter((b) => occupies(slot.action, b, slot));

/** The half of a full axis that drives direction `dir` (what remains of it when the other half is rebound). */
export function halfOfFullAxis(b: Extract<Binding, { type: 'axis' }>, dir: -1 | 1): Binding {
  const side = b.invert ? -dir : dir;
  return { type: 'axis', index: b.index, range: side > 0 ? 'pos' : 'neg', scale: dir * Math.abs(b.scale ?? 1) };
}

/** A binding moved into `slot`: keys and buttons take the slot's sign; a half axis its direction. */
export function forSlot(b: Binding, slot: Slot): Binding {
  const c = { ...b };
  if (c.type === 'axis' && c.range === 'full') return c;
  if (slot.dir === 0) delete c.scale;
  else c.scale = slot.dir * Math.abs(c.scale ?? 1);
  return c;
}

/** `list` without what occupies `slot` on `action` (a full axis keeps its other half). `match` narrows it. */
function removeFromSlot(action: Action, list: Binding[], slot: Slot, match: (b: Binding) => boolean): { kept: Binding[]; removed: Binding[] } {
  const kept: Binding[] = [];
  const removed: Binding[] = [];
  for (const b of list) {
    if (!match(b) || !occupies(action, b, slot)) kept.push(b);
    else {
      removed.push(b);
      if (b.type === 'axis' && b.range === 'full' && slot.dir !== 0) kept.push(halfOfFullAxis(b, -slot.dir as -1 | 1));
    }
  }
  return { kept, removed };
}

const sameInput = (a: Binding, b: Binding): boolean => {
  const ia = inputIds(a);
  return inputIds(b).some((id) => ia.includes(id));
};

/**
 * Bind `b` to `slot`: it replaces the slot's bindings of the same kind (pad or keyboard), leaves the other
 * kind and the other half alone. Returns the new bindings and what was replaced (for a swap).
 */
export function assign(all: Bindings, slot: Slot, b: Binding): { bindings: Bindings; replaced: Binding[] } {
  const out = structuredClone(all);
  const list = out[slot.action] ?? [];
  const kind = isPadBinding(b);
  const { kept, removed } = removeFromSlot(slot.action, list, slot, (x) => isPadBinding(x) === kind || sameInput(x, b));
  const nb = forSlot(b, slot);
  out[slot.action] = [...kept, nb].slice(-MAX_BINDINGS_PER_ACTION);
  return { bindings: out, replaced: removed.filter((x) => !sameInput(x, b)) };
}

export interface Conflict {
  /** Physical input id (key:Code, button:N, axis:N±). */
  id: string;
  /** The slots it is bound in (two or more). */
  slots: Slot[];
  /** One binding that reads the input (for its label). */
  binding: Binding;
}

/** Every physical input bound in more than one slot. */
export function findConflicts(all: Bindings): Conflict[] {
  const by = new Map<string, Conflict>();
  for (const action of ALL_ACTIONS) {
    for (const b of all[action] ?? []) {
      for (const o of occupancy(action, b)) {
        const c = by.get(o.id) ?? { id: o.id, slots: [], binding: b };
        if (!c.slots.some((s) => sameSlot(s, o.slot))) c.slots.push(o.slot);
        by.set(o.id, c);
      }
    }
  }
  return [...by.values()].filter((c) => c.slots.length > 1);
}

/** Remove input `id` from `slot` (a full axis keeps the half that does not read it). */
export function clearInput(all: Bindings, slot: Slot, id: string): Bindings {
  const out = structuredClone(all);
  const reads = (b: Binding): boolean => occupancy(slot.action, b).some((o) => o.id === id && sameSlot(o.slot, slot));
  out[slot.action] = removeFromSlot(slot.action, out[slot.action] ?? [], slot, reads).kept;
  return out;
}

/**
 * Swap after a capture: input `id` leaves `other`, which takes the bindings the capture replaced in its own
 * slot (`replaced`), so both actions stay bound.
 */
export function swapInput(all: Bindings, other: Slot, id: string, replaced: readonly Binding[]): Bindings {
  const out = clearInput(all, other, id);
  const add = replaced.map((b) => forSlot(b, other));
  out[other.action] = [...(out[other.action] ?? []), ...add].slice(-MAX_BINDINGS_PER_ACTION);
  return out;
}
