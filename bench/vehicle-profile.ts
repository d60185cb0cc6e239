/**
 * One world per process (unlike `npm run bench`, where several worlds share the JIT's type feedback):
 *   npx tsx bench/vehicle-profile.ts <euler|midpoint|rk4> [cars=16] [ticks per batch=3000]
 * prints the median CPU µs/car/tick of 5 batches and the state hash after them (the bit-exactness check for
 * optimisations: same integrator, cars and ticks ⇒ same hash). Profile with
 *   node --import tsx --cpu-prof bench/vehicle-profile.ts rk4
 */
import { createSimWorld, type IntegratorKind } from '../src/ecs/world';
import { spawnCar } from '../src/ecs/prefab-car';
import { runTick } from '../src/ecs/pipeline';
import { HeldInput, setInputSource } from '../src/ecs/controls';
import { loadBuiltinCar } from '../src/content/cars/index';
import { stateHash } from '../src/ecs/hash';
const integ = (process.argv[2] ?? 'midpoint') as IntegratorKind;
const cars = Number(process.argv[3] ?? 16);
const ticks = Number(process.argv[4] ?? 3000);
const world = createSimWorld({ integrator: integ, dt: 1 / 500 });
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
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ cpu: res[2], wall: wall[2], cpuMin: res[0], cpuMax: res[4], hash }));
} else console.log(integ, cars, 'median', res[2]!.toFixed(2), 'min', res[0]!.toFixed(2), 'wall', wall[2]!.toFixed(2), 'hash', hash);
