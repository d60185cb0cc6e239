/**
 * A throwaway PostgreSQL cluster for a test file: initdb in a temp dir, the server on a free loopback port,
 * torn down (and the dir removed) by `stop()`. Debian's binaries (/usr/lib/postgresql/<version>/bin, the
 * `postgresql` package that .ci/run installs). PostgreSQL refuses to run as root, so as root (CI) the cluster runs
 * as the `postgres` user. Without the binaries: `null` (the caller skips with a message) — but in CI (CI=true)
 * missing PostgreSQL is an error.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  url: string;
  stop(): void;
}

const DEBIAN_PG = '/usr/lib/postgresql';

/** The directory holding initdb and pg_ctl (the newest Debian version), or null. */
export function postgresBinDir(): string | null {
  if (!existsSync(DEBIAN_PG)) return null;
  const versions = readdirSync(DEBIAN_PG)
    .filter((v) => existsSync(join(DEBIAN_PG, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(DEBIAN_PG, versions[0]!, 'bin') : null;
}

/** Why the PostgreSQL suite cannot run here (null: it can); throws in CI. */
export function postgresUnavailable(): string | null {
  if (postgresBinDir()) return null;
  const why = `PostgreSQL binaries not found under ${DEBIAN_PG}/<version>/bin (apt-get install postgresql)`;
  if (process.env.CI) throw new Error(`CI must run the PostgreSQL suite: ${why}`);
  return why;
}

/** A TCP port free on the loopback interface now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL binaries');
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const run = (cmd: string, args: string[]): void => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] as const : [join(bin, cmd), args] as const;
    const r = spawnSync(full[0], [...full[1]], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'rally', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  return {
    url: `postgres://rally@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
