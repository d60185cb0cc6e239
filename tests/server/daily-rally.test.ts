/**
 * Daily-rally boards' rules without a server: the classification (total = sum of the best time per stage, only
 * players with every stage, ties by who completed first) and which generated stages count (the in-game
 * generator's stage for the parameters its id names, and no other stage under that id).
 */
import { describe, expect, it } from 'vitest';
import { rankRallyTotals, serverDailyRally, type RallyStageRun } from '../../server/daily-rally';
import { isCanonicalGeneratedStage } from '../../server/verify/canonical-stage';
import { generatorTable } from '../../terrain/generate';
import { generatedStageId, stageGenParamsFromId, toGenerateOptions, type StageGenParams } from '../../src/run/stage-gen/params';
import { dailyRally } from '../../src/app/rally/new-rally';
import { DAILY_RALLY } from '../../src/run/rally/plan';

const STAGES = ['s0', 's1', 's2'];
const run = (playerId: string, stageId: string, stageTimeS: number, submissionId: number): RallyStageRun => ({ playerId, name: `N ${playerId}`, stageId, stageTimeS, submissionId });

describe('daily-rally classification', () => {
  it('ranks complete rallies by the sum of their stage times; incomplete ones are not classified', () => {
    const runs = [
      run('a', 's0', 100, 1), run('a', 's1', 110.5, 2), run('a', 's2', 90.25, 3), // 300.75
      run('b', 's2', 80, 4), run('b', 's0', 95, 5), run('b', 's1', 120, 6), // 295, stages sent out of order
      run('c', 's0', 50, 7), run('c', 's1', 50, 8), // no s2: not classified
      run('d', 'other', 1, 9), run('d', 's0', 1, 10), run('d', 's1', 1, 11), // a stage of another rally does not fill s2
    ];
    const rows = rankRallyTotals(runs, STAGES);
    expect(rows.map((r) => [r.rank, r.playerId, r.totalS])).toEqual([[1, 'b', 95 + 120 + 80], [2, 'a', 100 + 110.5 + 90.25]]);
    // times and ghosts in running order, whatever order the runs came in
    expect(rows[0]).toMatchObject({ name: 'N b', stageTimesS: [95, 120, 80], submissionIds: [5, 6, 4] });
  });

  it('takes the best run per stage, and breaks a tie by who completed the rally first', () => {
    const runs = [
      run('late', 's0', 100, 20), run('late', 's1', 100, 21), run('late', 's2', 100, 30),
      run('early', 's0', 100, 10), run('early', 's1', 100, 11), run('early', 's2', 100, 12),
      run('twice', 's0', 120, 1), run('twice', 's0', 99, 2), run('twice', 's1', 100, 3), run('twice', 's2', 100, 4),
    ];
    expect(rankRallyTotals(runs, STAGES).map((r) => [r.playerId, r.totalS])).toEqual([['twice', 299], ['early', 300], ['late', 300]]);
  });
});

describe('daily-rally stages', () => {
  const day = serverDailyRally('2026-11-25');

  it('are the game\'s daily rally: the same stages and car', () => {
    const game = dailyRally('2026-11-25');
    expect(day.stageIds).toHaveLength(DAILY_RALLY.stageCount);
    expect(game.stages.map((s) => (s.kind === 'generated' ? generatedStageId(s.params as StageGenParams) : s.id))).toEqual(day.stageIds);
    expect(game.carId).toBe(day.carId);
    for (const [k, id] of day.stageIds.entries()) expect(stageGenParamsFromId(id)).toEqual(day.stages[k]);
  });

  it('count only as the generator makes them from their id: another relief or name under the id does not', () => {
    const params = stageGenParamsFromId(day.stageIds[0]!)!;
    const opts = toGenerateOptions(params);
    const toml = { id: opts.id!, name: opts.name!, generator: generatorTable(opts) };
    expect(isCanonicalGeneratedStage(toml)).toBe(true);
    expect(isCanonicalGeneratedStage({ ...toml, generator: { ...toml.generator, relief: toml.generator.relief * 0.1 } })).toBe(false);
    expect(isCanonicalGeneratedStage({ ...toml, generator: { ...toml.generator, checkpoints_m: [100] } })).toBe(false);
    expect(isCanonicalGeneratedStage({ ...toml, name: 'Easy one' })).toBe(false);
    expect(isCanonicalGeneratedStage({ ...toml, generator: undefined })).toBe(false);
    // another stage's parameters under this stage's id
    const other = toGenerateOptions({ ...params, seed: params.seed + 1 });
    expect(isCanonicalGeneratedStage({ ...toml, generator: generatorTable(other) })).toBe(false);
    for (const id of ['user-gravel-77', 'gen-forest-gravel-42-5-20x', 'gen-nowhere-42-5-0', 'gen-snowy-42-99-0']) expect(stageGenParamsFromId(id)).toBeNull();
    expect(stageGenParamsFromId('gen-snowy-42-5p5-20')).toEqual({ landscape: 'snowy', seed: 42, lengthKm: 5.5, surfaceMix: 0.2 });
  });
});
