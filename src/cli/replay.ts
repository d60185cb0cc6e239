/**
 * Replay CLI:
 *   npm run replay -- info <file.bitrally> [--json]
 *   npm run replay -- verify <file.bitrally> [--json]      re-simulates headless: match or first desync, stage time
 *   npm run replay -- record <out.bitrally> [--car hatch-gti] [--stage <id>|--flat] [--seconds 60] [--seed 1]
 *                                          [--driver-seed 1] [--embed-stage]
 *     records a headless scripted run (deterministic seeded driver) into a file.
 * Exit codes: 0 ok, 1 desync, 2 bad file / bad arguments (one clear line naming file, field, expected, found),
 * 1 with a stack trace for a bug. `--help` on any command lists its options.
 */
// the game's stage setup (static scenery colliders + Havok props) for every world built from a replay
import '../systems/sim/collision/havok-preload-node';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadStage } from '../../terrain/stage';
import { decodeReplay, describeReplay, type ReplayCar } from '../replay/format';
import { embedCarFiles, vehicleCarAdapter } from '../run/cars';
import { nodeStageSource, readCarFile } from '../replay/node';
import { recordRun } from '../replay/record-run';
import { ScriptedDriver } from '../replay/script';
import { verifyReplayData } from '../replay/verify';
import { formatTime } from '../run/stage-run';
import { parseCommand, selectCommand, type CommandSpec, type ProgramSpec } from './args';
import { EXIT_FAILED, EXIT_OK, exitWith, readingFile, runCommandAsync } from './errors';
import { builtinCarIds, readUserFile, shippedStageIds } from './inputs';
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from '../content/world-constants';

const json = { type: 'boolean', help: 'print one JSON line' } as const;

const INFO = {
  usage: 'npm run replay -- info',
  summary: "Prints a replay file's header: cars, stage, length, checksums, keyframes.",
  positionals: [{ name: 'file.bitrally', help: 'the replay file' }],
  options: { json },
} as const satisfies CommandSpec;

const VERIFY = {
  usage: 'npm run replay -- verify',
  summary: 'Re-simulates a replay headless and checks every recorded state hash: match or the first desync, stage time.',
  details: ['Exit codes: 0 match, 1 desync, 2 a bad file or bad arguments.'],
  positionals: [{ name: 'file.bitrally', help: 'the replay file' }],
  options: { json },
} as const satisfies CommandSpec;

const RECORD = {
  usage: 'npm run replay -- record',
  summary: 'Records a headless scripted run (deterministic seeded driver) into a replay file.',
  positionals: [{ name: 'out.bitrally', help: 'the file to write' }],
  options: {
    car: { type: 'string', value: 'id', kind: 'car', choices: builtinCarIds(), default: 'hatch-gti', help: 'built-in car' },
    stage: { type: 'string', value: 'id', kind: 'stage', choices: shippedStageIds(), help: 'shipped stage to drive; default flat ground' },
    flat: { type: 'boolean', help: 'flat ground, no stage (the default)' },
    seconds: { type: 'number', value: 's', above: 0, default: 60, help: 'length of the run' },
    seed: { type: 'integer', value: 'n', min: 0, default: 1, help: "the world's PRNG seed" },
    'driver-seed': { type: 'integer', value: 'n', default: 1, help: "the scripted driver's seed" },
    'embed-stage': { type: 'boolean', help: 'embed the stage files in the replay (with --stage)' },
  },
  examples: ['npm run replay -- record /tmp/a.bitrally --flat --seconds 60', 'npm run replay -- record /tmp/b.bitrally --stage test-short --seconds 30 --embed-stage'],
} as const satisfies CommandSpec;

export const REPLAY_PROGRAM = {
  usage: 'npm run replay --',
  summary: 'Replay files (.bitrally): show, verify by re-simulating, record a scripted run.',
  commands: { info: INFO, verify: VERIFY, record: RECORD },
} as const satisfies ProgramSpec;

async function info(argv: string[]): Promise<number> {
  const { args, options } = parseCommand(INFO, argv);
  const file = args['file.bitrally'];
  const bytes = new Uint8Array(readUserFile(file));
  const out = readingFile(file, () => describeReplay(decodeReplay(bytes, file), bytes.length));
  console.log(options.json ? JSON.stringify(out) : JSON.stringify(out, null, 2));
  return EXIT_OK;
}

type Verified = Awaited<ReturnType<typeof verifyReplayData>> & { file: string; wallSeconds: number; realtimeFactor: number };

