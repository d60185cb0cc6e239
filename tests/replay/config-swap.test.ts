/**
 * Mid-run car swaps (garage "apply", dev live reload) are recorded as config edits: the run is swapped through
 * the game's own path (`applyCarText`, src/app/garage/live-car.ts → reconfigureCar + the replay hook) twice,
 * once with stiffer springs and once with more engine torque, and the replay must re-simulate it bit for bit,
 * seek across the swaps exactly, and list them in `replay info`.
 */
import { describe, expect, it } from 'vitest';
import { stateHash } from '../../src/ecs/hash';
import { diffSnapshots, saveSnapshot } from '../../src/ecs/snapshot';
import { applyCarText } from '../../src/app/garage/live-car';
import { carRuntime } from '../../src/systems/sim/vehicle/registry';
import { carConfigOf, vehicleCarAdapter } from '../../src/run/cars';
import { decodeReplay, describeReplay, type ReplayData } from '../../src/replay/format';
import { ReplayPlayer } from '../../src/replay/player';
import { recordRun } from '../../src/replay/record-run';
import { buildRunWorld } from '../../src/run/run-world';
import { ScriptedDriver } from '../../src/replay/script';
import { verifyReplayData } from '../../src/replay/verify';
import { hatchCar, SETUP } from './helpers';

const env = { stages: { files: () => Promise.reject(new Error('no stages in this test')) }, cars: vehicleCarAdapter, file: 'swap.bitrally' };
const base = hatchCar().files['hatch-gti.toml']!;
// swap 1: stiffer springs front and rear; swap 2 (on top of swap 1): 30 % more torque on the plateau
const springs = base.replace(/spring_rate_n_per_mm = 40\n/, 'spring_rate_n_per_mm = 55\n').replace(/spring_rate_n_per_mm = 30\n/, 'spring_rate_n_per_mm = 45\n');
const torque = springs.replace('[1500, 350], [4500, 350]', '[1500, 455], [4500, 455]');
const SWAP1 = 3_000;
const SWAP2 = 6_500;

function record(swaps: boolean) {
  return recordRun({
    setup: SETUP,
    cars: [hatchCar()],
    sources: [new ScriptedDriver(9)],
    maxSeconds: 20,
    checksumEveryTicks: 250,
    keyframeEverySeconds: 2,
    adapter: vehicleCarAdapter,
    beforeTick: (run) => {
      if (!swaps) return;
      const target = { world: run.world, eid: run.cars[0]!, carId: 'hatch-gti' };
      if (run.world.tick === SWAP1) expect(applyCarText(target, springs, 'hatch-gti.toml').applied).toBe(true);
      if (run.world.tick === SWAP2) expect(applyCarText(target, torque, 'hatch-gti.toml').applied).toBe(true);
    },
  });
}

describe('mid-run car swaps are recorded (config edits)', () => {
  expect(springs).not.toBe(base);
  expect(torque).not.toBe(springs);
  const rec = record(true);
  const data = decodeReplay(rec.bytes, 'swap.bitrally');

  it('the two swaps are in the file, with the full new car text, at the ticks they were made', () => {
    const cfg = carRuntime(rec.run.world, rec.run.cars[0]!).cfg;
    expect(cfg.suspension.front.springRate).toBe(55_000); // N/mm in the file, N/m in the sim
    expect(data.edits.map((e) => [e.tick, e.kind])).toEqual([
      [SWAP1, 'config'],
      [SWAP2, 'config'],
    ]);
    const e2 = data.edits[1]!;
    expect(e2.kind === 'config' && e2.files[e2.main]).toBe(torque);
  });

  it('verifies bit-exactly at every checksum; without the edits the same inputs desync right after the first swap', async () => {
    const report = await verifyReplayData(data, env);
    expect(report.firstDesync).toBeNull();
    expect(report.checksumsChecked).toBe(data.checksums.length);
    expect(report.checksumsMatched).toBe(data.checksums.length);
    expect(report.finalHash).toBe(stateHash(rec.run.world));
    // the swaps matter: drop them and the first checksum after SWAP1 no longer matches
    const stripped: ReplayData = { ...decodeReplay(rec.bytes), edits: [] };
    const bad = await verifyReplayData(stripped, env);
    expect(bad.ok).toBe(false);
    expect(bad.firstDesync!.tick).toBe(Math.ceil((SWAP1 + 1) / 250) * 250);
  });

  it('seeking to points after (and back to before) a swap matches linear playback bit for bit', () => {
    const linear = new ReplayPlayer(data, buildRunWorld(data.header, null, vehicleCarAdapter), vehicleCarAdapter, { cacheEveryTicks: 1 << 30 });
    const targets = [2_600, 3_001, 4_321, 7_777, 9_999];
    const truth = new Map<number, ReturnType<typeof saveSnapshot>>();
    while (linear.step()) if (targets.includes(linear.tick)) truth.set(linear.tick, saveSnapshot(linear.world));
    expect(linear.desync).toBeNull();
    // a fresh player: each seek restores a recorded keyframe (2 s apart) and re-simulates; out of order so
    // that keyframes before and after the swaps are restored with the configuration in force at their tick
    const p = new ReplayPlayer(data, buildRunWorld(data.header, null, vehicleCarAdapter), vehicleCarAdapter, { cacheEveryTicks: 1 << 30 });
    for (const t of [7_777, 2_600, 9_999, 4_321, 3_001, 7_777]) {
      p.seek(t);
      expect(p.tick).toBe(t);
      expect(diffSnapshots(truth.get(t)!, saveSnapshot(p.world))).toEqual([]);
      const springRate = carRuntime(p.world, p.cars[0]!).cfg.suspension.front.springRate;
      expect(springRate).toBe(t > SWAP1 ? 55_000 : 40_000);
      // what the viewer draws from (carConfigOf: it rebuilds the car view when this object changes) is the
      // config the simulation drives with, after seeks in both directions
      expect(carConfigOf(p.world, p.cars[0]!)).toBe(carRuntime(p.world, p.cars[0]!).cfg);
    }
    // and playing on from a seek stays on the recorded checksums
    p.seek(5_900);
    while (p.step());
    expect(p.desync).toBeNull();
  });

  it('`replay info` lists the swaps with the lines that changed', () => {
    const info = describeReplay(data) as { carSwaps: { tick: number; timeS: number; car: number; file: string; changed: string[] }[] };
    expect(info.carSwaps).toEqual([
      { tick: SWAP1, timeS: SWAP1 * SETUP.dt, car: 0, file: 'hatch-gti.toml', changed: ['spring_rate_n_per_mm = 55', 'spring_rate_n_per_mm = 45'] },
      { tick: SWAP2, timeS: SWAP2 * SETUP.dt, car: 0, file: 'hatch-gti.toml', changed: ['torque_table_nm = [[800, 190], [1500, 455], [4500, 455], [5500, 281], [6200, 250], [6800, 200]]   # 162 kW held 4500–6200 rpm (rated)'] },
    ]);
  });
});
