/**
 * Regenerates src/app/car-stats.json: the car test (src/run/car-test.ts: 0–100 km/h, top
 * speed, 100–0 km/h, max lateral g, understeer gradient; tarmac, midpoint, 500 Hz) of every built-in car,
 * keyed by the CRC-32 of the car file text. The car select screen shows these; a car whose text changed
 * since (hash mismatch) is tested in the car test worker instead. Run: `npx tsx src/app/car-stats-gen.ts`.
 */
import { writeFileSync } from 'node:fs';
import { BUILTIN_CARS, loadBuiltinCar } from '../content/cars';
import { runCarTests } from '../run/car-test';
import { crc32 } from '../../terrain/crc32';

const out: Record<string, { crc32: number; results: { name: string; value: number; unit: string }[] }> = {};
for (const b of BUILTIN_CARS) {
  const t0 = performance.now();
  const results = runCarTests(loadBuiltinCar(b.id)).map((r) => ({ name: r.name, value: Number(r.value.toPrecision(4)), unit: r.unit }));
  out[b.id] = { crc32: crc32(new TextEncoder().encode(b.text)), results };
  console.log(b.id, results.map((r) => `${r.name} ${r.value} ${r.unit}`).join(', '), `(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
writeFileSync(new URL('./car-stats.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
