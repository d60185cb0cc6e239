import { describe, expect, it } from 'vitest';
import { readStageFiles } from '../../terrain/node';
import { loadStage } from '../../terrain/stage';
import { join } from 'node:path';
import { decodeReplay, ReplayFormatError } from '../../src/replay/format';
import { recordRun } from '../../src/replay/record-run';
import { ScriptedDriver } from '../../src/replay/script';
import { vehicleCarAdapter } from '../../src/run/cars';
import { resolveStage, stageHash } from '../../src/replay/stage-check';
import { nodeStageSource } from '../../src/replay/node';
import { verifyReplayData } from '../../src/replay/verify';
import { hatchCar, SETUP } from './helpers';

const dir = join(__dirname, '../../src/content/stages/test-short');
const files = readStageFiles(dir);
const stage = loadStage(files, join(dir, 'stage.toml'));
const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };

describe('replays on a stage', () => {
  const rec = recordRun({ setup: SETUP, cars: [hatchCar(pose)], sources: [new ScriptedDriver(4, 8, 3)], stage: { stage, files }, maxSeconds: 8, adapter: vehicleCarAdapter });
  const data = decodeReplay(rec.bytes);

  it('records the stage by id + content hash and verifies against the shipped stage', async () => {
    expect(data.header.stage).toEqual({ id: 'test-short', hash: stageHash(files), embedded: false });
    const r = await verifyReplayData(data, { stages: nodeStageSource, cars: vehicleCarAdapter });
    expect(r.ok).toBe(true);
    // the timing replica saw the same run as the recorder's (3 s countdown, then running)
    expect(rec.timing!.phase).not.toBe('countdown');
    expect(r.splitsS).toEqual(rec.timing!.splits.map((s) => s.timeS));
  });

  it('a stage that changed since the recording is refused with both hashes', async () => {
    const changed = { ...files, stageToml: files.stageToml.replace(/name = "([^"]*)"/, 'name = "$1 v2"') };
    expect(changed.stageToml).not.toBe(files.stageToml);
    const p = resolveStage(data.header, null, { files: async () => changed }, 'r.bitrally');
    await expect(p).rejects.toBeInstanceOf(ReplayFormatError);
    await expect(resolveStage(data.header, null, { files: async () => changed }, 'r.bitrally')).rejects.toThrow(/stage\.hash: expected [0-9a-f]{16} \(stage "test-short" as recorded\), found [0-9a-f]{16} \(the stage changed since the recording\)/);
  });

  it('an embedded user stage travels in the file and verifies without the stage folder', async () => {
    const r2 = recordRun({ setup: SETUP, cars: [hatchCar(pose)], sources: [new ScriptedDriver(4, 8, 3)], stage: { stage, files, embed: true }, maxSeconds: 2, adapter: vehicleCarAdapter });
    const d2 = decodeReplay(r2.bytes);
    expect(d2.header.stage!.embedded).toBe(true);
    const r = await verifyReplayData(d2, { stages: null, cars: vehicleCarAdapter });
    expect(r.ok).toBe(true);
  });
});
