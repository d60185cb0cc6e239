/**
 * Generated stages on the leaderboards: a stage generated with its options recorded ([generator] in stage.toml,
 * the generator's default)
 * travels inside the replay; the verifier generates it again from those options and ranks the run when the
 * content hash matches. The same stage edited (a wider road) is refused, and so is one without recorded options.
 */
import '../../src/systems/sim/collision/havok-preload-node';
import { describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { generateStage, optionsFromGeneratorTable, type GenerateOptions } from '../../terrain/generate';
import { loadStage, parseStageToml, type StageFiles } from '../../terrain/stage';
import { recordAiStageRun } from '../../src/replay/record-ai';
import { replayCarFromText } from '../../src/run/cars';
import { readCarFile } from '../../src/replay/node';
import { stageHash } from '../../src/replay/stage-check';
import { StageCatalog } from '../../server/verify/stage-catalog';
import { shippedCarClasses } from '../../server/verify/car-classes';
import { verifySubmission, type VerifyContext } from '../../server/verify/verify-submission';
import { GAME_SETUP } from './fixtures';

const OPTS: GenerateOptions = { seed: 77, lengthKm: 0.5, surface: 'gravel', id: 'user-gravel-77', name: 'My stage', size: 257, relief: 0.05, checkpointsM: [250] };

/** An AI run on `files` (to the finish, or `maxSeconds`), which the replay carries. */
function recordOn(files: StageFiles, maxSeconds = 120): Uint8Array {
  const stage = loadStage(files, 'stage.toml');
  const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
  const car = replayCarFromText({ id: 'rally-awd', main: 'rally-awd.toml', text: readCarFile('rally-awd'), read: readCarFile, pose });
  return recordAiStageRun({ setup: GAME_SETUP, stage, files, car, maxSeconds, embedStage: true }).bytes;
}

describe('generated stages', () => {
  const g = generateStage(OPTS);
  const ctx: VerifyContext = { stages: StageCatalog.shipped(), cars: shippedCarClasses(), limits: { maxCarTicks: 1e7, maxWallSeconds: 600 }, nowSeconds: () => performance.now() / 1000 };

  it('stage.toml records the options; generating from them gives the same bytes', () => {
    const opts = optionsFromGeneratorTable(parseStageToml(g.files.stageToml, 'stage.toml'));
    expect(opts).toEqual({ ...OPTS, cellSize: 2, surfaceRefine: 2, scenery: true });
    expect(stageHash(generateStage(opts).files)).toBe(stageHash(g.files));
    // recordParams: false (how the shipped stages are built) writes no [generator] table
    expect(generateStage({ ...OPTS, recordParams: false }).files.stageToml).not.toMatch(/\[generator\]/);
  });

  it('a run on an embedded generated stage is regenerated, verified and ranked', async () => {
    const v = await verifySubmission(recordOn(g.files), ctx);
    // generated with its own options (not the in-game generator's for a gen-… id): ranked, but on no daily rally
    expect(v).toMatchObject({ status: 'accepted', stageId: OPTS.id, stageHash: stageHash(g.files), carClass: 'rally-awd', canonicalStage: false });
  }, 120_000);

  // the stage is checked before any re-simulation: a few seconds of driving are enough to be refused
  it('an edited generated stage (wider road) and one without recorded options are refused', async () => {
    const wider = { ...g.files, stageToml: g.files.stageToml.replace(/^width_m = 7\.0$/m, 'width_m = 12.0') };
    expect(wider.stageToml).not.toBe(g.files.stageToml);
    expect(await verifySubmission(recordOn(wider, 5), ctx)).toMatchObject({ status: 'rejected', code: 'stage-unknown' });
    const unrecorded = generateStage({ ...OPTS, recordParams: false }).files;
    expect(await verifySubmission(recordOn(unrecorded, 5), ctx)).toMatchObject({ status: 'rejected', code: 'stage-unknown' });
  }, 120_000);
});
