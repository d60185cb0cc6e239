/** Node-only helpers for replays (node:fs): shipped stages and car files from src/content. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStageFiles } from '../../terrain/node';
import type { StageSource } from './stage-check';

const here = dirname(fileURLToPath(import.meta.url));
export const CONTENT_DIR = resolve(here, '..', 'content');

/** Shipped stages: src/content/stages/<id>/ (ids are plain names, nothing else is read). */
export const nodeStageSource: StageSource = {
  async files(id: string) {
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(id)) throw new Error(`stage id "${id}" is not a plain name`);
    return readStageFiles(join(CONTENT_DIR, 'stages', id));
  },
};

/** Reads a car file by name from src/content/cars (for `extends`). */
export function readCarFile(name: string): string {
  const n = name.endsWith('.toml') ? name : `${name}.toml`;
  return readFileSync(join(CONTENT_DIR, 'cars', n), 'utf8');
}
