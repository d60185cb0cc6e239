/**
 * The real BitRally server (`server/main.ts`, rooms on) as a child process for the e2e specs: a free loopback
 * port, its own data directory, --cors-origin for the preview origin.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A loopback port that was free a moment ago. */
export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** The server process on `port`; `ready` resolves once it logs that it listens. */
export function startServer(port, dataDir, origin) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', String(port), '--data-dir', dataDir, '--workers', '1', '--cors-origin', origin], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((res) => child.once('exit', res));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const ready = new Promise((res, rej) => {
    createInterface({ input: child.stdout }).on('line', (l) => l.includes('Server listening') && res());
    void exited.then((c) => rej(new Error(`server exited (${c}) before listening: ${stderr.slice(-800)}`)));
  });
  return { child, exited, ready };
}

export async function stopServer(s) {
  s.child.kill('SIGTERM');
  await s.exited;
}

/** A spec's end: its pages' contexts closed, the server stopped, its data directory removed. */
export async function closeSpec(pages, server, dataDir) {
  for (const p of pages) await p.context.close();
  await stopServer(server).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}

/** Throws the pages' first console / page errors, but those matching `ignore`. */
export function throwPageErrors(pages, ignore = null) {
  const errs = pages.flatMap((p) => p.errors).filter((e) => !ignore || !ignore.test(e));
  if (errs.length) throw new Error(`page errors: ${errs.slice(0, 5).join(' | ')}`);
}
