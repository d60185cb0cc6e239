/**
 * One world per process (unlike `npm run bench`, where several worlds share the JIT's type feedback):
 *   npx tsx bench/vehicle-profile.ts <euler|midpoint|rk4> [cars=16] [ticks per batch=3000]
 * prints the median CPU µs/car/tick of 5 batches and the state hash after them (the bit-exactness check for
 * optimisations: same integrator, cars and ticks ⇒ same hash). Profile with
 *   node --import tsx --cpu-prof bench/vehicle-profile.ts rk4
 */
import { createSimWorld, DEFAULT_DT, INTEGRATORS } from '../src/ecs/world';
import { spawnCar } from '../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../src/run/pipeline';
import { loadForceKernel } from '../src/systems/sim/vehicle/force-kernel';
import { HeldInput, setInputSource } from '../src/ecs/controls';
import { loadBuiltinCar } from '../src/content/cars/index';
import { stateHash } from '../src/ecs/hash';
import { parseCommand, type CommandSpec } from '../src/cli/args';
import { reportError } from '../src/cli/errors';
import { unknownMessage } from '../src/validate/suggest';

const PROFILE = {
  usage: 'npx tsx bench/vehicle-profile.ts',
  summary: 'One world per process: median CPU µs/car/tick of 5 batches and the state hash after them.',
  positionals: [
    { name: 'integrator', help: `${INTEGRATORS.join(', ')} (default midpoint)`, optional: true },
    { name: 'cars', help: 'number of cars (default 16)', optional: true },
    { name: 'ticks', help: 'ticks per batch (default 3000)', optional: true },
  ],
  options: { json: { type: 'boolean', help: 'print one JSON line' } },
} as const satisfies CommandSpec;

function parse(argv: string[]) {
  const { args, options, fail } = parseCommand(PROFILE, argv);
  const integ = INTEGRATORS.find((k) => k === (args.integrator ?? 'midpoint')) ?? fail(unknownMessage('integrator', args.integrator!, INTEGRATORS));
  const count = (name: 'cars' | 'ticks', dflt: number): number => {
    const n = Number(args[name] ?? dflt);
    return Number.isInteger(n) && n > 0 ? n : fail(`<${name}>: expected a positive integer, found "${args[name]}"`);
  };
  return { integ, cars: count('cars', 16), ticks: count('ticks', 3000), json: options.json };
}

let cli: ReturnType<typeof parse>;
try {
  cli = parse(process.argv.slice(2));
} catch (e) {
  process.exit(reportError(e));
}
const { integ, cars, ticks } = cli;
await loadForceKernel(); // the kernel's lazy chunk, so every timed tick runs it
const world = createSimWorld({ integrator: integ, dt: DEFAULT_DT });
const ids = ['hatch-gti', 'classic-rwd', 'rally-awd'];
for (let i = 0; i < cars; i++) {
  const eid = spawnCar(world, loadBuiltinCar(ids[i % 3]!), { x: i * 6, z: 0, heading: 0, speed: 15 });
  const input = new HeldInput();
  input.input = { steer: 150, throttle: 600, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
  setInputSource(world, eid, input);
}
for (let i = 0; i < 1500; i++) runTick(world);
const res: number[] = [];
const wall: number[] = [];
for (let b = 0; b < 5; b++) {
  const w0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < ticks; i++) runTick(world);
  const c = process.cpuUsage(c0);
  wall.push(Number(process.hrtime.bigint() - w0) / 1000 / (ticks * cars));
  res.push((c.user + c.system) / (ticks * cars));
}
res.sort((a, b) => a - b);
wall.sort((a, b) => a - b);
const hash = stateHash(world).toString();
if (cli.json) {
  console.log(JSON.stringify({ cpu: res[2], wall: wall[2], cpuMin: res[0], cpuMax: res[4], hash }));
} else console.log(integ, cars, 'median', res[2]!.toFixed(2), 'min', res[0]!.toFixed(2), 'wall', wall[2]!.toFixed(2), 'hash', hash);
