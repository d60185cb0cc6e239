/**
 * The server's integration suite on a real PostgreSQL server, started by this file (tests/server/postgres.ts).
 * Skipped with the reason when the binaries are absent outside CI; in CI their absence fails.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineServerSuite } from './api-suite';
import { postgresUnavailable, startTestPostgres, type TestPostgres } from './postgres';

const missing = postgresUnavailable();
if (missing) it.skip(`PostgreSQL suite: ${missing}`, () => undefined);

describe.skipIf(missing !== null)('server on PostgreSQL', () => {
  let pg: TestPostgres | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-server-'));
  beforeAll(async () => {
    pg = await startTestPostgres();
  }, 60_000);
  afterAll(() => {
    pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  defineServerSuite(() => ({ dataDir: dir, databaseUrl: pg!.url }));
});
