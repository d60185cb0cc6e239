/**
 * Vehicle cost: µs per car per tick (all passes for one car: controls, tick logic, suspension/contact,
 * drivetrain, tyres, brakes/aero, driveline solve, integration) for each integrator, on 16 cars driving on
 * flat ground (per-car cost, the world's fixed per-tick overhead amortised) and on 1 car.
 *
 * Robust on a shared, loaded machine: after a JIT warm-up, several batches of ticks are timed and the MEDIAN
 * batch is reported; the value is process CPU time (user + system, excludes waiting for a core), the note
 * also gives wall time (which includes it) and the spread. A per-pass breakdown (CPU µs per car per call,
 * 16 cars) says what limits each figure: midpoint = 2 force evaluations + 2 driveline solves + 1 state
 * gather + 2 fused stage writes (≈ a scatter each), RK4 = 4 + 4 + 1 + 4, Euler = 1 + 1 + 0.
 */
import { loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSimWorld, DEFAULT_DT, INTEGRATORS, type IntegratorKind, type SimWorld } from '../../src/ecs/world';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { forcePasses, runTick } from '../../src/run/pipeline';
import { suspensionCar } from '../../src/systems/sim/vehicle/suspension-contact';
import { tiresCar } from '../../src/systems/sim/vehicle/tires';
import { brakesAeroCar } from '../../src/systems/sim/vehicle/brakes-aero';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { drivetrainCar, vehicleTickLogic } from '../../src/systems/sim/vehicle/drivetrain';
import { vehicles, type CarRuntime } from '../../src/systems/sim/vehicle/registry';
import { loadBuiltinCar } from '../../src/content/cars/index';
import type { BenchResult, BenchSuite } from '../types';

/** The four parts of the merged per-car force pass, each timed as a pass over all cars (names as in the results). */
const overAllCars: [string, (world: SimWorld, rt: CarRuntime) => void][] = [
  ['vehicleSuspension', suspensionCar],
  ['vehicleDrivetrain', drivetrainCar],
  ['vehicleTires', tiresCar],
  ['vehicleBrakesAero', brakesAeroCar],
];

function makeWorld(integrator: IntegratorKind, cars: number): SimWorld {
  const world = createSimWorld({ integrator, dt: DEFAULT_DT });
  const ids = ['hatch-gti', 'classic-rwd', 'rally-awd'];
  for (let i = 0; i < cars; i++) {
    const eid = spawnCar(world, loadBuiltinCar(ids[i % 3]!), { x: i * 6, z: 0, heading: 0, speed: 15 });
    const input = new HeldInput();
    input.input = { steer: 150, throttle: 600, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
    setInputSource(world, eid, input);
  }
  return world;
}

interface Timing {
  cpu: number;
  wall: number;
  cpuMin: number;
  cpuMax: number;
}

const median = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : 0.5 * (s[m - 1]! + s[m]!);
};

/** Median over `batches` batches of `calls` calls of f, in µs per car per call (CPU and wall). */
function time(f: () => void, calls: number, batches: number, cars: number): Timing {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let b = 0; b < batches; b++) {
    const w0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (let i = 0; i < calls; i++) f();
    const c = process.cpuUsage(c0);
    const w = Number(process.hrtime.bigint() - w0) / 1000;
    cpu.push((c.user + c.system) / (calls * cars));
    wall.push(w / (calls * cars));
  }
  return { cpu: median(cpu), wall: median(wall), cpuMin: Math.min(...cpu), cpuMax: Math.max(...cpu) };
}

