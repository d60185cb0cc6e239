/**
 * The stages the server ranks, by content hash (stage.toml + both PNGs, src/replay/stage-check.ts stageHash):
 * the shipped stages, and generated stages that the generator makes again, byte for byte, from the options
 * recorded in their stage.toml ([generator], terrain/generate.ts optionsFromGeneratorTable). A replay names its stage by id
 * and hash (or embeds the files); either way the hash must be one of these, so a stage edited to be easier
 * never reaches a leaderboard.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { readStageFiles } from '../../terrain/node';
import { parseStageToml, type Stage, type StageFiles } from '../../terrain/stage';
import { generateStage, optionsFromGeneratorTable } from '../../terrain/generate';
import { CONTENT_DIR } from '../../src/replay/node';
import { stageHash, type StageSource } from '../../src/replay/stage-check';

export interface KnownStage {
  id: string;
  hash: string;
  files: StageFiles;
}

/** Regenerated stages a worker keeps (a few MB each), most recent first out when full. */
const MAX_REGENERATED = 16;

export class StageCatalog implements StageSource {
  private readonly byHash = new Map<string, KnownStage>();
  private readonly regenerated = new Map<string, KnownStage>();
  private readonly byId = new Map<string, KnownStage>();
  /** Loaded stages by hash (StageSource.loadedStage): only stages this catalog knows, so as bounded as they are. */
  private readonly loaded = new Map<string, Stage>();

  constructor(stages: readonly KnownStage[]) {
    for (const s of stages) {
      this.byHash.set(s.hash, s);
      this.byId.set(s.id, s);
    }
  }

  /** The shipped stages (src/content/stages/<id>/). */
  static shipped(dir = join(CONTENT_DIR, 'stages')): StageCatalog {
    const ids = readdirSync(dir).filter((d) => existsSync(join(dir, d, 'stage.toml')));
    return new StageCatalog(
      ids.sort().map((id) => {
        const files = readStageFiles(join(dir, id));
        return { id, hash: stageHash(files), files };
      }),
    );
  }

  known(hash: string): KnownStage | null {
    return this.byHash.get(hash) ?? this.regenerated.get(hash) ?? null;
  }

  /**
   * An embedded stage that the generator makes again from the options in its stage.toml, with the same content
   * hash; null when it records no options, they are invalid, or the result differs (an edited stage).
   */
  regenerate(files: StageFiles): KnownStage | null {
    const hash = stageHash(files);
    const cached = this.known(hash);
    if (cached) return cached;
    let again: StageFiles;
    try {
      // throws without a [generator] table or for another generator version: not a stage this server knows
      again = generateStage(optionsFromGeneratorTable(parseStageToml(files.stageToml, 'stage.toml'))).files;
    } catch {
      return null;
    }
    if (stageHash(again) !== hash) return null;
    const id = parseStageToml(files.stageToml, 'stage.toml').id;
    if (this.regenerated.size >= MAX_REGENERATED) {
      const oldest = this.regenerated.keys().next().value!;
      this.regenerated.delete(oldest);
      this.loaded.delete(oldest);
    }
    const known = { id, hash, files: again };
    this.regenerated.set(hash, known);
    return known;
  }

  /** StageSource: a stage loaded before, by hash (parsing a stage costs more than a short run's setup). */
  loadedStage(hash: string): Stage | undefined {
    return this.loaded.get(hash);
  }

  keepLoadedStage(hash: string, stage: Stage): void {
    if (this.known(hash)) this.loaded.set(hash, stage);
  }

  /** StageSource for the verifier: a shipped stage by id. */
  async files(id: string): Promise<StageFiles> {
    const s = this.byId.get(id);
    if (!s) throw new Error(`the server has no stage "${id}"`);
    return s.files;
  }
}
