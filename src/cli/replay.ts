/**
 * Replay CLI:
 *   npm run replay -- info <file.bitrally> [--json]
 *   npm run replay -- verify <file.bitrally> [--json]      re-simulates headless: match or first desync, stage time
 *   npm run replay -- record <out.bitrally> [--car hatch-gti] [--stage <id>|--flat] [--seconds 60] [--seed 1]
 *                                          [--driver-seed 1] [--embed-stage]
 *     records a headless scripted run (deterministic seeded driver) into a file.
 * Exit codes: 0 ok, 1 desync, 2 bad file / bad arguments (one clear line naming file, field, expected, found).
 */
// first: deterministic Math (the same bits as the browser game, see src/ecs/dmath.ts)
import '../ecs/dmath-install';
// the game's stage setup (static scenery colliders + Havok props) for every world built from a replay
import '../systems/sim/collision/havok-preload-node';
import { setStagePropsEnabled } from '../app/stage-colliders';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ContentError } from '../content/errors';
import { TerrainError } from '../../terrain/errors';
import { loadStage } from '../../terrain/stage';
import { decodeReplay, describeReplay, ReplayFormatError, type ReplayCar } from '../replay/format';
import { embedCarFiles, vehicleCarAdapter } from '../replay/cars';
import { nodeStageSource, readCarFile } from '../replay/node';
import { recordRun } from '../replay/record-run';
import { ScriptedDriver } from '../replay/script';
import { verifyReplayData } from '../replay/verify';
import { formatTime } from '../app/stage-run';

function usage(): number {
  console.error(
    'usage: npm run replay -- info <file> [--json]\n' +
      '       npm run replay -- verify <file> [--json]\n' +
      '       npm run replay -- record <out> [--car id] [--stage id | --flat] [--seconds s] [--seed n] [--driver-seed n] [--embed-stage]',
  );
  return 2;
}

function opt(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

function readBytes(file: string): Uint8Array | null {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (e) {
    console.error(`${file}: cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return null;
  }
}

function fail(e: unknown, file: string): number {
  if (e instanceof ReplayFormatError || e instanceof ContentError || e instanceof TerrainError) console.error(e.message);
  else console.error(`${file}: ${(e as Error).message}`);
  return 2;
}

async function info(file: string, json: boolean): Promise<number> {
  const bytes = readBytes(file);
  if (!bytes) return 2;
  try {
    const d = decodeReplay(bytes, file);
    const out = describeReplay(d, bytes.length);
    console.log(json ? JSON.stringify(out) : JSON.stringify(out, null, 2));
    return 0;
  } catch (e) {
    return fail(e, file);
  }
}

async function verify(file: string, json: boolean): Promise<number> {
  const bytes = readBytes(file);
  if (!bytes) return 2;
  try {
    const d = decodeReplay(bytes, file);
    const t0 = performance.now();
    setStagePropsEnabled(d.header.props === true); // the run's Havok props setting (game URL flag props=1)
    const r = await verifyReplayData(d, { stages: nodeStageSource, cars: vehicleCarAdapter, file });
    const wall = (performance.now() - t0) / 1000;
    const out = { file, ...r, wallSeconds: wall, realtimeFactor: r.simSeconds / Math.max(wall, 1e-9) };
    if (json) console.log(JSON.stringify(out));
    else {
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
          `; re-simulated in ${wall.toFixed(2)} s (${out.realtimeFactor.toFixed(1)}× real time)`,
      );
    }
    return r.ok ? 0 : 1;
  } catch (e) {
    return fail(e, file);
  }
}

async function record(out: string, argv: string[]): Promise<number> {
  const carId = opt(argv, '--car') ?? 'hatch-gti';
  const stageId = argv.includes('--flat') ? null : opt(argv, '--stage') ?? null;
  const seconds = Number(opt(argv, '--seconds') ?? 60);
  const seed = Number(opt(argv, '--seed') ?? 1);
  const driverSeed = Number(opt(argv, '--driver-seed') ?? 1);
  if (!(seconds > 0) || !Number.isInteger(seed) || seed < 0 || !Number.isInteger(driverSeed)) {
    console.error(`record: --seconds must be > 0 and --seed/--driver-seed non-negative integers, found ${seconds}, ${seed}, ${driverSeed}`);
    return 2;
  }
  try {
    const text = readCarFile(carId);
    const files = embedCarFiles(`${carId}.toml`, text, readCarFile);
    let stage = null;
    let pose = { x: 0, y: 0, z: 0, heading: 0 };
    if (stageId) {
      const sf = await nodeStageSource.files(stageId);
      const st = loadStage(sf, `${stageId}/stage.toml`);
      stage = { stage: st, files: sf, embed: argv.includes('--embed-stage') };
      pose = { x: st.start.x, y: st.start.y, z: st.start.z, heading: st.start.heading };
    }
    const car: ReplayCar = { id: carId, role: 'player', main: `${carId}.toml`, files, pose };
    const t0 = performance.now();
    const r = recordRun({
      setup: { dt: 1 / 500, integrator: 'midpoint', seed, gravity_m_s2: 9.81 },
      cars: [car],
      sources: [new ScriptedDriver(driverSeed, 8, stage ? 3 : 0)],
      stage,
      maxSeconds: seconds,
      name: `scripted ${carId} on ${stageId ?? 'flat ground'}`,
      createdAt: new Date().toISOString(),
    });
    writeFileSync(out, r.bytes);
    const sim = r.run.world.tick * r.run.world.dt;
    console.log(
      `${out}: ${r.bytes.length} bytes, ${sim.toFixed(1)} s recorded (${Math.round((r.bytes.length * 60) / sim)} B/min), ` +
        `recorded in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
    );
    return 0;
  } catch (e) {
    return fail(e, out);
  }
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, file] = argv;
  const json = argv.includes('--json');
  if (!cmd || !file || file.startsWith('--')) return usage();
  if (cmd === 'info') return info(file, json);
  if (cmd === 'verify') return verify(file, json);
  if (cmd === 'record') return record(file, argv.slice(2));
  return usage();
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('replay.ts')) {
  void main(process.argv.slice(2)).then((c) => (process.exitCode = c));
}
