/**
 * TOML value spans: where each value of a TOML document sits in the text, so that the garage can change one
 * number (a slider moved) by replacing exactly that value's characters. Everything else in the file (the
 * user's comments, blank lines, key order, quoting, number style) stays byte for byte as it was.
 *
 * `scanToml(text)` walks the document once (tables, arrays of tables, dotted and quoted keys, all string
 * forms, multi-line arrays with comments, nested inline tables) and returns the span of every value plus
 * the table sections. `numberEdit(text, path, value, step)` returns the one `{from, to, insert}` change that
 * sets a numeric value: a replacement of the value's span when the key is written in the file, or an
 * insertion of `key = value` in the right table when it is not (e.g. a value inherited through `extends`).
 * The scanner does not judge TOML validity beyond what it needs to follow the structure; smol-toml remains
 * the parser of record (`parseTomlFile`).
 */

import { findNestingBeyond, MAX_NESTING_DEPTH, MAX_TOML_BYTES } from '../../validate/bounded-parse';

export type Seg = string | number;

/** Offset of the start of 1-based `line`. */
function offsetOfLine(text: string, line: number): number {
  let off = 0;
  for (let l = 1; l < line && off >= 0; l++) off = text.indexOf('\n', off) + 1;
  return Math.max(0, off);
}

export type ValueKind = 'number' | 'string' | 'bool' | 'datetime' | 'array' | 'inline';

export interface ValueSpan {
  path: Seg[];
  /** Value characters [from, to). */
  from: number;
  to: number;
  kind: ValueKind;
  /** Key characters (the whole dotted key as written; for array items the item itself). */
  keyFrom: number;
  keyTo: number;
}

export interface Section {
  /** Table path; [] is the root section (before the first header). */
  path: Seg[];
  header: 'root' | 'table' | 'array';
  /** Header characters (0, 0 for the root). */
  headerFrom: number;
  headerTo: number;
  /** End of the header line (before its newline) or 0 for the root. */
  headerLineEnd: number;
  /** End (before the newline) of the last key/value line of the section, or -1 if none. */
  lastLineEnd: number;
  /** Indentation of the last key/value line. */
  indent: string;
}

export interface InlineTable {
  path: Seg[];
  /** Position of `{` and of `}`. */
  open: number;
  close: number;
  /** End of the last entry's value, or -1 if empty. */
  lastEntryEnd: number;
}

export interface TomlSpans {
  values: ValueSpan[];
  sections: Section[];
  inlineTables: InlineTable[];
  /** Tables created by dotted keys: path key → index of the section whose lines define them. */
  dotted: Map<string, number>;
  newline: string;
}

export class TomlScanError extends Error {
  constructor(
    readonly pos: number,
    message: string,
  ) {
    super(message);
    this.name = 'TomlScanError';
  }
}

/** Canonical string of a path: segments joined by "\u0000" (keys may contain dots). */
export const pathKey = (p: readonly Seg[]): string => p.map((s) => (typeof s === 'number' ? `#${s}` : `k${s}`)).join('\u0000');

