/**
 * Well-typed mutations of parsed content files for property tests (fast-check): numbers scaled by 1e-9 … 1e300,
 * negated, zeroed or replaced by extremes; arrays grown; keys dropped or added. A mutation is a plain value so
 * fast-check can shrink and print it.
 */
import fc from 'fast-check';

export type Path = (string | number)[];
type Node = Record<string, unknown> | unknown[];

export type Mutation =
  | { op: 'scale'; at: number; factor: number }
  | { op: 'set'; at: number; value: number }
  | { op: 'negate'; at: number }
  | { op: 'grow'; at: number; times: number }
  | { op: 'drop'; at: number }
  | { op: 'add'; at: number; key: string; value: number };

/** Paths of every leaf of one kind: numbers, arrays, object keys, objects. */
export function paths(v: unknown, want: 'number' | 'array' | 'key' | 'object', at: Path = [], out: Path[] = []): Path[] {
  if (typeof v === 'number' && want === 'number') out.push(at);
  if (v === null || typeof v !== 'object') return out;
  if (Array.isArray(v)) {
    if (want === 'array') out.push(at);
    v.forEach((c, i) => paths(c, want, [...at, i], out));
    return out;
  }
  if (want === 'object') out.push(at);
  for (const [k, c] of Object.entries(v)) {
    if (want === 'key') out.push([...at, k]);
    paths(c, want, [...at, k], out);
  }
  return out;
}

function parentOf(root: unknown, p: Path): Node {
  let o = root as Node;
  for (const k of p.slice(0, -1)) o = (o as Record<string | number, unknown>)[k] as Node;
  return o;
}

function get(root: unknown, p: Path): unknown {
  return p.length ? (parentOf(root, p) as Record<string | number, unknown>)[p[p.length - 1]!] : root;
}

function pick(list: Path[], at: number): Path | null {
  return list.length ? list[at % list.length]! : null;
}

/** Applies one mutation in place (`at` indexes the matching paths modulo their count; no match: no change). */
export function applyMutation(root: Record<string, unknown>, m: Mutation): void {
  const kind = m.op === 'grow' ? 'array' : m.op === 'drop' ? 'key' : m.op === 'add' ? 'object' : 'number';
  const p = pick(paths(root, kind), m.at);
  if (!p) return;
  const parent = parentOf(root, p) as Record<string | number, unknown>;
  const last = p[p.length - 1]!;
  if (m.op === 'scale') parent[last] = (parent[last] as number) * m.factor;
  else if (m.op === 'set') parent[last] = m.value;
  else if (m.op === 'negate') parent[last] = -(parent[last] as number);
  else if (m.op === 'drop') delete parent[last];
  else if (m.op === 'add') (get(root, p) as Record<string, unknown>)[m.key] = m.value;
  else {
    const arr = get(root, p) as unknown[];
    if (arr.length) for (let k = 0; k < m.times; k++) arr.push(structuredClone(arr[arr.length - 1]));
  }
}

const FACTORS = [1e-9, 1e-6, 1e-3, 0.1, 0.5, 2, 10, 1e3, 1e6, 1e9, 1e20, 1e300];
const EXTREMES = [0, -1, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER, 1e-300, Infinity, -Infinity, NaN];
const ADDED_KEYS = ['extra', 'mass', 'radius', 'size_m', 'id', 'kind', 'scale'];

/** One mutation of a parsed TOML document; `growBy`: how many copies of its last element a grown array gets. */
export function mutationArb(growBy: readonly number[]): fc.Arbitrary<Mutation> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('scale' as const), at: fc.nat(), factor: fc.constantFrom(...FACTORS) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: fc.constantFrom(...EXTREMES) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('negate' as const), at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('grow' as const), at: fc.nat(), times: fc.constantFrom(...growBy) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drop' as const), at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: fc.constantFrom(...ADDED_KEYS), value: fc.double() }) },
  );
}

/** 1–3 mutations. */
export function mutationsArb(growBy: readonly number[]): fc.Arbitrary<Mutation[]> {
  return fc.array(mutationArb(growBy), { minLength: 1, maxLength: 3 });
}

/**
 * "Names a key": every line of the error is `file: <where>: …` with <where> a key path (`bodies[0].mass_kg`,
 * `(top level)`), a TOML position (`line 3, column 5`, `TOML syntax error at …`), `(whole file)` or a stage field.
 */
export function namesAKey(message: string, file: string): boolean {
  return message.split('\n').every((line) => line.startsWith(`${file}: `) && /^(field "[^"]+"|[\w[\].]+:|\(top level\)|\(whole file\)|line \d+|TOML syntax error)/.test(line.slice(file.length + 2)));
}

/** Byte strings: uniform bytes, TOML-ish token soup, and shipped text with bytes flipped, inserted or cut. */
export function byteStringArb(seedTexts: string[]): fc.Arbitrary<string> {
  const tokens = ['[', ']', '[[', ']]', '{', '}', '=', ',', '.', '"', "'", '"""', '\n', ' ', '#', 'a', 'id', 'dt', '1', '-', '1e308', 'inf', 'nan', 'true', '0x1F', '1979-05-27'];
  const soup = fc.array(fc.constantFrom(...tokens), { maxLength: 400 }).map((t) => t.join(''));
  const bytes = fc.uint8Array({ maxLength: 2000 }).map((b) => new TextDecoder().decode(b));
  const edited = fc
    .tuple(fc.constantFrom(...seedTexts), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('flip', 'insert', 'cut')), { minLength: 1, maxLength: 8 }))
    .map(([text, edits]) => {
      let t = text;
      for (const [at, byte, how] of edits) {
        const i = at % Math.max(1, t.length);
        const ch = String.fromCharCode(byte);
        t = how === 'flip' ? t.slice(0, i) + ch + t.slice(i + 1) : how === 'insert' ? t.slice(0, i) + ch + t.slice(i) : t.slice(0, i);
      }
      return t;
    });
  return fc.oneof(soup, bytes, edited);
}
