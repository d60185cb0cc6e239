import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayCar } from '../../src/replay/format';

export const CAR_FILE = join(__dirname, '../../src/content/cars/hatch-gti.toml');

export function hatchCar(pose = { x: 0, y: 0, z: 0, heading: 0 }, role: 'player' | 'ai' = 'player'): ReplayCar {
  return { id: 'hatch-gti', role, main: 'hatch-gti.toml', files: { 'hatch-gti.toml': readFileSync(CAR_FILE, 'utf8') }, pose };
}

export const SETUP = { dt: 1 / 500, integrator: 'midpoint' as const, seed: 7, gravity_m_s2: 9.81 };
