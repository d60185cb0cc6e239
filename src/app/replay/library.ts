/**
 * Replay library in the browser (IndexedDB via idb): finished runs are saved automatically; list, rename,
 * delete, export as a `.bitrally` download, import from a file picker or drag and drop. Imported files are
 * untrusted: `decodeReplay` checks size, magic, version, CRC, every length and the header schema before
 * anything is stored, and an import never overwrites an existing entry (new id every time).
 * If IndexedDB is unavailable (private mode) the library lives in memory for the session.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { decodeReplay, MAX_REPLAY_FILE_BYTES, REPLAY_EXTENSION, ReplayFormatError } from '../../replay/format';

export interface ReplayEntry {
  id: string;
  name: string;
  stageId: string | null;
  /** The town seed of a town run (issue 23); absent in entries saved before town replays were kept. */
  townSeed?: number | null;
  carIds: string[];
  /** Stage time (s) if the run finished. */
  timeS: number | null;
  durationS: number;
  /** ISO date (display). */
  date: string;
  bytes: Uint8Array;
}

const DB = 'bitrally-replays';
const STORE = 'replays';

function entryFrom(bytes: Uint8Array, file: string, id: string, date: string): ReplayEntry {
  const d = decodeReplay(bytes, file); // throws ReplayFormatError with a clear message
  const h = d.header;
  return {
    id,
    name: h.name || file,
    stageId: h.stage?.id ?? null,
    townSeed: h.town?.seed ?? null,
    carIds: h.cars.map((c) => c.id),
    timeS: h.result?.finished ? h.result.stageTimeS : null,
    durationS: h.ticks * h.dt,
    date,
    bytes,
  };
}

/** What a library entry was driven on: the stage id, the town and its seed, or flat ground. */
export function replayPlace(e: Pick<ReplayEntry, 'stageId' | 'townSeed'>): string {
  if (e.townSeed !== undefined && e.townSeed !== null) return `town ${e.townSeed}`;
  return e.stageId ?? 'flat';
}

export class ReplayLibrary {
  private db: IDBPDatabase | null = null;
  private readonly mem = new Map<string, ReplayEntry>();
  private counter = 0;
  /** The database open in flight: every read and write waits for it, so nothing lands in the session-only map
   * (and is lost on the next page load) because it came before IndexedDB answered. */
  private opening: Promise<void> | null = null;

  open(): Promise<void> {
    this.opening ??= this.openDb();
    return this.opening;
  }

  private async openDb(): Promise<void> {
    if (typeof indexedDB === 'undefined') return;
    try {
      this.db = await openDB(DB, 1, {
        upgrade(db) {
          if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
        },
      });
    } catch (e) {
      console.warn(`replays: IndexedDB unavailable (${(e as Error).message}); replays kept for this session only`);
    }
  }

  private newId(): string {
    return `${Date.now().toString(36)}-${(this.counter++).toString(36)}`;
  }

  private async put(e: ReplayEntry): Promise<void> {
    await this.open();
    if (this.db) await this.db.put(STORE, e);
    else this.mem.set(e.id, e);
  }

  async list(): Promise<ReplayEntry[]> {
    await this.open();
    const all = this.db ? ((await this.db.getAll(STORE)) as ReplayEntry[]) : [...this.mem.values()];
    return all.sort((a, b) => (a.date < b.date ? 1 : -1));
  }

  async get(id: string): Promise<ReplayEntry | undefined> {
    await this.open();
    return this.db ? ((await this.db.get(STORE, id)) as ReplayEntry | undefined) : this.mem.get(id);
  }

  /** Saves a replay the game just recorded. */
  async save(bytes: Uint8Array, name?: string): Promise<ReplayEntry> {
    const e = entryFrom(bytes, name ?? 'run', this.newId(), new Date().toISOString());
    if (name) e.name = name;
    await this.put(e);
    return e;
  }

  async rename(id: string, name: string): Promise<void> {
    const e = await this.get(id);
    if (!e) throw new Error(`replays: no replay with id ${id}`);
    e.name = name.trim().slice(0, 80) || e.name;
    await this.put(e);
  }

  async remove(id: string): Promise<void> {
    await this.open();
    if (this.db) await this.db.delete(STORE, id);
    else this.mem.delete(id);
  }

  /** Imports an untrusted file (picker or drop). Throws ReplayFormatError naming the file on bad input. */
  async importFile(file: File): Promise<ReplayEntry> {
    if (file.size > MAX_REPLAY_FILE_BYTES) {
      throw new ReplayFormatError(file.name, '(file size)', `at most ${MAX_REPLAY_FILE_BYTES >> 20} MiB`, `${(file.size / (1 << 20)).toFixed(1)} MiB`);
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const e = entryFrom(bytes, file.name, this.newId(), new Date().toISOString());
    await this.put(e);
    return e;
  }

  /** Starts a download of the replay as `<name>.bitrally`. */
  exportEntry(e: ReplayEntry): void {
    const blob = new Blob([e.bytes.slice().buffer as ArrayBuffer], { type: 'application/octet-stream' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${e.name.replace(/[^\w.-]+/g, '_') || 'replay'}${REPLAY_EXTENSION}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

let shared: ReplayLibrary | null = null;

/** The page's one library (the replay screens and the modes that save runs to it, e.g. town mode). */
export function sharedReplayLibrary(): ReplayLibrary {
  shared ??= new ReplayLibrary();
  return shared;
}
