#!/usr/bin/env node
/**
 * Browser tests: builds the game (unless dist/ is newer than the sources, or E2E_NO_BUILD=1), serves it
 * with `vite preview` on a free port, runs every tests/e2e/*.spec.mjs in one system Chromium
 * (/usr/bin/chromium, SwiftShader WebGL2) with a virtual gamepad, prints "N passed, M failed", stops the
 * server and exits non-zero on failure. Screenshots land in test-results/e2e/.
 *   node tests/e2e/run-e2e.mjs [--files game,replay] [name filter]
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closest } from '../../src/validate/suggest.ts';
import { acquireE2eLock, buildIfStale, root, startPreview } from './serve.mjs';
import { launchBrowser } from './spec-runner.mjs';

const USAGE = `usage: node tests/e2e/run-e2e.mjs [--files <name>[,<name>…]] [name filter]
  --files   run only the spec files whose names start with these (also E2E_FILES=game,garage)
  filter    run only the specs whose names contain this text
  -h, --help  this text`;
let args;
try {
  args = parseArgs({ options: { files: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
} catch (e) {
  const typo = /option '(-[^']+)'/.exec(e.message)?.[1];
  const near = typo ? closest(typo.replace(/^-+/, ''), ['files', 'help']) : undefined;
  console.error(`run-e2e: ${typo ? `unknown option ${typo}` : e.message}${near ? `; did you mean --${near}?` : ''} (--help lists the options)`);
  process.exit(2);
}
if (args.values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (args.positionals.length > 1) {
  console.error(`run-e2e: expected at most one name filter, found ${args.positionals.length}: ${args.positionals.join(' ')} (--help lists the options)`);
  process.exit(2);
}
const nameFilter = args.positionals[0];

// every tests/e2e/*.spec.mjs exports runSpecs (game.spec.mjs first, then the others by name)
const specDir = dirname(fileURLToPath(import.meta.url));
// --files game,garage (or E2E_FILES=game,garage) runs only those spec files (by name prefix)
const onlyFiles = (args.values.files ?? process.env.E2E_FILES ?? '').split(',').filter(Boolean);
const specFiles = readdirSync(specDir).filter((f) => f.endsWith('.spec.mjs') && (!onlyFiles.length || onlyFiles.some((o) => f.startsWith(o)))).sort((a, b) => (a === 'game.spec.mjs' ? -1 : b === 'game.spec.mjs' ? 1 : a.localeCompare(b)));
if (!specFiles.length) {
  console.error(`run-e2e: no spec file matches --files ${onlyFiles.join(',')} (spec files: ${readdirSync(specDir).filter((f) => f.endsWith('.spec.mjs')).join(', ')})`);
  process.exit(2);
}
const out = join(root, 'test-results', 'e2e');
mkdirSync(out, { recursive: true });
await acquireE2eLock('e2e');
if (!buildIfStale('e2e')) {
  console.log('0 passed, 1 failed (build)');
  process.exit(1);
}
const { base, stop: stopServer, log: serverLogOf } = await startPreview();

let passed = 0;
let failed = 0;
const t0 = Date.now();
// one browser for all spec files (each spec isolates itself in its own contexts)
const browser = await launchBrowser();
try {
  const results = [];
  for (const f of specFiles) results.push(...(await (await import(join(specDir, f))).runSpecs({ browser, base, out, filter: nameFilter })));
  for (const r of results) {
    if (r.ok) passed++;
    else failed++;
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${(r.ms / 1000).toFixed(1)} s)${r.ok ? '' : '\n     ' + r.error}`);
  }
} catch (e) {
  failed++;
  console.log(`FAIL harness: ${e?.stack ?? e}`);
  const serverLog = serverLogOf();
  if (serverLog) console.log(serverLog.slice(-2000));
}
await browser.close().catch(() => undefined);
console.log(`e2e finished in ${((Date.now() - t0) / 1000).toFixed(0)} s; artifacts in test-results/e2e/`);
console.log(`${passed} passed, ${failed} failed`);
stopServer();
process.exit(failed ? 1 : 0);
