/**
 * The saved figures (`npm run bench -- --save`): the latest full run of each suite, kept in a tracked JSON file,
 * and the one README table generated from it. A save replaces the suites it ran and keeps the others, so the
 * table holds the current figure of every suite and no history. The table sits between two marker comments.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { UserError } from '../src/cli/errors';
import { describeRun, formatGoal, formatValueSpread, goalStatus, type BenchReport } from './report';
import type { BenchResult } from './types';

export const TABLE_START = '<!-- bench-table:start (generated from bench/figures.json by `npm run bench -- --save` or `--table`; do not edit) -->';
export const TABLE_END = '<!-- bench-table:end -->';

/** One suite's last saved run. */
export type SavedSuite = Omit<BenchReport, 'results' | 'quick'> & { results: BenchResult[] };

export interface SavedFigures {
  suites: Record<string, SavedSuite>;
}

export function readFigures(file: string): SavedFigures {
  if (!existsSync(file)) return { suites: {} };
  const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<SavedFigures>;
  if (typeof data.suites !== 'object' || data.suites === null) throw new UserError(`${file}: expected an object with "suites", found ${JSON.stringify(Object.keys(data))}`);
  return { suites: data.suites };
}

/** The saved figures with the suites of `rep` replaced by this run (suites in name order). */
export function mergeFigures(saved: SavedFigures, rep: BenchReport, suites: readonly string[]): SavedFigures {
  const { results, quick: _quick, ...run } = rep;
  const merged: Record<string, SavedSuite> = { ...saved.suites };
  for (const name of suites) merged[name] = { ...run, results: results.filter((r) => r.suite === name) };
  return { suites: Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]!])) };
}

export function writeFigures(file: string, figures: SavedFigures): void {
  writeFileSync(file, JSON.stringify(figures, null, 2) + '\n');
}

/** The README table: every saved row, then one line per run saying which suites it measured, where and when. */
export function figuresTable(figures: SavedFigures): string {
  const suites = Object.entries(figures.suites);
  const rows = suites.flatMap(([, s]) =>
    s.results.map((r) => `| ${r.suite} | ${r.name} | ${formatValueSpread(r)} | ${r.unit} | ${formatGoal(r)} | ${goalStatus(r, false)} |`),
  );
  // suites saved by the same run share one line
  const byRun = new Map<string, string[]>();
  for (const [name, s] of suites) {
    const run = describeRun({ ...s, quick: false });
    byRun.set(run, [...(byRun.get(run) ?? []), name]);
  }
  const runs = [...byRun].map(([run, names]) => `* ${names.join(', ')}: ${run}`);
  return ['| suite | figure | value | unit | goal | |', '|---|---|---|---|---|---|', ...rows, '', 'Measured:', '', ...runs].join('\n');
}

/** `readme` with the text between the markers replaced by `table`; a UserError when the markers are missing. */
export function replaceTable(readme: string, table: string, file: string): string {
  const a = readme.indexOf(TABLE_START);
  const b = readme.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new UserError(`${file}: expected the benchmark table markers ${TABLE_START} … ${TABLE_END}, found ${a < 0 ? 'no start marker' : 'no end marker after it'}`);
  return `${readme.slice(0, a + TABLE_START.length)}\n\n${table}\n\n${readme.slice(b)}`;
}

/** Rewrites the README's table from the saved figures. */
export function writeReadmeTable(readmeFile: string, figures: SavedFigures): void {
  writeFileSync(readmeFile, replaceTable(readFileSync(readmeFile, 'utf8'), figuresTable(figures), readmeFile));
}
