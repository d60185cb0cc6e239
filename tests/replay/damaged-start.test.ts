/**
 * A rally stage after the first starts with the damage the car finished the previous stage with: the replay
 * header car carries it (format 4, `damage`), every world built from the replay spawns the car with it, and the
 * run verifies bit for bit. Format 3 files (no damage field) are read: tests/replay/old-formats.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readStageFiles } from '../../terrain/node';
import { loadStage } from '../../terrain/stage';
import { recordRun } from '../../src/replay/record-run';
import { carConfigFromReplay, replayCarFromText, vehicleCarAdapter } from '../../src/run/cars';
import { decodeReplay, encodeReplay, REPLAY_FORMAT, ReplayFormatError } from '../../src/replay/format';
import { buildRunWorld } from '../../src/run/run-world';
import { nodeStageSource, readCarFile } from '../../src/replay/node';
import { verifyReplayData } from '../../src/replay/verify';
import { stateHash } from '../../src/ecs/hash';
import { AiDriver } from '../../src/systems/sim/ai/driver';
import { DEFAULT_DRIVER, stagePath } from '../../src/systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../../src/systems/sim/ai/car-params';
import { readCarDamage, type CarDamage } from '../../src/systems/sim/collision/damage-state';
import { damageFromCrush } from '../../src/systems/sim/collision/crush';
import { InputStreamEncoder } from '../../src/replay/inputs';

const dir = join(__dirname, '../../src/content/stages/test-short');
const files = readStageFiles(dir);
const stage = loadStage(files, join(dir, 'stage.toml'));
const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
const SETUP = { dt: 1 / 500, integrator: 'midpoint' as const, seed: 3, gravity_m_s2: 9.81 };
/** Front crush past the 0.10 m threshold (power loss) and a left-right difference (steering pull). */
const DAMAGE: CarDamage = { crushFrontM: 0.3, crushRearM: 0.05, crushLeftM: 0.12, crushRightM: 0.02, hits: 3 };

function record(damage: CarDamage | undefined) {
  const car = replayCarFromText({ id: 'rally-awd', main: 'rally-awd.toml', text: readCarFile('rally-awd'), read: readCarFile, pose, damage });
  const cfg = carConfigFromReplay(car);
  const ai = new AiDriver({ path: stagePath(stage, cfg), vehicle: driverVehicleFromConfig(cfg), params: DEFAULT_DRIVER });
  return recordRun({ setup: SETUP, cars: [car], sources: [ai], stage: { stage, files }, maxSeconds: 20, keyframeEverySeconds: 2, adapter: vehicleCarAdapter });
}

describe('a replay whose car starts damaged', () => {
  const rec = record(DAMAGE);
  const data = decodeReplay(rec.bytes);

  it('stores the damage in the header car (format 4)', () => {
    expect(data.header.format).toBe(REPLAY_FORMAT);
    expect(data.header.cars[0]!.damage).toEqual(DAMAGE);
  });

  it('builds every world with that damage and its effects (steering pull, power loss)', () => {
    const run = buildRunWorld(data.header, stage, vehicleCarAdapter);
    const eid = run.cars[0]!;
    expect(readCarDamage(run.world, eid)).toEqual(DAMAGE);
    const effect = damageFromCrush(DAMAGE.crushFrontM, DAMAGE.crushRearM, DAMAGE.crushLeftM, DAMAGE.crushRightM);
    expect(run.world.c.Damage.steerPullRad[eid]).toBe(effect.steerPullRad);
    expect(run.world.c.Damage.powerFactor[eid]).toBe(effect.powerFactor);
    // 1 − 0.7·(0.3 − 0.1)/0.5 = 0.72 (docs/collisions.md)
    expect(effect.powerFactor).toBeCloseTo(0.72, 12);
  });

  it('verifies bit for bit, and is not the run of an undamaged car', async () => {
    const r = await verifyReplayData(data, { stages: nodeStageSource, cars: vehicleCarAdapter });
    expect(r.firstDesync).toBeNull();
    expect(r.checksumsMatched).toBe(data.checksums.length);
    expect(r.finalHash).toBe(stateHash(rec.run.world));
    // the same run with the damage removed from the header desyncs: the damage is part of what is verified
    const bare = decodeReplay(rec.bytes);
    delete bare.header.cars[0]!.damage;
    const r2 = await verifyReplayData(bare, { stages: nodeStageSource, cars: vehicleCarAdapter });
    expect(r2.firstDesync).not.toBeNull();
  });

  it('refuses a negative or absurd crush with a message naming the field', () => {
    const bad = decodeReplay(rec.bytes);
    bad.header.cars[0]!.damage = { ...DAMAGE, crushFrontM: 40 };
    const enc = new InputStreamEncoder(1);
    const bytes = encodeReplay({ header: bad.header, inputsBytes: enc.encode(0), edits: [], checksums: [], keyframes: [], stageFiles: null });
    let err: unknown = null;
    try {
      decodeReplay(bytes, 'bad.bitrally');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReplayFormatError);
    expect((err as Error).message).toMatch(/^bad\.bitrally: header\.cars\.0\.damage\.crushFrontM: /);
  });
});
