/**
 * Headless scenario runner: `npm run sim -- <scenario.toml> [--trace out.csv] [--json]`.
 * AI autopilot on a stage: `npm run sim -- --stage <id> --car <id|file> --ai` (src/cli/sim-ai.ts).
 * Prints a JSON summary (ticks, sim/wall seconds, realtime factor, state hash, final state, events).
 * Exit code 2 on a bad scenario file, with one clear line per problem.
 */
// Havok (dynamic props) is wasm with an async start: load it before any scenario is built.
import '../systems/sim/collision/havok-preload-node';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseScenario } from '../content/scenario-schema';
import { ContentError } from '../content/errors';
import { buildScenario, resolveTraceField, runScenario, type ScenarioRun } from '../ecs/scenario';
import { mainAi } from './sim-ai';

function usage(): never {
  console.error('usage: npm run sim -- <scenario.toml> [--trace out.csv] [--json]');
  process.exit(2);
}

export function main(argv: string[]): number {
  if (argv.includes('--ai') || argv.includes('--stage')) return mainAi(argv); // AI autopilot on a stage (issue 8)
  const file = argv.find((a) => !a.startsWith('--') && argv[argv.indexOf(a) - 1] !== '--trace');
  if (!file) usage();
  const traceIdx = argv.indexOf('--trace');
  const traceOut = traceIdx >= 0 ? argv[traceIdx + 1] : undefined;
  if (traceIdx >= 0 && !traceOut) usage();
  const jsonOnly = argv.includes('--json');

  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    console.error(`${file}: cannot read file: ${(e as Error).message}`);
    return 2;
  }
  let run: ScenarioRun;
  try {
    run = buildScenario(parseScenario(text, file));
  } catch (e) {
    console.error(e instanceof ContentError ? e.message : `${file}: ${(e as Error).message}`);
    return 2;
  }

  const rows: string[] = [];
  let onTick: ((r: ScenarioRun) => void) | undefined;
  const trace = run.scenario.trace;
  if (traceOut && !trace) {
    console.error(`${file}: trace: expected a [trace] table with fields to write --trace ${traceOut}, found none`);
    return 2;
  }
  if (traceOut && trace) {
    let getters: ((w: ScenarioRun['world']) => number)[];
    try {
      getters = trace.fields.map((f) => resolveTraceField(run, f));
    } catch (e) {
      console.error(`${file}: ${(e as Error).message}`);
      return 2;
    }
    const every = Math.max(1, Math.round(1 / (trace.rate_hz * run.scenario.dt)));
    rows.push(['t', ...trace.fields].join(','));
    const sample = (r: ScenarioRun): void => {
      rows.push([r.world.time.toFixed(6), ...getters.map((g) => String(g(r.world)))].join(','));
    };
    sample(run);
    onTick = (r) => {
      if (r.world.tick % every === 0) sample(r);
    };
  }

  const t0 = performance.now();
  const summary = runScenario(run, { onTick });
  const wall = (performance.now() - t0) / 1000;
  const out = { ...summary, wall_seconds: wall, realtime_factor: summary.sim_seconds / Math.max(wall, 1e-9) };
  if (traceOut) writeFileSync(traceOut, rows.join('\n') + '\n');
  console.log(jsonOnly ? JSON.stringify(out) : JSON.stringify(out, null, 2));
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('sim.ts')) {
  process.exitCode = main(process.argv.slice(2));
}
