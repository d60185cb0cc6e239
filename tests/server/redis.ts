/**
 * A throwaway Redis for a test file: Debian's `redis-server` (the package .ci/run installs) on a free loopback
 * port with its files in a temp dir and persistence off, stopped (and the dir removed) by `stop()`. Outside CI a
 * missing binary skips the suite with the reason; in CI (CI=true) it is an error, as for PostgreSQL (postgres.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './postgres';

export const REDIS_SERVER = '/usr/bin/redis-server';
/** Start-up limit, ms. */
const START_TIMEOUT_MS = 20_000;

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** Why the Redis suite cannot run here (null: it can); throws in CI. */
export function redisUnavailable(): string | null {
  if (existsSync(REDIS_SERVER)) return null;
  const why = `${REDIS_SERVER} not found (apt-get install redis-server)`;
  if (process.env.CI) throw new Error(`CI must run the Redis scale-out suite: ${why}`);
  return why;
}

export async function startTestRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-redis-'));
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (/ready to accept connections/i.test(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error('redis-server exited before it was ready')));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
