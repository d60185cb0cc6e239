/**
 * Checks a replay's stage and cars before a world runs it: the stage a header names (embedded, or shipped and
 * checked by content hash) and every embedded car file through the car loader. The world itself is built by
 * src/run/run-world.ts.
 */
import { loadStage, type Stage, type StageFiles } from '../../terrain/stage';
import { contentHash, ReplayFormatError } from './bytes';
import type { CarAdapter, CarFilesSource } from '../run/cars';
import type { ReplayData, ReplayHeader, StageFilesData } from './format';

/**
 * Every embedded car file of a replay (header cars and config edits) through the adapter's car loader, before
 * a world runs it: a file the loader refuses (e.g. a physical range) is a ReplayFormatError naming the replay,
 * the car or edit and the embedded file, with the loader's message.
 */
export function checkReplayCars(data: Pick<ReplayData, 'header' | 'edits'>, adapter: CarAdapter, file = 'replay'): void {
  if (!adapter.parse) return;
  const parse = (src: CarFilesSource & { id?: string }, field: string): void => {
    try {
      adapter.parse!(src);
    } catch (e) {
      throw new ReplayFormatError(file, `${field} (embedded ${src.main})`, 'a car file the car loader accepts', (e as Error).message);
    }
  };
  data.header.cars.forEach((c, i) => parse(c, `header.cars.${i}`));
  data.edits.forEach((e, i) => {
    if (e.kind === 'config') parse(e, `edits.${i}`);
  });
}

/** Where shipped stages come from (Node: the stage folders; browser: fetched assets). */
export interface StageSource {
  files(id: string): Promise<StageFiles>;
  /**
   * Optional: a stage this source keeps loaded, by content hash (a server's verification worker loads each stage
   * once, not once per replay). The simulation only reads a Stage, so one serves any number of runs.
   */
  loadedStage?(hash: string): Stage | undefined;
  /** Optional: offered each stage loaded from this source's files or a replay's, after its hash was checked. */
  keepLoadedStage?(hash: string, stage: Stage): void;
}

/** Content hash of a stage: its stage.toml text and both PNGs, byte for byte. */
export function stageHash(files: StageFiles | StageFilesData): string {
  return contentHash([files.stageToml, files.heightPng, files.surfacePng]);
}

/**
 * Loads the stage a header names: from the embedded files, or by id from `source`, checking the content
 * hash (a stage that changed since the recording would replay as nonsense, so it is refused).
 */
export async function resolveStage(header: ReplayHeader, embedded: StageFilesData | null, source: StageSource | null, file = 'replay'): Promise<Stage | null> {
  const ref = header.stage;
  if (!ref) return null;
  let files: StageFiles;
  if (ref.embedded) {
    if (!embedded) throw new ReplayFormatError(file, 'stage', 'the embedded stage files', 'none');
    files = embedded;
  } else {
    if (!source) throw new ReplayFormatError(file, 'stage.id', 'a stage source to load shipped stages from', 'none');
    try {
      files = await source.files(ref.id);
    } catch (e) {
      throw new ReplayFormatError(file, 'stage.id', `a stage this build has`, `"${ref.id}" (${(e as Error).message})`);
    }
  }
  const h = stageHash(files);
  if (h !== ref.hash) {
    throw new ReplayFormatError(file, 'stage.hash', `${ref.hash} (stage "${ref.id}" as recorded)`, `${h} (the stage changed since the recording)`);
  }
  const kept = source?.loadedStage?.(h);
  if (kept) return kept;
  try {
    const stage = loadStage(files, `${ref.id}/stage.toml`);
    source?.keepLoadedStage?.(h, stage);
    return stage;
  } catch (e) {
    // the stage loader's own checks (ranges, sizes) decide; the replay names where the stage came from
    const where = ref.embedded ? `section T (embedded stage "${ref.id}")` : `stage.id ("${ref.id}")`;
    throw new ReplayFormatError(file, where, 'a stage the stage loader accepts', (e as Error).message);
  }
}
