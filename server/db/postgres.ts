/** A real PostgreSQL server through `pg` (a connection pool), for `DATABASE_URL`. */
import pg from 'pg';
import type { Database, Queryable } from './database';

/** Connections in the pool: the HTTP handlers and the verification queue share them. */
const POOL_SIZE = 10;

/** pg sends Buffers as bytea; the rest of the server passes Uint8Array. */
function toPg(params: readonly unknown[]): unknown[] {
  return params.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
}

function wrap(q: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
      return (await q.query(sql, toPg(params))).rows as R[];
    },
  };
}

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // fail at start (bad URL, server down) rather than on the first request
  (await pool.connect()).release();
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
