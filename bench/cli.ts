/**
 * `npm run bench`: runs the suites in a folder (a suite's name is its file's name: `<dir>/<name>.ts` exports
 * `suite` with that name), prints JSON and a markdown table, writes both under the results folder (ignored by
 * git) and exits 1 when a row misses its goal (`--report-only` to explore; in `--quick`, rows that declare
 * `quickReportOnly` are reported only). `--save` also records the suites' figures in the tracked figures file
 * and regenerates the README table from it; `--table` only regenerates the table.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCommand, type CommandSpec } from '../src/cli/args';
import { EXIT_FAILED, EXIT_OK } from '../src/cli/errors';
import { mergeFigures, readFigures, writeFigures, writeReadmeTable } from './figures';
import { failedRows, formatGoal, formatValue, makeReport, reportMarkdown, type MachineInfo } from './report';
import type { BenchResult, BenchSuite } from './types';

/** Where the suites are read and the figures written (the tests point these at a fixture folder). */
export interface BenchPaths {
  suitesDir: string;
  /** Every run's latest.json / latest.md (ignored by git). */
  resultsDir: string;
  /** The saved figures (tracked). */
  figuresFile: string;
  /** The file holding the figures table between its markers. */
  readmeFile: string;
}

function benchSpec(suites: readonly string[]) {
  return {
    usage: 'npm run bench --',
    summary: 'Runs the benchmark suites, prints JSON and a table, writes bench/results/latest.json and latest.md (not tracked).',
    details: [
      'Exit code 1 when a row misses its goal (MISS), 2 for a bad command line, 0 otherwise.',
      'In --quick (the CI run) a row whose goal belongs to unfinished work or sits within the short run\'s noise',
      'is reported as "miss (report-only in --quick)" with the reason, and does not fail; the full run fails on it.',
    ],
    options: {
      quick: { type: 'boolean', help: 'short runs (the CI variant)' },
      only: { type: 'list', value: 'suite,suite', kind: 'suite', choices: suites, help: 'run only these suites' },
      'report-only': { type: 'boolean', help: 'report missed goals but exit 0 (exploration)' },
      save: { type: 'boolean', help: 'record these suites in bench/figures.json (tracked) and regenerate the README table; not with --quick' },
      table: { type: 'boolean', help: 'only regenerate the README table from bench/figures.json, run nothing' },
    },
    examples: ['npm run bench -- --only ai,peers --quick', 'npm run bench -- --only vehicle --save'],
  } as const satisfies CommandSpec;
}

/** The suite names in `dir`, sorted. */
export function listSuites(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => basename(f, '.ts'));
}

/** The selected suites, in file-name order. */
async function loadSuites(dir: string, names: readonly string[]): Promise<BenchSuite[]> {
  const out: BenchSuite[] = [];
  for (const name of names) {
    const mod = (await import(pathToFileURL(join(dir, `${name}.ts`)).href)) as { suite?: BenchSuite };
    if (mod.suite?.name !== name) throw new Error(`${join(dir, name)}.ts: expected an exported suite named "${name}", found ${mod.suite ? `"${mod.suite.name}"` : 'none'}`);
    out.push(mod.suite);
  }
  return out;
}

async function runSuites(dir: string, names: readonly string[], quick: boolean): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const suite of await loadSuites(dir, names)) {
    process.stderr.write(`bench: ${suite.name}…\n`);
    results.push(...(await suite.run({ quick })));
  }
  return results;
}

/**
 * The closing lines on stderr: which rows missed and whether that fails the run, with the machine's load (most
 * figures are wall-clock times: a machine busy with other work reads slower).
 */
function verdict(failed: readonly BenchResult[], reportOnly: boolean, machine: MachineInfo): number {
  if (failed.length === 0) return EXIT_OK;
  const rows = failed.map((r) => `  ${r.suite} / ${r.name}: ${formatValue(r.value)} ${r.unit}, goal ${formatGoal(r)}`);
  const load = `load ${machine.loadAvg1min.toFixed(1)} on ${machine.cores} cores`;
  console.error([`bench: ${failed.length} row(s) missed the goal (${load})${reportOnly ? ' (--report-only: exit 0)' : ''}:`, ...rows].join('\n'));
  return reportOnly ? EXIT_OK : EXIT_FAILED;
}

/** Runs the command; returns the exit code (throws HelpRequest / UsageError for the caller to report). */
export async function benchMain(argv: readonly string[], paths: BenchPaths): Promise<number> {
  const suites = listSuites(paths.suitesDir);
  const { options: o, fail } = parseCommand(benchSpec(suites), argv);
  if (o.table) {
    if (o.save || o.quick || o.only) fail('--table only rewrites the README table: give it alone');
    writeReadmeTable(paths.readmeFile, readFigures(paths.figuresFile));
    return EXIT_OK;
  }
  if (o.save && o.quick) fail('--save records the README figures: run without --quick');
  const names = suites.filter((n) => !o.only || o.only.includes(n));
  const report = makeReport(await runSuites(paths.suitesDir, names, o.quick), o.quick);
  const md = reportMarkdown(report);
  mkdirSync(paths.resultsDir, { recursive: true });
  writeFileSync(join(paths.resultsDir, 'latest.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(paths.resultsDir, 'latest.md'), md + '\n');
  console.log(JSON.stringify(report));
  console.log(md);
  if (o.save) {
    const figures = mergeFigures(readFigures(paths.figuresFile), report, names);
    writeFigures(paths.figuresFile, figures);
    writeReadmeTable(paths.readmeFile, figures);
  }
  return verdict(failedRows(report.results, o.quick), o['report-only'], report.machine);
}
