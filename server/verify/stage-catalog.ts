/**
 * The stages the server ranks, by content hash (stage.toml + both PNGs, src/replay/stage-check.ts stageHash):
 * the shipped stages. A replay names its stage by id and hash (or embeds the files); either way the hash must
 * be one of these, so a stage edited to be easier never reaches a leaderboard.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { readStageFiles } from '../../terrain/node';
import type { StageFiles } from '../../terrain/stage';
import { CONTENT_DIR } from '../../src/replay/node';
import { stageHash, type StageSource } from '../../src/replay/stage-check';

export interface KnownStage {
  id: string;
  hash: string;
  files: StageFiles;
}

export class StageCatalog implements StageSource {
  private readonly byHash = new Map<string, KnownStage>();
  private readonly byId = new Map<string, KnownStage>();

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
    return this.byHash.get(hash) ?? null;
  }

  /** StageSource for the verifier: a shipped stage by id. */
  async files(id: string): Promise<StageFiles> {
    const s = this.byId.get(id);
    if (!s) throw new Error(`the server has no stage "${id}"`);
    return s.files;
  }
}
