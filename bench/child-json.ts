/**
 * Runs a bench script in its own Node process (one world per process: see bench/vehicle-profile.ts) and
 * returns the JSON object on the last line of its stdout; throws with the end of its stderr when it fails.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `script` relative to bench/; `imports` are extra `--import` modules (also relative to bench/). */
export function runJsonChild<T>(script: string, args: readonly string[], imports: readonly string[] = []): T {
  const path = (f: string): string => fileURLToPath(new URL(f, import.meta.url));
  const argv = ['--import', 'tsx', ...imports.flatMap((m) => ['--import', path(m)]), path(script), ...args];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
  const line = (r.stdout ?? '').trim().split('\n').pop() ?? '';
  if (r.status === 0) {
    try {
      return JSON.parse(line) as T;
    } catch {
      // falls through to the error below
    }
  }
  throw new Error(`bench: ${script} ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr ?? '').slice(-600)}`);
}
