/**
 * The user's inputs named on a command line: files, cars (built-in id or car file) and stages (shipped id or
 * stage directory). A name that is neither an id nor an existing path is a UserError listing the valid ids
 * (with a "did you mean"); a missing path says "file not found: path".
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CarConfig } from '../content/car-schema';
import { loadCarConfig } from '../content/car-load';
import { BUILTIN_CARS, readBuiltin } from '../content/cars/index';
import { UserError } from './errors';
import { unknownMessage } from '../validate/suggest';

export const STAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../content/stages');

/** The built-in car ids (src/content/cars/*.toml). */
export function builtinCarIds(): string[] {
  return BUILTIN_CARS.map((c) => c.id);
}

/** The shipped stage ids (folders of src/content/stages with a stage.toml). */
export function shippedStageIds(): string[] {
  return readdirSync(STAGES_DIR)
    .filter((d) => existsSync(join(STAGES_DIR, d, 'stage.toml')))
    .sort();
}

/** A name the user meant as a path rather than an id. */
function looksLikePath(arg: string): boolean {
  return /[/\\]/.test(arg) || /\.(toml|json|bitrally|csv|png)$/i.test(arg);
}

/** The bytes of a user's file; a missing file or a directory is a UserError. */
export function readUserFile(path: string): Buffer {
  if (!existsSync(path)) throw new UserError(`file not found: ${path}`);
  if (statSync(path).isDirectory()) throw new UserError(`${path}: expected a file, found a directory`);
  return readFileSync(path);
}

/**
 * A car argument: a built-in id or file name (`hatch-gti`, `hatch-gti.toml`) unless a file of that name exists
 * here, else a car file whose `extends` are read beside it, then from the built-in cars.
 */
export function loadCarArg(arg: string): CarConfig {
  const builtin = BUILTIN_CARS.find((c) => c.id === arg || c.file === arg);
  if (builtin && !existsSync(arg)) return loadCarConfig(builtin.text, builtin.file, readBuiltin);
  if (!existsSync(arg) && !looksLikePath(arg)) throw new UserError(`${unknownMessage('car', arg, builtinCarIds())} (or a car file, .toml)`);
  const text = readUserFile(arg).toString('utf8');
  const dir = dirname(resolve(arg));
  return loadCarConfig(text, arg, (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : readBuiltin(name)));
}

/** A stage argument: a shipped stage id, else a stage directory (one with a stage.toml). */
export function stageDirArg(arg: string): string {
  const ids = shippedStageIds();
  if (ids.includes(arg)) return join(STAGES_DIR, arg);
  if (existsSync(join(arg, 'stage.toml'))) return arg;
  if (existsSync(arg)) throw new UserError(`file not found: ${join(arg, 'stage.toml')} (a stage directory holds stage.toml and its PNGs)`);
  if (looksLikePath(arg)) throw new UserError(`file not found: ${arg}`);
  throw new UserError(`${unknownMessage('stage', arg, ids)} (or a stage directory)`);
}
