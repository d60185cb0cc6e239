/**
 * Player settings: validated with zod, stored in localStorage (synchronous at boot, survives reloads).
 * A stored blob that fails validation is reported field by field with console.warn and replaced by the
 * defaults for the bad fields only — the game always starts. Format version 2 adds per-controller profiles
 * (src/app/input/profiles.ts); a version-1 blob loads unchanged except for the repair in `migrateV1`.
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
import { bindingsIn, slotsOf, isBipolar, isPadBinding, halfOfFullAxis, MAX_BINDINGS_PER_ACTION, type Bindings } from './input/bindings';
import { defaultProfile, MAX_PAD_ID_LENGTH, MAX_PROFILES, syncActiveProfile, type PadProfile } from './input/profiles';
import { bindingLabel } from './input/labels';
import { GRAPHICS_PRESETS, type GraphicsPresetName } from '../systems/view/graphics-presets';

export const SETTINGS_KEY = 'bitrally.settings.v1';
/** Format version written by this code (the storage key stays: old blobs are migrated in place). */
export const SETTINGS_VERSION = 2;

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

/** The driving cameras in the order the camera button cycles them (src/systems/view/camera.ts). */
export const CAMERA_MODES = ['chase', 'chase-far', 'hood', 'cockpit', 'bumper'] as const;
export type CameraMode = (typeof CAMERA_MODES)[number];

/** Co-driver call timing (src/systems/view/codriver/planner.ts CALL_LEAD_S: how long before a corner a call ends). */
export const CODRIVER_TIMINGS = ['early', 'normal', 'late'] as const;
/** Co-driver voice: the recorded eSpeak NG clips, or the browser's speech synthesis. */
export const CODRIVER_VOICES = ['clips', 'system'] as const;
/** Longest server URL kept in the settings, characters. */
export const MAX_SERVER_URL_CHARS = 200;

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
  graphics: z.enum(GRAPHICS_PRESETS),
  codriver: z.boolean(),
  codriverVolume: z.number().min(0).max(1),
  codriverTiming: z.enum(CODRIVER_TIMINGS),
  codriverVoice: z.enum(CODRIVER_VOICES),
  cornerBoards: z.boolean(),
  serverUrl: z.string().max(MAX_SERVER_URL_CHARS),
  submitRuns: z.boolean(),
  bindings: z.record(z.enum(ALL_ACTIONS as [Action, ...Action[]]), z.array(BindingSchema).max(MAX_BINDINGS_PER_ACTION)),
  tuning: z.record(z.enum(ANALOG_ACTIONS), TuningSchema),
  activeProfile: z.string().max(MAX_PAD_ID_LENGTH),
  profiles: z.record(z.string(), z.unknown()),
  version: z.number(),
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
  /** Graphics preset (src/systems/view/graphics-presets.ts): shadows, trees, draw distance, resolution, particles. */
  graphics: GraphicsPresetName;
  /** Co-driver calls (voice) on or off; the pace-note strip shows either way. */
  codriver: boolean;
  codriverVolume: number;
  codriverTiming: (typeof CODRIVER_TIMINGS)[number];
  codriverVoice: (typeof CODRIVER_VOICES)[number];
  /** Chevron boards at the slow corners (severity ≤ 2, hairpins, squares). */
  cornerBoards: boolean;
  /** The BitRally server's base URL ('' = none: online features show "offline"; docs/server.md). */
  serverUrl: string;
  /** Finished runs are uploaded to the server for the leaderboards (only when a server is set). */
  submitRuns: boolean;
  bindings: Record<Action, Binding[]>;
  tuning: Record<AnalogAction, ActionTuning>;
  /** Gamepad id of the active profile ('' before any pad was seen). */
  activeProfile: string;
  /** Pad bindings and tuning per gamepad id. */
  profiles: Record<string, PadProfile>;
  version: number;
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
    graphics: 'medium',
    codriver: true,
    codriverVolume: 0.9,
    codriverTiming: 'normal',
    codriverVoice: 'clips',
    cornerBoards: true,
    serverUrl: '',
    submitRuns: true,
    bindings: structuredClone(DEFAULT_BINDINGS),
    tuning: structuredClone(DEFAULT_TUNING),
    activeProfile: '',
    profiles: {},
    version: SETTINGS_VERSION,
  };
}

const where = `settings (localStorage ${SETTINGS_KEY})`;
const BindingListSchema = z.array(BindingSchema).max(MAX_BINDINGS_PER_ACTION);

/** Per-action record (bindings or tuning): each valid action replaces its default, each bad one is reported. */
function parseActionRecord<T>(src: unknown, defaults: Record<string, T>, item: z.ZodType<T>, path: string, problems: string[]): Record<string, T> {
  const merged = structuredClone(defaults);
  if (src === null || typeof src !== 'object' || Array.isArray(src)) {
    problems.push(`${where}: ${path}: expected an object, found ${JSON.stringify(src)}`);
    return merged;
  }
  for (const [action, v] of Object.entries(src as Record<string, unknown>)) {
    if (!(action in merged)) {
      problems.push(`${where}: ${path}.${action}: expected one of ${Object.keys(merged).join(', ')}, found an unknown action`);
      continue;
    }
    const r = item.safeParse(v);
    if (r.success) merged[action] = r.data;
    else problems.push(`${where}: ${path}.${action}: ${r.error.issues[0]!.message}, found ${JSON.stringify(v)}`);
  }
  return merged;
}

