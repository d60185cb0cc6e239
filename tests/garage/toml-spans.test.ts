import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'smol-toml';
import { applyEdit, findValue, formatStepped, numberEdit, parsePathString, scanToml, setValueEdit, spanForPath, stepDecimals, type Seg } from '../../src/app/garage/toml-spans';

const DOC = `# My rally hatch — tuned for gravel
name = "Hatch \\"GTI\\"" # quoted name
description = '''
multi-line # not a comment
'''

[body]
mass_kg = 1_150.0   # with driver
inertia_kg_m2 = [ 1200, # pitch
  1400,   # yaw
  450 ]

[suspension.front]
  # softer for gravel
  spring_rate_n_per_mm = 32.5 # N/mm
  travel_mm = 180

[suspension.rear]
spring_rate_n_per_mm=28 #no spaces

[tires]
front = { radius_m = 0.31, grip = 1.05, nested = { a = 1 } }
rear.radius_m = 0.31

[setup]
"suspension.front.spring_rate_n_per_mm" = { min = 15, max = 60, step = 0.5 }
"tires.front.grip" = { min = 0.8, max = 1.2, step = 0.01 }
`;

function get(obj: unknown, path: readonly Seg[]): unknown {
  let cur = obj;
  for (const s of path) cur = (cur as Record<string | number, unknown>)[s];
  return cur;
}

function set(obj: Record<string, unknown>, path: readonly Seg[], v: unknown): void {
  let cur = obj as Record<string | number, unknown>;
  for (const s of path.slice(0, -1)) {
    cur[s] ??= {};
    cur = cur[s] as Record<string | number, unknown>;
  }
  cur[path[path.length - 1]!] = v;
}

/** The '#' comments, in order: the user's comments must survive every edit. */
const commentLines = (t: string): string[] => t.split('\n').filter((l) => l.includes('#')).map((l) => l.slice(l.indexOf('#')).replace(/\r$/, ''));

describe('scanToml', () => {
  it('finds every value with the exact characters smol-toml parses', () => {
    const spans = scanToml(DOC);
    const data = parse(DOC);
    const leaves = spans.values.filter((v) => v.kind === 'number');
    expect(leaves.length).toBe(17);
    for (const v of leaves) {
      const lit = DOC.slice(v.from, v.to);
      expect(Number(lit.replace(/_/g, ''))).toBe(get(data, v.path));
    }
    expect(DOC.slice(findValue(spans, ['name'])!.from, findValue(spans, ['name'])!.to)).toBe('"Hatch \\"GTI\\""');
    expect(findValue(spans, ['tires', 'front', 'nested', 'a'])).toBeDefined();
    expect(findValue(spans, ['tires', 'rear', 'radius_m'])).toBeDefined();
    expect(findValue(spans, ['setup', 'suspension.front.spring_rate_n_per_mm', 'step'])).toBeDefined();
    expect(findValue(spans, ['description'])!.kind).toBe('string');
  });

  it('reports the position of text it cannot follow', () => {
    expect(() => scanToml('a = 1\nb = [1, 2\n')).toThrow(/in the array, found "end of file"/);
    expect(() => scanToml('a 1')).toThrow(/expected "="/);
    expect(() => scanToml('[body\nx=1')).toThrow(/close the table header/);
  });

  it('maps error key paths to the value, else the nearest written ancestor', () => {
    const spans = scanToml(DOC);
    const s = spanForPath(spans, parsePathString('body.inertia_kg_m2[1]'))!;
    expect(DOC.slice(s.from, s.to)).toBe('1400');
    const h = spanForPath(spans, parsePathString('suspension.rear.travel_mm'))!;
    expect(DOC.slice(h.from, h.to)).toBe('[suspension.rear]');
    expect(parsePathString('setup."a.b".min')).toEqual(['setup', 'a.b', 'min']);
  });
});

