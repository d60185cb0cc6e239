/**
 * Loading a car file: parse, resolve `extends`, validate every key against its physical range (car-schema.ts,
 * car-ranges.ts), the semantic and cross-field checks (car-plausibility.ts), then SI conversion; and setup changes
 * through the same checks. Every refusal is a ContentError naming file, key, expected and found.
 */
import { ContentError, parseTomlFile, validate } from '../validate/errors';
import { CarFileSchema, carIdFromFile, isObj, onStep, semanticIssues, stepGrid, toCarConfig, type CarConfig } from './car-schema';
import { plausibilityIssues } from './car-plausibility';

/**
 * The one deep merge of car tables (`extends` here and in the garage's draft view): tables merge key by key,
 * arrays and scalars in `over` replace. Inputs come from parseTomlFile, whose nesting cap bounds the recursion.
 */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObj(b) && isObj(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** Longest `extends` chain (a file, its base, its base's base …). */
export const MAX_EXTENDS_DEPTH = 8;

/**
 * `extends` names a file in the same folder ("rally-awd.toml", "custom-x.toml") or a built-in id ("rally-awd"):
 * a plain name, never a path, so no reader can be led outside the cars folder ("../../etc/passwd").
 */
export const EXTENDS_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

function checkExtendsName(ext: unknown, file: string, chain: string[]): string {
  if (typeof ext !== 'string') throw new ContentError(file, [`extends: expected a file name string, found ${typeof ext}`]);
  if (!EXTENDS_NAME.test(ext) || ext.includes('..')) {
    throw new ContentError(file, [`extends: expected a car file name in the same folder or a built-in id (letters, digits, "-", "_", "."; no path), found ${JSON.stringify(ext.slice(0, 120))}`]);
  }
  const asFile = ext.endsWith('.toml') ? ext : `${ext}.toml`; // "rally-awd" and "rally-awd.toml" are one file
  if (chain.includes(ext) || chain.includes(asFile)) throw new ContentError(file, [`extends: circular chain ${[...chain, ext].join(' → ')}`]);
  if (chain.length > MAX_EXTENDS_DEPTH) throw new ContentError(file, [`extends: expected a chain of at most ${MAX_EXTENDS_DEPTH} files, found a longer one (${chain.join(' → ')} → ${ext})`]);
  return ext;
}

/** Resolve `extends` chains; `readExtends(name)` returns the text of the named file. */
function resolveRaw(text: string, file: string, readExtends: ((name: string) => string) | undefined, chain: string[]): Record<string, unknown> {
  const raw = parseTomlFile(text, file);
  const extRaw = raw['extends'];
  delete raw['extends'];
  if (extRaw === undefined) return raw;
  const ext = checkExtendsName(extRaw, file, chain);
  if (!readExtends) throw new ContentError(file, [`extends: "${ext}" cannot be read here (no reader given)`]);
  let baseText: string;
  try {
    baseText = readExtends(ext);
  } catch (e) {
    throw new ContentError(file, [`extends: cannot read "${ext}": ${(e as Error).message}`]);
  }
  const base = resolveRaw(baseText, ext, readExtends, [...chain, ext]);
  return deepMerge(base, raw);
}

/**
 * Parse, resolve `extends`, validate and convert a car file. Throws ContentError (file, key path, expected,
 * found); a caller keeps its previous car when this throws.
 */
export function loadCarConfig(text: string, file: string, readExtends?: (name: string) => string): CarConfig {
  const raw = resolveRaw(text, file, readExtends, [carIdFromFile(file) + '.toml']);
  return checkedConfig(raw, carIdFromFile(file), file);
}

/** Schema (per-key physical ranges), semantic and cross-field checks of merged file data, then SI conversion. */
function checkedConfig(raw: unknown, id: string, file: string): CarConfig {
  const data = validate(CarFileSchema, raw, file);
  const issues = semanticIssues(data);
  if (issues.length) throw new ContentError(file, issues);
  const cfg = toCarConfig(data, id, file);
  const cross = plausibilityIssues(data, cfg);
  if (cross.length) throw new ContentError(file, cross);
  return cfg;
}

/**
 * Hot reload: the new file replaces `prev` only if it loads cleanly; otherwise `prev` is kept and the error
 * (file, key path, expected, found) is returned for display.
 */
export function reloadCarConfig(
  prev: CarConfig,
  text: string,
  file: string,
  readExtends?: (name: string) => string,
): { config: CarConfig; error: ContentError | null } {
  try {
    return { config: loadCarConfig(text, file, readExtends), error: null };
  } catch (e) {
    if (e instanceof ContentError) return { config: prev, error: e };
    return { config: prev, error: new ContentError(file, [(e as Error).message]) };
  }
}

/** Apply setup values ("key.path" → value) within their declared ranges and on their step grids; returns a new config. */
export function applySetup(cfg: CarConfig, values: Record<string, number>): CarConfig {
  const issues: string[] = [];
  let data: Record<string, unknown> = structuredClone(cfg.source) as unknown as Record<string, unknown>;
  for (const [key, v] of Object.entries(values)) {
    const r = cfg.setup[key];
    if (!r) {
      issues.push(`setup."${key}": expected one of ${Object.keys(cfg.setup).join(', ') || '(no tunable values)'}, found an unknown key`);
      continue;
    }
    if (!(v >= r.min && v <= r.max)) {
      issues.push(`setup."${key}": expected a value within [${r.min}, ${r.max}], found number ${v}`);
      continue;
    }
    if (!onStep(v, r.min, r.step)) {
      issues.push(`setup."${key}": expected a value on ${stepGrid(r, v)}, found number ${v}`);
      continue;
    }
    const parts = key.split('.');
    const over: Record<string, unknown> = {};
    let cur = over;
    for (let i = 0; i < parts.length - 1; i++) cur = cur[parts[i]!] = {} as Record<string, unknown>;
    cur[parts[parts.length - 1]!] = v;
    data = deepMerge(data, over);
  }
  if (issues.length) throw new ContentError(cfg.file, issues);
  return checkedConfig(data, cfg.id, cfg.file);
}

