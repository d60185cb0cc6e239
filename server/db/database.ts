/**
 * The server's one database interface: parameterised queries, a transaction, multi-statement scripts for the
 * migrations (constant SQL only). Two implementations: PGlite (embedded PostgreSQL in WASM, data in a local
 * directory: the default) and `pg` (a real PostgreSQL server, `DATABASE_URL`). The SQL is the same for both.
 */
export interface Queryable {
  /** One statement with $1.. parameters; the rows as plain objects. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction (BEGIN … COMMIT; ROLLBACK on a throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Several statements without parameters (migrations: constant SQL from server/db/migrations.ts). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens the database the options name: `url` (postgres://…) → pg, else PGlite in `dataDir`. */
export async function openDatabase(o: { url?: string; dataDir: string }): Promise<Database> {
  if (o.url) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(o.url);
  }
  const { openPglite } = await import('./pglite');
  return openPglite(o.dataDir);
}
