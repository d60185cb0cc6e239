/**
 * A car file being edited: validation with positions (for the editor's underlines), the setup sliders
 * (values that declare a `[setup]` range) and the one gate between a draft and the simulation.
 *
 * The gate is `checkCarDraft`: it runs the game's own loader (`loadCarConfig`: TOML parse, `extends`, the
 * zod schema, the semantic checks) and only a successful load yields a `CarConfig`. Everything that swaps a
 * car in a running world (garage "apply", dev live reload) takes a `CarConfig`, never text, so an invalid
 * draft has no path to the simulation; it can still be stored as a draft (custom-cars.ts).
 */
import { ContentError, parseTomlFile } from '../../validate/errors';
import { CarFileSchema, isObj, type CarConfig } from '../../content/car-schema';
import { deepMerge, loadCarConfig, MAX_EXTENDS_DEPTH } from '../../content/car-load';
import { findValue, parsePathString, scanToml, spanForPath, TomlScanError, type Seg, type TomlSpans } from './toml-spans';

export interface DraftProblem {
  /** Character range to underline (whole first line when the position is unknown). */
  from: number;
  to: number;
  message: string;
  /** Key path the message names ("suspension.front.spring_rate_n_per_mm"), or null. */
  path: string | null;
}

export type DraftCheck = { ok: true; config: CarConfig; problems: [] } | { ok: false; config: null; problems: DraftProblem[] };

export type ReadExtends = (name: string) => string;

/** Offset of 1-based line/column in text. */
export function offsetAt(text: string, line: number, column: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  return Math.min(text.length, off + Math.max(0, column - 1));
}

function wholeLine(text: string, at: number): { from: number; to: number } {
  const from = text.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
  let to = text.indexOf('\n', at);
  if (to < 0) to = text.length;
  if (to === from && from > 0) return wholeLine(text, from - 1);
  return { from, to: Math.max(to, from) };
}

/** Position of one loader issue line ("key.path: expected …, found …" or a TOML syntax error). */
export function locateIssue(text: string, spans: TomlSpans | null, issueFile: string, file: string, issue: string): DraftProblem {
  const syn = /^TOML syntax error at line (\d+), column (\d+)/.exec(issue);
  if (syn && issueFile === file) {
    const at = offsetAt(text, Number(syn[1]), Number(syn[2]));
    const r = wholeLine(text, at);
    return { from: Math.min(at, r.to), to: Math.max(r.to, Math.min(at + 1, text.length)), message: issue, path: null };
  }
  if (issueFile !== file && spans) {
    // a problem in the file this one extends: underline the `extends` value
    const ext = findValue(spans, ['extends']);
    if (ext) return { from: ext.from, to: ext.to, message: `${issueFile}: ${issue}`, path: 'extends' };
  }
  const m = /^(.+?): /.exec(issue);
  const pathStr = m ? m[1]! : null;
  if (pathStr && spans && pathStr !== '(top level)') {
    const path: Seg[] = pathStr.startsWith('setup."') ? ['setup', ...parsePathString(pathStr.slice(6))] : parsePathString(pathStr);
    const unknown = /unknown keys? "([^"]+)"/.exec(issue);
    if (unknown) {
      // underline the misspelt key itself
      const v = findValue(spans, [...path, unknown[1]!]);
      if (v) return { from: v.keyFrom, to: v.keyTo, message: issue, path: pathStr };
    }
    const ext = findValue(spans, ['extends']);
    if (ext && !findValue(spans, path) && !/found nothing/.test(issue)) {
      // the value comes from the file this one extends
      return { from: ext.from, to: ext.to, message: `${issue} (inherited through extends)`, path: pathStr };
    }
    const s = spanForPath(spans, path);
    if (s) return { from: s.from, to: s.to, message: issue, path: pathStr };
  }
  const r = wholeLine(text, 0);
  return { from: r.from, to: r.to, message: issue, path: pathStr };
}

