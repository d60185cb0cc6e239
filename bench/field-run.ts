/**
 * One AI field per process (several worlds in one process leave the JIT's property reads polymorphic and read
 * slower than a game, which runs one):
 *   npx tsx bench/field-run.ts <race|field> <cars> <seconds> [--blocks 5] [--warm 2.5] [--prewarm 0] [--json]
 * `race`: a RallycrossRace on rallycross-bitring (1–32 cars, 3 laps, lap and joker logic, collisions on) from a
 * standing start; `field`: the same circuit, cars on a two-abreast grid, each with its AI driver seeing every
 * other car, collisions on, no race rules (so the scaling table can go past the race's 32 cars).
 * `--prewarm s` first runs another field of the same kind for s simulated seconds, untimed and thrown away: V8 has
 * then compiled the passes (a new world costs one round of re-optimisation, inside the warm-up), as in a server or
 * a game that has raced before. The first `--warm` simulated seconds are the warm-up (V8 compiles and tiers up the passes: their ticks cost
 * 2–3× the later ones), timed on their own and reported apart (`warmUsPerTick`); then `seconds` of simulation
 * are timed in `blocks` equal blocks with process.cpuUsage: CPU µs per tick (mean over the blocks, their median
 * — the steady-state figure, robust to other processes' load spikes — and range; --json also lists every
 * block in `blocksUs`), real time per CPU-second from the mean and from the median, the collision events seen,
 * and the share of the blocks' process CPU spent off the simulation's thread (V8's compiler and GC helper threads,
 * from /proc/thread-self/schedstat: a large share means V8 was still compiling), and the state hash at the end
 * (the same in every process: determinism, and the check that a speed-up left the
 * simulation's bits alone). `--passes` also times each pipeline pass over the timed blocks (process.cpuUsage
 * around every pass: ≈ 1 µs of timer per pass and tick on top of the totals, so compare passes side by side,
 * not the totals of such a run with those of a plain one).
 */
import { join } from 'node:path';
import { loadStageFromDir } from '../terrain/node';
import { loadBuiltinCar } from '../src/content/cars/index';
import type { CarConfig } from '../src/content/car-schema';
import { RallycrossRace, gridSlots } from '../src/run/race';
import { createSimWorld, DEFAULT_DT, type SimWorld } from '../src/ecs/world';
import { setInputSource } from '../src/ecs/controls';
import { spawnCar } from '../src/systems/sim/vehicle/prefab-car';
import { StageGround } from '../src/systems/sim/vehicle/stage-ground';
import { attachCarColliderFromConfig } from '../src/systems/sim/collision/car-collider';
import { AiDriver } from '../src/systems/sim/ai/driver';
import { stagePath } from '../src/systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../src/systems/sim/ai/car-params';
import { stepRun } from '../src/run/step';
import { pipeline } from '../src/run/pipeline';
import { loadForceKernel } from '../src/systems/sim/vehicle/force-kernel';
import { parseCommand, type CommandSpec } from '../src/cli/args';
import { reportError } from '../src/cli/errors';
import type { Stage } from '../terrain/stage';
import { stateHash } from '../src/ecs/hash';
import { readThreadTimes, threadTimesSince } from '../server/thread-cpu';

const STAGES = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../src/content/stages');
const CAR_IDS = ['rally-awd', 'hatch-gti', 'classic-rwd'];
/** Warm-up before the timed blocks, s of simulation (default): by then V8 has tiered the passes up. */
const WARM_S = 2.5;
/** The `field` grid's row spacing, m: 128 cars fit the circuit without the last rows reaching the first. */
const FIELD_ROW_GAP_M = 6;

