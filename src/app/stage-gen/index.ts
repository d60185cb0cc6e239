/**
 * In-game stage generation (docs/game.md, "New stages"): parameters, the worker-backed cached generator,
 * the player's stage list. Loaded on demand (the generator and its worker stay out of the startup chunk).
 */
import { createStageGenerator, startBrowserWorker } from './client';
import { idbStageGenCache } from './stage-db';

export { LANDSCAPES, LANDSCAPE_IDS, STAGE_LENGTH_KM, STAGE_LENGTH_STEP_KM, SURFACE_MIX_MAX, generatedStageId, toGenerateOptions, checkStageGenParams, type StageGenParams, type LandscapeId } from './params';
export type { GeneratedStageData, StageGenProgress } from './generate-api';
export type { GeneratedStageResult, GetStageOptions } from './client';
export { listUserStages, getUserStage, saveUserStage, deleteUserStage, type UserStage, type StoredStageData } from './stage-db';
export { exportStagePackage, importStagePackage, importStagePackageInto, stagePackageFileName, MAX_STAGE_PACKAGE_BYTES } from './package';
export { registerGeneratedStage } from './registry';

/**
 * A generated stage for `params`: from the IndexedDB cache when this generator version made it before (instant,
 * `cached: true`), else generated in a Web Worker with progress; `signal` cancels (the promise rejects with an
 * AbortError and the worker is ended).
 */
export const getGeneratedStage = createStageGenerator({ cache: idbStageGenCache, startWorker: startBrowserWorker });