/** Validate a car draft with the game's loader. Never throws. */
export function checkCarDraft(text: string, file: string, readExtends?: ReadExtends): DraftCheck {
  try {
    parseTomlFile(text, file); // size / nesting caps and syntax first: the span scanner below is recursive
  } catch (e) {
    if (e instanceof ContentError) return { ok: false, config: null, problems: e.issues.map((i) => locateIssue(text, null, e.file, file, i)) };
    throw e;
  }
  let spans: TomlSpans | null = null;
  try {
    spans = scanToml(text);
  } catch (e) {
    if (!(e instanceof TomlScanError)) throw e;
  }
  try {
    const config = loadCarConfig(text, file, readExtends);
    return { ok: true, config, problems: [] };
  } catch (e) {
    if (e instanceof ContentError) {
      return { ok: false, config: null, problems: e.issues.map((i) => locateIssue(text, spans, e.file, file, i)) };
    }
    const r = wholeLine(text, 0);
    return { ok: false, config: null, problems: [{ from: r.from, to: r.to, message: `${file}: ${(e as Error).message}`, path: null }] };
  }
}

/**
 * The file's data after `extends` (no validation), or null if the TOML does not parse or passes the size / nesting
 * caps (parseTomlFile: a 10,000-deep file is refused before the recursive parser and this merge see it).
 */
export function mergedData(text: string, readExtends?: ReadExtends, depth = 0): Record<string, unknown> | null {
  let raw: Record<string, unknown>;
  try {
    raw = parseTomlFile(text, 'draft.toml');
  } catch {
    return null;
  }
  const ext = raw['extends'];
  delete raw['extends'];
  if (typeof ext !== 'string' || !readExtends || depth >= MAX_EXTENDS_DEPTH) return raw;
  let base: Record<string, unknown> | null;
  try {
    base = mergedData(readExtends(ext), readExtends, depth + 1);
  } catch {
    base = null;
  }
  return base ? deepMerge(base, raw) : raw;
}

export interface SetupSlider {
  /** Key path as written in `[setup]`: "suspension.front.spring_rate_n_per_mm". */
  key: string;
  path: Seg[];
  min: number;
  max: number;
  step: number;
  /** Current value (from the text, or inherited through `extends`); null if not numeric. */
  value: number | null;
  /** Whether the value is written in this file (else a slider move inserts it). */
  written: boolean;
}

function getPath(obj: unknown, path: readonly Seg[]): unknown {
  let cur = obj;
  for (const s of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[s];
  }
  return cur;
}

/**
 * The sliders of a draft: one per `[setup]` entry with a numeric min/max/step. Returns null when the text
 * does not parse (the sliders keep their last state and are shown stale).
 */
export function setupSliders(text: string, readExtends?: ReadExtends): SetupSlider[] | null {
  const data = mergedData(text, readExtends);
  if (!data) return null;
  let spans: TomlSpans;
  try {
    spans = scanToml(text);
  } catch {
    return null;
  }
  const setup = data['setup'];
  if (!isObj(setup)) return [];
  const out: SetupSlider[] = [];
  let defaults: ReturnType<typeof CarFileSchema.safeParse> | undefined;
  for (const [key, r] of Object.entries(setup)) {
    if (!isObj(r)) continue;
    const { min, max, step } = r as Record<string, unknown>;
    if (typeof min !== 'number' || typeof max !== 'number' || typeof step !== 'number' || !(step > 0) || !(max >= min)) continue;
    const path = key.split('.');
    let v = getPath(data, path);
    if (v === undefined) {
      // not written anywhere: the schema default (when the rest of the file validates)
      defaults ??= CarFileSchema.safeParse(data);
      if (defaults.success) v = getPath(defaults.data, path);
    }
    out.push({ key, path, min, max, step, value: typeof v === 'number' ? v : null, written: !!findValue(spans, path) });
  }
  return out;
}