const SPEC = {
  usage: 'npx tsx bench/field-run.ts',
  summary: 'One AI field in this process: CPU µs per tick over timed blocks, real time per CPU-second, collisions.',
  positionals: [
    { name: 'kind', help: 'race (RallycrossRace, ≤ 32 cars) or field (AI drivers and collisions, no race rules)' },
    { name: 'cars', help: 'number of cars' },
    { name: 'seconds', help: 'simulated seconds timed' },
  ],
  options: {
    blocks: { type: 'integer', value: 'n', help: 'timed blocks (default 5)' },
    warm: { type: 'number', value: 's', help: `warm-up timed apart before the blocks, simulated s (default ${WARM_S})` },
    prewarm: { type: 'number', value: 's', help: 'first run another field of the same kind for this many simulated s (untimed; the JIT warm from it), then the timed one' },
    json: { type: 'boolean', help: 'print one JSON line' },
    passes: { type: 'boolean', help: 'also time each pipeline pass (CPU µs per tick over the timed blocks)' },
  },
} as const satisfies CommandSpec;

/** A stepper over a world: a race (its tick runs the rules too) or a bare AI field. */
interface Field {
  world: SimWorld;
  tick(): void;
}

function field(n: number): CarConfig[] {
  const cfgs = CAR_IDS.map((id) => loadBuiltinCar(id));
  return Array.from({ length: n }, (_, k) => cfgs[k % cfgs.length]!);
}

function bareField(stage: Stage, cars: CarConfig[]): Field {
  const world = createSimWorld({ dt: DEFAULT_DT, integrator: 'midpoint', ground: StageGround.fromStage(stage), capacity: 4096, seed: 11 });
  const path = stagePath(stage, cars[0]!);
  const slots = gridSlots(path, path.locate(stage.start.x, stage.start.z).s, cars.length, { rowGapM: FIELD_ROW_GAP_M });
  const roadHalf = stage.road.poseAt(stage.start.distanceM).width / 2;
  const drivers: AiDriver[] = [];
  const eids = cars.map((car, k) => {
    const slot = slots[k]!;
    const eid = spawnCar(world, car, { x: slot.x, z: slot.z, heading: slot.heading });
    attachCarColliderFromConfig(world, eid, car);
    const params = { aggressiveness: 0.35 + 0.5 * ((k * 0.618) % 1), skill: 0.55 + 0.4 * ((k * 0.382) % 1) };
    const driver = new AiDriver({ path, vehicle: driverVehicleFromConfig(car), params, laneOffsetM: slot.lateral * 0.5, halfWidthM: roadHalf });
    setInputSource(world, eid, driver);
    drivers.push(driver);
    return eid;
  });
  drivers.forEach((d, k) => (d.rivals = eids.filter((_, j) => j !== k)));
  return { world, tick: () => stepRun(world) };
}

function makeField(kind: string, n: number): Field {
  const stage = loadStageFromDir(join(STAGES, 'rallycross-bitring'));
  if (kind === 'field') return bareField(stage, field(n));
  const race = new RallycrossRace({ stage, cars: field(n), laps: 3, countdownS: 0.002, seed: 11 });
  return { world: race.world, tick: () => race.tick() };
}

/** Wraps every pipeline pass in a CPU timer (same work, same bits); `perTick` reads µs per tick by pass name. */
function timePipelinePasses(): { perTick(ticks: number): Record<string, number> } {
  const us = new Float64Array(pipeline.length);
  const names = pipeline.map((p) => p.name);
  pipeline.forEach((pass, i) => {
    pipeline[i] = (world: SimWorld): void => {
      const t = process.cpuUsage();
      pass(world);
      const d = process.cpuUsage(t);
      us[i] = us[i]! + d.user + d.system;
    };
  });
  return { perTick: (ticks) => Object.fromEntries(names.map((nm, i) => [nm, Math.round((us[i]! / ticks) * 100) / 100])) };
}

const median = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1]!;

