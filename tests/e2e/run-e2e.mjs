#!/usr/bin/env node
/**
 * Browser tests: builds the game (unless dist/ is newer than the sources, or E2E_NO_BUILD=1), serves it
 * with `vite preview` on a free port, runs the specs in game.spec.mjs against the system Chromium
 * (/usr/bin/chromium, SwiftShader WebGL2) with a virtual gamepad, prints "N passed, M failed", stops the
 * server and exits non-zero on failure. Screenshots land in test-results/e2e/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, statSync, readdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'test-results', 'e2e');
mkdirSync(out, { recursive: true });

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

// One e2e run at a time on this machine: several engineers share one working tree (and dist/) and two
// SwiftShader browsers on 2 cores make frame timing meaningless. The lock is a directory holding our pid;
// a lock whose owner is gone is taken over.
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
    if (waited % 30 === 0) console.log(`e2e: waiting for another e2e run (pid ${owner || '?'}) to finish…`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}
process.on('exit', () => rmSync(lockDir, { recursive: true, force: true }));

const distIndex = join(root, 'dist', 'index.html');
const stale = !existsSync(distIndex) || statSync(distIndex).mtimeMs < Math.max(newest(join(root, 'src')), newest(join(root, 'terrain')), statSync(join(root, 'index.html')).mtimeMs);
if (process.env.E2E_NO_BUILD !== '1' && stale) {
  console.log('e2e: building…');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.log('0 passed, 1 failed (build)');
    process.exit(1);
  }
}

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
const stopServer = () => {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('exit', stopServer);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

const base = `http://127.0.0.1:${port}/`;
for (let i = 0; i < 100; i++) {
  try {
    const r = await fetch(base);
    if (r.ok) break;
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 200));
}

// every tests/e2e/*.spec.mjs exports runSpecs (game.spec.mjs first, then the others by name)
const specDir = dirname(fileURLToPath(import.meta.url));
// E2E_FILES=game,garage runs only those spec files (by name prefix)
const onlyFiles = (process.env.E2E_FILES ?? '').split(',').filter(Boolean);
const specFiles = readdirSync(specDir).filter((f) => f.endsWith('.spec.mjs') && (!onlyFiles.length || onlyFiles.some((o) => f.startsWith(o)))).sort((a, b) => (a === 'game.spec.mjs' ? -1 : b === 'game.spec.mjs' ? 1 : a.localeCompare(b)));
let passed = 0;
let failed = 0;
const t0 = Date.now();
try {
  const results = [];
  for (const f of specFiles) results.push(...(await (await import(join(specDir, f))).runSpecs({ base, out, filter: process.argv[2] })));
  for (const r of results) {
    if (r.ok) passed++;
    else failed++;
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${(r.ms / 1000).toFixed(1)} s)${r.ok ? '' : '\n     ' + r.error}`);
  }
} catch (e) {
  failed++;
  console.log(`FAIL harness: ${e?.stack ?? e}`);
  if (serverLog) console.log(serverLog.slice(-2000));
}
console.log(`e2e finished in ${((Date.now() - t0) / 1000).toFixed(0)} s; artifacts in test-results/e2e/`);
console.log(`${passed} passed, ${failed} failed`);
stopServer();
process.exit(failed ? 1 : 0);
