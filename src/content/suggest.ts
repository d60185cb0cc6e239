/**
 * "Did you mean …" for unknown keys: the closest key the schema allows at that path, by edit distance. Works on any
 * zod 4 object schema (car, scenario, stage files), walking optional / default / record / array wrappers.
 */
import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  options?: z.ZodType[];
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Strip optional / default / nullable / pipe wrappers. */
function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 16; i++) {
    const d = defOf(cur);
    const next = d.innerType ?? (d.type === 'pipe' ? d.in : undefined);
    if (!next) return cur;
    cur = next;
  }
  return cur;
}

/** The object keys the schema allows at `path` (object, record values, array / tuple items), or []. */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let cur: z.ZodType | undefined = unwrap(schema);
  for (const seg of path) {
    if (!cur) return [];
    const d = defOf(cur);
    if (d.type === 'object') cur = d.shape?.[String(seg)];
    else if (d.type === 'record') cur = d.valueType;
    else if (d.type === 'array') cur = d.element;
    else if (d.type === 'tuple') cur = d.items?.[Number(seg)];
    else return [];
    cur = cur && unwrap(cur);
  }
  const d = cur ? defOf(cur) : undefined;
  return d?.type === 'object' && d.shape ? Object.keys(d.shape) : [];
}

/** Levenshtein distance, O(|a|·|b|) time and O(|b|) memory (keys are short; callers cap the length). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** Longest key compared (an unknown key of 1 MB must not cost a 1 MB × 30 table). */
const MAX_KEY_CHARS = 80;

/** Closest known key to `key` when it is plausibly a misspelling (distance ≤ max(2, ⅓ of its length)), else null. */
export function closestKey(key: string, known: readonly string[]): string | null {
  if (key.length > MAX_KEY_CHARS) return null;
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : null;
}
