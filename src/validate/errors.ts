/**
 * Clear errors for bad input files: every message names the file, the field (key path), what was expected
 * and what was found. Loaders throw ContentError; callers show `message` and keep what they had.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { closestKey, keysAt } from './suggest';
import { findNestingBeyond, MAX_NESTING_DEPTH, MAX_TOML_BYTES, valueDepthBeyond } from './bounded-parse';

export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly issues: string[],
  ) {
    super(issues.map((i) => `${file}: ${i}`).join('\n'));
    this.name = 'ContentError';
  }
}

/** How a found value reads in an error message (also the network messages' checks, src/net/standings.ts). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v);
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  if (Array.isArray(v)) return `array of ${v.length}`;
  return typeof v;
}

export function keyPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : (i ? '.' : '') + String(p))).join('');
}

/** Unknown keys named in one message. */
const MAX_KEYS_LISTED = 10;

/** Turn zod issues into "key.path: expected …, found …" lines. Parse with `reportInput: true` to see inputs. */
export function formatZodIssues(error: z.ZodError, schema?: z.ZodType): string[] {
  return error.issues.map((iss) => {
    const where = keyPath(iss.path);
    const found = 'input' in iss ? describeValue(iss.input) : undefined;
    let expected: string;
    switch (iss.code) {
      case 'invalid_type':
        expected = `expected ${iss.expected}`;
        break;
      case 'invalid_value':
        expected = `expected one of ${iss.values.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'too_small':
      case 'too_big':
        if (iss.message.startsWith('expected ')) {
          expected = iss.message; // a documented range (car-ranges.ts)
          break;
        }
        if (iss.code === 'too_big') {
          expected = `expected ${iss.origin === 'array' ? 'at most ' + String(iss.maximum) + ' items' : (iss.inclusive ? '≤ ' : '< ') + String(iss.maximum)}`;
          break;
        }
        expected = `expected ${iss.origin === 'array' ? 'at least ' + String(iss.minimum) + ' items' : (iss.inclusive ? '≥ ' : '> ') + String(iss.minimum)}`;
        break;
      case 'unrecognized_keys': {
        // A hostile file can hold 10⁵ unknown keys: name (and suggest for) the first few only.
        const shown = iss.keys.slice(0, MAX_KEYS_LISTED);
        const more = iss.keys.length > shown.length ? ` and ${iss.keys.length - shown.length} more` : '';
        return `${where}: unknown key${iss.keys.length > 1 ? 's' : ''} ${shown.map((k) => JSON.stringify(k)).join(', ')}${more} (${didYouMean(shown, schema, iss.path)})`;
      }
      default:
        expected = iss.message;
    }
    return `${where}: ${expected}, found ${found ?? 'an invalid value'}${iss.code === 'custom' ? '' : ''}`;
  });
}

/** "did you mean …" for misspelt keys, else the generic hint. */
function didYouMean(keys: readonly string[], schema: z.ZodType | undefined, path: readonly PropertyKey[]): string {
  const known = schema ? keysAt(schema, path) : [];
  const hints = keys.map((k) => [k, closestKey(k, known)] as const).filter(([, c]) => c !== null);
  if (hints.length === 0) return 'check spelling and the unit suffix';
  return hints.map(([k, c]) => `"${k}": did you mean "${c}"?`).join('; ');
}

/** Size and nesting caps of one parse; the defaults suit every content file. */
export interface ParseLimits {
  maxBytes?: number;
  maxDepth?: number;
}

function checkTextLimits(text: string, file: string, syntax: 'toml' | 'json', limits: ParseLimits): void {
  const maxBytes = limits.maxBytes ?? MAX_TOML_BYTES;
  const maxDepth = limits.maxDepth ?? MAX_NESTING_DEPTH;
  // UTF-16 length ≤ UTF-8 bytes ≤ 3 × it: compare the cheap bound first, and never encode a text already too long
  // (a 500 MB string would cost 1.5 GB to encode just to print its size).
  if (text.length > maxBytes) {
    throw new ContentError(file, [`(whole file): expected at most ${maxBytes} bytes, found more (${text.length} characters)`]);
  }
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > maxBytes) throw new ContentError(file, [`(whole file): expected at most ${maxBytes} bytes, found ${bytes}`]);
  const deep = findNestingBeyond(text, maxDepth, syntax);
  if (deep) {
    throw new ContentError(file, [
      `line ${deep.line}, column ${deep.column}: expected brackets nested at most ${maxDepth} deep, found deeper nesting`,
    ]);
  }
}

function checkValueDepth(value: unknown, file: string, limits: ParseLimits): void {
  const maxDepth = limits.maxDepth ?? MAX_NESTING_DEPTH;
  // The root table is one level that no bracket opens: a file that passed the bracket scan has value depth ≤ max + 1.
  if (valueDepthBeyond(value, maxDepth + 1) !== null) {
    throw new ContentError(file, [`(whole file): expected tables nested at most ${maxDepth} deep, found deeper nesting`]);
  }
}

/**
 * Parse TOML text, turning syntax errors into a ContentError with line and column. Size and nesting are capped
 * before the (recursive) parser runs, so a hostile file is refused instead of overflowing the stack.
 */
export function parseTomlFile(text: string, file: string, limits: ParseLimits = {}): Record<string, unknown> {
  checkTextLimits(text, file, 'toml', limits);
  let value: Record<string, unknown>;
  try {
    value = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      throw new ContentError(file, [`TOML syntax error at line ${e.line}, column ${e.column}: ${e.message.split('\n')[0]}`]);
    }
    throw new ContentError(file, [`could not parse TOML: ${(e as Error).message}`]);
  }
  checkValueDepth(value, file, limits);
  return value;
}

/** Parse untrusted JSON text with the same size and nesting caps as `parseTomlFile`. */
export function parseJsonFile(text: string, file: string, limits: ParseLimits = {}): unknown {
  checkTextLimits(text, file, 'json', limits);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ContentError(file, [`(whole file): expected JSON, found unparsable text (${(e as Error).message.slice(0, 80)})`]);
  }
}

/** Validate `data` with `schema`, throwing a ContentError that lists every problem. */
export function validate<T extends z.ZodType>(schema: T, data: unknown, file: string): z.output<T> {
  const r = schema.safeParse(data, { reportInput: true });
  if (!r.success) throw new ContentError(file, formatZodIssues(r.error, schema));
  return r.data;
}
