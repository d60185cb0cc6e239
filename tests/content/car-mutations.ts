/**
 * Well-typed mutations of the shipped car files for the property tests (car-fuzz.test.ts): each mutation edits
 * one value of the parsed TOML (scale by 1e-9 … 1e20, negate, zero, NaN / ∞, a string where a number goes, drop a
 * key, add a misspelt or unknown key, nest deeply) and the file is written back with smol-toml; an `extends` case
 * writes the mutated file as the base and a child that extends it with one more mutation.
 */
import fc from 'fast-check';
import { parse, stringify } from 'smol-toml';
import { readFileSync } from 'node:fs';
import { BUILTIN_CARS } from '../../src/content/cars/index';

export type Tree = Record<string, unknown>;
type Path = (string | number)[];

/** Every file the loader must accept: the shipped cars and the test fixture car. */
export const BASE_CARS: { file: string; text: string }[] = [
  ...BUILTIN_CARS.map((c) => ({ file: c.file, text: c.text })),
  { file: 'test-hatch.toml', text: readFileSync(new URL('../garage/fixtures/test-hatch.toml', import.meta.url), 'utf8') },
];

/** Paths of every leaf value (numbers, strings, booleans, arrays of numbers) and of every table. */
export function leafPaths(t: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(t)) {
    t.forEach((v, i) => leafPaths(v, [...at, i], out));
    if (at.length) out.push(at);
  } else if (t !== null && typeof t === 'object') {
    for (const [k, v] of Object.entries(t)) leafPaths(v, [...at, k], out);
    if (at.length) out.push(at);
  } else out.push(at);
  return out;
}

function parentOf(root: Tree, path: Path): Record<string | number, unknown> {
  let cur: unknown = root;
  for (const p of path.slice(0, -1)) cur = (cur as Record<string | number, unknown>)[p];
  return cur as Record<string | number, unknown>;
}

/** Factors a value is scaled by: absurd ones (the loader must refuse or survive them) and near ones (mostly accepted). */
export const FACTORS = [1e-9, 1e-6, 1e-3, 0.01, 0.1, 10, 100, 1e3, 1e6, 1e9, 1e15, 1e20, -1] as const;
export const NEAR_FACTORS = [0.3, 0.5, 0.7, 0.9, 1.1, 1.5, 2, 3] as const;

export type Mutation =
  | { kind: 'scale'; pick: number; factor: number }
  | { kind: 'set'; pick: number; value: unknown }
  | { kind: 'drop'; pick: number }
  | { kind: 'unknown'; pick: number; name: string }
  | { kind: 'nest'; pick: number; depth: number };

const NASTY_VALUES: unknown[] = [0, -1, NaN, Infinity, -Infinity, 'nan', '1e999', '', 'NaN', true, [], {}, 1e308, -1e308, 5e-324];

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('scale' as const), pick: fc.nat(), factor: fc.constantFrom(...FACTORS) }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('scale' as const), pick: fc.nat(), factor: fc.constantFrom(...NEAR_FACTORS) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: fc.constantFrom(...NASTY_VALUES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unknown' as const), pick: fc.nat(), name: fc.constantFrom('mass_kgs', 'radius', 'x', 'spring_rate_n_per_m', 'sub.key') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nest' as const), pick: fc.nat(), depth: fc.constantFrom(3, 70, 500) }) },
);

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Apply one mutation in place (numeric leaves are preferred for `scale`: it picks among them only). */
export function mutate(root: Tree, m: Mutation): void {
  const all = leafPaths(root);
  const nums = all.filter((p) => typeof parentOf(root, p)[p[p.length - 1]!] === 'number');
  const pool = m.kind === 'scale' ? nums : all;
  if (pool.length === 0) return;
  const path = pool[m.pick % pool.length]!;
  const parent = parentOf(root, path);
  const key = path[path.length - 1]!;
  switch (m.kind) {
    case 'scale':
      parent[key] = (parent[key] as number) * m.factor;
      break;
    case 'set':
      parent[key] = m.value;
      break;
    case 'drop':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case 'unknown':
      if (!Array.isArray(parent)) parent[m.name] = 1;
      break;
    case 'nest':
      parent[key] = nested(m.depth);
      break;
  }
}

/** TOML text of a tree, or null when smol-toml cannot write it (e.g. a nested empty array of tables). */
export function toToml(t: Tree): string | null {
  try {
    return stringify(t);
  } catch {
    return null;
  }
}

export interface FuzzCase {
  base: number;
  mutations: Mutation[];
  /** Write the mutated file as "base.toml" and load a child that extends it with `childMutation`. */
  extendsChild: boolean;
  childMutation: Mutation;
}

export const caseArb: fc.Arbitrary<FuzzCase> = fc.record({
  base: fc.nat({ max: BASE_CARS.length - 1 }),
  mutations: fc.array(mutationArb, { minLength: 1, maxLength: 2 }),
  extendsChild: fc.boolean(),
  childMutation: mutationArb,
});

/** The files of one case: the text to load, its name, and the files `extends` may read. */
export function buildCase(c: FuzzCase): { text: string; file: string; files: Record<string, string> } | null {
  const base = BASE_CARS[c.base]!;
  const tree = parse(base.text) as Tree;
  for (const m of c.mutations) mutate(tree, m);
  const mutated = toToml(tree);
  if (mutated === null) return null;
  if (!c.extendsChild) return { text: mutated, file: 'fuzz.toml', files: {} };
  // A plain `extends` with one override: a numeric table value of the base, scaled by the child mutation's factor.
  const nums = leafPaths(tree).filter((p) => p[0] !== 'setup' && p.every((s) => typeof s === 'string') && typeof parentOf(tree, p)[p[p.length - 1]!] === 'number');
  const child: Tree = {};
  const path = nums[c.childMutation.pick % Math.max(1, nums.length)];
  if (path) {
    let cur: Tree = child;
    for (const seg of path.slice(0, -1)) cur = (cur[seg] ??= {}) as Tree;
    const factor = c.childMutation.kind === 'scale' ? c.childMutation.factor : 1.1;
    cur[path[path.length - 1]!] = (parentOf(tree, path)[path[path.length - 1]!] as number) * factor;
  }
  const childText = toToml(child);
  if (childText === null) return null;
  return { text: `extends = "base.toml"\n${childText}`, file: 'child.toml', files: { 'base.toml': mutated } };
}