describe('numberEdit: slider → text', () => {
  it('replaces only the value characters', () => {
    const e = numberEdit(DOC, ['suspension', 'front', 'spring_rate_n_per_mm'], 41.26, 0.5, 15);
    const out = applyEdit(DOC, e);
    expect(DOC.slice(e.from, e.to)).toBe('32.5');
    expect(e.insert).toBe('41.5'); // 15 + round(26.26/0.5)·0.5
    expect(out.slice(0, e.from)).toBe(DOC.slice(0, e.from));
    expect(out.slice(e.from + e.insert.length)).toBe(DOC.slice(e.to));
    expect(commentLines(out)).toEqual(commentLines(DOC));
  });

  it('keeps a float literal a float and handles values inside inline tables', () => {
    const out = applyEdit(DOC, numberEdit(DOC, ['body', 'mass_kg'], 1200, 1));
    expect(out).toContain('mass_kg = 1200.0   # with driver');
    const out2 = applyEdit(DOC, numberEdit(DOC, ['tires', 'front', 'grip'], 0.97, 0.01));
    expect(out2).toContain('front = { radius_m = 0.31, grip = 0.97, nested = { a = 1 } }');
  });

  it('inserts missing keys into the right table without touching other lines', () => {
    const cases: [Seg[], string][] = [
      [['suspension', 'front', 'bump_damping_n_s_per_m'], '  spring_rate_n_per_mm = 32.5 # N/mm\n  travel_mm = 180\n  bump_damping_n_s_per_m = 3000\n'],
      [['tires', 'front', 'width_mm'], 'nested = { a = 1 }, width_mm = 3000 }'],
      [['tires', 'rear', 'grip'], 'rear.radius_m = 0.31\nrear.grip = 3000\n'],
      [['suspension', 'anti_dive'], '[suspension]\nanti_dive = 3000\n'],
      [['brakes', 'max_torque_nm'], '[brakes]\nmax_torque_nm = 3000\n'],
      [['version'], "'''\nversion = 3000\n\n[body]"],
    ];
    for (const [path, expected] of cases) {
      const out = applyEdit(DOC, numberEdit(DOC, path, 3000, 1));
      expect(out).toContain(expected);
      const before = parse(DOC) as Record<string, unknown>;
      set(before, path, 3000);
      expect(parse(out)).toEqual(before);
      expect(commentLines(out)).toEqual(commentLines(DOC));
    }
  });

  it('round-trips any slider sequence: the parse changes only at the moved key, comments stay', () => {
    const keys: { path: Seg[]; min: number; max: number; step: number }[] = [
      { path: ['suspension', 'front', 'spring_rate_n_per_mm'], min: 15, max: 60, step: 0.5 },
      { path: ['suspension', 'rear', 'spring_rate_n_per_mm'], min: 15, max: 60, step: 1 },
      { path: ['tires', 'front', 'grip'], min: 0.8, max: 1.2, step: 0.01 },
      { path: ['body', 'inertia_kg_m2', 1], min: 800, max: 2000, step: 10 },
      { path: ['tires', 'rear', 'radius_m'], min: 0.25, max: 0.4, step: 0.005 },
      { path: ['suspension', 'front', 'travel_mm'], min: 100, max: 250, step: 5 },
    ];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(keys.length - 1), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 25 }), (moves) => {
        let text = DOC;
        const model = parse(DOC) as Record<string, unknown>;
        for (const [k, u] of moves) {
          const key = keys[k]!;
          const v = key.min + u * (key.max - key.min);
          const e = numberEdit(text, key.path, v, key.step, key.min);
          const next = applyEdit(text, e);
          // outside the edited span nothing changed
          expect(next.slice(0, e.from)).toBe(text.slice(0, e.from));
          expect(next.slice(e.from + e.insert.length)).toBe(text.slice(e.to));
          text = next;
          const snapped = Number(formatStepped(v, key.step, key.min));
          expect(Math.abs(snapped - v)).toBeLessThanOrEqual(key.step / 2 + 1e-9);
          set(model, key.path, snapped);
          // text → value (what the sliders read back) equals the slider value
          expect(get(parse(text), key.path)).toBe(snapped);
        }
        expect(parse(text)).toEqual(model);
        expect(commentLines(text)).toEqual(commentLines(DOC));
        // moving every slider back to its original value restores the original file exactly
        for (const key of keys) {
          const orig = get(parse(DOC), key.path) as number;
          const cur = findValue(scanToml(DOC), key.path)!;
          text = applyEdit(text, setValueEdit(text, scanToml(text), key.path, DOC.slice(cur.from, cur.to)));
          expect(get(parse(text), key.path)).toBe(orig);
        }
        expect(text).toBe(DOC);
      }),
      { numRuns: 150 },
    );
  });

  it('handles CRLF files', () => {
    const crlf = DOC.replace(/\n/g, '\r\n');
    const out = applyEdit(crlf, numberEdit(crlf, ['suspension', 'front', 'bump_damping_n_s_per_m'], 2500, 50));
    expect(out).toContain('travel_mm = 180\r\n  bump_damping_n_s_per_m = 2500\r\n');
    expect((parse(out) as { suspension: { front: Record<string, number> } }).suspension.front.bump_damping_n_s_per_m).toBe(2500);
  });
});

describe('formatting', () => {
  it('derives decimals from the step', () => {
    expect(stepDecimals(0.05)).toBe(2);
    expect(stepDecimals(1)).toBe(0);
    expect(stepDecimals(0.001)).toBe(3);
    expect(stepDecimals(2.5)).toBe(1);
    expect(formatStepped(0.1 + 0.2, 0.1)).toBe('0.3');
    expect(formatStepped(7, 0.5, 0, true)).toBe('7.0');
    expect(formatStepped(-0.0001, 0.01)).toBe('0');
  });
});