function isolated(integ: IntegratorKind, n: number, ticks: number): Timing {
  const script = fileURLToPath(new URL('../vehicle-profile.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, integ, String(n), String(ticks), '--json'], { encoding: 'utf8' });
  const line = (r.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    const j = JSON.parse(line) as Timing;
    return { cpu: j.cpu, wall: j.wall, cpuMin: j.cpuMin, cpuMax: j.cpuMax };
  } catch {
    throw new Error(`bench vehicle: ${script} ${integ} ${n} failed: ${(r.stderr ?? '').slice(-400)}`);
  }
}

const LIMITS: Record<IntegratorKind, string> = {
  euler: '1 force evaluation + 1 driveline solve per tick',
  midpoint: '2 force evaluations + 2 driveline solves + 1 state gather + 2 fused stage writes per tick',
  rk4: '4 force evaluations + 4 driveline solves + 1 state gather + 4 fused stage writes per tick',
};

/**
 * Which rows `--quick` only reports: a lone car's tick and RK4's (the longest) spread up to 2× between 3 short
 * batches on a loaded machine (a full run read 4.51–9.43 µs over the batches of the 1-car RK4 row, median 4.54);
 * the full run, 7 longer batches, asserts every row.
 */
function quickOnlyReason(integ: string, n: number): string | undefined {
  if (n === 1) return 'one car in 3 short batches: its tick spreads up to 2× under load; the full run asserts it';
  if (integ === 'rk4') return 'RK4 in 3 short batches: the longest tick, within the spread of short batches under load; the full run asserts it';
  return undefined;
}

export const suite: BenchSuite = {
  name: 'vehicle',
  async run({ quick }) {
    const out: BenchResult[] = [];
    const ticks = quick ? 400 : 1500;
    const batches = quick ? 3 : 7;
    const load = loadavg()[0] ?? 0;
    for (const integ of INTEGRATORS) {
      for (const n of [1, 16]) {
        // Each figure in its own process (bench/vehicle-profile.ts: one world, 1500-tick warm-up, median of 5
        // batches): several worlds in one process leave property reads polymorphic and read 1.5–2× higher.
        const t = isolated(integ, n, n === 1 ? 4 * ticks : ticks);
        out.push({
          suite: 'vehicle',
          name: `${integ}, ${n} car${n === 1 ? '' : 's'}`,
          value: t.cpu,
          unit: 'µs CPU/car/tick',
          target: 5,
          lowerIsBetter: true,
          quickReportOnly: quickOnlyReason(integ, n),
          note:
            `own process, median of 5 batches; wall ${t.wall.toFixed(2)} µs; CPU range ${t.cpuMin.toFixed(2)}–${t.cpuMax.toFixed(2)}; ` +
            `load ${load.toFixed(1)}; ${LIMITS[integ]}` +
            (n === 1 ? '; 1 car also carries the per-tick fixed cost (collision, replay, queries)' : ''),
        });
      }
    }
    // Breakdown (16 cars, RK4 world, after warm-up): what one stage of each kind costs per car.
    const n = 16;
    const world = makeWorld('rk4', n);
    for (let i = 0; i < (quick ? 800 : 2000); i++) runTick(world);
    const calls = quick ? 400 : 1500;
    const parts: [string, () => void][] = [
      [
        'one force evaluation (passes 2–5)',
        () => {
          for (const p of forcePasses) p(world);
        },
      ],
      // The merged per-car pass (vehicleForces) and each of its four parts run as a pass over all cars.
      ...forcePasses.map((p): [string, () => void] => [`  ${p.name}`, () => p(world)]),
      ...overAllCars.map(([name, part]): [string, () => void] => [
        `  ${name}`,
        () => {
          for (const rt of vehicles(world).list) part(world, rt);
        },
      ]),
    ];
    const blocks = world.stateBlocks;
    let size = 0;
    for (const b of blocks) size += b.size(world);
    const y = new Float64Array(size),
      dy = new Float64Array(size);
    let o = 0;
    for (const b of blocks) {
      const off = o;
      parts.push([
        `${b.name} block: gather + scatter`,
        () => {
          b.gather(world, y, off);
          b.scatter(world, y, off);
        },
      ]);
      parts.push([
        `${b.name} block: derivative${b.name === 'vehicle' ? ' (driveline solve)' : ''}`,
        () => b.derivative(world, dy, off),
      ]);
      o += b.size(world);
    }
    parts.push(['tick logic (steering, gears, clutch; once per tick)', () => vehicleTickLogic(world)]);
    for (const [name, f] of parts) {
      const t = time(f, calls, batches, n);
      out.push({
        suite: 'vehicle',
        name: `breakdown: ${name}`,
        value: t.cpu,
        unit: 'µs CPU/car/call',
        lowerIsBetter: true,
        note: `16 cars, median of ${batches}; wall ${t.wall.toFixed(2)}`,
      });
    }
    return out;
  },
};
