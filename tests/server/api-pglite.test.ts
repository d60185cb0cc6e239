/** The server's integration suite on the embedded database (PGlite in a temp dir). */
import { afterAll, describe } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineServerSuite } from './api-suite';

const dir = mkdtempSync(join(tmpdir(), 'bitrally-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('server on PGlite', () => defineServerSuite(() => ({ dataDir: dir })));
