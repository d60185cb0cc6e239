/**
 * The shipped stages' pacenotes.toml files in the browser (raw text through import.meta.glob), for both stage
 * loaders (src/app/stages.ts for play, src/app/replay/stage-source.ts for replays and ghosts). A stage without
 * one gets generated notes from terrain's loadStage.
 */
import type { StageFiles } from '../../terrain/stage';

const noteTomls = import.meta.glob('/src/content/stages/*/pacenotes.toml', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;

/** `files` with the pacenotes.toml of the stage folder `dir` ("/src/content/stages/<id>/") added when it has one. */
export async function withPaceNotes(dir: string, files: StageFiles): Promise<StageFiles> {
  const load = noteTomls[`${dir}pacenotes.toml`];
  return load ? { ...files, paceNotesToml: await load() } : files;
}
