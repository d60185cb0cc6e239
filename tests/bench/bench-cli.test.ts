/**
 * `npm run bench` as a command (bench/cli.ts), on three fixture suites with fixed values (no timings): exit 0
 * when every goal is met, 1 when a row misses (0 with --report-only), report-only rows in --quick, 2 for an
 * unknown suite with a suggestion; results go to the results folder only, `--save` records the figures and
 * rewrites the README table between its markers, keeping the suites it did not run.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { benchMain, type BenchPaths } from '../../bench/cli';
import { TABLE_END, TABLE_START } from '../../bench/figures';
import { runCommandAsync } from '../../src/cli/errors';

const SUITES = join(import.meta.dirname, 'fixtures', 'suites');
const README = `# Game\n\nintro\n\n${TABLE_START}\nold table\n${TABLE_END}\n\nafter\n`;

let paths: BenchPaths;
beforeEach(() => {
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-bench-'));
  paths = { suitesDir: SUITES, resultsDir: join(dir, 'results'), figuresFile: join(dir, 'figures.json'), readmeFile: join(dir, 'README.md') };
  writeFileSync(paths.readmeFile, README);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

async function bench(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((s: unknown) => void out.push(String(s)));
  vi.spyOn(console, 'error').mockImplementation((s: unknown) => void err.push(String(s)));
  const code = await runCommandAsync(() => benchMain(argv, paths));
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('bench command line', () => {
  it('--help: exit 0, the options and exit codes on stdout, nothing run or written', async () => {
    const r = await bench('--help');
    expect(r.code).toBe(0);
    for (const s of ['usage: npm run bench --', '--report-only', '--save', '--table', '--quick', 'Exit code 1 when a row misses']) expect(r.stdout).toContain(s);
    expect(existsSync(paths.resultsDir)).toBe(false);
  });

  it('an unknown suite: exit 2 with the list and a suggestion, nothing run', async () => {
    const r = await bench('--only', 'met,mised');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--only: unknown suite "mised": expected one of later, met, missed; did you mean missed?');
    expect(existsSync(paths.resultsDir)).toBe(false);
  });

  it('--save with --quick, and --table with anything else, are refused (exit 2)', async () => {
    expect((await bench('--save', '--quick')).code).toBe(2);
    expect((await bench('--table', '--only', 'met')).code).toBe(2);
    expect(existsSync(paths.figuresFile)).toBe(false);
  });
});

describe('bench exit codes and files', () => {
  it('all goals met: exit 0, results in the results folder, no figures file, README untouched', async () => {
    const r = await bench('--only', 'met');
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(paths.resultsDir, 'latest.json'), 'utf8')) as { results: unknown[]; quick: boolean };
    expect(json.results).toHaveLength(3);
    expect(json.quick).toBe(false);
    expect(readFileSync(join(paths.resultsDir, 'latest.md'), 'utf8')).toContain('| met | cost | 3.000 | µs | ≤ 5.000 | ok |');
    expect(existsSync(paths.figuresFile)).toBe(false);
    expect(readFileSync(paths.readmeFile, 'utf8')).toBe(README);
  });

  it('a missed goal: exit 1 naming the row; --report-only: exit 0 with the same report', async () => {
    const r = await bench('--only', 'met,missed');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('missed / too slow: 7.000 ms, goal ≤ 5.000');
    expect(r.stdout).toContain('| missed | too slow | 7.000 | ms | ≤ 5.000 | MISS |');
    const ro = await bench('--only', 'missed', '--report-only');
    expect(ro.code).toBe(0);
    expect(ro.stderr).toContain('(--report-only: exit 0)');
  });

  it('a row declared report-only in --quick: exit 0 in --quick with its reason, exit 1 in the full run', async () => {
    const q = await bench('--only', 'later', '--quick');
    expect(q.code).toBe(0);
    expect(q.stdout).toContain('| miss (report-only in --quick) |');
    expect(q.stdout).toContain('Report-only in --quick: the goal of a later item.');
    expect((await bench('--only', 'later')).code).toBe(1);
    // a quick-asserted miss still fails --quick
    expect((await bench('--only', 'later,missed', '--quick')).code).toBe(1);
  });
});

describe('saved figures and the README table', () => {
  it('--save records the suites run and rewrites only the text between the markers; a later save keeps the other suites', async () => {
    expect((await bench('--only', 'met', '--save')).code).toBe(0);
    const readme = readFileSync(paths.readmeFile, 'utf8');
    expect(readme.startsWith('# Game\n\nintro\n\n')).toBe(true);
    expect(readme.endsWith(`${TABLE_END}\n\nafter\n`)).toBe(true);
    expect(readme).not.toContain('old table');
    expect(readme).toContain('| met | rate | 30.00 | × | ≥ 20.00 | ok |');
    expect(readme).toContain('| met | plain | 1234.5 | B |  |  |');
    // a failing run is still saved (the figures are current) and still exits 1
    expect((await bench('--only', 'missed', '--save')).code).toBe(1);
    const figures = JSON.parse(readFileSync(paths.figuresFile, 'utf8')) as { suites: Record<string, { results: unknown[] }> };
    expect(Object.keys(figures.suites)).toEqual(['met', 'missed']);
    expect(figures.suites.met!.results).toHaveLength(3);
    const both = readFileSync(paths.readmeFile, 'utf8');
    expect(both).toContain('| met | cost | 3.000 | µs | ≤ 5.000 | ok |');
    expect(both).toContain('| missed | too slow | 7.000 | ms | ≤ 5.000 | MISS |');
    // two saves, two runs: one provenance line each (a single run covering both would give one "met, missed" line)
    expect(both.match(/^\* (met|missed): /gm)).toEqual(['* met: ', '* missed: ']);
  });

  it('--table regenerates the table from the saved figures (suites of one run on one line); a README without markers is refused (exit 2)', async () => {
    expect((await bench('--only', 'met,later', '--save')).code).toBe(1);
    const saved = readFileSync(paths.readmeFile, 'utf8');
    expect(saved).toMatch(/^\* later, met: \d{4}-\d\d-\d\dT.*, commit /m); // one run, one provenance line
    writeFileSync(paths.readmeFile, README);
    expect((await bench('--table')).code).toBe(0);
    expect(readFileSync(paths.readmeFile, 'utf8')).toBe(saved);
    writeFileSync(paths.readmeFile, '# no markers\n');
    const r = await bench('--table');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected the benchmark table markers');
  });
});
