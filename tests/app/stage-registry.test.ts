/**
 * Generated stages run like shipped ones (src/app/stage-gen/registry.ts, src/app/stages.ts): a saved stage is
 * listed after the shipped ones with its files, loads through `loadStageWithFiles`, and the replay stage source
 * resolves it by id; a stage registered for the session resolves too without being listed; the test tracks are
 * marked, and only shipped ids count as shipped (their replays do not embed the stage). Node has no IndexedDB,
 * so the player's list is the in-memory fallback of stage-db.ts.
 */
import { describe, expect, it } from 'vitest';
import { browserStageSource as replayStageSource } from '../../src/app/replay/stage-source';
import { stagePreview } from '../../src/app/stage-gen/preview';
import { registerGeneratedStage } from '../../src/app/stage-gen/registry';
import { saveUserStage, type StoredStageData } from '../../src/app/stage-gen/stage-db';
import { isShippedStageId, listStages, loadStageWithFiles } from '../../src/app/stages';
import { stageHash } from '../../src/replay/stage-check';
import { generateStage } from '../../terrain/generate';

function smallStage(id: string): StoredStageData {
  const g = generateStage({ seed: 99, lengthKm: 0.6, surface: 'snow', size: 257, relief: 0.05, id, name: `Stage ${id}` });
  return { id, name: g.stage.name, params: null, generatorVersion: 1, files: { ...g.files, paceNotesToml: g.files.paceNotesToml! }, hash: stageHash(g.files), preview: stagePreview(g.stage) };
}

describe('generated stages in the game', () => {
  it('a saved stage is listed after the shipped stages, loads from its files, and replays resolve it by id', async () => {
    const s = smallStage('gen-registry-saved');
    await saveUserStage(s, 'generated');
    const { stages, problems } = await listStages();
    expect(problems).toEqual([]);
    const shipped = stages.filter((x) => !x.files);
    expect(shipped.map((x) => x.id)).toEqual(['col-tarmac', 'forest-gravel', 'rallycross-bitring', 'snow-ridge', 'test-short']);
    expect(shipped.filter((x) => x.testTrack).map((x) => x.id)).toEqual(['rallycross-bitring', 'test-short']);
    const mine = stages[stages.length - 1]!;
    expect([mine.id, mine.testTrack, mine.files?.stageToml]).toEqual(['gen-registry-saved', false, s.files.stageToml]);
    expect(mine.lengthM).toBeCloseTo(s.preview.lengthM, 0);
    const { stage, files } = await loadStageWithFiles(mine);
    expect(stage.id).toBe('gen-registry-saved');
    expect(stageHash(files)).toBe(s.hash);
    expect(stageHash(await replayStageSource.files('gen-registry-saved'))).toBe(s.hash);
  });

  it('a stage registered for the session resolves by id without being listed', async () => {
    const s = smallStage('gen-registry-session');
    registerGeneratedStage({ ...s, params: { seed: 1, lengthKm: 1, landscape: 'snowy', surfaceMix: 0 }, generatorVersion: 1 });
    expect(stageHash(await replayStageSource.files('gen-registry-session'))).toBe(s.hash);
    expect((await listStages()).stages.some((x) => x.id === 'gen-registry-session')).toBe(false);
  });

  it('only the shipped ids are shipped (a run elsewhere embeds its stage in the replay)', () => {
    expect(['forest-gravel', 'test-short', 'gen-registry-saved', 'forest'].map(isShippedStageId)).toEqual([true, true, false, false]);
  });
});
