/**
 * A rally stage's files and summary in the browser: a game stage by id (the stage list), or a generated one
 * through the in-game generator (src/app/stage-gen: worker, progress, IndexedDB cache), registered for the session
 * so that its replays and ghosts find it.
 */
import type { StageFiles } from '../../../terrain/stage';
import type { RallyStageRef } from '../../run/rally/plan';
import { generatedStageSummary, listStages, loadStageWithFiles, type StageSummary } from '../stages';
import { getGeneratedStage, toGenerateOptions, type StageGenParams } from '../stage-gen/index';
import { registerGeneratedStage } from '../stage-gen/registry';

export interface RallyStageReady {
  summary: StageSummary;
  files: StageFiles;
}

/** The stage's display name without generating it. */
export function rallyStageName(ref: RallyStageRef): string {
  return ref.kind === 'builtin' ? ref.id : (toGenerateOptions(ref.params as StageGenParams).name ?? 'generated stage');
}

/** Resolves (and, for a generated stage, generates or reads from the cache) the stage of `ref`. */
export async function prepareRallyStage(ref: RallyStageRef, onProgress?: (fraction: number) => void): Promise<RallyStageReady> {
  if (ref.kind === 'builtin') {
    const { stages } = await listStages();
    const summary = stages.find((s) => s.id === ref.id);
    if (!summary) throw new Error(`rally stage "${ref.id}": no such stage (have ${stages.map((s) => s.id).join(', ')})`);
    return { summary, files: (await loadStageWithFiles(summary)).files };
  }
  const g = await getGeneratedStage(ref.params as StageGenParams, { onProgress: (_phase, f) => onProgress?.(f) });
  registerGeneratedStage(g);
  return { summary: generatedStageSummary(g), files: g.files };
}
