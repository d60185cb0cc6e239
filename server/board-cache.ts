/**
 * Leaderboard responses by request, dropped whenever a verdict is stored: boards change only when a run is
 * accepted, and reads (the game's menus, every finish) far outnumber verifications.
 */

/** Most cached responses; past it the cache starts empty again (bounded memory). */
export const MAX_CACHED_RESPONSES = 10_000;

export class BoardCache {
  private readonly entries = new Map<string, unknown>();
  /** Bumped by clear(): a load that started before a verdict is not cached after it. */
  private generation = 0;

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const gen = this.generation;
    const v = await load();
    if (gen !== this.generation) return v;
    if (this.entries.size >= MAX_CACHED_RESPONSES) this.entries.clear();
    this.entries.set(key, v);
    return v;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
