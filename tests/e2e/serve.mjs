/**
 * What the e2e runners share (tests/e2e/run-e2e.mjs): the one-run-per-machine
 * lock, the build when dist/ is older than the sources, and `vite preview` on a free port.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, statSync, readdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * One e2e run at a time on this machine: several engineers share one working tree (and dist/) and two
 * SwiftShader browsers on 2 cores make frame timing meaningless. The lock is a directory holding our pid;
 * a lock whose owner is gone is taken over. Released when the process exits.
 */
export async function acquireE2eLock(label = 'e2e') {
  const lockDir = join(tmpdir(), 'bitrally-e2e.lock');
  for (let waited = 0; ; waited++) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch {
      let owner = 0;
      try {
        owner = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
        process.kill(owner, 0);
      } catch {
        if (owner || waited > 5) rmSync(lockDir, { recursive: true, force: true });
      }
      if (waited % 30 === 0) console.log(`${label}: waiting for another e2e run (pid ${owner || '?'}) to finish…`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  process.on('exit', () => rmSync(lockDir, { recursive: true, force: true }));
}

/** Builds the game unless dist/ is newer than src/, terrain/ and index.html, or E2E_NO_BUILD=1. False when the build failed. */
export function buildIfStale(label = 'e2e') {
  const distIndex = join(root, 'dist', 'index.html');
  const stale = !existsSync(distIndex) || statSync(distIndex).mtimeMs < Math.max(newest(join(root, 'src')), newest(join(root, 'terrain')), statSync(join(root, 'index.html')).mtimeMs);
  if (process.env.E2E_NO_BUILD === '1' || !stale) return true;
  console.log(`${label}: building…`);
  return spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' }).status === 0;
}

/**
 * `vite preview` of dist/ on a free port; resolves once it answers. `stop()` ends it (also on exit, SIGINT,
 * SIGTERM); `log()` is what it printed.
 */
export async function startPreview() {
  const port = await new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
  });
  const server = spawn(join(root, 'node_modules', '.bin', 'vite'), ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let serverLog = '';
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  const stop = () => {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', stop);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  const base = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, stop, log: () => serverLog };
}
