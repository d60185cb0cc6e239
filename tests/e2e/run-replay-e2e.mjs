#!/usr/bin/env node
/**
 * Runs the replay e2e specs (tests/e2e/replay.spec.mjs) like tests/e2e/run-e2e.mjs runs the game's: builds
 * the game unless dist/ is fresh (or E2E_NO_BUILD=1), serves it with `vite preview` on a free port, runs the
 * specs in /usr/bin/chromium, prints "N passed, M failed", stops the server. Artifacts: test-results/e2e/.
 *   node tests/e2e/run-replay-e2e.mjs [name filter]
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'test-results', 'e2e');
mkdirSync(out, { recursive: true });
if (process.env.E2E_NO_BUILD !== '1' || !existsSync(join(root, 'dist', 'index.html'))) {
  console.log('replay e2e: building…');
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
const server = spawn(join(root, 'node_modules', '.bin', 'vite'), ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: root, stdio: 'ignore', detached: true });
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* gone */
  }
};
process.on('exit', stop);
const base = `http://127.0.0.1:${port}/`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 200));
}
const { runSpecs } = await import('./replay.spec.mjs');
let passed = 0;
let failed = 0;
try {
  for (const r of await runSpecs({ base, out, filter: process.argv[2] })) {
    if (r.ok) passed++;
    else failed++;
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${(r.ms / 1000).toFixed(1)} s)${r.ok ? '' : '\n     ' + r.error}`);
  }
} catch (e) {
  failed++;
  console.log(`FAIL harness: ${e?.stack ?? e}`);
}
console.log(`${passed} passed, ${failed} failed`);
stop();
process.exit(failed ? 1 : 0);
