/**
 * How a CLI ends. User errors — a bad command line (UsageError), a bad or missing input file (ContentError,
 * TerrainError, ReplayFormatError, UserError, a missing file) — print one clear message and exit 2 without a
 * stack trace; `--help` prints the usage to stdout and exits 0; anything else is a bug in the program: its stack
 * goes to stderr and the exit code is 1.
 */
import { ContentError } from '../validate/errors';
import { TerrainError } from '../../terrain/errors';
import { ReplayFormatError } from '../replay/bytes';
import { HelpRequest, UsageError } from './args';

export const EXIT_OK = 0;
/** A failed check the command reports as its result (a replay desync, a car that did not finish). */
export const EXIT_FAILED = 1;
/** A bug: an unexpected exception (stack printed). */
export const EXIT_INTERNAL = 1;
/** The user's input: command line or files. */
export const EXIT_USAGE = 2;

/** A user error the CLI itself detects (a missing file, an id that names nothing). */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

const USER_ERRORS = [UsageError, UserError, ContentError, TerrainError, ReplayFormatError];

/** Node's file-system error codes, said in words (the path comes after). */
const FS_ERRORS: Record<string, string> = {
  ENOENT: 'file not found',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'expected a file, found a directory',
  ENOTDIR: 'not a directory',
};

/** The message of a user error, or undefined for a bug. */
export function userMessage(e: unknown): string | undefined {
  if (USER_ERRORS.some((k) => e instanceof k)) return (e as Error).message;
  const fs = e as NodeJS.ErrnoException;
  if (e instanceof Error && typeof fs.code === 'string' && FS_ERRORS[fs.code] && fs.path) return `${FS_ERRORS[fs.code]}: ${fs.path}`;
  return undefined;
}

/** Prints what `e` means to the user and returns the exit code. */
export function reportError(e: unknown): number {
  if (e instanceof HelpRequest) {
    console.log(e.text);
    return EXIT_OK;
  }
  const msg = userMessage(e);
  if (msg !== undefined) {
    console.error(msg);
    return EXIT_USAGE;
  }
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  return EXIT_INTERNAL;
}

/** Runs a command body; errors become exit codes as described above. */
export function runCommand(body: () => number): number {
  try {
    return body();
  } catch (e) {
    return reportError(e);
  }
}

export async function runCommandAsync(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    return reportError(e);
  }
}

/**
 * Reading one user file: a plain `Error` thrown by the code that interprets it (not a TypeError, RangeError …,
 * which are bugs) is how some loaders report a bad file (e.g. duplicate body ids in a scenario, a replay car
 * whose files are not embedded): it becomes a UserError prefixed with the file name. `body` may be async.
 */
export function readingFile<T>(file: string, body: () => T): T {
  const rethrow = (e: unknown): never => {
    if (e instanceof Error && e.constructor === Error) throw new UserError(`${file}: ${e.message}`);
    throw e;
  };
  try {
    const r = body();
    return (r instanceof Promise ? r.catch(rethrow) : r) as T;
  } catch (e) {
    return rethrow(e);
  }
}

/** Sets the process exit code from a CLI's main (sync or async). */
export function exitWith(code: number | Promise<number>): void {
  void Promise.resolve(code).then((c) => {
    process.exitCode = c;
  });
}
