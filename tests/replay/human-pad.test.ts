import { describe, expect, it } from 'vitest';
import { HumanPadDriver } from '../../src/replay/human-pad';
import type { QuantizedInput } from '../../src/ecs/controls';
import type { SimWorld } from '../../src/ecs/world';
import { recordRun } from '../../src/replay/record-run';
import { decodeReplay } from '../../src/replay/format';
import { verifyReplayData } from '../../src/replay/verify';
import { vehicleCarAdapter } from '../../src/run/cars';
import { stateHash } from '../../src/ecs/hash';
import { hatchCar, SETUP } from './helpers';

const DT = 1 / 500;
const POLL_HZ = 60;
const NOISE = 0.004; // ANALOG_NOISE of src/replay/human-pad.ts, fraction of full scale

/** The driver's input at every tick of `seconds` (only tick and dt of the world are read). */
function stream(seed: number, seconds: number): QuantizedInput[] {
  const d = new HumanPadDriver(seed);
  const world = { tick: 0, dt: DT } as SimWorld;
  const out: QuantizedInput[] = [];
  for (let t = 0; t < seconds / DT; t++) {
    world.tick = t;
    out.push({ ...d.next(world) });
  }
  return out;
}

/** One value per 60 Hz frame (the first tick of each frame). */
function frames(s: QuantizedInput[]): QuantizedInput[] {
  return s.filter((_, t) => t === 0 || Math.floor(t * DT * POLL_HZ) !== Math.floor((t - 1) * DT * POLL_HZ));
}

describe('HumanPadDriver (synthetic human-like 60 Hz pad stream)', () => {
  const s = stream(7, 600);
  const f = frames(s);

  it('is deterministic per seed and differs between seeds', () => {
    expect(stream(7, 20)).toEqual(s.slice(0, 20 / DT));
    expect(stream(8, 20)).not.toEqual(s.slice(0, 20 / DT));
  });

  it('changes only at 60 Hz frame boundaries (a pad polled once per rendered frame)', () => {
    expect(f.length).toBe(600 * POLL_HZ);
    const same = (a: QuantizedInput, b: QuantizedInput): boolean =>
      a.steer === b.steer && a.throttle === b.throttle && a.brake === b.brake && a.clutch === b.clutch && a.handbrake === b.handbrake && a.buttons === b.buttons;
    let changedWithinFrame = 0;
    for (let t = 1; t < s.length; t++) {
      if (Math.floor(t * DT * POLL_HZ) === Math.floor((t - 1) * DT * POLL_HZ) && !same(s[t]!, s[t - 1]!)) changedWithinFrame++;
    }
    expect(changedWithinFrame).toBe(0);
  });

  it('stays in the quantised ranges; the handbrake is pulled fully or not at all', () => {
    const bad = f.filter((q) => Math.abs(q.steer) > 1000 || [q.throttle, q.brake, q.clutch].some((v) => v < 0 || v > 1000) || (q.handbrake !== 0 && q.handbrake !== 1000));
    expect(bad).toEqual([]);
    expect(f.some((q) => q.handbrake === 1000)).toBe(true);
    expect(f.some((q) => q.brake > 0)).toBe(true);
  });

  it('carries analog stick noise: the steer second difference has the std of the noise model', () => {
    // noise n ~ U(−a, a) + U(−a, a) − … : ANALOG_NOISE·(u1 + u2 − 1) has variance a²/6; the second difference
    // n_k − 2 n_{k−1} + n_{k−2} has variance 6 · a²/6 = a², plus rounding to 1/1000 (6 · 1/12 LSB²); the lagged
    // corner motion's second difference is ≈ 1e-5 of full scale per frame, negligible
    const a = NOISE * 1000;
    const expected = Math.sqrt(a * a + 0.5);
    let sum = 0;
    let sq = 0;
    let n = 0;
    for (let k = 2; k < f.length; k++) {
      const d2 = f[k]!.steer - 2 * f[k - 1]!.steer + f[k - 2]!.steer;
      if (f[k]!.steer === 1000 || f[k]!.steer === -1000) continue;
      sum += d2;
      sq += d2 * d2;
      n++;
    }
    const std = Math.sqrt(sq / n - (sum / n) ** 2);
    // a std estimated from n samples has a relative standard error ≈ 1/√(2n) ≈ 0.4 % here: 5 % is > 10 σ
    expect(Math.abs(std - expected) / expected).toBeLessThan(0.05);
  });

  it('taps shift buttons for 3–6 frames about once per 4 s', () => {
    const taps: number[] = [];
    let run = 0;
    for (const q of f) {
      if (q.buttons !== 0) run++;
      else if (run > 0) {
        taps.push(run);
        run = 0;
      }
    }
    expect(taps.filter((len) => len < 3 || len > 6)).toEqual([]);
    // chance 1/240 per free frame over ≈ 36 000 frames → ≈ 148 taps (Poisson, σ ≈ 12): 4 σ either way
    expect(Math.abs(taps.length - 148)).toBeLessThan(50);
  });

  it('a recorded 20 s pad run verifies bit for bit (every checksum and the final hash)', async () => {
    const rec = recordRun({ setup: SETUP, cars: [hatchCar()], sources: [new HumanPadDriver(3)], maxSeconds: 20, adapter: vehicleCarAdapter });
    const data = decodeReplay(rec.bytes);
    const r = await verifyReplayData(data, { stages: null, cars: vehicleCarAdapter });
    expect(r.firstDesync).toBeNull();
    expect(r.checksumsMatched).toBe(data.checksums.length);
    expect(r.finalHash).toBe(stateHash(rec.run.world));
  });
});
