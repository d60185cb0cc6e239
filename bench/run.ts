/**
 * `npm run bench [-- --quick] [-- --only name1,name2]`: runs every suite in bench/suites, prints a table and
 * writes bench/results/latest.json (with machine and commit) and bench/results/latest.md.
 */
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { cpus, totalmem, platform, arch, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult, BenchSuite } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? (args[onlyIdx + 1] ?? '').split(',').filter(Boolean) : null;

function commit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) return v.toExponential(3);
  return a >= 100 ? v.toFixed(1) : v.toPrecision(4);
}

async function main(): Promise<void> {
  const dir = join(here, 'suites');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const results: BenchResult[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { suite: BenchSuite };
    if (!mod.suite) continue;
    if (only && !only.includes(mod.suite.name)) continue;
    process.stderr.write(`bench: ${mod.suite.name}…\n`);
    results.push(...(await mod.suite.run({ quick })));
  }
  const report = {
    date: new Date().toISOString(),
    commit: commit(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memGiB: totalmem() / 2 ** 30, platform, arch, loadAvg1min: loadavg()[0] ?? 0 },
    node: process.version,
    quick,
    results,
  };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'latest.json'), JSON.stringify(report, null, 2) + '\n');
  const rows = results.map((r) => {
    const status =
      r.target === undefined ? '' : (r.lowerIsBetter ?? true) ? (r.value <= r.target ? 'ok' : 'MISS') : r.value >= r.target ? 'ok' : 'MISS';
    return `| ${r.suite} | ${r.name} | ${fmt(r.value)} | ${r.unit} | ${r.target === undefined ? '' : fmt(r.target)} | ${status} | ${r.note ?? ''} |`;
  });
  const m = report.machine;
  const head = `BitRally benchmarks — ${report.date}, commit ${report.commit}, ${m.cpu} × ${m.cores} cores, ${m.memGiB.toFixed(0)} GiB, load ${m.loadAvg1min.toFixed(1)}, Node ${report.node}${quick ? ', --quick' : ''}\n\n`;
  const md = head + ['| suite | name | value | unit | target | | note |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
  writeFileSync(join(here, 'results', 'latest.md'), md + '\n');
  console.log(JSON.stringify(report));
  console.log(md);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
