/** Node-only helpers (node:fs). Keep out of terrain/index.ts so the browser can import the library. */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TOML_BYTES } from '../src/validate/bounded-parse';
import { TerrainError } from './errors';
import { MAX_PNG_FILE_BYTES } from './png-guard';
import { mergeRegenerated, parsePaceNotes } from './pacenotes/file';
import type { PaceNote } from './pacenotes/types';
import { loadStage, PACE_NOTES_FILE, parseStageToml, type Stage, type StageFiles } from './stage';

/** Reads a file of at most `maxBytes` (its size is checked before reading, so a huge file is never loaded). */
function readOrThrow(file: string, field: string, maxBytes: number): Buffer {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (e) {
    throw new TerrainError(file, field, 'a readable file', `an error: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (size > maxBytes) throw new TerrainError(file, field, `a file of at most ${maxBytes} bytes`, `${size} bytes`);
  try {
    return readFileSync(file);
  } catch (e) {
    throw new TerrainError(file, field, 'a readable file', `an error: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Reads the stage files from `dir` (stage.toml names the PNGs; pacenotes.toml when there is one). */
export function readStageFiles(dir: string): StageFiles {
  const tomlPath = join(dir, 'stage.toml');
  const stageToml = readOrThrow(tomlPath, '(file)', MAX_TOML_BYTES).toString('utf8');
  const cfg = parseStageToml(stageToml, tomlPath);
  const heightPng = new Uint8Array(readOrThrow(join(dir, cfg.heightmap.file), 'heightmap.file', MAX_PNG_FILE_BYTES));
  const surfacePng = new Uint8Array(readOrThrow(join(dir, cfg.surface_map.file), 'surface_map.file', MAX_PNG_FILE_BYTES));
  const notesPath = join(dir, PACE_NOTES_FILE);
  if (!existsSync(notesPath)) return { stageToml, heightPng, surfacePng };
  return { stageToml, heightPng, surfacePng, paceNotesToml: readOrThrow(notesPath, '(file)', MAX_TOML_BYTES).toString('utf8') };
}

/** Loads a stage directory (shipped or a user's own heightmap PNG + surface PNG + stage.toml). */
export function loadStageFromDir(dir: string): Stage {
  return loadStage(readStageFiles(dir), join(dir, 'stage.toml'));
}

/** Writes stage files into `dir` (created if needed); pacenotes.toml too when `files` holds it. */
export function writeStageFiles(dir: string, files: StageFiles, names = { stageToml: 'stage.toml', heightPng: 'height.png', surfacePng: 'surface.png' }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, names.stageToml), files.stageToml);
  writeFileSync(join(dir, names.heightPng), files.heightPng);
  writeFileSync(join(dir, names.surfacePng), files.surfacePng);
  if (files.paceNotesToml !== undefined) writeFileSync(join(dir, PACE_NOTES_FILE), files.paceNotesToml);
}

/** `fresh` notes for the stage in `dir`, merged with the hand-edited notes of the pacenotes.toml already there. */
export function keepEditedPaceNotes(dir: string, stage: Stage, fresh: PaceNote[]): PaceNote[] {
  const path = join(dir, PACE_NOTES_FILE);
  if (!existsSync(path)) return fresh;
  return mergeRegenerated(parsePaceNotes(readOrThrow(path, '(file)', MAX_TOML_BYTES).toString('utf8'), path, stage.id), fresh);
}
