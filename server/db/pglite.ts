/** The embedded database: PGlite (PostgreSQL compiled to WASM) with its files in a local directory. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database';

/** PGlite's own files live in this subfolder of the server's data directory. */
export const PGLITE_SUBDIR = 'pglite';

export async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(join(dataDir, PGLITE_SUBDIR));
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
      return (await q.query<R>(sql, params as unknown[])).rows;
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    close: () => pg.close(),
  };
}
