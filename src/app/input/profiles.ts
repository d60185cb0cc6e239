/**
 * Per-controller profiles: the pad bindings (buttons, axes) and the analog tuning (deadzone, response) are
 * kept per pad, keyed by the Gamepad API's `id`; keyboard bindings are shared. `settings.bindings` and
 * `settings.tuning` always hold the active pad's set (what the game reads); `switchProfile` files them under
 * the previous pad's id and loads the new pad's set, or the defaults for a pad never seen before. The first pad
 * ever seen adopts the bindings present before any pad (so settings saved before profiles existed carry over).
 */
import { ALL_ACTIONS, DEFAULT_BINDINGS, DEFAULT_TUNING, type ActionTuning, type AnalogAction } from './actions';
import { isPadBinding, type Bindings } from './bindings';

export interface PadProfile {
  /** Pad bindings only (no keys). */
  bindings: Bindings;
  tuning: Record<AnalogAction, ActionTuning>;
}

export interface ProfileHolder {
  bindings: Bindings;
  tuning: Record<AnalogAction, ActionTuning>;
  profiles: Record<string, PadProfile>;
  /** Gamepad id whose set is in bindings/tuning; '' before any pad was seen. */
  activeProfile: string;
}

/** Most profiles kept (the oldest other pad's is dropped beyond it). */
export const MAX_PROFILES = 16;
/** Longest pad id stored (ids are "Vendor Product (STANDARD GAMEPAD Vendor: 045e Product: 028e)"). */
export const MAX_PAD_ID_LENGTH = 200;

const pick = (all: Bindings, pad: boolean): Bindings =>
  Object.fromEntries(ALL_ACTIONS.map((a) => [a, (all[a] ?? []).filter((b) => isPadBinding(b) === pad).map((b) => ({ ...b }))])) as Bindings;

export const padPart = (all: Bindings): Bindings => pick(all, true);

/** Keys of `all` with the pad bindings of `pad`. */
export function withPadPart(all: Bindings, pad: Bindings): Bindings {
  const keys = pick(all, false);
  return Object.fromEntries(ALL_ACTIONS.map((a) => [a, [...padPart(pad)[a], ...keys[a]]])) as Bindings;
}

export const defaultProfile = (): PadProfile => ({ bindings: padPart(DEFAULT_BINDINGS), tuning: structuredClone(DEFAULT_TUNING) });

/** The active set as a profile (what is filed under the active pad's id). */
export const activeAsProfile = (s: ProfileHolder): PadProfile => ({ bindings: padPart(s.bindings), tuning: structuredClone(s.tuning) });

/** File the active set under its pad id (before saving). */
export function syncActiveProfile(s: ProfileHolder): void {
  if (s.activeProfile) s.profiles[s.activeProfile] = activeAsProfile(s);
}

/** Make `padId`'s profile the active one. Returns false when nothing changed. */
export function switchProfile(s: ProfileHolder, rawId: string): boolean {
  const padId = rawId.slice(0, MAX_PAD_ID_LENGTH);
  if (!padId || padId === s.activeProfile) return false;
  const firstPad = s.activeProfile === '';
  syncActiveProfile(s);
  const p = s.profiles[padId] ?? (firstPad ? activeAsProfile(s) : defaultProfile());
  s.bindings = withPadPart(s.bindings, p.bindings);
  s.tuning = structuredClone(p.tuning);
  s.activeProfile = padId;
  s.profiles[padId] = structuredClone(p);
  const ids = Object.keys(s.profiles);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_PROFILES))) if (id !== padId) delete s.profiles[id];
  return true;
}
