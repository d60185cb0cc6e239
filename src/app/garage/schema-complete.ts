/**
 * Key completion for car files from the JSON Schema generated from the zod schema (`carJsonSchema()`), so the
 * editor always offers exactly the keys the loader accepts. Pure functions (no CodeMirror) so they are
 * testable in Node; editor.ts adapts them to @codemirror/autocomplete.
 *
 * Context: inside `[ … ]` on a header line, the offered names are the table paths; on a key line, the keys of
 * the table the cursor is in (the last `[header]` above, plus any dotted prefix typed on the line).
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  description?: string;
}

export interface KeyOption {
  label: string;
  /** Short type/constraint text: "number > 0 · required". */
  detail: string;
  /** 'property' for keys, 'type' for table headers. */
  type: 'property' | 'type';
  /** Text inserted (headers get the closing bracket handled by the editor). */
  apply: string;
}

export interface CompletionResult {
  from: number;
  options: KeyOption[];
}

/** The sub-schema at a table path (objects only), following anyOf/additionalProperties. */
export function schemaAt(root: JsonSchema, path: readonly string[]): JsonSchema | null {
  let cur: JsonSchema | undefined = root;
  for (const p of path) {
    if (!cur) return null;
    if (cur.anyOf) cur = cur.anyOf.find((s) => s.properties || s.additionalProperties) ?? cur.anyOf[0];
    const next: JsonSchema | undefined = cur?.properties?.[p] ?? (typeof cur?.additionalProperties === 'object' ? cur.additionalProperties : undefined);
    cur = next;
  }
  return cur ?? null;
}

export function describeSchema(s: JsonSchema, required: boolean): string {
  const parts: string[] = [];
  const t = Array.isArray(s.type) ? s.type.join('|') : (s.type ?? (s.anyOf ? 'any' : ''));
  if (s.enum) parts.push(s.enum.map((v) => JSON.stringify(v)).join(' | '));
  else if (t === 'number') {
    const c: string[] = [];
    if (s.exclusiveMinimum !== undefined) c.push(`> ${s.exclusiveMinimum}`);
    if (s.minimum !== undefined) c.push(`≥ ${s.minimum}`);
    if (s.maximum !== undefined) c.push(`≤ ${s.maximum}`);
    if (s.exclusiveMaximum !== undefined) c.push(`< ${s.exclusiveMaximum}`);
    parts.push(['number', ...c].join(' '));
  } else if (t === 'object') parts.push('table');
  else if (t) parts.push(t);
  if (required) parts.push('required');
  else if (s.default !== undefined && typeof s.default !== 'object') parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(' · ');
}

const isTable = (s: JsonSchema): boolean => s.type === 'object' && !!s.properties;

/** All table paths of the schema ("suspension.front", …) for header completion. */
export function tablePaths(root: JsonSchema, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const [k, s] of Object.entries(root.properties ?? {})) {
    if (s.type !== 'object') continue;
    out.push([...prefix, k]);
    if (isTable(s)) out.push(...tablePaths(s, [...prefix, k]));
  }
  return out;
}

function headerPathAbove(text: string, pos: number): string[] {
  const lines = text.slice(0, pos).split('\n');
  lines.pop(); // the cursor's own line
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^\s*\[\s*([^\][]+?)\s*\]\s*(#.*)?$/.exec(lines[i]!);
    if (m) return m[1]!.split('.').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
  }
  return [];
}

/** Keys already written in the section containing pos (to leave them out of the offer). */
function keysInSection(text: string, pos: number, dotted: string[]): Set<string> {
  const lines = text.split('\n');
  let off = 0, cur = 0;
  for (let i = 0; i < lines.length; i++) {
    if (pos >= off && pos <= off + lines[i]!.length) cur = i;
    off += lines[i]!.length + 1;
  }
  let start = cur, end = cur;
  while (start > 0 && !/^\s*\[/.test(lines[start]!)) start--;
  while (end + 1 < lines.length && !/^\s*\[/.test(lines[end + 1]!)) end++;
  const seen = new Set<string>();
  const pre = dotted.length ? dotted.join('.') + '.' : '';
  for (let i = start; i <= end; i++) {
    if (i === cur) continue;
    const m = /^\s*([A-Za-z0-9_.-]+)\s*=/.exec(lines[i]!);
    if (m && m[1]!.startsWith(pre)) seen.add(m[1]!.slice(pre.length).split('.')[0]!);
  }
  return seen;
}

/** Completion at `pos` of `text`, or null when the cursor is not where a key or header goes. */
export function completeKeys(text: string, pos: number, schema: JsonSchema): CompletionResult | null {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const before = text.slice(lineStart, pos);
  const header = /^\s*\[\[?\s*([A-Za-z0-9_.-]*)$/.exec(before);
  if (header) {
    const typed = header[1]!;
    const from = pos - typed.length;
    return {
      from,
      options: tablePaths(schema).map((p) => {
        const s = schemaAt(schema, p)!;
        return { label: p.join('.'), detail: describeSchema(s, false), type: 'type' as const, apply: p.join('.') };
      }),
    };
  }
  const key = /^\s*([A-Za-z0-9_-]+\.)*([A-Za-z0-9_-]*)$/.exec(before);
  if (!key) return null;
  const word = key[2]!;
  const dottedStr = before.trim().slice(0, before.trim().length - word.length);
  const dotted = dottedStr ? dottedStr.slice(0, -1).split('.') : [];
  const base = headerPathAbove(text, pos);
  const table = schemaAt(schema, [...base, ...dotted]);
  if (!table) return { from: pos - word.length, options: [] };
  const seen = keysInSection(text, pos, dotted);
  const req = new Set(table.required ?? []);
  const options: KeyOption[] = [];
  if (base.length === 0 && dotted.length === 0 && !seen.has('extends')) {
    options.push({ label: 'extends', detail: 'string · file name of a car this one builds on', type: 'property', apply: 'extends = ' });
  }
  for (const [k, s] of Object.entries(table.properties ?? {})) {
    if (seen.has(k)) continue;
    options.push({ label: k, detail: describeSchema(s, req.has(k)), type: 'property', apply: s.type === 'object' && isTable(s) ? `${k}.` : `${k} = ` });
  }
  return { from: pos - word.length, options };
}
