/**
 * "Did you mean …?" for every user-facing name: unknown keys in content files (the closest key the zod schema
 * allows at that path), unknown CLI options, ids and commands. One distance (Damerau–Levenshtein, optimal string
 * alignment: insert, delete, substitute, swap two neighbours — each costs 1) and one acceptance rule.
 */
import type { z } from 'zod';

/** Edits allowed per character of the typo: `--surfce` (1 edit in 6) matches, `--xyz` → `--car` does not. */
const EDITS_PER_CHAR = 0.4;
/** Short names still get a suggestion for a single slip (`--h` → `--v1` would be 2 edits: refused). */
const MIN_EDITS = 1;

/** Optimal-string-alignment distance between a and b. */
export function editDistance(a: string, b: string): number {
  const w = b.length + 1;
  // rows i-2, i-1, i of the dynamic-programming table
  let prev2 = new Array<number>(w).fill(0);
  let prev = Array.from({ length: w }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(w);
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `typo` within the allowed number of edits (ties: the first listed), else the only
 * candidate that starts with it (`forest` → `forest-gravel`, `--sec` → `--seconds`), else undefined.
 */
export function closest(typo: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(MIN_EDITS, Math.floor(typo.length * EDITS_PER_CHAR));
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(typo.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  if (bestD <= limit) return best;
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(typo.toLowerCase()));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** `unknown car "hatch-gt": expected one of classic-rwd, hatch-gti, rally-awd; did you mean hatch-gti?` */
export function unknownMessage(kind: string, found: string, valid: readonly string[]): string {
  const near = closest(found, valid);
  return `unknown ${kind} "${found}": expected one of ${valid.join(', ')}${near ? `; did you mean ${near}?` : ''}`;
}

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

/** Longest key compared (an unknown key of 1 MB must not cost a 1 MB × 30 table). */
const MAX_KEY_CHARS = 80;

/** Closest known key to an unknown content-file key when it is plausibly a misspelling, else null. */
export function closestKey(key: string, known: readonly string[]): string | null {
  if (key.length > MAX_KEY_CHARS) return null;
  return closest(key, known) ?? null;
}
