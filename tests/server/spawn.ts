/**
 * The real server process (`node --import tsx server/main.ts`, one process: a kill reaches the server itself),
 * on a free port; resolves once it logs that its rooms accept clients (ROOMS_READY_LOG, after "Server listening at",
 * which gives the URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOMS_READY_LOG } from '../../server/server';

const ROOT = join(import.meta.dirname, '../..');
/** Start-up limit (database open, migrations, workers), ms. */
const START_TIMEOUT_MS = 60_000;

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Every JSON log line so far. */
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
}

export async function spawnServer(dataDir: string, env: Record<string, string> = {}, args: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', '0', '--data-dir', dataDir, '--workers', '1', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${START_TIMEOUT_MS} ms: ${stderr}`)), START_TIMEOUT_MS);
    let listening: string | null = null;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(String(entry.msg));
        if (m) listening = m[1]!;
        if (entry.msg === ROOMS_READY_LOG && listening) {
          clearTimeout(timer);
          resolve(listening);
        }
      } catch {
        // not JSON: kept out of the log list
      }
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
  return { child, url, logs, exited };
}

/** Resident set size of a process, bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}
