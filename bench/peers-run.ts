/**
 * The peers benchmark's measuring process (bench/suites/peers.ts starts it once with the deterministic Math the
 * game uses and once with the engine's own Math, `--import ./bench/native-math-register.mjs`):
 *   npx tsx bench/peers-run.ts <steps per block> <rounds> [--json]
 * Every round runs one block per engine, in an order rotated each round (interleaved, so a load change on
 * the machine reaches every engine alike): the car at the start of a 257×257-node window of the test-short
 * stage, `steps` steps of the scripted inputs (bench/peers-harness.ts), timed with process.cpuUsage. Every
 * CHECK_EVERY steps each car must be inside its heightfield window and within GROUND_BAND_M of the ground,
 * else the process exits 1 naming the engine, step and position (a car that left its terrain measures
 * nothing comparable). Three warm-up blocks per engine run first and are not counted.
 */
import { join } from 'node:path';
import { loadStageFromDir } from '../terrain/node';
import { loadBuiltinCar } from '../src/content/cars/index';
import { createSimWorld } from '../src/ecs/world';
import { HeldInput, setInputSource } from '../src/ecs/controls';
import { spawnCar } from '../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../src/run/pipeline';
import { loadForceKernel } from '../src/systems/sim/vehicle/force-kernel';
import { saveSnapshot } from '../src/ecs/snapshot';
import { restoreSnapshot } from '../src/run/snapshot';
import { StageGround } from '../src/systems/sim/vehicle/stage-ground';
import { parseCommand, type CommandSpec } from '../src/cli/args';
import { reportError } from '../src/cli/errors';
import type { Stage } from '../terrain/stage';
import type { CarConfig } from '../src/content/car-schema';
import { cannonVehicle, heightPatch, initRapier, PEER_DT, peerParams, rapierVehicle, scriptedInput, type HeightPatch, type PeerVehicle } from './peers-harness';

const STAGE_DIR = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../src/content/stages/test-short');
/** Heightfield window, nodes per side (odd). */
const PATCH_NODES = 257;
/** Steps between the on-terrain checks. */
const CHECK_EVERY = 50;
/** A chassis farther than this from the ground (m, either way) fell through or flew off. */
const GROUND_BAND_M = 3;
/** Warm-up blocks per engine and their length, steps (not counted). */
const WARM_BLOCKS = 3;
const WARM_STEPS = 5000;
/** The engines, in the first round's order. */
export const PEER_ENGINES = ['bitrally', 'rapier-lfl', 'rapier', 'cannon-es'] as const;
export type PeerEngine = (typeof PEER_ENGINES)[number];

const SPEC = {
  usage: 'npx tsx bench/peers-run.ts',
  summary: 'Interleaved blocks of our car, Rapier (like-for-like and default) and cannon-es: CPU µs per step per block.',
  positionals: [
    { name: 'steps', help: 'steps per block' },
    { name: 'rounds', help: 'rounds (one block per engine each)' },
  ],
  options: { json: { type: 'boolean', help: 'print one JSON line' } },
} as const satisfies CommandSpec;

interface Scene {
  stage: Stage;
  car: CarConfig;
  patch: HeightPatch;
  start: { x: number; y: number; z: number; heading: number };
}

/**
 * Our car, in one world for the whole process, put back at the start (snapshot restore, tick 0 included) for
 * every block: the game runs one world, and a fresh world per block reads up to 1.8× slower after warm-up
 * (several worlds leave the JIT's property reads polymorphic; measured 5.2–9.7 µs fresh vs 5.0–5.4 reused).
 */
function ourCar(sc: Scene): () => PeerVehicle {
  const s = sc.stage.start;
  const world = createSimWorld({ dt: PEER_DT, ground: StageGround.fromStage(sc.stage) });
  const eid = spawnCar(world, sc.car, { x: s.x, z: s.z, heading: s.heading });
  // the block's input goes to the car as it goes to the peers: one scriptedInput per step for every engine
  const held = new HeldInput();
  setInputSource(world, eid, held);
  const atStart = saveSnapshot(world);
  const b = world.c.RigidBody;
  const v: PeerVehicle = {
    name: 'bitrally',
    step: (input) => {
      held.input = input;
      runTick(world);
    },
    position: () => [b.px[eid]!, b.py[eid]!, b.pz[eid]!],
    speed: () => Math.hypot(b.vx[eid]!, b.vy[eid]!, b.vz[eid]!),
    dispose: () => {},
  };
  return () => {
    restoreSnapshot(world, atStart);
    return v;
  };
}