export const samePath = (a: readonly Seg[], b: readonly Seg[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);

const BARE = /[A-Za-z0-9_-]/;

/** Split a dotted key path as written in the car files and error messages ("a.b[2].c") into segments. */
export function parsePathString(s: string): Seg[] {
  const out: Seg[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[') {
      const j = s.indexOf(']', i);
      out.push(Number(s.slice(i + 1, j < 0 ? s.length : j)));
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === '"') {
      const j = s.indexOf('"', i + 1);
      out.push(s.slice(i + 1, j < 0 ? s.length : j));
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    let j = i;
    while (j < s.length && s[j] !== '.' && s[j] !== '[') j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

class Scanner {
  i = 0;
  /** End of the last key segment read by dottedKey (before trailing blanks). */
  keyEnd = 0;
  readonly values: ValueSpan[] = [];
  readonly sections: Section[] = [];
  readonly inlineTables: InlineTable[] = [];
  readonly dotted = new Map<string, number>();
  private readonly arrayCounts = new Map<string, number>();

  constructor(readonly t: string) {}

  fail(msg: string, pos = this.i): never {
    throw new TomlScanError(pos, msg);
  }

  /** Spaces and tabs. */
  ws(): void {
    while (this.i < this.t.length && (this.t[this.i] === ' ' || this.t[this.i] === '\t')) this.i++;
  }

  comment(): void {
    if (this.t[this.i] === '#') while (this.i < this.t.length && this.t[this.i] !== '\n' && this.t[this.i] !== '\r') this.i++;
  }

  /** Whitespace, newlines and comments (inside arrays). */
  wsnl(): void {
    for (;;) {
      this.ws();
      const c = this.t[this.i];
      if (c === '#') this.comment();
      else if (c === '\n' || c === '\r') this.i++;
      else return;
    }
  }

  /** Expect the rest of the line to be blank or a comment; consume the newline; return the line's end. */
  endOfLine(): number {
    this.ws();
    this.comment();
    const end = this.i;
    if (this.t[this.i] === '\r' && this.t[this.i + 1] === '\n') this.i++;
    if (this.i < this.t.length && this.t[this.i] !== '\n') this.fail(`expected the end of the line, found ${JSON.stringify(this.t[this.i])}`);
    if (this.i < this.t.length) this.i++;
    return end;
  }

  keySeg(): string {
    const t = this.t;
    const c = t[this.i];
    if (c === '"') {
      let s = '';
      this.i++;
      while (this.i < t.length && t[this.i] !== '"') {
        if (t[this.i] === '\\') {
          const n = t[this.i + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', r: '\r', b: '\b', f: '\f' };
          if (n === 'u' || n === 'U') {
            const len = n === 'u' ? 4 : 8;
            s += String.fromCodePoint(parseInt(t.slice(this.i + 2, this.i + 2 + len), 16));
            this.i += 2 + len;
            continue;
          }
          s += map[n ?? ''] ?? n ?? '';
          this.i += 2;
          continue;
        }
        if (t[this.i] === '\n') this.fail('unterminated quoted key');
        s += t[this.i++];
      }
      if (t[this.i] !== '"') this.fail('unterminated quoted key');
      this.i++;
      return s;
    }
    if (c === "'") {
      const j = t.indexOf("'", this.i + 1);
      if (j < 0) this.fail('unterminated quoted key');
      const s = t.slice(this.i + 1, j);
      this.i = j + 1;
      return s;
    }
    const st = this.i;
    while (this.i < t.length && BARE.test(t[this.i]!)) this.i++;
    if (this.i === st) this.fail(`expected a key, found ${JSON.stringify(t[this.i] ?? 'end of file')}`);
    return t.slice(st, this.i);
  }

  dottedKey(): Seg[] {
    const segs: Seg[] = [];
    for (;;) {
      this.ws();
      segs.push(this.keySeg());
      this.keyEnd = this.i;
      this.ws();
      if (this.t[this.i] === '.') {
        this.i++;
        continue;
      }
      return segs;
    }
  }

  scan(): void {
    const t = this.t;
    this.sections.push({ path: [], header: 'root', headerFrom: 0, headerTo: 0, headerLineEnd: 0, lastLineEnd: -1, indent: '' });
    let cur = 0;
    let prefix: Seg[] = [];
    while (this.i < t.length) {
      this.ws();
      const c = t[this.i];
      if (c === undefined) break;
      if (c === '#' || c === '\n' || c === '\r') {
        this.comment();
        if (t[this.i] === '\r') this.i++;
        if (t[this.i] === '\n') this.i++;
        continue;
      }
      if (c === '[') {
        const from = this.i;
        const isArr = t[this.i + 1] === '[';
        this.i += isArr ? 2 : 1;
        const key = this.dottedKey();
        if (t[this.i] !== ']' || (isArr && t[this.i + 1] !== ']')) this.fail(`expected "${isArr ? ']]' : ']'}" to close the table header`);
        this.i += isArr ? 2 : 1;
        const to = this.i;
        let path = key;
        if (isArr) {
          const k = pathKey(key);
          const n = this.arrayCounts.get(k) ?? 0;
          this.arrayCounts.set(k, n + 1);
          path = [...key, n];
        }
        const lineEnd = this.endOfLine();
        this.sections.push({ path, header: isArr ? 'array' : 'table', headerFrom: from, headerTo: to, headerLineEnd: lineEnd, lastLineEnd: -1, indent: '' });
        cur = this.sections.length - 1;
        prefix = path;
        continue;
      }
      // key = value line
      const lineStart = t.lastIndexOf('\n', this.i - 1) + 1;
      const indent = t.slice(lineStart, this.i);
      const keyFrom = this.i;
      const key = this.dottedKey();
      const keyTo = this.keyEnd;
      if (t[this.i] !== '=') this.fail(`expected "=" after the key "${key.join('.')}", found ${JSON.stringify(t[this.i] ?? 'end of file')}`);
      this.i++;
      this.ws();
      for (let k = 1; k < key.length; k++) this.dotted.set(pathKey([...prefix, ...key.slice(0, k)]), cur);
      this.value([...prefix, ...key], keyFrom, keyTo);
      const end = this.endOfLine();
      const sec = this.sections[cur]!;
      sec.lastLineEnd = end;
      sec.indent = indent;
    }
  }

  /** One value at the cursor (of any kind), recorded with its key span; arrays and inline tables recurse. */
  value(path: Seg[], keyFrom: number, keyTo: number): void {
    const t = this.t;
    const from = this.i;
    const c = t[this.i];
    let kind: ValueKind;
    if (t.startsWith('"""', this.i) || t.startsWith("'''", this.i)) kind = this.multiLineString(from);
    else if (c === '"') kind = this.basicString(from);
    else if (c === "'") kind = this.literalString(from);
    else if (c === '[') kind = this.array(path, from);
    else if (c === '{') kind = this.inlineTable(path);
    else kind = this.scalar(from);
    this.values.push({ path, from, to: this.i, kind, keyFrom, keyTo });
  }

  private multiLineString(from: number): ValueKind {
    const t = this.t;
    const q = t.slice(this.i, this.i + 3);
    this.i += 3;
    for (;;) {
      if (this.i >= t.length) this.fail('unterminated multi-line string', from);
      if (q === '"""' && t[this.i] === '\\') {
        this.i += 2;
        continue;
      }
      if (t.startsWith(q, this.i)) break;
      this.i++;
    }
    this.i += 3;
    // up to two quotes adjacent to the delimiter belong to the string
    let extra = 0;
    while (extra < 2 && t[this.i] === q[0]) {
      this.i++;
      extra++;
    }
    return 'string';
  }

  private basicString(from: number): ValueKind {
    const t = this.t;
    this.i++;
    while (this.i < t.length && t[this.i] !== '"') {
      if (t[this.i] === '\n') this.fail('unterminated string', from);
      this.i += t[this.i] === '\\' ? 2 : 1;
    }
    if (t[this.i] !== '"') this.fail('unterminated string', from);
    this.i++;
    return 'string';
  }

  private literalString(from: number): ValueKind {
    const t = this.t;
    const j = t.indexOf("'", this.i + 1);
    const nl = t.indexOf('\n', this.i + 1);
    if (j < 0 || (nl >= 0 && nl < j)) this.fail('unterminated string', from);
    this.i = j + 1;
    return 'string';
  }

  /** `[a, b, …]`: each item is a value of its own at path `[...path, index]` (its key span is the item). */
  private array(path: Seg[], from: number): ValueKind {
    const t = this.t;
    this.i++;
    let idx = 0;
    for (;;) {
      this.wsnl();
      if (t[this.i] === ']') break;
      if (this.i >= t.length) this.fail('unterminated array', from);
      const itemFrom = this.i;
      this.value([...path, idx], itemFrom, itemFrom);
      const last = this.values[this.values.length - 1];
      if (last && samePath(last.path, [...path, idx])) last.keyTo = last.to;
      idx++;
      this.wsnl();
      if (t[this.i] === ',') {
        this.i++;
        continue;
      }
      if (t[this.i] === ']') break;
      this.fail(`expected "," or "]" in the array, found ${JSON.stringify(t[this.i] ?? 'end of file')}`);
    }
    this.i++;
    return 'array';
  }

  /** `{ k = v, … }`: entries are values under `path`; the braces are kept for edits that add entries. */
  private inlineTable(path: Seg[]): ValueKind {
    const t = this.t;
    const tab: InlineTable = { path, open: this.i, close: -1, lastEntryEnd: -1 };
    this.inlineTables.push(tab);
    this.i++;
    for (;;) {
      this.ws();
      if (t[this.i] === '}') break;
      const kf = this.i;
      const key = this.dottedKey();
      const kt = this.keyEnd;
      if (t[this.i] !== '=') this.fail(`expected "=" after the key "${key.join('.')}" in the inline table`);
      this.i++;
      this.ws();
      this.value([...path, ...key], kf, kt);
      tab.lastEntryEnd = this.i;
      this.ws();
      if (t[this.i] === ',') {
        this.i++;
        continue;
      }
      if (t[this.i] === '}') break;
      this.fail(`expected "," or "}" in the inline table, found ${JSON.stringify(t[this.i] ?? 'end of line')}`);
    }
    tab.close = this.i;
    this.i++;
    return 'inline';
  }

  /** A bare token: boolean, number or date-time. */
  private scalar(from: number): ValueKind {
    const t = this.t;
    while (this.i < t.length && !/[\s,\]}#]/.test(t[this.i]!)) this.i++;
    // local date-time written with a space: 1979-05-27 07:32:00
    if (/^\d{4}-\d{2}-\d{2}$/.test(t.slice(from, this.i)) && t[this.i] === ' ' && /\d/.test(t[this.i + 1] ?? '')) {
      this.i++;
      while (this.i < t.length && !/[\s,\]}#]/.test(t[this.i]!)) this.i++;
    }
    const tok = t.slice(from, this.i);
    if (tok.length === 0) this.fail(`expected a value, found ${JSON.stringify(t[this.i] ?? 'end of file')}`);
    return tok === 'true' || tok === 'false' ? 'bool' : /^\d{4}-|^\d{2}:/.test(tok) ? 'datetime' : 'number';
  }
}

/**
 * Locate every value and table of a TOML document. Throws TomlScanError (with a position) on text it cannot follow,
 * and on text past the content caps (bounded-parse.ts) before the recursive scan starts.
 */
export function scanToml(text: string): TomlSpans {
  if (text.length > MAX_TOML_BYTES) throw new TomlScanError(MAX_TOML_BYTES, `expected at most ${MAX_TOML_BYTES} characters, found ${text.length}`);
  const deep = findNestingBeyond(text, MAX_NESTING_DEPTH, 'toml');
  if (deep) throw new TomlScanError(offsetOfLine(text, deep.line) + deep.column - 1, `expected brackets nested at most ${MAX_NESTING_DEPTH} deep, found deeper nesting`);
  const s = new Scanner(text);
  s.scan();
  return { values: s.values, sections: s.sections, inlineTables: s.inlineTables, dotted: s.dotted, newline: text.includes('\r\n') ? '\r\n' : '\n' };
}

export function findValue(spans: TomlSpans, path: readonly Seg[]): ValueSpan | undefined {
  // later definitions win in invalid files; valid TOML has one
  for (let k = spans.values.length - 1; k >= 0; k--) if (samePath(spans.values[k]!.path, path)) return spans.values[k];
  return undefined;
}

/**
 * The span to underline for an error at `path`: the value if written, else the nearest written ancestor
 * (value, table header or key), else null.
 */
export function spanForPath(spans: TomlSpans, path: readonly Seg[]): { from: number; to: number } | null {
  for (let n = path.length; n > 0; n--) {
    const p = path.slice(0, n);
    const v = findValue(spans, p);
    if (v) return n === path.length || v.kind !== 'inline' ? { from: v.from, to: v.to } : { from: v.keyFrom, to: v.keyTo };
    const sec = spans.sections.find((s) => s.header !== 'root' && samePath(s.path, p));
    if (sec) return { from: sec.headerFrom, to: sec.headerTo };
  }
  return null;
}

export interface TextEdit {
  from: number;
  to: number;
  insert: string;
}

export function applyEdit(text: string, e: TextEdit): string {
  return text.slice(0, e.from) + e.insert + text.slice(e.to);
}

/** Digits after the decimal point of a step (0.05 → 2, 1e-3 → 3, 10 → 0). */
export function stepDecimals(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 6;
  for (let d = 0; d <= 12; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9 * 10 ** d) return d;
  return 12;
}

/** Snap to the step grid from `min` and format for TOML with the step's number of decimals. */
export function formatStepped(value: number, step: number, min = 0, floatStyle = false): string {
  const d = stepDecimals(step);
  const snapped = step > 0 ? min + Math.round((value - min) / step) * step : value;
  let s = snapped.toFixed(d);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  if (s === '-0') s = '0';
  if (floatStyle && !/[.eE]/.test(s)) s += '.0';
  return s;
}

const bareOk = (s: Seg): boolean => typeof s === 'string' && /^[A-Za-z0-9_-]+$/.test(s);
export const keyText = (segs: readonly Seg[]): string => segs.map((s) => (bareOk(s) ? String(s) : JSON.stringify(String(s)))).join('.');

/**
 * The single text change that sets `path` to the formatted literal `literal`. Replaces the value's span if
 * the key is written; otherwise inserts `key = literal` into the deepest existing table (header section,
 * dotted-key table, inline table) or a new `[table]` at the end. Paths through arrays must exist.
 */
export function setValueEdit(text: string, spans: TomlSpans, path: readonly Seg[], literal: string): TextEdit {
  const v = findValue(spans, path);
  if (v) return { from: v.from, to: v.to, insert: literal };
  if (path.some((s) => typeof s === 'number')) throw new Error(`toml: cannot insert into an array at ${keyText(path)}`);
  const nl = spans.newline;
  for (let n = path.length - 1; n >= 0; n--) {
    const p = path.slice(0, n);
    const rest = path.slice(n);
    const kv = `${keyText(rest)} = ${literal}`;
    const existing = findValue(spans, p);
    if (n > 0 && existing && existing.kind !== 'inline') throw new Error(`toml: ${keyText(p)} is a ${existing.kind}, not a table`);
    const inline = spans.inlineTables.find((t) => samePath(t.path, p));
    if (inline) {
      return inline.lastEntryEnd >= 0 ? { from: inline.lastEntryEnd, to: inline.lastEntryEnd, insert: `, ${kv}` } : { from: inline.open + 1, to: inline.close, insert: ` ${kv} ` };
    }
    const sec = spans.sections.find((s) => s.header === 'table' && samePath(s.path, p)) ?? (n === 0 ? spans.sections[0]! : undefined);
    const dottedIn = n > 0 ? spans.dotted.get(pathKey(p)) : undefined;
    const target = sec ?? (dottedIn !== undefined ? spans.sections[dottedIn]! : undefined);
    if (target) {
      const relKey = keyText(path.slice(target.path.length));
      const line = `${relKey} = ${literal}`;
      // root with headers below: a multi-segment key belongs in its own table at the end
      if (target.header === 'root' && spans.sections.length > 1 && rest.length > 1) return appendTable(text, path, literal, nl);
      if (target.lastLineEnd >= 0) return { from: target.lastLineEnd, to: target.lastLineEnd, insert: `${nl}${target.indent}${line}` };
      if (target.header === 'root') return { from: 0, to: 0, insert: `${line}${nl}` };
      return { from: target.headerLineEnd, to: target.headerLineEnd, insert: `${nl}${line}` };
    }
    if (n > 0 && spans.sections.some((s) => s.path.length > n && samePath(s.path.slice(0, n), p))) {
      // only implied by deeper headers ([a.b] exists, [a] does not): define the table at the end
      return appendTable(text, path, literal, nl);
    }
  }
  return appendTable(text, path, literal, nl);
}

function appendTable(text: string, path: readonly Seg[], literal: string, nl: string): TextEdit {
  const head = path.length > 1 ? `[${keyText(path.slice(0, -1))}]${nl}` : '';
  const sep = text.length === 0 ? '' : text.endsWith('\n') ? nl : nl + nl;
  return { from: text.length, to: text.length, insert: `${sep}${head}${keyText(path.slice(-1))} = ${literal}${nl}` };
}

/** Set a numeric value on the step grid, keeping the float style of the literal already there. */
export function numberEdit(text: string, path: readonly Seg[], value: number, step: number, min = 0, spans = scanToml(text)): TextEdit {
  const cur = findValue(spans, path);
  const floatStyle = cur ? /\./.test(text.slice(cur.from, cur.to)) : false;
  return setValueEdit(text, spans, path, formatStepped(value, step, min, floatStyle));
}
