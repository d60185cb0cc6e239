import { describe, expect, it } from 'vitest';
import { findNestingBeyond, MAX_NESTING_DEPTH, MAX_TOML_BYTES, valueDepthBeyond } from '../../src/validate/bounded-parse';
import { ContentError, parseJsonFile, parseTomlFile } from '../../src/validate/errors';

function contentError(f: () => unknown): ContentError {
  try {
    f();
  } catch (e) {
    if (e instanceof ContentError) return e;
    throw new Error(`expected a ContentError, got ${(e as Error).name}: ${(e as Error).message}`, { cause: e });
  }
  throw new Error('expected a ContentError, nothing was thrown');
}

const nestedArray = (n: number): string => `x = ${'['.repeat(n)}${']'.repeat(n)}\n`;
const nestedInline = (n: number): string => `x = ${'{a = '.repeat(n)}1${' }'.repeat(n)}\n`;

describe('findNestingBeyond (iterative bracket scan)', () => {
  it('counts [ and { and reports where the cap is passed (1-based line and column)', () => {
    expect(findNestingBeyond('a = [[1]]\n', 2, 'toml')).toBeNull();
    expect(findNestingBeyond('a = 1\nb = [[[1]]]\n', 2, 'toml')).toEqual({ depth: 3, line: 2, column: 7 });
    expect(findNestingBeyond('{"a": {"b": [1]}}', 2, 'json')).toEqual({ depth: 3, line: 1, column: 13 });
  });

  it('ignores brackets inside TOML strings (basic, literal, multi-line, escaped quotes) and comments', () => {
    const text = [
      'a = "[[[[ \\" [[[["',
      "b = '[[[[{{{{'",
      'c = """\n[[[[\n"""',
      "d = '''\n{{{{\n'''",
      '# [[[[[[ {{{{{{',
      'e = [1] # [[[[',
    ].join('\n');
    expect(findNestingBeyond(text, 1, 'toml')).toBeNull();
  });

  it('in JSON, # and single quotes are ordinary characters', () => {
    expect(findNestingBeyond('{"a#": "[[["}', 1, 'json')).toBeNull();
    expect(findNestingBeyond("['#', [1]]", 1, 'json')).toEqual({ depth: 2, line: 1, column: 7 });
  });

  it('scans 1e6-deep brackets without recursion and stops at the cap', () => {
    const text = '['.repeat(1_000_000);
    expect(findNestingBeyond(text, MAX_NESTING_DEPTH, 'json')).toEqual({ depth: MAX_NESTING_DEPTH + 1, line: 1, column: MAX_NESTING_DEPTH + 1 });
  });
});

describe('valueDepthBeyond (explicit stack)', () => {
  it('measures the nesting of parsed values (root object = 1)', () => {
    expect(valueDepthBeyond({ a: { b: [1] } }, 3)).toBeNull();
    expect(valueDepthBeyond({ a: { b: [[1]] } }, 3)).toBe(4);
    expect(valueDepthBeyond(5, 0)).toBeNull();
  });

  it('walks a 200,000-deep value without overflowing the stack', () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = { a: v };
    expect(valueDepthBeyond(v, MAX_NESTING_DEPTH)).toBe(MAX_NESTING_DEPTH + 1);
  });
});

describe('parseTomlFile caps', () => {
  it('parses ordinary TOML', () => {
    expect(parseTomlFile('a = 1\n[b]\nc = [1, 2]\n', 'ok.toml')).toEqual({ a: 1, b: { c: [1, 2] } });
  });

  it('refuses text over the size cap, counting UTF-8 bytes, with a message naming the file', () => {
    const e = contentError(() => parseTomlFile(`a = "${'x'.repeat(MAX_TOML_BYTES)}"`, 'big.toml'));
    expect(e.message).toMatch(/^big\.toml: \(whole file\): expected at most 1048576 bytes, found more \(1048582 characters\)$/);
    // 400 three-byte characters: 406 UTF-16 units fit a 1000 cap, 1206 bytes do not
    const wide = contentError(() => parseTomlFile(`a = "${'€'.repeat(400)}"`, 'wide.toml', { maxBytes: 1000 }));
    expect(wide.message).toBe('wide.toml: (whole file): expected at most 1000 bytes, found 1206');
  });

  it('accepts nesting up to the cap and refuses one level more before parsing', () => {
    // x = [[…]] at depth n is n bracket levels inside the root table
    expect(() => parseTomlFile(nestedArray(MAX_NESTING_DEPTH), 'ok.toml')).not.toThrow();
    const e = contentError(() => parseTomlFile(nestedArray(MAX_NESTING_DEPTH + 1), 'deep.toml'));
    expect(e.message).toBe(`deep.toml: line 1, column ${MAX_NESTING_DEPTH + 5}: expected brackets nested at most ${MAX_NESTING_DEPTH} deep, found deeper nesting`);
  });

  it('refuses 10,000-deep arrays and inline tables with a ContentError, not a stack overflow', () => {
    for (const text of [nestedArray(10_000), nestedInline(10_000)]) {
      expect(contentError(() => parseTomlFile(text, 'deep.toml')).message).toMatch(/expected brackets nested at most 64 deep/);
    }
  });

  it('refuses deep nesting built from dotted keys (no brackets) after the parse', () => {
    const dotted = `${Array.from({ length: 100 }, (_, i) => `k${i}`).join('.')} = 1\n`;
    expect(contentError(() => parseTomlFile(dotted, 'dotted.toml')).message).toBe('dotted.toml: (whole file): expected tables nested at most 64 deep, found deeper nesting');
  });

  it('honours explicit limits and still reports syntax errors with line and column', () => {
    expect(contentError(() => parseTomlFile('a = [[1]]', 'l.toml', { maxDepth: 1 })).message).toMatch(/^l\.toml: line 1, column 6: expected brackets nested at most 1 deep/);
    expect(contentError(() => parseTomlFile('a = 1\nb = \n', 'syn.toml')).message).toMatch(/^syn\.toml: TOML syntax error at line 2, column \d+/);
  });
});

describe('parseJsonFile caps', () => {
  it('parses JSON and refuses a 1e6-deep header and unparsable text with ContentErrors', () => {
    expect(parseJsonFile('{"a": [1, {"b": 2}]}', 'ok.json')).toEqual({ a: [1, { b: 2 }] });
    // 1e6 deep is 2 MB: refused by size; 300,000 deep fits the size cap and is refused by the bracket scan
    expect(contentError(() => parseJsonFile('['.repeat(1_000_000) + ']'.repeat(1_000_000), 'huge.json')).message).toMatch(/expected at most 1048576 bytes/);
    expect(contentError(() => parseJsonFile('['.repeat(300_000) + ']'.repeat(300_000), 'deep.json')).message).toMatch(
      /^deep\.json: line 1, column 65: expected brackets nested at most 64 deep/,
    );
    expect(contentError(() => parseJsonFile('{"a": }', 'bad.json')).message).toMatch(/^bad\.json: \(whole file\): expected JSON, found unparsable text/);
    expect(contentError(() => parseJsonFile('1'.repeat(2000), 'big.json', { maxBytes: 1000 })).message).toMatch(/expected at most 1000 bytes/);
  });
});
