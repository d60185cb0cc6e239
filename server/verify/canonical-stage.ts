/**
 * Whether a generated stage is the in-game generator's stage for the parameters its id names (the stage a
 * daily rally or any player gets from those parameters), not a stage generated with other options under that
 * id. The verifier has already regenerated the files from the stage.toml `[generator]` table; this compares
 * that table, the id and the name with what `toGenerateOptions` makes of the id's parameters. A daily-rally
 * total counts runs on such stages only (server/daily-rally.ts), so an easier stage named like a daily stage
 * ranks on its own board and nowhere else.
 */
import { isDeepStrictEqual } from 'node:util';
import { generatorTable } from '../../terrain/generate';
import type { StageToml } from '../../terrain/stage';
import { stageGenParamsFromId, toGenerateOptions } from '../../src/run/stage-gen/params';

/** Plain data as TOML or JSON would carry it (no undefined members), so that tables compare member by member. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

export function isCanonicalGeneratedStage(toml: Pick<StageToml, 'id' | 'name' | 'generator'>): boolean {
  const params = stageGenParamsFromId(toml.id);
  if (!params || !toml.generator) return false;
  const opts = toGenerateOptions(params);
  return opts.id === toml.id && opts.name === toml.name && isDeepStrictEqual(plain(generatorTable(opts)), plain(toml.generator));
}
