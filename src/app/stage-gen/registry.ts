/**
 * Where the game finds the files of a stage that is not shipped: stages registered for this session
 * (`registerGeneratedStage`: a rally's generated stages, a stage just generated and not saved) and the player's
 * stage list in IndexedDB (saved and imported stages). src/app/stages.ts (stage list, loading) and
 * src/app/replay/stage-source.ts (replays, ghosts) look here before the shipped stages.
 */
import type { StageFiles } from '../../../terrain/stage';
import type { GeneratedStageData } from './generate-api';
import { getUserStage, listUserStages, type StoredStageData } from './stage-db';

const session = new Map<string, GeneratedStageData>();

/** Makes a generated stage loadable by id for this session (it is not added to the player's list). */
export function registerGeneratedStage(stage: GeneratedStageData): void {
  session.set(stage.id, stage);
}

/** The files of a registered or player stage, or undefined when `id` is neither. */
export async function findUserStageFiles(id: string): Promise<StageFiles | undefined> {
  return (session.get(id) ?? (await getUserStage(id)))?.files;
}

/** The player's stages (newest first), for the stage list. */
export async function userStagesForList(): Promise<StoredStageData[]> {
  try {
    return await listUserStages();
  } catch (e) {
    console.warn(`player stages not listed: ${(e as Error).message}`);
    return [];
  }
}
