#!/usr/bin/env node
/**
 * The production bundle's size, from dist/ (`npm run size` after `npm run build`): the startup JS — the entry
 * chunk and every chunk it imports statically, what the browser must load before the title screen — raw and
 * gzip (level 9, each file alone, as served), then all JS, wasm and other assets. Exits 1 when the startup JS
 * is over its budget (gzip), 2 when dist/ has no build manifest. Lazy chunks (garage, replays, the driving
 * session, Havok) are counted in the totals only.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { closest } from '../../src/validate/suggest.ts';

/** Issue #19: the startup JS, gzip. */
export const STARTUP_GZIP_BUDGET_KIB = 450;

const USAGE = `usage: npm run size -- [dist folder]
  dist folder  the build to measure (default dist)
  -h, --help   this text`;
let args;
try {
  args = parseArgs({ options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
} catch (e) {
  const typo = /option '(-[^']+)'/.exec(e.message)?.[1];
  const near = typo ? closest(typo.replace(/^-+/, ''), ['help']) : undefined;
  console.error(`size: ${typo ? `unknown option ${typo}` : e.message}${near ? `; did you mean --${near}?` : ''} (--help lists the options)`);
  process.exit(2);
}
if (args.values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (args.positionals.length > 1) {
  console.error(`size: expected at most one dist folder, found ${args.positionals.length}: ${args.positionals.join(' ')} (--help lists the options)`);
  process.exit(2);
}
const dir = join(args.positionals[0] ?? 'dist');
const manifestFile = join(dir, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`size: expected ${manifestFile} (vite.config.ts build.manifest), found none: run npm run build first`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const gzipOf = (f) => gzipSync(readFileSync(join(dir, f)), { level: 9 }).length;

/** The entry's file and its static imports, transitively (manifest `imports`; `dynamicImports` are lazy). */
function startupFiles() {
  const keys = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const files = new Set();
  while (keys.length) {
    const c = manifest[keys.pop()];
    if (files.has(c.file)) continue;
    files.add(c.file);
    keys.push(...(c.imports ?? []));
  }
  return [...files].filter((f) => f.endsWith('.js'));
}

const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
let js = 0, jsGz = 0, wasm = 0, other = 0;
for (const f of walk(dir)) {
  const ext = extname(f);
  const size = statSync(f).size;
  if (ext === '.js') {
    js += size;
    jsGz += gzipSync(readFileSync(f), { level: 9 }).length;
  } else if (ext === '.wasm') wasm += size;
  else other += size;
}
const startup = startupFiles();
const startRaw = startup.reduce((s, f) => s + statSync(join(dir, f)).size, 0);
const startGz = startup.reduce((s, f) => s + gzipOf(f), 0);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const ok = startGz <= STARTUP_GZIP_BUDGET_KIB * 1024;
console.log(`startup JS ${kb(startRaw)} (gzip ${kb(startGz)}, budget ${STARTUP_GZIP_BUDGET_KIB} KiB: ${ok ? 'ok' : 'OVER'}) in ${startup.length} files`);
console.log(`all: JS ${kb(js)} (gzip ${kb(jsGz)}) · wasm ${kb(wasm)} · other assets ${kb(other)}`);
if (!ok) {
  console.error(`size: the startup JS is ${kb(startGz)} gzip, over the ${STARTUP_GZIP_BUDGET_KIB} KiB budget; largest: ${startup.map((f) => [f, gzipOf(f)]).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([f, g]) => `${f} ${kb(g)}`).join(', ')}`);
  process.exit(1);
}