let ours: (() => PeerVehicle) | null = null;

/** The engine's car at the start: ours reset in its one world, the peers built afresh (their setup is not timed). */
function makeVehicle(engine: PeerEngine, sc: Scene): PeerVehicle {
  const p = peerParams(sc.car);
  if (engine === 'bitrally') return (ours ??= ourCar(sc))();
  if (engine === 'cannon-es') return cannonVehicle(sc.patch, p, sc.start);
  return rapierVehicle(sc.patch, p, sc.start, { chassisHitsGround: engine === 'rapier' });
}

/** Throws unless the chassis is over the window and near the ground. */
function assertOnTerrain(v: PeerVehicle, sc: Scene, step: number): void {
  const [x, y, z] = v.position();
  const pt = sc.patch;
  const span = (pt.n - 1) * pt.cell;
  const inside = x > pt.x0 && x < pt.x0 + span && z > pt.z0 && z < pt.z0 + span;
  const above = y - sc.stage.bspline.heightMacro(x, z);
  if (!inside || !(Math.abs(above) < GROUND_BAND_M)) {
    throw new Error(`peers: ${v.name} left its terrain at step ${step}: (${x.toFixed(1)}, ${y.toFixed(2)}, ${z.toFixed(1)}), ${above.toFixed(2)} m above the ground, window x ${pt.x0}…${pt.x0 + span}, z ${pt.z0}…${pt.z0 + span}`);
  }
}

/** One block: a fresh car, `steps` steps; CPU µs per step, and how far it got. */
function runBlock(engine: PeerEngine, sc: Scene, steps: number): { us: number; movedM: number } {
  const v = makeVehicle(engine, sc);
  let cpu = 0;
  for (let k = 0; k < steps; ) {
    const end = Math.min(steps, k + CHECK_EVERY);
    const c0 = process.cpuUsage();
    for (; k < end; k++) v.step(scriptedInput(k));
    const c = process.cpuUsage(c0);
    cpu += c.user + c.system;
    assertOnTerrain(v, sc, k);
  }
  const [x, , z] = v.position();
  v.dispose();
  return { us: cpu / steps, movedM: Math.hypot(x - sc.start.x, z - sc.start.z) };
}

async function main(argv: string[]): Promise<void> {
  const { args, options, fail } = parseCommand(SPEC, argv);
  await loadForceKernel(); // the kernel's lazy chunk, so every timed step runs it
  const steps = Number(args.steps), rounds = Number(args.rounds);
  if (!Number.isInteger(steps) || steps < CHECK_EVERY) fail(`<steps>: expected an integer ≥ ${CHECK_EVERY}, found "${args.steps}"`);
  if (!Number.isInteger(rounds) || rounds < 1) fail(`<rounds>: expected a positive integer, found "${args.rounds}"`);
  await initRapier();
  const stage = loadStageFromDir(STAGE_DIR);
  const car = loadBuiltinCar('rally-awd');
  const s = stage.start;
  const sc: Scene = { stage, car, patch: heightPatch(stage, s.x, s.z, PATCH_NODES), start: { x: s.x, y: stage.bspline.heightMacro(s.x, s.z) + car.body.cgHeightM + 0.05, z: s.z, heading: s.heading } };
  // warm-up: our car runs ~5–10 k steps before the JIT has settled
  for (let w = 0; w < WARM_BLOCKS; w++) for (const e of PEER_ENGINES) runBlock(e, sc, Math.min(steps, WARM_STEPS));
  const us: Record<string, number[]> = {};
  const moved: Record<string, number> = {};
  for (let r = 0; r < rounds; r++) {
    for (let q = 0; q < PEER_ENGINES.length; q++) {
      const e = PEER_ENGINES[(q + r) % PEER_ENGINES.length]!;
      const b = runBlock(e, sc, steps);
      (us[e] ??= []).push(b.us);
      moved[e] = b.movedM;
    }
  }
  const out = { steps, rounds, us, moved, patchM: (PATCH_NODES - 1) * sc.patch.cell };
  if (options.json) console.log(JSON.stringify(out));
  else for (const e of PEER_ENGINES) console.log(`${e}: ${us[e]!.map((v) => v.toFixed(2)).join(' ')} µs CPU/step, moved ${moved[e]!.toFixed(0)} m`);
}

main(process.argv.slice(2)).catch((e: unknown) => process.exit(reportError(e)));
