/**
 * Player settings: validated with zod, stored in localStorage (synchronous at boot, survives reloads).
 * A stored blob that fails validation is reported field by field with console.warn and replaced by the
 * defaults for the bad fields only — the game always starts.
 */
import { z } from 'zod';
import {
  ALL_ACTIONS,
  ANALOG_ACTIONS,
  DEFAULT_BINDINGS,
  DEFAULT_SMOOTHING,
  DEFAULT_TUNING,
  type Action,
  type AnalogAction,
  type ActionTuning,
  type Binding,
} from './input/actions';

export const SETTINGS_KEY = 'bitrally.settings.v1';

const BindingSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('axis'),
    index: z.number().int().min(0).max(63),
    range: z.enum(['full', 'pos', 'neg', 'unit']),
    invert: z.boolean().optional(),
    scale: z.number().min(-1).max(1).optional(),
  }),
  z.object({ type: z.literal('button'), index: z.number().int().min(0).max(63), scale: z.number().min(-1).max(1).optional() }),
  z.object({ type: z.literal('key'), code: z.string().min(1).max(32), scale: z.number().min(-1).max(1).optional() }),
]);

const TuningSchema = z.object({ deadzone: z.number().min(0).max(0.9), linearity: z.number().min(0.2).max(5) });

export const CAMERA_MODES = ['chase', 'hood', 'bumper'] as const;
export type CameraMode = (typeof CAMERA_MODES)[number];

export const SettingsSchema = z.object({
  units: z.enum(['kmh', 'mph']),
  masterVolume: z.number().min(0).max(1),
  engineVolume: z.number().min(0).max(1),
  effectsVolume: z.number().min(0).max(1),
  camera: z.enum(CAMERA_MODES),
  perfOverlay: z.boolean(),
  rumble: z.boolean(),
  steerSpeed: z.number().min(0.5).max(20),
  steerReturn: z.number().min(0.5).max(20),
  pedalSpeed: z.number().min(0.5).max(20),
  shadows: z.boolean(),
  bindings: z.record(z.enum(ALL_ACTIONS as [Action, ...Action[]]), z.array(BindingSchema).max(8)),
  tuning: z.record(z.enum(ANALOG_ACTIONS), TuningSchema),
});
export type Settings = {
  units: 'kmh' | 'mph';
  masterVolume: number;
  engineVolume: number;
  effectsVolume: number;
  camera: CameraMode;
  perfOverlay: boolean;
  rumble: boolean;
  steerSpeed: number;
  steerReturn: number;
  pedalSpeed: number;
  shadows: boolean;
  bindings: Record<Action, Binding[]>;
  tuning: Record<AnalogAction, ActionTuning>;
};

export function defaultSettings(): Settings {
  return {
    units: 'kmh',
    masterVolume: 0.8,
    engineVolume: 0.8,
    effectsVolume: 0.8,
    camera: 'chase',
    perfOverlay: false,
    rumble: true,
    ...DEFAULT_SMOOTHING,
    shadows: true,
    bindings: structuredClone(DEFAULT_BINDINGS),
    tuning: structuredClone(DEFAULT_TUNING),
  };
}

/**
 * Parse stored settings. Unknown keys are ignored; each invalid field falls back to its default and is
 * reported as "settings (localStorage bitrally.settings.v1): <key>: expected …, found …".
 */
export function parseSettings(raw: unknown): { settings: Settings; problems: string[] } {
  const d = defaultSettings();
  const problems: string[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    if (raw !== undefined && raw !== null) problems.push(`settings (localStorage ${SETTINGS_KEY}): expected an object, found ${typeof raw}`);
    return { settings: d, problems };
  }
  const obj = raw as Record<string, unknown>;
  const shape = SettingsSchema.shape;
  const out: Record<string, unknown> = { ...d };
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    if (!(key in obj)) continue;
    if (key === 'bindings' || key === 'tuning') {
      // per action, so one bad binding does not reset every other one
      const src = obj[key];
      if (src === null || typeof src !== 'object') {
        problems.push(`settings (localStorage ${SETTINGS_KEY}): ${key}: expected an object, found ${JSON.stringify(src)}`);
        continue;
      }
      const merged = { ...(d[key] as Record<string, unknown>) };
      const itemSchema = key === 'bindings' ? z.array(BindingSchema).max(8) : TuningSchema;
      for (const [action, v] of Object.entries(src as Record<string, unknown>)) {
        if (!(action in merged)) {
          problems.push(`settings (localStorage ${SETTINGS_KEY}): ${key}.${action}: expected one of ${Object.keys(merged).join(', ')}, found an unknown action`);
          continue;
        }
        const r = itemSchema.safeParse(v);
        if (r.success) merged[action] = r.data;
        else problems.push(`settings (localStorage ${SETTINGS_KEY}): ${key}.${action}: ${r.error.issues[0]!.message}, found ${JSON.stringify(v)}`);
      }
      out[key] = merged;
      continue;
    }
    const r = shape[key].safeParse(obj[key]);
    if (r.success) out[key] = r.data;
    else problems.push(`settings (localStorage ${SETTINGS_KEY}): ${key}: ${r.error.issues[0]!.message}, found ${JSON.stringify(obj[key])}`);
  }
  return { settings: out as Settings, problems };
}

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function loadSettings(store: KeyValueStore | undefined): { settings: Settings; problems: string[] } {
  if (!store) return { settings: defaultSettings(), problems: [] };
  let text: string | null;
  try {
    text = store.getItem(SETTINGS_KEY);
  } catch {
    return { settings: defaultSettings(), problems: ['settings: localStorage is not available; using defaults'] };
  }
  if (text === null) return { settings: defaultSettings(), problems: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { settings: defaultSettings(), problems: [`settings (localStorage ${SETTINGS_KEY}): expected JSON, found a parse error: ${(e as Error).message}`] };
  }
  return parseSettings(raw);
}

export function saveSettings(store: KeyValueStore | undefined, s: Settings): void {
  try {
    store?.setItem(SETTINGS_KEY, JSON.stringify(s));
  } catch {
    /* storage full or disabled: settings live for this session only */
  }
}
