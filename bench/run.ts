/**
 * `npm run bench [-- --quick] [--only a,b] [--report-only] [--save | --table]`: the benchmark CLI (bench/cli.ts)
 * on the repository's suites (bench/suites), results folder (bench/results, ignored by git), saved figures
 * (bench/figures.json) and README table.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWith, runCommandAsync } from '../src/cli/errors';
import { benchMain } from './cli';

const here = dirname(fileURLToPath(import.meta.url));

exitWith(
  runCommandAsync(() =>
    benchMain(process.argv.slice(2), {
      suitesDir: join(here, 'suites'),
      resultsDir: join(here, 'results'),
      figuresFile: join(here, 'figures.json'),
      readmeFile: join(here, '..', 'README.md'),
    }),
  ),
);
