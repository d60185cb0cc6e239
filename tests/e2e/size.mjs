#!/usr/bin/env node
/** Prints the production bundle size: JS raw and gzip (level 9), wasm raw, and other assets, from dist/. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, extname } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = join(process.argv[2] ?? 'dist');
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
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`JS ${kb(js)} (gzip ${kb(jsGz)}) · wasm ${kb(wasm)} · other assets ${kb(other)}`);
