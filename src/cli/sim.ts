/**
 * Headless scenario runner: `npm run sim -- <scenario.toml> [--trace out.csv] [--json]`.
 * AI autopilot on a stage: `npm run sim -- --stage <id> --car <id|file> --ai` (src/cli/sim-ai.ts).
 * Prints a JSON summary (ticks, sim/wall seconds, realtime factor, state hash, final state, events).
 * Exit code 2 on bad arguments or a bad scenario file, with one clear line per problem; `--help` lists the options.
 */
// Havok (dynamic props) is wasm with an async start: load it before any scenario is built.
import '../systems/sim/collision/havok-preload-node';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseScenario } from '../content/scenario-schema';
import { buildScenario, resolveTraceField, runScenario, type ScenarioRun } from '../run/scenario';
import { parseCommand, type CommandSpec, type Parsed } from './args';
import { exitWith, readingFile, runCommand } from './errors';
import { readUserFile } from './inputs';
import { AI_OPTIONS, runAi } from './sim-ai';

const SIM = {
  usage: 'npm run sim --',
  summary: 'Runs a scenario file headless and prints a JSON summary, or drives a stage with the AI driver.',
  details: [
    'scenario: npm run sim -- <scenario.toml> [--trace out.csv] [--json]',
    '          summary: ticks, sim/wall seconds, realtime factor, state hash, final state, events',
    'AI:       npm run sim -- --stage <id|dir> --car <id|file.toml> --ai [--laps N] [--aggressiveness 0..1]',
    '                         [--skill 0..1] [--integrator euler|midpoint|rk4] [--dt s] [--json]',
    '          stage time against the good-human target; exit code 1 when the car did not finish',
    'Exit code 2 on bad arguments or files.',
  ],
  positionals: [{ name: 'scenario.toml', help: 'the scenario file (src/content/scenarios/*.toml); not with --ai', optional: true }],
  options: {
    trace: { type: 'string', value: 'out.csv', help: "write the scenario's [trace] fields to this CSV file" },
    json: { type: 'boolean', help: 'print one JSON line' },
    ...AI_OPTIONS,
  },
  examples: ['npm run sim -- src/content/scenarios/free-fall.toml --trace /tmp/ff.csv', 'npm run -s sim -- src/content/scenarios/spin.toml --json | jq .state_hash', 'npm run sim -- --stage forest-gravel --car rally-awd --ai'],
} as const satisfies CommandSpec;

type SimArgs = Parsed<typeof SIM>;

/** The AI mode when any of --ai, --stage, --car is given: all three are needed, no scenario and no --trace. */
function ai({ options: o, args, fail }: SimArgs): number {
  if (!o.ai || o.stage === undefined || o.car === undefined) fail('the AI mode needs --stage, --car and --ai together');
  if (args['scenario.toml'] !== undefined) fail(`give either a scenario file or the AI mode (--stage --car --ai), found both`);
  if (o.trace !== undefined) fail('--trace applies to scenario runs, not to the AI mode');
  return runAi({ ...o, stage: o.stage!, car: o.car! });
}

/** Per-tick CSV rows of the scenario's [trace] fields (the first row is the header). */
function traceRows(run: ScenarioRun, file: string, out: string): { rows: string[]; onTick: (r: ScenarioRun) => void } {
  const trace = run.scenario.trace;
  if (!trace) throw new Error(`trace: expected a [trace] table with fields to write --trace ${out}, found none`);
  const getters = trace.fields.map((f) => readingFile(file, () => resolveTraceField(run, f)));
  const every = Math.max(1, Math.round(1 / (trace.rate_hz * run.scenario.dt)));
  const rows = [['t', ...trace.fields].join(',')];
  const sample = (r: ScenarioRun): void => void rows.push([r.world.time.toFixed(6), ...getters.map((g) => String(g(r.world)))].join(','));
  sample(run);
  return { rows, onTick: (r) => (r.world.tick % every === 0 ? sample(r) : undefined) };
}

function scenario({ options: o, args, fail }: SimArgs): number {
  const aiOnly = (['laps', 'aggressiveness', 'skill', 'integrator', 'dt'] as const).find((k) => o[k] !== undefined);
  if (aiOnly) fail(`--${aiOnly} applies to the AI mode (--stage --car --ai); a scenario file sets its own`);
  const file = args['scenario.toml'] ?? fail('missing <scenario.toml> (or --stage, --car and --ai for the AI mode)');
  const text = readUserFile(file).toString('utf8');
  const run = readingFile(file, () => buildScenario(parseScenario(text, file)));
  const trace = o.trace !== undefined ? readingFile(file, () => traceRows(run, file, o.trace!)) : undefined;
  const t0 = performance.now();
  const summary = runScenario(run, { onTick: trace?.onTick });
  const wall = (performance.now() - t0) / 1000;
  const out = { ...summary, wall_seconds: wall, realtime_factor: summary.sim_seconds / Math.max(wall, 1e-9) };
  if (trace) writeFileSync(o.trace!, trace.rows.join('\n') + '\n');
  console.log(o.json ? JSON.stringify(out) : JSON.stringify(out, null, 2));
  return 0;
}

/** Returns the exit code (see the file comment). */
export function main(argv: string[]): number {
  return runCommand(() => {
    const parsed = parseCommand(SIM, argv);
    const { ai: wantsAi, stage, car } = parsed.options;
    return wantsAi || stage !== undefined || car !== undefined ? ai(parsed) : scenario(parsed);
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('sim.ts')) exitWith(main(process.argv.slice(2)));
