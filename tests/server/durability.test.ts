/**
 * Durability: the real server process is killed with SIGKILL in the middle of a burst of submissions, then
 * restarted on the same database. Every submission it acknowledged (202 + id) is still there and gets verified
 * onto the board; resubmitting the whole burst creates no second row for any file. Run on PGlite, and on
 * PostgreSQL when its binaries are here (always in CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPlayer, TestClient, type Player } from './client';
import { spawnServer, type ServerProcess } from './spawn';
import { recordFinishedRun } from './fixtures';
import { postgresUnavailable, startTestPostgres, type TestPostgres } from './postgres';

const PLAYERS = 4;
const FILES_PER_PLAYER = 3;
/** Acknowledgements to wait for before the kill: mid-burst, with the rest still in flight. */
const KILL_AFTER_ACKS = 5;
const TIMEOUT_MS = 240_000;

interface Sent {
  player: Player;
  bytes: Uint8Array;
  id: number | null;
}

/** Distinct drives (the AI at different skills: another run, another final state), one list per player. */
function recordDrives(): Uint8Array[] {
  return Array.from({ length: PLAYERS * FILES_PER_PLAYER }, (_, i) => recordFinishedRun('rally-awd', 0.5 + 0.03 * i));
}

function burstFiles(players: Player[], drives: Uint8Array[]): Sent[] {
  return players.flatMap((player, i) => Array.from({ length: FILES_PER_PLAYER }, (_, k) => ({ player, bytes: drives[i * FILES_PER_PLAYER + k]!, id: null })));
}

/** Fires every submission at once; kills the server after KILL_AFTER_ACKS acknowledgements. */
async function burstAndKill(srv: ServerProcess, files: Sent[]): Promise<void> {
  const api = new TestClient(srv.url);
  let acks = 0;
  await Promise.all(
    files.map(async (f) => {
      try {
        const r = await api.submit(f.player, f.bytes);
        if (r.status !== 202) throw new Error(`unexpected ${r.status}: ${JSON.stringify(r.body)}`);
        f.id = r.body.id as number;
        if (++acks === KILL_AFTER_ACKS) srv.child.kill('SIGKILL');
      } catch (e) {
        // the connection died with the server: not acknowledged, so the game would retry it
        if (!/fetch failed|ECONNRESET|socket/i.test(String((e as Error).message) + String((e as Error).cause))) throw e;
      }
    }),
  );
  await srv.exited;
}

function defineDurability(label: string, env: () => Record<string, string>, drives: () => Uint8Array[]): void {
  it(`${label}: every acknowledged submission survives kill -9 and lands on the board once`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bitrally-durable-'));
    try {
      const players = Array.from({ length: PLAYERS }, (_, i) => newPlayer(`Driver ${i}`));
      const first = await spawnServer(dir, env(), ['--rate-key', '1000']);
      for (const p of players) expect((await new TestClient(first.url).register(p)).status).toBe(200);
      const files = burstFiles(players, drives());
      await burstAndKill(first, files);
      const acked = files.filter((f) => f.id !== null);
      expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

      const second = await spawnServer(dir, env(), ['--rate-key', '1000']);
      const api = new TestClient(second.url);
      for (const f of acked) expect(await api.settled(f.id!, 120_000)).toMatchObject({ id: f.id, status: 'accepted' });
      // the whole burst again: acknowledged files answer with their row; the others are stored now (202), or were
      // stored by the killed server before it could answer (200); no file gets a second row
      for (const f of files) {
        const r = await api.submit(f.player, f.bytes);
        if (f.id !== null) expect(r).toMatchObject({ status: 200, body: { id: f.id } });
        else expect([200, 202]).toContain(r.status);
      }
      const ids = new Set<number>();
      for (const p of players) {
        const h = await api.json('GET', `/api/players/${p.id}/history?limit=100`);
        for (const s of h.body.submissions as { id: number }[]) ids.add(s.id);
      }
      expect(ids.size).toBe(files.length);
      const playersWithAck = new Set(acked.map((f) => f.player.id));
      const boards = (await api.json('GET', '/api/boards')).body as unknown as { players: number }[];
      expect(boards[0]!.players).toBeGreaterThanOrEqual(playersWithAck.size);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, TIMEOUT_MS);
}

describe('durability (real server process, SIGKILL mid-burst)', () => {
  let drives: Uint8Array[] = [];
  beforeAll(() => {
    drives = recordDrives();
  }, 120_000);
  defineDurability('PGlite', () => ({}), () => drives);

  const missing = postgresUnavailable();
  if (missing) it.skip(`PostgreSQL: ${missing}`, () => undefined);
  else {
    let pg: TestPostgres | null = null;
    beforeAll(async () => {
      pg = await startTestPostgres();
    }, 60_000);
    afterAll(() => pg?.stop());
    defineDurability('PostgreSQL', () => ({ DATABASE_URL: pg!.url }), () => drives);
  }
});