function parseProfiles(src: unknown, problems: string[]): Record<string, PadProfile> {
  const out: Record<string, PadProfile> = {};
  if (src === null || typeof src !== 'object' || Array.isArray(src)) {
    problems.push(`${where}: profiles: expected an object, found ${JSON.stringify(src)}`);
    return out;
  }
  const entries = Object.entries(src as Record<string, unknown>);
  if (entries.length > MAX_PROFILES) problems.push(`${where}: profiles: expected at most ${MAX_PROFILES}, found ${entries.length} (the oldest dropped)`);
  for (const [id, p] of entries.slice(-MAX_PROFILES)) {
    if (id.length === 0 || id.length > MAX_PAD_ID_LENGTH || p === null || typeof p !== 'object') {
      problems.push(`${where}: profiles: expected a pad id of 1–${MAX_PAD_ID_LENGTH} characters with {bindings, tuning}, found ${JSON.stringify(id.slice(0, 40))}`);
      continue;
    }
    const d = defaultProfile();
    const q = p as Record<string, unknown>;
    const path = `profiles[${JSON.stringify(id.slice(0, 40))}]`;
    const bindings = 'bindings' in q ? parseActionRecord(q.bindings, d.bindings, BindingListSchema, `${path}.bindings`, problems) : d.bindings;
    const tuning = 'tuning' in q ? parseActionRecord(q.tuning, d.tuning, TuningSchema, `${path}.tuning`, problems) : d.tuning;
    out[id] = { bindings: bindings as Bindings, tuning: tuning as PadProfile['tuning'] };
  }
  return out;
}

/**
 * Version 1 → 2. The version-1 controls screen stored one key (or button) for steering and dropped the
 * others, so the car could steer one way only. For each bipolar action whose keys (or pad inputs) drive one
 * direction only, the default ones of the missing direction are added back. Nothing is removed.
 */
export function migrateV1(bindings: Bindings, problems: string[]): void {
  for (const action of ALL_ACTIONS.filter(isBipolar)) {
    for (const pad of [false, true]) {
      const [neg, pos] = slotsOf(action).map((sl) => bindingsIn({ ...bindings, [action]: (bindings[action] ?? []).filter((b) => isPadBinding(b) === pad) }, sl));
      if (neg!.length > 0 === pos!.length > 0) continue;
      const missing = neg!.length === 0 ? slotsOf(action)[0]! : slotsOf(action)[1]!;
      const add = bindingsIn(DEFAULT_BINDINGS, missing)
        .filter((b) => isPadBinding(b) === pad)
        .map((b) => (b.type === 'axis' && b.range === 'full' ? halfOfFullAxis(b, missing.dir as -1 | 1) : { ...b }));
      bindings[action] = [...(bindings[action] ?? []), ...add].slice(-MAX_BINDINGS_PER_ACTION);
      problems.push(`${where}: migrated from version 1: ${action} had ${pad ? 'pad inputs' : 'keys'} for one direction only; added ${add.map((b) => bindingLabel(b)).join(', ')} for the other`);
    }
  }
}

/**
 * Parse stored settings. Unknown keys are ignored; each invalid field falls back to its default and is
 * reported as "settings (localStorage bitrally.settings.v1): <key>: expected …, found …".
 */
export function parseSettings(raw: unknown): { settings: Settings; problems: string[] } {
  const d = defaultSettings();
  const problems: string[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    if (raw !== undefined && raw !== null) problems.push(`${where}: expected an object, found ${typeof raw}`);
    return { settings: d, problems };
  }
  const obj = raw as Record<string, unknown>;
  const shape = SettingsSchema.shape;
  const out: Record<string, unknown> = { ...d };
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    if (!(key in obj) || key === 'version') continue;
    if (key === 'bindings') out.bindings = parseActionRecord(obj.bindings, d.bindings, BindingListSchema, key, problems);
    else if (key === 'tuning') out.tuning = parseActionRecord(obj.tuning, d.tuning, TuningSchema, key, problems);
    else if (key === 'profiles') out.profiles = parseProfiles(obj.profiles, problems);
    else {
      const r = shape[key].safeParse(obj[key]);
      if (r.success) out[key] = r.data;
      else problems.push(`${where}: ${key}: ${r.error.issues[0]!.message}, found ${JSON.stringify(obj[key])}`);
    }
  }
  const settings = out as Settings;
  if (obj.version === undefined || obj.version === 1) migrateV1(settings.bindings, problems);
  settings.version = SETTINGS_VERSION;
  return { settings, problems };
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
  syncActiveProfile(s);
  try {
    store?.setItem(SETTINGS_KEY, JSON.stringify(s));
  } catch {
    /* storage full or disabled: settings live for this session only */
  }
}
