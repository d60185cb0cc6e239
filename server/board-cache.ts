/**
 * Leaderboard responses by request. Boards change only when a run is accepted, and reads (the game's menus,
 * every finish) far outnumber verifications, so a read that hits the cache runs no query. Each entry has a
 * scope: one board's entries are dropped when a run is accepted on that board (`clearBoard`); entries that
 * depend on every board (the list of boards, daily-rally totals) use EVERY_BOARD and are dropped on any accepted
 * run; a rename drops everything (`clear`). A refused run changes no board and drops nothing.
 */

/** Most cached responses; past it the cache starts empty again (bounded memory). */
export const MAX_CACHED_RESPONSES = 10_000;
/** The scope of an entry that depends on every board. */
export const EVERY_BOARD = '*';

export class BoardCache {
  private readonly entries = new Map<string, { value: unknown; scope: string }>();
  /** Bumped by every clear: a load that started before a clear is not cached after it. */
  private generation = 0;
  /** Loads in flight by key, with the generation they started in. */
  private readonly loading = new Map<string, { promise: Promise<unknown>; generation: number }>();

  /** The cached value of `key`, or undefined (no load): the hit path of a read, without a promise. */
  peek<T>(key: string): T | undefined {
    return this.entries.get(key)?.value as T | undefined;
  }

  /**
   * The cached value of `key`, else the one `load` gives. Concurrent misses of one key in one generation share a
   * single load: after a drop, the 50 clients that ask at once cost one query (a 1000-row ranking is ~10 ms of
   * the event loop on PGlite), not 50. A caller after a clear never joins a load that started before it.
   */
  async get<T>(key: string, load: () => Promise<T>, scope: string = EVERY_BOARD): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) return hit.value as T;
    const running = this.loading.get(key);
    if (running && running.generation === this.generation) return running.promise as Promise<T>;
    const generation = this.generation;
    const promise = load().then((value) => {
      if (generation !== this.generation) return value;
      if (this.entries.size >= MAX_CACHED_RESPONSES) this.entries.clear();
      this.entries.set(key, { value, scope });
      return value;
    });
    const entry = { promise, generation };
    this.loading.set(key, entry);
    try {
      return await promise;
    } finally {
      if (this.loading.get(key) === entry) this.loading.delete(key);
    }
  }

  /** Drops the entries of one board (its scope) and those that depend on every board. */
  clearBoard(scope: string): void {
    this.generation++;
    for (const [key, e] of this.entries) if (e.scope === scope || e.scope === EVERY_BOARD) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
