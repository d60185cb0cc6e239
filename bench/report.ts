/**
 * A benchmark run's report: the machine and commit it ran on, each row's goal status, and the markdown table
 * printed and written beside the JSON. A row with a target is "ok" or "MISS"; in `--quick` a missed row that
 * declares `quickReportOnly` is reported but does not fail the run.
 */
import { execSync } from 'node:child_process';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import type { BenchResult } from './types';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memGiB: number;
  platform: string;
  arch: string;
  loadAvg1min: number;
}

export interface BenchReport {
  date: string;
  commit: string;
  machine: MachineInfo;
  node: string;
  quick: boolean;
  results: BenchResult[];
}

export type GoalStatus = '' | 'ok' | 'MISS' | 'miss (report-only in --quick)';

function currentCommit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/** The report of results measured now, on this machine. */
export function makeReport(results: BenchResult[], quick: boolean): BenchReport {
  return {
    date: new Date().toISOString(),
    commit: currentCommit(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memGiB: totalmem() / 2 ** 30, platform: platform(), arch: arch(), loadAvg1min: loadavg()[0] ?? 0 },
    node: process.version,
    quick,
    results,
  };
}

/** True when the row has a target and its value is on the wrong side of it. */
export function missesGoal(r: BenchResult): boolean {
  if (r.target === undefined) return false;
  // NaN (a failed measurement) misses either way
  return (r.lowerIsBetter ?? true) ? !(r.value <= r.target) : !(r.value >= r.target);
}

export function goalStatus(r: BenchResult, quick: boolean): GoalStatus {
  if (r.target === undefined) return '';
  if (!missesGoal(r)) return 'ok';
  return quick && r.quickReportOnly ? 'miss (report-only in --quick)' : 'MISS';
}

/** The rows that fail this run. */
export function failedRows(results: readonly BenchResult[], quick: boolean): BenchResult[] {
  return results.filter((r) => goalStatus(r, quick) === 'MISS');
}

/** A figure with 4 significant digits (1 decimal from 100 up, exponent outside 1e-3…1e7). */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) return v.toExponential(3);
  return a >= 100 ? v.toFixed(1) : v.toPrecision(4);
}

/** The value, with its range over repeats in parentheses when the row has one. */
export function formatValueSpread(r: BenchResult): string {
  return r.spread ? `${formatValue(r.value)} (${r.spread})` : formatValue(r.value);
}

/** "≤ 5" or "≥ 20": the goal with its direction. */
export function formatGoal(r: BenchResult): string {
  if (r.target === undefined) return '';
  return `${(r.lowerIsBetter ?? true) ? '≤' : '≥'} ${formatValue(r.target)}`;
}

/** One line: where and when the figures were measured. */
export function describeRun(rep: Pick<BenchReport, 'date' | 'commit' | 'machine' | 'node' | 'quick'>): string {
  const m = rep.machine;
  return `${rep.date}, commit ${rep.commit}, ${m.cpu} × ${m.cores} cores, ${m.memGiB.toFixed(0)} GiB, load ${m.loadAvg1min.toFixed(1)}, Node ${rep.node}${rep.quick ? ', --quick' : ''}`;
}

/** The run's markdown: a header line, the table, and (in --quick) why each report-only row does not fail. */
export function reportMarkdown(rep: BenchReport): string {
  const rows = rep.results.map((r) => {
    const status = goalStatus(r, rep.quick);
    const why = status.startsWith('miss') ? ` Report-only in --quick: ${r.quickReportOnly}.` : '';
    return `| ${r.suite} | ${r.name} | ${formatValueSpread(r)} | ${r.unit} | ${formatGoal(r)} | ${status} | ${r.note ?? ''}${why} |`;
  });
  const head = `BitRally benchmarks — ${describeRun(rep)}\n\n`;
  return head + ['| suite | name | value | unit | goal | | note |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}
