#!/usr/bin/env node
/**
 * Runs the replay e2e specs (tests/e2e/replay.spec.mjs) like tests/e2e/run-e2e.mjs runs the game's (same
 * helpers, tests/e2e/serve.mjs: lock, build when dist/ is stale or not E2E_NO_BUILD=1, `vite preview` on a free port), runs the
 * specs in /usr/bin/chromium, prints "N passed, M failed", stops the server. Artifacts: test-results/e2e/.
 *   node tests/e2e/run-replay-e2e.mjs [name filter]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { acquireE2eLock, buildIfStale, root, startPreview } from './serve.mjs';

const out = join(root, 'test-results', 'e2e');
mkdirSync(out, { recursive: true });
await acquireE2eLock('replay e2e');
if (!buildIfStale('replay e2e')) {
  console.log('0 passed, 1 failed (build)');
  process.exit(1);
}
const { base, stop } = await startPreview();
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
