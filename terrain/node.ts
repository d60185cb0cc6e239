/** Node-only helpers (node:fs). Keep out of terrain/index.ts so the browser can import the library. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TerrainError } from './errors';
import { loadStage, parseStageToml, type Stage, type StageFiles } from './stage';

function readOrThrow(file: string, field: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new TerrainError(file, field, 'a readable file', `an error: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Reads the three stage files from `dir` (stage.toml names the PNGs). */
export function readStageFiles(dir: string): StageFiles {
  const tomlPath = join(dir, 'stage.toml');
  const stageToml = readOrThrow(tomlPath, '(file)').toString('utf8');
  const cfg = parseStageToml(stageToml, tomlPath);
  const heightPng = new Uint8Array(readOrThrow(join(dir, cfg.heightmap.file), 'heightmap.file'));
  const surfacePng = new Uint8Array(readOrThrow(join(dir, cfg.surface_map.file), 'surface_map.file'));
  return { stageToml, heightPng, surfacePng };
}

/** Loads a stage directory (shipped or a user's own heightmap PNG + surface PNG + stage.toml). */
export function loadStageFromDir(dir: string): Stage {
  return loadStage(readStageFiles(dir), join(dir, 'stage.toml'));
}

/** Writes stage files into `dir` (created if needed). */
export function writeStageFiles(dir: string, files: StageFiles, names = { stageToml: 'stage.toml', heightPng: 'height.png', surfacePng: 'surface.png' }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, names.stageToml), files.stageToml);
  writeFileSync(join(dir, names.heightPng), files.heightPng);
  writeFileSync(join(dir, names.surfacePng), files.surfacePng);
}