function printVerify(file: string, r: Verified): void {
  if (r.ok) console.log(`${file}: MATCH — ${r.checksumsMatched}/${r.checksumsChecked} checksums over ${r.ticks} ticks (${r.simSeconds.toFixed(2)} s), final hash ${r.finalHash}`);
  else {
    const ds = r.firstDesync;
    if (r.budgetExceeded) console.log(`${file}: ${r.budgetExceeded.message}`);
    for (const k of r.keyframeMismatches) console.log(`${file}: KEYFRAME at tick ${k.tick} differs from the re-simulated state (${k.differences[0]?.what ?? '?'}…): corrupted keyframe`);
    console.log(
      ds
        ? `${file}: DESYNC at tick ${ds.tick} (t = ${ds.timeS.toFixed(3)} s): expected hash ${ds.expected}, found ${ds.found}` +
            (r.simVersion.recorded !== r.simVersion.current ? ` (recorded by ${r.simVersion.recorded}, this is ${r.simVersion.current})` : '')
        : `${file}: checked ${r.checksumsChecked} of the recorded checksums`,
    );
    if (ds && ds.comparedAtTick !== null) {
      console.log(`  differences at keyframe tick ${ds.comparedAtTick}:`);
      for (const x of ds.differences) console.log(`    ${x.what}${x.eid >= 0 ? `[eid ${x.eid}]` : ''}: expected ${x.expected}, found ${x.found}`);
    }
  }
  console.log(
    `  stage time: ${r.stageTimeS !== null ? formatTime(r.stageTimeS) : '(no finish)'}` +
      (r.recordedStageTimeS !== null ? ` (recorded ${formatTime(r.recordedStageTimeS)})` : '') +
      `; re-simulated in ${r.wallSeconds.toFixed(2)} s (${r.realtimeFactor.toFixed(1)}× real time)`,
  );
}

async function verify(argv: string[]): Promise<number> {
  const { args, options } = parseCommand(VERIFY, argv);
  const file = args['file.bitrally'];
  const bytes = new Uint8Array(readUserFile(file));
  const t0 = performance.now();
  const r = await readingFile(file, async () => {
    const d = decodeReplay(bytes, file);
    return verifyReplayData(d, { stages: nodeStageSource, cars: vehicleCarAdapter, file, budget: { nowSeconds: () => performance.now() / 1000 } });
  });
  const wall = (performance.now() - t0) / 1000;
  const out: Verified = { file, ...r, wallSeconds: wall, realtimeFactor: r.simSeconds / Math.max(wall, 1e-9) };
  if (options.json) console.log(JSON.stringify(out));
  else printVerify(file, out);
  return r.ok ? EXIT_OK : EXIT_FAILED;
}

async function record(argv: string[]): Promise<number> {
  const { args, options: o, fail } = parseCommand(RECORD, argv);
  if (o.flat && o.stage !== undefined) fail('give --stage <id> or --flat, not both');
  if (o['embed-stage'] && o.stage === undefined) fail('--embed-stage needs --stage <id>');
  const out = args['out.bitrally'];
  const carId = o.car;
  const stageId = o.stage ?? null;
  const text = readCarFile(carId);
  const files = embedCarFiles(`${carId}.toml`, text, readCarFile);
  let stage = null;
  let pose = { x: 0, y: 0, z: 0, heading: 0 };
  if (stageId) {
    const sf = await nodeStageSource.files(stageId);
    const st = loadStage(sf, `${stageId}/stage.toml`);
    stage = { stage: st, files: sf, embed: o['embed-stage'] };
    pose = { x: st.start.x, y: st.start.y, z: st.start.z, heading: st.start.heading };
  }
  const car: ReplayCar = { id: carId, role: 'player', main: `${carId}.toml`, files, pose };
  const t0 = performance.now();
  const r = recordRun({
    setup: { dt: DEFAULT_DT, integrator: 'midpoint', seed: o.seed, gravity_m_s2: STANDARD_GRAVITY_M_S2 },
    cars: [car],
    sources: [new ScriptedDriver(o['driver-seed'], 8, stage ? 3 : 0)],
    stage,
    maxSeconds: o.seconds,
    name: `scripted ${carId} on ${stageId ?? 'flat ground'}`,
    createdAt: new Date().toISOString(),
  });
  writeFileSync(out, r.bytes);
  const sim = r.run.world.tick * r.run.world.dt;
  console.log(
    `${out}: ${r.bytes.length} bytes, ${sim.toFixed(1)} s recorded (${Math.round((r.bytes.length * 60) / sim)} B/min), ` +
      `recorded in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
  return EXIT_OK;
}

/** Returns the exit code: 0 ok, 1 desync, 2 bad file or bad arguments, 1 with a stack trace for a bug. */
export async function main(argv: string[]): Promise<number> {
  return runCommandAsync(async () => {
    const { name, rest } = selectCommand(REPLAY_PROGRAM, argv);
    if (name === 'info') return info(rest);
    if (name === 'verify') return verify(rest);
    return record(rest);
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('replay.ts')) exitWith(main(process.argv.slice(2)));
