/**
 * The stage generator's worker side, exposed with comlink by worker.ts: validates the parameters, runs
 * `generateStage` with progress, and returns the stage's files with their content hash (the replay's stage
 * hash, src/replay/stage-check.ts). Pure module (no DOM): Vitest calls it directly and through a Node worker.
 */
import { GENERATOR_VERSION, generateStage, type GeneratorPhase } from '../../../terrain/generate';
import type { StageFiles } from '../../../terrain/stage';
import { stageHash } from '../../replay/stage-check';
import { stagePreview, type StagePreview } from './preview';
import { checkStageGenParams, toGenerateOptions, type StageGenParams, type StageGenParamsChecked } from './params';

/** A generated stage as it travels from the worker and sits in the cache and the player's stage list. */
export interface GeneratedStageData {
  id: string;
  name: string;
  params: StageGenParamsChecked;
  generatorVersion: number;
  /** stage.toml, both PNGs and pacenotes.toml. */
  files: Required<StageFiles>;
  /** Content hash of stage.toml and both PNGs (the hash replays record). */
  hash: string;
  /** Road map, elevation profile, length and corners for the preview. */
  preview: StagePreview;
}

export type StageGenProgress = (phase: GeneratorPhase, fraction: number) => void;

export interface StageGenApi {
  generate(params: StageGenParams, onProgress?: StageGenProgress): GeneratedStageData;
}

export const stageGenApi: StageGenApi = {
  generate(params, onProgress) {
    const checked = checkStageGenParams(params);
    const g = generateStage({ ...toGenerateOptions(checked), onProgress });
    const files = { ...g.files, paceNotesToml: g.files.paceNotesToml ?? '' };
    return { id: g.stage.id, name: g.stage.name, params: checked, generatorVersion: GENERATOR_VERSION, files, hash: stageHash(files), preview: stagePreview(g.stage) };
  },
};
