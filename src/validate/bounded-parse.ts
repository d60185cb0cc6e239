/**
 * Size and nesting caps for untrusted text, checked before a recursive parser or a recursive consumer sees it.
 * A 10,000-deep `[[[[…` overflows the stack of smol-toml, of our deep merge and of zod; a 1e6-deep JSON header does
 * the same to every walker after JSON.parse. The scan below is iterative and linear in the text, so a hostile file
 * costs O(n) time and O(1) memory before it is refused.
 */

/** Deepest bracket nesting any content file may use (cars nest ~4, stages ~5, replay headers ~6). */
export const MAX_NESTING_DEPTH = 64;
/** Largest TOML content file accepted (shipped car files are ~4 KB, stage.toml ~20 KB). */
export const MAX_TOML_BYTES = 1024 * 1024;

export interface NestingProblem {
  depth: number;
  /** 1-based line and column where the cap was passed. */
  line: number;
  column: number;
}

type Syntax = 'toml' | 'json';

/**
 * Deepest nesting of `[`/`{` in `text`, ignoring brackets inside strings and (for TOML) comments; stops at the first
 * place deeper than `max` and reports it. TOML table headers (`[a.b]`, `[[a]]`) are counted as nesting too, which
 * over-counts by at most two: harmless for a cap of 64.
 */
export function findNestingBeyond(text: string, max: number, syntax: Syntax): NestingProblem | null {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
      i++;
    } else if (c === 34 || (c === 39 && syntax === 'toml')) {
      i = skipString(text, i, c, syntax);
    } else if (c === 35 && syntax === 'toml') {
      while (i < n && text.charCodeAt(i) !== 10) i++;
    } else if (c === 91 || c === 123) {
      depth++;
      if (depth > max) return { depth, line, column: i - lineStart + 1 };
      i++;
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
      i++;
    } else i++;
  }
  return null;
}

/** Index just past the string that opens at `start` (quote char `q`); TOML triple quotes included. Unterminated: end. */
function skipString(text: string, start: number, q: number, syntax: Syntax): number {
  const n = text.length;
  const triple = syntax === 'toml' && text.charCodeAt(start + 1) === q && text.charCodeAt(start + 2) === q;
  let i = start + (triple ? 3 : 1);
  const escapes = q === 34; // literal strings ('…') have no escapes
  while (i < n) {
    const c = text.charCodeAt(i);
    if (escapes && c === 92) {
      i += 2;
      continue;
    }
    if (c === q) {
      if (!triple) return i + 1;
      if (text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q) return i + 3;
    } else if (c === 10 && !triple) return i; // a basic string cannot span lines: let the parser report it
    i++;
  }
  return n;
}

/**
 * Deepest nesting of a parsed value (objects and arrays), walked with an explicit stack so that the walk itself can't
 * overflow. Stops as soon as `max` is passed and returns that depth (dotted TOML keys `a.b.c.…` nest without brackets).
 */
export function valueDepthBeyond(value: unknown, max: number): number | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) return d + 1;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
    }
  }
  return null;
}
