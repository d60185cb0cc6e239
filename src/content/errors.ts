/**
 * Clear errors for bad input files: every message names the file, the field (key path), what was expected
 * and what was found. Loaders throw ContentError; callers show `message` and keep what they had.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod';

export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly issues: string[],
  ) {
    super(issues.map((i) => `${file}: ${i}`).join('\n'));
    this.name = 'ContentError';
  }
}

function describe(v: unknown): string {
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

/** Turn zod issues into "key.path: expected …, found …" lines. Parse with `reportInput: true` to see inputs. */
export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.map((iss) => {
    const where = keyPath(iss.path);
    const found = 'input' in iss ? describe(iss.input) : undefined;
    let expected: string;
    switch (iss.code) {
      case 'invalid_type':
        expected = `expected ${iss.expected}`;
        break;
      case 'invalid_value':
        expected = `expected one of ${iss.values.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'too_small':
        expected = `expected ${iss.origin === 'array' ? 'at least ' + String(iss.minimum) + ' items' : (iss.inclusive ? '≥ ' : '> ') + String(iss.minimum)}`;
        break;
      case 'too_big':
        expected = `expected ${iss.origin === 'array' ? 'at most ' + String(iss.maximum) + ' items' : (iss.inclusive ? '≤ ' : '< ') + String(iss.maximum)}`;
        break;
      case 'unrecognized_keys':
        return `${where}: unknown key${iss.keys.length > 1 ? 's' : ''} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (check spelling and the unit suffix)`;
      default:
        expected = iss.message;
    }
    return `${where}: ${expected}, found ${found ?? 'an invalid value'}${iss.code === 'custom' ? '' : ''}`;
  });
}

/** Parse TOML text, turning syntax errors into a ContentError with line and column. */
export function parseTomlFile(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      throw new ContentError(file, [`TOML syntax error at line ${e.line}, column ${e.column}: ${e.message.split('\n')[0]}`]);
    }
    throw new ContentError(file, [`could not parse TOML: ${(e as Error).message}`]);
  }
}

/** Validate `data` with `schema`, throwing a ContentError that lists every problem. */
export function validate<T extends z.ZodType>(schema: T, data: unknown, file: string): z.output<T> {
  const r = schema.safeParse(data, { reportInput: true });
  if (!r.success) throw new ContentError(file, formatZodIssues(r.error));
  return r.data;
}
