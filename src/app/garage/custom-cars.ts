/**
 * Custom cars in IndexedDB (idb): save, duplicate, rename, delete, export/import `.toml`, drafts.
 *
 * A record keeps two texts: `text`, the last version that passed the game's loader (the drivable car, or
 * null if the car never validated), and `draft`, the newest edit when it does not validate (or null). Saving
 * an invalid file stores it as the draft and leaves `text` alone, so an invalid file never replaces the
 * drivable car. `drivableConfig` re-validates `text` on every load (files from an older schema fail safe).
 * The database is "bitrally-garage" (separate from the game's "bitrally" so schema versions do not clash).
 * Without IndexedDB (private mode, Node tests) the store lives in memory for the session.
 */
import type { IDBPDatabase } from 'idb';
import { openGarageDb } from './db';
import type { CarConfig } from '../../content/car-schema';
import { checkCarDraft, type DraftProblem, type ReadExtends } from './car-draft';
import { applyEdit, findValue, scanToml, setValueEdit } from './toml-spans';

export interface CustomCarRecord {
  /** "custom-<slug>": also the car id the game sees (file name `<id>.toml`). */
  id: string;
  name: string;
  /** Last valid text (drivable), or null. */
  text: string | null;
  /** Newest edit that did not validate, or null. */
  draft: string | null;
  /** The built-in or custom car this one started from. */
  basedOn: string | null;
  /** Monotonic save counter (ordering; no wall clock needed). */
  revision: number;
}

