/**
 * `npm run bench [-- --quick] [--only name1,name2]`: runs the suites in bench/suites, prints a table and writes
 * bench/results/latest.json (with machine and commit) and bench/results/latest.md. A suite's name is its file's
 * name (bench/suites/<name>.ts exports `suite` with that name); `--only` refuses names that are not suites.
 */
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { cpus, totalmem, platform, arch, loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseCommand, type CommandSpec } from '../src/cli/args';
import { exitWith, runCommandAsync } from '../src/cli/errors';
import type { BenchResult, BenchSuite } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const SUITES_DIR = join(here, 'suites');
const SUITES = readdirSync(SUITES_DIR)
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .map((f) => basename(f, '.ts'));

const BENCH = {
  usage: 'npm run bench --',
  summary: 'Runs the benchmark suites, prints JSON and a table, writes bench/results/latest.json and latest.md.',
  options: {
    quick: { type: 'boolean', help: 'short runs (the CI variant)' },
    only: { type: 'list', value: 'suite,suite', kind: 'suite', choices: SUITES, help: 'run only these suites' },
  },
  examples: ['npm run bench -- --only ai,peers --quick'],
} as const satisfies CommandSpec;

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

/** The selected suites, in file-name order. */
async function loadSuites(only: readonly string[] | undefined): Promise<BenchSuite[]> {
  const out: BenchSuite[] = [];
  for (const name of SUITES.filter((n) => !only || only.includes(n))) {
    const mod = (await import(pathToFileURL(join(SUITES_DIR, `${name}.ts`)).href)) as { suite?: BenchSuite };
    if (mod.suite?.name !== name) throw new Error(`bench/suites/${name}.ts: expected an exported suite named "${name}", found ${mod.suite ? `"${mod.suite.name}"` : 'none'}`);
    out.push(mod.suite);
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const { quick, only } = parseCommand(BENCH, argv).options;
  const results: BenchResult[] = [];
  for (const suite of await loadSuites(only)) {
    process.stderr.write(`bench: ${suite.name}…\n`);
    results.push(...(await suite.run({ quick })));
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
  return 0;
}

exitWith(runCommandAsync(() => main(process.argv.slice(2))));
