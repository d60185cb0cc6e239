/**
 * `npm run rally -- daily [--date YYYY-MM-DD] [--json]`  the daily rally's stages for a UTC date (default today):
 *   generator options and each generated stage's content hash (the hash replays pin).
 * `npm run rally -- plan --seed N [--stages 3..10] [--landscape <id>|mixed] [--json]`  the same for a
 *   rally seed. Same date or seed → same stages and hashes on every machine (docs/game.md, "Rally").
 */
import { dailyRallyPlan, MAX_RALLY_STAGES, MIN_RALLY_STAGES, planRallyStages, type RallyPlanOptions } from '../run/rally/plan';
import { stageGenApi } from '../app/stage-gen/generate-api';
import { LANDSCAPE_IDS } from '../app/stage-gen/params';
import { parseCommand, selectCommand, type CommandSpec, type ProgramSpec } from './args';
import { exitWith, runCommand, UserError } from './errors';

const DAILY = {
  usage: 'npm run rally -- daily',
  summary: "Prints the daily rally's stages (generator options and content hashes) for a UTC date.",
  options: {
    date: { type: 'string', value: 'YYYY-MM-DD', help: 'UTC date (default: today, UTC)' },
    json: { type: 'boolean', help: 'print JSON' },
  },
  examples: ['npm run rally -- daily --date 2026-11-25 --json'],
} as const satisfies CommandSpec;

const PLAN = {
  usage: 'npm run rally -- plan',
  summary: "Prints a rally's generated stages (generator options and content hashes) for a rally seed.",
  options: {
    seed: { type: 'integer', value: 'N', required: true, help: 'rally seed' },
    stages: { type: 'integer', value: 'n', min: MIN_RALLY_STAGES, max: MAX_RALLY_STAGES, default: 4, help: 'stage count' },
    landscape: { type: 'string', value: 'id', kind: 'landscape', choices: [...LANDSCAPE_IDS, 'mixed'], help: 'one landscape, or mixed (default: drawn from the seed)' },
    json: { type: 'boolean', help: 'print JSON' },
  },
  examples: ['npm run rally -- plan --seed 42 --stages 5 --landscape mixed'],
} as const satisfies CommandSpec;

export const RALLY_PROGRAM = {
  usage: 'npm run rally --',
  summary: 'Rallies: the stages of the daily rally or of a rally seed, generated, with their content hashes.',
  commands: { daily: DAILY, plan: PLAN },
} as const satisfies ProgramSpec;

/** Generates every stage of the plan as the game's generator worker does (stageGenApi): id, parameters, content hash. */
function describePlan(o: RallyPlanOptions): { id: string; name: string; seed: number; lengthKm: number; landscape: string; surfaceMix: number; hash: string }[] {
  return planRallyStages(o).map((ref) => {
    if (ref.kind !== 'generated') throw new Error('a seeded rally has generated stages only');
    const g = stageGenApi.generate(ref.params as Parameters<typeof stageGenApi.generate>[0]);
    return { id: g.id, name: g.name, ...ref.params, hash: g.hash };
  });
}

function print(header: Record<string, unknown>, stages: ReturnType<typeof describePlan>, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ ...header, stages })}\n`);
    return;
  }
  process.stdout.write(`${Object.entries(header).map(([k, v]) => `${k} ${String(v)}`).join(', ')}\n`);
  for (const s of stages) process.stdout.write(`  ${s.id}  ${s.name}  seed ${s.seed}  hash ${s.hash}\n`);
}

function daily(argv: string[]): number {
  const { options } = parseCommand(DAILY, argv);
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  let plan: ReturnType<typeof dailyRallyPlan>;
  try {
    plan = dailyRallyPlan(date, LANDSCAPE_IDS);
  } catch (e) {
    if (e instanceof RangeError) throw new UserError(`npm run rally -- daily: --${e.message.replace(/^daily rally: /, '')}`);
    throw e;
  }
  print({ date, seed: plan.seed, serviceEvery: plan.serviceEvery }, describePlan(plan), options.json);
  return 0;
}

function plan(argv: string[]): number {
  const { options: o } = parseCommand(PLAN, argv);
  const p: RallyPlanOptions = { seed: o.seed >>> 0, stageCount: o.stages, landscapes: LANDSCAPE_IDS };
  if (o.landscape !== undefined) p.landscape = o.landscape;
  print({ seed: p.seed, stages: p.stageCount }, describePlan(p), o.json);
  return 0;
}

/** Returns the exit code. */
export function main(argv: string[]): number {
  return runCommand(() => {
    const { name, rest } = selectCommand(RALLY_PROGRAM, argv);
    return name === 'daily' ? daily(rest) : plan(rest);
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('rally.ts')) exitWith(main(process.argv.slice(2)));