export interface CarRecordBackend {
  getAll(): Promise<CustomCarRecord[]>;
  get(id: string): Promise<CustomCarRecord | undefined>;
  put(r: CustomCarRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

export class MemoryBackend implements CarRecordBackend {
  readonly map = new Map<string, CustomCarRecord>();
  async getAll(): Promise<CustomCarRecord[]> {
    return [...this.map.values()].map((r) => ({ ...r }));
  }
  async get(id: string): Promise<CustomCarRecord | undefined> {
    const r = this.map.get(id);
    return r ? { ...r } : undefined;
  }
  async put(r: CustomCarRecord): Promise<void> {
    this.map.set(r.id, { ...r });
  }
  async delete(id: string): Promise<void> {
    this.map.delete(id);
  }
}

const STORE = 'cars';

export class IdbBackend implements CarRecordBackend {
  private constructor(private readonly db: IDBPDatabase) {}

  static async open(): Promise<CarRecordBackend> {
    const db = await openGarageDb();
    return db ? new IdbBackend(db) : new MemoryBackend();
  }
  async getAll(): Promise<CustomCarRecord[]> {
    return (await this.db.getAll(STORE)) as CustomCarRecord[];
  }
  async get(id: string): Promise<CustomCarRecord | undefined> {
    return (await this.db.get(STORE, id)) as CustomCarRecord | undefined;
  }
  async put(r: CustomCarRecord): Promise<void> {
    await this.db.put(STORE, r);
  }
  async delete(id: string): Promise<void> {
    await this.db.delete(STORE, id);
  }
}

export function slug(name: string): string {
  const s = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return s || 'car';
}

export const fileOf = (id: string): string => `${id}.toml`;

/** Set the `name = "…"` string of a car file surgically (comments untouched). */
export function setCarName(text: string, name: string): string {
  try {
    const spans = scanToml(text);
    return applyEdit(text, setValueEdit(text, spans, ['name'], JSON.stringify(name)));
  } catch {
    return text;
  }
}

export function nameInText(text: string): string | null {
  try {
    const spans = scanToml(text);
    const v = findValue(spans, ['name']);
    if (!v || v.kind !== 'string') return null;
    const lit = text.slice(v.from, v.to);
    return lit.startsWith('"') ? (JSON.parse(lit) as string) : lit.slice(1, -1);
  } catch {
    return null;
  }
}

export interface SaveResult {
  record: CustomCarRecord;
  /** True when the text validated and became the drivable car; false when it was stored as a draft. */
  valid: boolean;
  problems: DraftProblem[];
}

export class CustomCars {
  private revision = 0;

  constructor(
    readonly backend: CarRecordBackend,
    /** Reads the text a car file `extends` (built-in or custom). */
    private readonly readExtends?: ReadExtends,
  ) {}

  async list(): Promise<CustomCarRecord[]> {
    const all = await this.backend.getAll();
    for (const r of all) this.revision = Math.max(this.revision, r.revision);
    return all.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  private async uniqueId(name: string): Promise<string> {
    const base = `custom-${slug(name)}`;
    let id = base;
    for (let k = 2; await this.backend.get(id); k++) id = `${base}-${k}`;
    return id;
  }

  /** Save `text` under `id` (new record if absent). Invalid text becomes the draft; `text` stays. */
  async save(id: string | null, text: string, opts: { name?: string; basedOn?: string | null } = {}): Promise<SaveResult> {
    await this.list();
    const prev = id ? await this.backend.get(id) : undefined;
    const name = opts.name ?? nameInText(text) ?? prev?.name ?? 'Custom car';
    const rid = prev?.id ?? (await this.uniqueId(name));
    const check = checkCarDraft(text, fileOf(rid), this.readExtends);
    const record: CustomCarRecord = {
      id: rid,
      name,
      text: check.ok ? text : (prev?.text ?? null),
      draft: check.ok ? null : text,
      basedOn: opts.basedOn !== undefined ? opts.basedOn : (prev?.basedOn ?? null),
      revision: ++this.revision,
    };
    await this.backend.put(record);
    return { record, valid: check.ok, problems: check.problems };
  }

  /** The text to open in the editor: the draft if there is one, else the drivable text. */
  static editText(r: CustomCarRecord): string {
    return r.draft ?? r.text ?? '';
  }

  async duplicate(id: string, newName?: string): Promise<CustomCarRecord> {
    const src = await this.backend.get(id);
    if (!src) throw new Error(`garage: no custom car "${id}"`);
    const name = newName ?? `${src.name} copy`;
    const rid = await this.uniqueId(name);
    const rec: CustomCarRecord = {
      id: rid,
      name,
      text: src.text === null ? null : setCarName(src.text, name),
      draft: src.draft === null ? null : setCarName(src.draft, name),
      basedOn: src.id,
      revision: ++this.revision,
    };
    await this.backend.put(rec);
    return rec;
  }

  /** Rename: the record's name and the file's `name = "…"` (edited in place). The id stays. */
  async rename(id: string, name: string): Promise<CustomCarRecord> {
    const r = await this.backend.get(id);
    if (!r) throw new Error(`garage: no custom car "${id}"`);
    if (!name.trim()) throw new Error('garage: a car name cannot be empty');
    const rec: CustomCarRecord = {
      ...r,
      name,
      text: r.text === null ? null : setCarName(r.text, name),
      draft: r.draft === null ? null : setCarName(r.draft, name),
      revision: ++this.revision,
    };
    await this.backend.put(rec);
    return rec;
  }

  async remove(id: string): Promise<void> {
    await this.backend.delete(id);
  }

  /** Import a `.toml` file: a new custom car (stored as a draft if it does not validate). */
  async importToml(fileName: string, text: string): Promise<SaveResult> {
    const name = nameInText(text) ?? fileName.replace(/\.toml$/i, '');
    return this.save(null, text, { name, basedOn: null });
  }

  /** Export: file name and text (the drivable version unless `draft` is asked for). */
  static exportToml(r: CustomCarRecord, draft = false): { fileName: string; text: string } {
    const text = draft ? (r.draft ?? r.text ?? '') : (r.text ?? r.draft ?? '');
    return { fileName: `${r.id}${draft && r.draft ? '.draft' : ''}.toml`, text };
  }

  /** The drivable car of a record: its last valid text, validated again. Null if there is none. */
  drivableConfig(r: CustomCarRecord): CarConfig | null {
    if (r.text === null) return null;
    const c = checkCarDraft(r.text, fileOf(r.id), this.readExtends);
    return c.ok ? c.config : null;
  }
}
