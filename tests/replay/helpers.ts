import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayCar } from '../../src/replay/format';
import type { InputStreams } from '../../src/replay/inputs';

export const CAR_FILE = join(__dirname, '../../src/content/cars/hatch-gti.toml');

export function hatchCar(pose = { x: 0, y: 0, z: 0, heading: 0 }, role: 'player' | 'ai' = 'player'): ReplayCar {
  return { id: 'hatch-gti', role, main: 'hatch-gti.toml', files: { 'hatch-gti.toml': readFileSync(CAR_FILE, 'utf8') }, pose };
}

export const SETUP = { dt: 1 / 500, integrator: 'midpoint' as const, seed: 7, gravity_m_s2: 9.81 };

/** Changes one recorded input sample (splits its run): test corruption of the inputs. */
export function setInputSample(s: InputStreams, car: number, channel: number, tick: number, value: number): void {
  const ch = s.channels[car]![channel]!;
  const runs: [number, number][] = []; // [value, end]
  let start = 0;
  ch.ends.forEach((end, i) => {
    const v = ch.values[i]!;
    if (tick >= start && tick < end) {
      if (tick > start) runs.push([v, tick]);
      runs.push([value, tick + 1]);
      if (end > tick + 1) runs.push([v, end]);
    } else runs.push([v, end]);
    start = end;
  });
  s.channels[car]![channel] = { values: Int32Array.from(runs, (r) => r[0]), ends: Int32Array.from(runs, (r) => r[1]) };
}

/** One recorded input sample. */
export function inputSample(s: InputStreams, car: number, channel: number, tick: number): number {
  const ch = s.channels[car]![channel]!;
  return ch.values[ch.ends.findIndex((e) => e > tick)]!;
}