function main(argv: string[]): void {
  const { args, options, fail } = parseCommand(SPEC, argv);
  const kind = args.kind === 'race' || args.kind === 'field' ? args.kind : fail(`<kind>: expected race or field, found "${args.kind}"`);
  const n = Number(args.cars), simS = Number(args.seconds), blocks = options.blocks ?? 5;
  if (!Number.isInteger(n) || n < 1) fail(`<cars>: expected a positive integer, found "${args.cars}"`);
  if (!(simS > 0)) fail(`<seconds>: expected a positive number, found "${args.seconds}"`);
  if (!Number.isInteger(blocks) || blocks < 1) fail(`--blocks: expected a positive integer, found "${options.blocks}"`);
  const warmS = options.warm ?? WARM_S;
  if (!(warmS >= 0)) fail(`--warm: expected a number ≥ 0, found "${options.warm}"`);
  const prewarmS = options.prewarm ?? 0;
  if (!(prewarmS >= 0)) fail(`--prewarm: expected a number ≥ 0, found "${options.prewarm}"`);
  if (prewarmS > 0) {
    const p = makeField(kind, n);
    for (let i = Math.round(prewarmS / p.world.dt); i > 0; i--) {
      p.tick();
      p.world.events.length = 0;
    }
  }
  const f = makeField(kind, n);
  const ev = f.world.events;
  let collisions = 0;
  const step = (): void => {
    f.tick();
    for (const e of ev) if (String(e.kind).startsWith('collision')) collisions++;
    ev.length = 0;
  };
  const dt = f.world.dt;
  const warmTicks = Math.round(warmS / dt);
  const w0 = process.cpuUsage();
  for (let i = warmTicks; i > 0; i--) step();
  const w = process.cpuUsage(w0);
  const warmUsPerTick = warmTicks > 0 ? (w.user + w.system) / warmTicks : 0;
  collisions = 0;
  const passTimer = options.passes ? timePipelinePasses() : null;
  const perBlock = Math.max(1, Math.round(simS / dt / blocks));
  const cpu: number[] = [];
  let total = 0;
  const t0 = readThreadTimes();
  for (let b = 0; b < blocks; b++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < perBlock; i++) step();
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / perBlock);
    total += c.user + c.system;
  }
  // the simulation runs on this thread; V8's compiler and GC helper threads show as the process's CPU beyond it
  const simThread = threadTimesSince(t0);
  const offThreadShare = simThread ? Math.max(0, 1 - (simThread.cpuMs * 1000) / total) : null;
  const usPerTick = total / (perBlock * blocks);
  const usPerTickMedian = median(cpu);
  const out = {
    kind, cars: n, usPerTick, usPerTickMedian, blocksUs: cpu.map((c) => Math.round(c)), usPerTickMin: Math.min(...cpu), usPerTickMax: Math.max(...cpu),
    rtf: (dt * 1e6) / usPerTick, rtfMedian: (dt * 1e6) / usPerTickMedian, warmS: warmTicks * dt, warmUsPerTick, offThreadShare, collisions, simS: perBlock * blocks * dt, hash: stateHash(f.world).toString(),
    ...(passTimer ? { passesUs: passTimer.perTick(perBlock * blocks) } : {}),
  };
  if (options.json) console.log(JSON.stringify(out));
  else console.log(`${kind} ${n} cars: ${usPerTick.toFixed(1)} µs CPU/tick (${(usPerTick / n).toFixed(2)}/car; median block ${usPerTickMedian.toFixed(1)}), ${out.rtf.toFixed(2)}× real time per CPU-second (median block ${out.rtfMedian.toFixed(2)}×), blocks ${out.usPerTickMin.toFixed(0)}–${out.usPerTickMax.toFixed(0)} µs; off the main thread ${offThreadShare === null ? 'n/a' : `${(offThreadShare * 100).toFixed(1)} %`}; warm-up ${out.warmS} s at ${warmUsPerTick.toFixed(1)} µs/tick; ${collisions} collision events, state hash ${out.hash}`);
  if (!options.json && out.passesUs) for (const [nm, v] of Object.entries(out.passesUs)) console.log(`  ${nm.padEnd(22)} ${v.toFixed(2)} µs/tick`);
}

try {
  await loadForceKernel(); // the kernel's lazy chunk, so every timed tick runs it
  main(process.argv.slice(2));
} catch (e) {
  process.exit(reportError(e));
}
